"""A private Ace of Penguins' minesweeper for the tests, ``demo`` and the benchmarks (the sandbox
side of this folder: production code never imports it, see ``minebot.sandbox.launchers``).

Why private, as for every game the sandbox starts (``sandbox.private_game``): a test, demo or
benchmark must neither read nor change anything of the user's, and must end exactly the
processes it started. The game keeps no settings; it always starts at 32x32/200, and its keys
1-4 choose the board (and start a new game), so the launcher presses the one asked for.
"""

from __future__ import annotations

import time
from typing import Any

from ...backends.x11.keys import send_keys
from ...errors import DesktopError
from ...sandbox.private_game import Demo, DemoSettings, PrivateGame
from .profile import BOARDS

ACE_MINESWEEPER = "/usr/games/ace-minesweeper"

DEMO_BOARDS: dict[str, dict[str, Any]] = {"beginner": {"key": "2"}, "expert": {"key": "3"}}
"""What ``minebot demo --beginner``/``--expert`` play: 11x11/20 and 16x16/45 (keys 2 and 3)."""


class AceMinesweeper(PrivateGame):
    """``with AceMinesweeper(xvfb, key="3") as g:``: the board of the game's key ``key``
    ("1" 8x8/6 at 48 px, "2" 11x11/20 at 36 px, "3" 16x16/45 at 24 px, "4" 32x32/200 at
    12 px; ``profile.BOARDS``), chosen once the window shows."""

    profile = "ace-minesweeper"
    exe = ACE_MINESWEEPER
    package = "ace-of-penguins"

    def __init__(self, display, key: str = "4", **kw) -> None:
        if key not in BOARDS:
            raise DesktopError(f"ace-minesweeper board key {key!r}: expected one of {', '.join(BOARDS)}")
        super().__init__(display, **kw)
        self.key = key

    @property
    def board(self) -> tuple[int, int, int]:
        """(rows, cols, mines) of the games it plays."""
        size, mines, _ = BOARDS[self.key]
        return size, size, mines

    def after_start(self) -> None:
        """Choose the board: focus the window, press its key (the game starts at key 4's)."""
        assert self.window is not None
        time.sleep(0.3)                       # the first expose draws the 32x32 board
        if self.key != "4":
            self.x11.focus(self.window.id)
            send_keys(self.x11, self.key)
            time.sleep(0.3)


def demo_game(display, level: str, window: tuple[int, int], settings: DemoSettings) -> AceMinesweeper:
    """The copy ``minebot demo`` plays ``level`` in (the window has a fixed size)."""
    return AceMinesweeper(display, **DEMO_BOARDS[level])


DEMO = Demo(demo_game, per_level=True)
