"""A private xdemineur for the tests, ``demo`` and the benchmarks (the sandbox side of this
folder: production code never imports it, see ``minebot.sandbox.launchers``).

Why private, as for every game the sandbox starts (``sandbox.private_game``): a test, demo or
benchmark must neither read nor change anything of the user's, and must end exactly the
processes it started. xdemineur keeps no settings or scores, so its home stays empty.
"""

from __future__ import annotations

from typing import Any

from ...errors import DesktopError
from ...sandbox.private_game import Demo, DemoSettings, PrivateGame

XDEMINEUR = "/usr/games/xdemineur"

DEMO_BOARDS: dict[str, dict[str, Any]] = {"beginner": {"cols": 16, "rows": 16, "mines": 40},
               "expert": {"cols": 30, "rows": 16, "mines": 99}}
"""What ``minebot demo --beginner``/``--expert`` play (launcher options)."""


class Xdemineur(PrivateGame):
    """``with Xdemineur(xvfb, cols=30, rows=16, mines=99) as g:`` (``-geometry COLSxROWS -m N``).

    The window has a fixed size for the board (not resizable); at least 12 columns. xdemineur
    keeps no settings or scores, so its home stays empty.
    """

    profile = "xdemineur"
    exe = XDEMINEUR
    package = "xdemineur"

    def __init__(self, display, cols: int = 30, rows: int = 16, mines: int = 99, **kw) -> None:
        if cols < 12 or rows < 4 or not 1 <= mines < rows * cols:
            raise DesktopError(f"xdemineur board {cols}x{rows}/{mines}: at least 12 columns and "
                               "4 rows, 1 mine up to cells - 1")
        super().__init__(display, **kw)
        self.cols, self.rows, self.mines = cols, rows, mines

    @property
    def board(self) -> tuple[int, int, int]:
        """(rows, cols, mines) of the games it plays."""
        return self.rows, self.cols, self.mines

    def argv(self) -> list[str]:
        return [self.exe, "-geometry", f"{self.cols}x{self.rows}", "-m", str(self.mines)]


def demo_game(display, level: str, window: tuple[int, int], settings: DemoSettings) -> Xdemineur:
    """The copy ``minebot demo`` plays ``level`` in (its window has the board's own size)."""
    return Xdemineur(display, **DEMO_BOARDS[level])


DEMO = Demo(demo_game, per_level=True)
