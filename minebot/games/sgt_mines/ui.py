"""Simon Tatham's Mines through its own interface: the N key, and the end of a game.

Why so little: the game has no dialog at a win or a loss and no pause; "New" is the N key of
its Game menu (the window needs keyboard focus), and it plays the size it shows (chosen by its
argument, ``sgt-mines 30x16n99``, or its Type menu), so ``--level``/``--size`` are refused
like KMines'. What it does have is a flash of the whole board when a game ends (mines.c
``game_flash_length``: three frames of 0.13 s after a loss, two after a win, every tile
redrawn in red, white or grey): a read that falls on it matches no look and is retried for
``end_popup_seconds``.

A loss shows only the mine that was hit and leaves Undo open (mines.c ``open_square``); minebot
never undoes: the red mine is the game's end, and the next game is a new one.
"""

from __future__ import annotations

from ...board import Board
from ...game.ui import GameHost, GameUI
from .profile import LEVELS as SGT_LEVELS


class SgtMinesUI(GameUI):
    """Simon Tatham's Mines: N for a new game; the first click opens an area."""

    game = "sgt-mines"
    end_popup_seconds = 1.5   # the end flash lasts 0.39 s; a read on it is retried
    levels = SGT_LEVELS       # chosen when it starts (its argument), not switched by minebot

    def request_new_game(self, live: GameHost, board: Board | None) -> None:
        live.key("n")
