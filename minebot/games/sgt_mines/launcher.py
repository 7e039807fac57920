"""A private Simon Tatham's Mines for the tests, ``demo`` and the benchmarks (the sandbox side of
this folder: production code never imports it, see ``minebot.sandbox.launchers``).

Why private, as for every game the sandbox starts (``sandbox.private_game``): a test, demo or
benchmark must neither read nor change anything of the user's, and must end exactly the
processes it started.
"""

from __future__ import annotations

import time
from typing import Any

from ...errors import DesktopError
from ...sandbox.private_game import Demo, DemoSettings, PrivateGame, resize_window

SGT_MINES = "/usr/games/sgt-mines"

DEMO_BOARDS: dict[str, dict[str, Any]] = {"beginner": {"cols": 9, "rows": 9, "mines": 10},
               "expert": {"cols": 30, "rows": 16, "mines": 99}}
"""What ``minebot demo --beginner``/``--expert`` play (launcher options)."""


class SgtMines(PrivateGame):
    """``with SgtMines(xvfb, cols=30, rows=16, mines=99, window=(900, 640)) as g:``

    The board is the game's argument (``sgt-mines 30x16n99``; ``unique=False`` adds the ``a``
    that turns "Ensure solubility" off); ``window`` the window size (default: the game's own,
    20 px tiles), the tiles following it. Its home is private, so it reads no saved settings
    of the user's (sgt-puzzles keeps them under ``XDG_CONFIG_HOME``).
    """

    profile = "sgt-mines"
    exe = SGT_MINES
    package = "sgt-puzzles"

    def __init__(self, display, cols: int = 9, rows: int = 9, mines: int = 10,
                 window: tuple[int, int] | None = None, unique: bool = True, **kw) -> None:
        if cols < 3 or rows < 3 or cols * rows <= 9 or not 1 <= mines <= cols * rows - 9:
            raise DesktopError(f"Simon Tatham's Mines board {cols}x{rows}/{mines}: at least 3x3 "
                               "and 10 cells, 1 mine up to cells - 9")
        super().__init__(display, **kw)
        self.cols, self.rows, self.mines = cols, rows, mines
        self.window_size, self.unique = window, unique

    @property
    def board(self) -> tuple[int, int, int]:
        """(rows, cols, mines) of the games it plays."""
        return self.rows, self.cols, self.mines

    def argv(self) -> list[str]:
        return [self.exe, f"{self.cols}x{self.rows}n{self.mines}" + ("" if self.unique else "a")]

    def after_start(self) -> None:
        resize_window(self, self.window_size)
        time.sleep(0.3)   # the board is drawn again at the new tile size


def demo_game(display, level: str, window: tuple[int, int], settings: DemoSettings) -> SgtMines:
    """The copy ``minebot demo`` plays ``level`` in, at ``window``."""
    return SgtMines(display, window=window, **DEMO_BOARDS[level])


DEMO = Demo(demo_game, per_level=True)
