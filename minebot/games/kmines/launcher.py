"""A private KMines for the tests, ``demo`` and the benchmarks (the sandbox side of this
folder: production code never imports it, see ``minebot.sandbox.launchers``).

Why private, as for every game the sandbox starts (``sandbox.private_game``): a test, demo or
benchmark must neither read nor change anything of the user's, and must end exactly the
processes it started. KMines gets its own ``dbus-run-session`` with a bus that starts no
services and its settings in a private ``XDG_CONFIG_HOME/kminesrc`` (facts in
``fixtures/CLONES.md``).
"""

from __future__ import annotations

import shutil
import time
from pathlib import Path
from typing import Any

from ...errors import DesktopError
from ...sandbox.mines import await_native
from ...sandbox.private_game import (
    Demo,
    DemoSettings,
    PrivateGame,
    check_choice,
    check_custom,
    resize_window,
)
from ...sandbox.session import NO_SERVICES_BUS
from .profile import LEVELS as KMINES_LEVELS

KMINES = "/usr/games/kmines"

KMINES_THEMES = ("classic", "default", "green", "graveyard-mayhem")
"""The themes Debian's kmines 22.12 ships (``/usr/share/kmines/themes``)."""

DEMO_BOARDS: dict[str, dict[str, Any]] = {"beginner": {"level": "easy"}, "expert": {"level": "hard"}}
"""What ``minebot demo --beginner``/``--expert`` play (launcher options)."""


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
        return self.custom if self.custom is not None else KMINES_LEVELS[str(self.level)]

    def kminesrc(self) -> str:
        """The settings file (keys from KMines' ``kmines.kcfg`` and libkdegames).

        ``kmines_reset`` is read from ``[General]``; KDE's "don't ask again" store is
        ``[Notification Messages]``, so it is written in both. The theme id is the path of the
        theme's .desktop file in the app data dir (a bare name is silently ignored).
        """
        level = "Custom" if self.custom is not None else str(self.level).capitalize()
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


def demo_game(display, level: str, window: tuple[int, int], settings: DemoSettings) -> KMines:
    """The copy ``minebot demo`` plays ``level`` in: the Classic theme, at ``window``."""
    return KMines(display, theme="classic", window=window, **DEMO_BOARDS[level])


DEMO = Demo(demo_game, per_level=True)
