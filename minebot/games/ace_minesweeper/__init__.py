"""Ace of Penguins' minesweeper: ``profile`` (its window, found by title, sprite cells at four
sizes, unprotected first click), ``ui`` (its keys). Its template set is
``templates/ace-minesweeper``, cut from the sprite sheets compiled into the game
(``tools/ace_sprites.py``); the private copy the tests and ``demo`` start is its ``launcher``
(``AceMinesweeper``, on the sandbox side)."""

from .profile import PROFILE

__all__ = ["PROFILE"]
