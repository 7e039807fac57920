"""Ace of Penguins' minesweeper through its own interface: the r key, and its rules.

Why so little: the game opens no dialog at a win or a loss and has no pause; a new game is the
``r`` key (the window needs keyboard focus), and it plays the board its keys 1-4 chose, so
``--level``/``--size`` are refused like KMines'. A win needs every mine flagged
(``flags_to_win``).
"""

from __future__ import annotations

from ...board import Board
from ...game.ui import GameHost, GameUI


class AceMinesweeperUI(GameUI):
    """Ace of Penguins' minesweeper: r for a new game; every mine must be flagged to win."""

    game = "ace-minesweeper"
    flags_to_win = True

    def request_new_game(self, live: GameHost, board: Board | None) -> None:
        live.key("r")
