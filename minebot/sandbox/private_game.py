"""A game process on a display, with its own private home, ended by its own process group.

Why one base: every game minebot starts for a test, demo or benchmark (GNOME Mines in
``sandbox.mines``, the others in their folder's ``launcher.py``, e.g.
``minebot.games.kmines.launcher``) must neither read nor change
anything of the user's and must end exactly the processes it started; only how each is run and
configured differs.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from .. import games
from ..backends.x11.window import X11, WindowInfo, find_game_window
from ..errors import DesktopError
from .xvfb import stop_process_group

if TYPE_CHECKING:   # pragma: no cover
    from ..backends.backend import Backend


def check_choice(what: str, value, choices) -> None:
    """A setting must be one of ``choices``: else a DesktopError that lists them."""
    if value not in choices:
        raise DesktopError(f"unknown {what} {value!r}: expected one of {', '.join(choices)}")


def check_custom(what: str, custom: tuple[int, int, int], sizes: tuple[int, int], spare: int) -> None:
    """A custom board (rows, cols, mines) the game accepts: both sides within ``sizes``, at least
    one mine and ``spare`` cells free of mines (the first click's area)."""
    rows, cols, mines = custom
    low, high = sizes
    if not (low <= rows <= high and low <= cols <= high and 1 <= mines <= rows * cols - spare):
        raise DesktopError(f"{what} {cols}x{rows}/{mines}: sizes {low}..{high}, "
                           f"mines at most cells - {spare}")


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
        # On a native Wayland desktop (no X display): the desktop's backend, which waited
        # for the game to show and sends it keys (``mines.await_native``).
        self.remote: "Backend | None" = None

    # -- what subclasses say --------------------------------------------------------------
    @property
    def board(self) -> tuple[int, int, int] | None:
        """(rows, cols, mines) of the games it plays, for a game whose board is fixed when it
        starts (the clones); None for one that changes it itself (GNOME Mines)."""
        return None

    def argv(self) -> list[str]:
        return [self.exe]

    def prepare(self, home: Path) -> dict[str, str]:
        """Write the game's private files under ``home``; returns extra environment."""
        return {}

    def after_start(self) -> None:
        """Anything to do once the window shows (e.g. a window size)."""

    def start_unlisted(self) -> None:
        """On a desktop with no X display (native Wayland): wait until the game shows."""
        raise DesktopError(f"{self.package} needs an X display (X11 or XWayland)")

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
            if self.display is None:
                self.start_unlisted()   # a native Wayland client: no window list to search
            else:
                self._x = X11(self.display)
                self.window = self._wait_for_window()
                self.after_start()
        except BaseException:
            self.stop()
            raise
        return self

    def _match(self):
        return games.get(self.profile).window

    def find(self) -> WindowInfo | None:
        return find_game_window(self.x11, self._match())

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
        remote, self.remote = self.remote, None
        if remote is not None:
            remote.close()
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


@dataclass(frozen=True)
class DemoSettings:
    """The ``minebot demo`` options a launcher may use (GNOME Mines': its theme, colour scheme
    and digit font; the other games' demos ignore them)."""

    theme: str = "bgcolors"
    style: str = "light"
    font: str | None = None


@dataclass(frozen=True)
class Demo:
    """How ``minebot demo`` starts a game, declared by its folder's ``launcher.py`` as ``DEMO``.

    ``start(display, level, window, settings)``: a private copy (not started) for ``level``
    (beginner or expert); ``per_level``: the board size is fixed when the game starts, so each
    level gets its own copy (else one copy, switched between levels by its ``GameUI``);
    ``native_wayland``: it runs as a native Wayland client on the private mutter (``--wayland``).
    """

    start: Callable[..., PrivateGame]
    per_level: bool = True
    native_wayland: bool = False
