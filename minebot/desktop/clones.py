"""Private copies of the other Minesweeper clones: xdemineur and KMines.

Why private, as for GNOME Mines (``desktop.mines``): a test, demo or benchmark must neither read
nor change anything of the user's, and must end exactly the processes it started. Each game
runs in its own process group (ended by that group, never by name) with its own temporary
home; KMines also gets its own ``dbus-run-session`` with a bus that starts no services and its
settings in a private ``XDG_CONFIG_HOME/kminesrc`` (facts in ``fixtures/CLONES.md``).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from .session import NO_SERVICES_BUS
from .window import X11, WindowInfo
from .xvfb import DesktopError, stop_process_group

XDEMINEUR = "/usr/games/xdemineur"
KMINES = "/usr/games/kmines"

KMINES_LEVELS = {"easy": (9, 9, 10), "medium": (16, 16, 40), "hard": (16, 30, 99)}
"""KMines' difficulty levels: name -> (rows, cols, mines) (``mainwindow.cpp`` newGame)."""
KMINES_THEMES = ("classic", "default", "green", "graveyard-mayhem")
"""The themes Debian's kmines 22.12 ships (``/usr/share/kmines/themes``)."""


class PrivateGame:
    """A game process on a display, with a private home, ended by its process group.

    Subclasses say how to run it (``argv``, ``prepare``) and which window is theirs
    (``profile``, a name in ``minebot.games``). ``with Game(display) as g: g.window``.
    """

    profile = ""
    exe = ""
    package = ""

    def __init__(self, display, timeout: float = 20.0) -> None:
        # Anything with ``display`` and ``env()`` (an Xvfb, a session.Desktop) or a display name.
        self.xvfb = None if isinstance(display, str) else display
        self.display = display if isinstance(display, str) else display.display
        self.timeout = timeout
        self.proc: subprocess.Popen | None = None
        self.window: WindowInfo | None = None
        self.home: Path | None = None
        self._x: X11 | None = None

    # -- what subclasses say --------------------------------------------------------------
    def argv(self) -> list[str]:
        return [self.exe]

    def prepare(self, home: Path) -> dict[str, str]:
        """Write the game's private files under ``home``; returns extra environment."""
        return {}

    def after_start(self) -> None:
        """Anything to do once the window shows (e.g. a window size)."""

    # -- life cycle ---------------------------------------------------------------------
    def env(self) -> dict[str, str]:
        env = self.xvfb.env() if self.xvfb else dict(os.environ, DISPLAY=self.display)
        env.pop("DBUS_SESSION_BUS_ADDRESS", None)
        assert self.home is not None
        env.update({"HOME": str(self.home), "XDG_CONFIG_HOME": str(self.home / "config"),
                    "XDG_DATA_HOME": str(self.home / "data"),
                    "XDG_CACHE_HOME": str(self.home / "cache"), "NO_AT_BRIDGE": "1"})
        return env

    def start(self) -> "PrivateGame":
        if not os.access(self.exe, os.X_OK):
            raise DesktopError(f"{self.exe}: {self.package} is not installed "
                               f"(apt install --no-install-recommends {self.package})")
        self.home = Path(tempfile.mkdtemp(prefix=f"minebot-{self.package}-"))
        try:
            (self.home / "config").mkdir()
            env = self.env()
            env.update(self.prepare(self.home))
            log = open(self.home / "game.log", "wb")
            try:
                self.proc = subprocess.Popen(self.argv(), env=env, stdin=subprocess.DEVNULL,
                                             stdout=log, stderr=subprocess.STDOUT,
                                             start_new_session=True, cwd=self.home)
            finally:
                log.close()
            self._x = X11(self.display)
            self.window = self._wait_for_window()
            self.after_start()
        except BaseException:
            self.stop()
            raise
        return self

    def _match(self):
        from .. import games
        return games.get(self.profile).window

    def find(self) -> WindowInfo | None:
        from ..game.ui import find_window
        return find_window(self.x11, self._match())

    def _wait_for_window(self) -> WindowInfo:
        assert self.proc is not None
        deadline = time.monotonic() + self.timeout
        while True:
            if self.proc.poll() is not None:
                raise DesktopError(f"{self.package} exited at start (code {self.proc.returncode}); "
                                   f"log: {self.log_tail()}")
            info = self.find()
            if info is not None:
                return info
            if time.monotonic() > deadline:
                raise DesktopError(f"no {self.package} window within {self.timeout:.0f} s")
            time.sleep(0.05)

    def log_tail(self, size: int = 400) -> str:
        path = self.home / "game.log" if self.home is not None else None
        if path is None or not path.exists():
            return ""
        return path.read_bytes()[-size:].decode(errors="replace").strip()

    def stop(self) -> None:
        """End exactly the processes this game started. Safe to call twice."""
        proc, self.proc = self.proc, None
        stop_process_group(proc)
        if self._x is not None:
            self._x.close()
            self._x = None
        if self.home is not None:
            shutil.rmtree(self.home, ignore_errors=True)
            self.home = None

    close = stop

    def __enter__(self) -> "PrivateGame":
        return self.start() if self.proc is None else self

    def __exit__(self, *exc) -> None:
        self.stop()

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    # -- conveniences over the window ---------------------------------------------------
    @property
    def x11(self) -> X11:
        if self._x is None:
            raise DesktopError(f"{self.package} is not running")
        return self._x

    def refresh(self) -> WindowInfo:
        """Re-read the window's geometry (it may have been moved or resized)."""
        info = self.find()
        if info is None:
            raise DesktopError(f"the {self.package} window is gone")
        self.window = info
        return info


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
        if theme not in KMINES_THEMES:
            raise DesktopError(f"unknown KMines theme {theme!r}: expected one of {', '.join(KMINES_THEMES)}")
        if custom is None and level not in KMINES_LEVELS:
            raise DesktopError(f"unknown KMines level {level!r}: expected one of {', '.join(KMINES_LEVELS)}")
        if custom is not None:
            rows, cols, mines = custom
            if not (5 <= rows <= 50 and 5 <= cols <= 50 and 1 <= mines <= rows * cols - 9):
                raise DesktopError(f"KMines custom board {cols}x{rows}/{mines}: sizes 5..50, "
                                   "mines at most cells - 9")
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
        run = home / "run"
        run.mkdir(mode=0o700)
        return {"QT_QPA_PLATFORM": "xcb", "XDG_RUNTIME_DIR": str(run)}

    def argv(self) -> list[str]:
        if shutil.which("dbus-run-session") is None:
            raise DesktopError("dbus-run-session is not installed (apt install dbus)")
        assert self.home is not None
        return ["dbus-run-session", f"--config-file={self.home / 'dbus.conf'}", "--", self.exe]

    def after_start(self) -> None:
        if self.window_size is not None:
            assert self.window is not None
            self.x11.move_resize(self.window.id, None, None, *self.window_size)
            deadline = time.monotonic() + 5.0
            while time.monotonic() < deadline:
                info = self.refresh()
                if (info.rect.width, info.rect.height) == tuple(self.window_size):
                    break
                time.sleep(0.05)
        time.sleep(0.5)   # the scene is laid out again after the first show / the resize
