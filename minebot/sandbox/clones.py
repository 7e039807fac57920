"""Private copies of the other Minesweeper clones: xdemineur, KMines and Simon Tatham's Mines.

Why private, as for GNOME Mines (``sandbox.mines``): a test, demo or benchmark must neither read
nor change anything of the user's, and must end exactly the processes it started. Each game
runs in its own process group (ended by that group, never by name) with its own temporary
home; KMines also gets its own ``dbus-run-session`` with a bus that starts no services and its
settings in a private ``XDG_CONFIG_HOME/kminesrc`` (facts in ``fixtures/CLONES.md``).
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path
from typing import Any

from ..errors import DesktopError
from ..games.kmines.profile import LEVELS as KMINES_LEVELS
from .mines import await_native
from .private_game import PrivateGame, check_choice, check_custom
from .session import NO_SERVICES_BUS

XDEMINEUR = "/usr/games/xdemineur"
KMINES = "/usr/games/kmines"
SGT_MINES = "/usr/games/sgt-mines"

KMINES_THEMES = ("classic", "default", "green", "graveyard-mayhem")
"""The themes Debian's kmines 22.12 ships (``/usr/share/kmines/themes``)."""


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


class KMines(PrivateGame):
    """``with KMines(xvfb, level="easy", theme="classic", window=(640, 480)) as g:``

    ``level`` easy/medium/hard, or ``custom=(rows, cols, mines)``; ``theme`` one of
    ``KMINES_THEMES``; ``window`` the window size (default: KMines' own, 0.4 x the screen).
    Its settings say: no "Reset the Game?" box after a loss (under Xvfb it is drawn as a black
    box over the board), question marks on.
    """

    profile = "kmines"
    exe = KMINES
    package = "kmines"

    def __init__(self, display, level: str | None = "easy", theme: str = "classic",
                 window: tuple[int, int] | None = None,
                 custom: tuple[int, int, int] | None = None, **kw) -> None:
        check_choice("KMines theme", theme, KMINES_THEMES)
        if custom is None:
            check_choice("KMines level", level, KMINES_LEVELS)
        else:
            check_custom("KMines custom board", custom, (5, 50), 9)
        super().__init__(display, **kw)
        self.level, self.theme, self.window_size, self.custom = level, theme, window, custom

    @property
    def board(self) -> tuple[int, int, int]:
        """(rows, cols, mines) of the games it plays."""
        return self.custom if self.custom is not None else KMINES_LEVELS[self.level]

    def kminesrc(self) -> str:
        """The settings file (keys from KMines' ``kmines.kcfg`` and libkdegames).

        ``kmines_reset`` is read from ``[General]``; KDE's "don't ask again" store is
        ``[Notification Messages]``, so it is written in both. The theme id is the path of the
        theme's .desktop file in the app data dir (a bare name is silently ignored).
        """
        level = "Custom" if self.custom is not None else self.level.capitalize()
        text = ("[General]\nkmines_reset=false\nquestion mark=true\n\n"
                "[Notification Messages]\nkmines_reset=false\n\n"
                f"[KgDifficulty]\nLevel={level}\n\n"
                f"[KgTheme]\nTheme=themes/{self.theme}.desktop\n")
        if self.custom is not None:
            rows, cols, mines = self.custom
            text += f"\n[Options]\ncustom width={cols}\ncustom height={rows}\ncustom mines={mines}\n"
        return text

    def prepare(self, home: Path) -> dict[str, str]:
        (home / "config" / "kminesrc").write_text(self.kminesrc())
        (home / "dbus.conf").write_text(NO_SERVICES_BUS)
        if self.display is None:   # native Wayland: the desktop's runtime folder has its socket
            return {"QT_QPA_PLATFORM": "wayland"}
        run = home / "run"
        run.mkdir(mode=0o700)
        return {"QT_QPA_PLATFORM": "xcb", "XDG_RUNTIME_DIR": str(run)}

    def start_unlisted(self) -> None:
        """Native Wayland (sway): until its board shows (``mines.await_native``), at the size
        KMines picks (the window cannot be resized from here)."""
        self.remote = await_native(self)

    def argv(self) -> list[str]:
        if shutil.which("dbus-run-session") is None:
            raise DesktopError("dbus-run-session is not installed (apt install dbus)")
        assert self.home is not None
        return ["dbus-run-session", f"--config-file={self.home / 'dbus.conf'}", "--", self.exe]

    def after_start(self) -> None:
        resize_window(self, self.window_size)
        time.sleep(0.5)   # the scene is laid out again after the first show / the resize


def resize_window(game: PrivateGame, size: tuple[int, int] | None) -> None:
    """Give the game's window ``size`` (a game that scales its board to the window) and wait
    until the window has it; None leaves the game's own size."""
    if size is None:
        return
    assert game.window is not None
    game.x11.move_resize(game.window.id, None, None, *size)
    deadline = time.monotonic() + 5.0
    while time.monotonic() < deadline:
        info = game.refresh()
        if (info.rect.width, info.rect.height) == tuple(size):
            break
        time.sleep(0.05)


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


DEMO_BOARDS: dict[str, dict[str, dict[str, Any]]] = {
    "xdemineur": {"beginner": {"cols": 16, "rows": 16, "mines": 40},
                  "expert": {"cols": 30, "rows": 16, "mines": 99}},
    "kmines": {"beginner": {"level": "easy"}, "expert": {"level": "hard"}},
    "sgt-mines": {"beginner": {"cols": 9, "rows": 9, "mines": 10},
                  "expert": {"cols": 30, "rows": 16, "mines": 99}},
}
"""What ``minebot demo --beginner``/``--expert`` play in each clone (launcher options)."""


def demo_clone(game: str, level: str, display, window: tuple[int, int]
               ) -> "Xdemineur | KMines | SgtMines":
    """A private xdemineur, KMines or Simon Tatham's Mines (not started) for ``level`` of the
    demo."""
    options = DEMO_BOARDS[game][level]
    if game == "xdemineur":
        return Xdemineur(display, **options)
    if game == "sgt-mines":
        return SgtMines(display, window=window, **options)
    return KMines(display, theme="classic", window=window, **options)
