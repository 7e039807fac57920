"""KMines: ``profile`` (its window, lattice, looks, rules, counter and levels), ``ui`` (Ctrl+N,
its end popups and High Scores box). Its template sets are ``templates/kmines-*``; its
"Mines: F/T" counter is read by ``minebot.vision.counter``; the private copy the tests and
``demo`` start is its ``launcher`` (``KMines``, on the sandbox side: the sandbox stays out of production
code)."""

from .profile import PROFILE

__all__ = ["PROFILE"]
