"""A private GNOME Mines: its own D-Bus session, settings, scores, theme and window size.

Why so private: the game keeps settings in dconf and scores in the user's data folder, and a
second instance on the same D-Bus session just raises the first. Running it under its own
``dbus-run-session`` (with a bus config that auto-starts no services, so no portal or FUSE
daemon outlives it), ``GSETTINGS_BACKEND=keyfile`` and private ``XDG_CONFIG_HOME`` /
``XDG_DATA_HOME`` means a test or demo neither reads nor changes anything of the user's, and
stopping its process group ends every process it started.
"""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable

import numpy as np

from .. import games
from ..backends.backend import open_backend
from ..backends.frames import FrameSource, same_area
from ..backends.mutter.backend import MutterBackend
from ..backends.portal.backend import PortalBackend
from ..backends.readings import readings
from ..backends.wlroots.backend import WlrootsBackend
from ..backends.x11.capture import WindowCapture
from ..backends.x11.keys import send_keys
from ..backends.x11.window import WindowInfo
from ..board import GameState
from ..errors import DesktopError, MinebotError, NoGameError
from ..game.saved_frames import save_frame
from ..games.gnome_mines.profile import STYLES, THEMES
from .fonts import fontconfig_file
from .private_game import PrivateGame, check_choice, check_custom
from .session import NO_SERVICES_BUS, Desktop
from .xvfb import Xvfb

GNOME_MINES = "/usr/games/gnome-mines"
LEVEL_FLAGS = {"beginner": "--small", "intermediate": "--medium", "expert": "--big"}
MIN_WINDOW = (590, 460)
"""The smallest X window GNOME Mines 40.1 allows (settings 580x404)."""
WINDOW_EXTRA = (10, 56)
"""GNOME Mines 40.1: X window size minus the ``window-width``/``window-height`` settings
(header bar, borders). From 48 on (GTK 4, client-side decorations inside the window) the X
window is exactly the settings' size."""


@functools.lru_cache(maxsize=None)
def installed_version(exe: str = GNOME_MINES) -> tuple[int, ...] | None:
    """The version of the GNOME Mines at ``exe`` (``gnome-mines --version`` prints
    "gnome-mines 48.1", untranslated, on 40.1 and 48+ alike), or None when it cannot tell."""
    try:
        out = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=10,
                             env=dict(os.environ, GSETTINGS_BACKEND="memory"))
    except (OSError, subprocess.SubprocessError):
        return None
    for word in (out.stdout + " " + out.stderr).split():
        parts = word.split(".")
        if len(parts) >= 2 and all(p.isdigit() for p in parts):
            return tuple(int(p) for p in parts)
    return None


def themes_of(exe: str = GNOME_MINES) -> tuple[str, ...]:
    """The themes the GNOME Mines at ``exe`` has ("modern" from 49 on; all when unknown)."""
    version = installed_version(exe)
    if version is not None and version < (49,):
        return tuple(t for t in THEMES if t != "modern")
    return THEMES


def window_extra(exe: str = GNOME_MINES) -> tuple[int, int]:
    """What the X window adds to the size settings for the GNOME Mines at ``exe``."""
    version = installed_version(exe)
    return (0, 0) if version is not None and version[0] >= 48 else WINDOW_EXTRA

class GnomeMines(PrivateGame):
    """``with GnomeMines(xvfb, theme="classic", window=(810, 656), level="beginner") as g:``

    ``window`` is the X window size at scale 1 (``scale=2`` doubles it on screen, like
    ``GDK_SCALE=2``); the smallest is 590x460. ``font`` forces the family the game's
    "Monospace" (its digits) resolves to, for this game only. ``level`` is
    beginner/intermediate/expert, or ``custom=(rows, cols, mines)``, or neither (the level
    chooser shows). ``g.window`` is the game's ``WindowInfo`` once started.

    On a desktop with no X display (``session.GnomeWaylandDesktop``) the game is a native
    Wayland client: there is no window to find, so ``window`` stays None and the game counts
    as started once a board is read on the screen cast (``remote``, a ``MutterBackend``,
    also sends its keys).
    """

    profile = "gnome-mines"
    package = "gnome-mines"

    def __init__(self, display: "str | Xvfb | Desktop", theme: str = "bgcolors",
                 window: tuple[int, int] = (810, 656), level: str | None = "beginner",
                 custom: tuple[int, int, int] | None = None, question_marks: bool = True,
                 exe: str = GNOME_MINES, timeout: float = 15.0, font: str | None = None,
                 scale: int = 1, style: str = "light") -> None:
        check_choice("theme", theme, themes_of(exe))
        check_choice("style", style, STYLES)
        if level is not None:
            check_choice("level", level, LEVEL_FLAGS)
        if custom is not None:
            check_custom("custom board", custom, (4, 100), 10)
            level = None
        super().__init__(display, timeout=timeout)
        self.theme, self.level, self.custom = theme, level, custom
        self.window_size = (max(window[0], MIN_WINDOW[0]), max(window[1], MIN_WINDOW[1]))
        self.question_marks, self.exe = question_marks, exe
        self.font, self.scale, self.style = font, scale, style

    # -- files --------------------------------------------------------------------------
    @property
    def keyfile(self) -> Path:
        assert self.home is not None
        return self.home / "config" / "glib-2.0" / "settings" / "keyfile"

    def settings(self) -> dict[str, str]:
        """The gsettings keys written to the private keyfile, as GVariant text."""
        extra = window_extra(self.exe)
        width, height = (self.window_size[0] - extra[0], self.window_size[1] - extra[1])
        values = {
            "theme": f"'{self.theme}'",
            "use-question-marks": "true" if self.question_marks else "false",
            "use-autoflag": "false",
            "use-animations": "false",  # animations spread a reveal over ~200 ms
            "window-width": str(width),
            "window-height": str(height),
            "window-is-maximized": "false",
        }
        if self.custom is not None:
            rows, cols, mines = self.custom
            values.update({"mode": "3", "xsize": str(cols), "ysize": str(rows), "nmines": str(mines)})
        elif self.level is not None:
            values["mode"] = str(list(LEVEL_FLAGS).index(self.level))
        return values

    def write_settings(self) -> None:
        """Write the keyfile; a running game picks up e.g. a theme change at once."""
        self.keyfile.parent.mkdir(parents=True, exist_ok=True)
        body = "".join(f"{k}={v}\n" for k, v in self.settings().items())
        # The desktop's colour scheme, read by libadwaita from GSettings where no settings
        # portal answers (this private bus has none): a user's dark style, for this game alone.
        scheme = "prefer-dark" if self.style == "dark" else "default"
        tmp = self.keyfile.with_suffix(".tmp")
        desktop = self.xvfb if isinstance(self.xvfb, Desktop) else None
        interface = f"color-scheme='{scheme}'\n"
        if desktop is not None and desktop.cursor_theme:   # GTK's cursor over its window
            interface += f"cursor-theme='{desktop.cursor_theme}'\n"
        tmp.write_text("[org/gnome/Mines]\n" + body + "\n[org/gnome/desktop/interface]\n" + interface)
        tmp.replace(self.keyfile)

    def set_theme(self, theme: str) -> None:
        check_choice("theme", theme, themes_of(self.exe))
        self.theme = theme
        self.write_settings()

    def env(self) -> dict:
        env = super().env()
        assert self.home is not None
        env.update({
            "GSETTINGS_BACKEND": "keyfile",
            "GTK_USE_PORTAL": "0",
            "GTK_A11Y": "none",
            # GTK 4 (GNOME Mines 48 and later) draws with OpenGL by default; on a virtual X
            # server that GL output reaches the window but not the root window, so a grab of
            # the whole screen saw it black. Cairo draws the same pixels in software, where
            # every grab sees them. GTK 3 (40.1) ignores the variable.
            "GSK_RENDERER": "cairo",
        })
        if self.font is not None:
            # the digits are "Monospace" text: this game alone sees ``font`` under that name
            env["FONTCONFIG_FILE"] = str(fontconfig_file(self.font, self.home / "fontconfig"))
        if self.scale != 1:
            env["GDK_SCALE"] = str(self.scale)
        if self.style == "dark":
            # libadwaita's own switch besides the desktop setting written to the keyfile (which
            # it reads only where GSettings is its settings' source)
            env["ADW_DEBUG_COLOR_SCHEME"] = "prefer-dark"
        return env

    # -- life cycle ---------------------------------------------------------------------
    def prepare(self, home: Path) -> dict[str, str]:
        self.write_settings()
        (home / "dbus.conf").write_text(NO_SERVICES_BUS)
        return {}

    def argv(self) -> list[str]:
        if shutil.which("dbus-run-session") is None:
            raise DesktopError("dbus-run-session is not installed (apt install dbus)")
        assert self.home is not None
        argv = ["dbus-run-session", f"--config-file={self.home / 'dbus.conf'}", "--", self.exe]
        if self.level is not None:
            argv.append(LEVEL_FLAGS[self.level])
        return argv

    def after_start(self) -> None:
        if self.custom is not None:
            self._start_custom()
        self.focus()
        self.wait_settled()

    def start_unlisted(self) -> None:
        """Native Wayland: until the board (or the level chooser) shows (``await_native``)."""
        self.remote = await_native(self, chooser=self.level is None)
        if self.custom is not None:
            self._start_custom()

    def _start_custom(self) -> None:
        """Chooser -> "4" (Custom) -> the size dialog (prefilled from the keyfile) -> Alt+P."""
        self.focus()
        time.sleep(0.3)
        self.key("4")
        time.sleep(0.4)
        self.key("alt+p")
        time.sleep(0.3)

    # -- conveniences over the window ---------------------------------------------------
    def focus(self) -> None:
        if self.remote is not None:
            return   # mutter gave the new window the focus; nothing else runs here
        assert self.window is not None
        self.x11.focus(self.window.id)

    def key(self, combo: str) -> None:
        """Press and release a key combination like ``ctrl+n`` or ``Escape`` (XTest, or
        mutter's RemoteDesktop on native Wayland)."""
        if self.remote is not None:
            self.remote.key(combo)
        else:
            send_keys(self.x11, combo)

    def move_resize(self, x: int | None = None, y: int | None = None,
                    window: tuple[int, int] | None = None) -> WindowInfo:
        assert self.window is not None
        w, h = window if window else (None, None)
        self.x11.move_resize(self.window.id, x, y, w, h)
        time.sleep(0.2)
        self.wait_settled()
        return self.refresh()

    def wait_settled(self, timeout: float = 5.0, quiet: float = 0.15) -> None:
        """Wait until the window's pixels stop changing (drawing done) for ``quiet`` seconds.

        Through the one frame source over the window's own pixels (XWayland's root is black),
        following the window every look: this runs right after a move or a resize.
        """
        deadline = time.monotonic() + timeout
        info = self.refresh()
        with FrameSource(WindowCapture(self.display, info), info.rect) as frames:
            last = None
            still_since = time.monotonic()
            while time.monotonic() < deadline:
                info = self.refresh()
                frames.follow(info.rect, info)
                frame = frames.grab()
                # Leave the clock out of the comparison: compare only the left 60 % (the board).
                board = (0, 0, frame.shape[1] * 3 // 5, frame.shape[0])
                if last is None or not same_area(frame, last, board):
                    still_since = time.monotonic()
                elif time.monotonic() - still_since >= quiet:
                    return
                last = frame
                time.sleep(0.02)


def await_native(game: PrivateGame, chooser: bool = False
                  ) -> MutterBackend | WlrootsBackend | PortalBackend:
    """Native Wayland: the desktop's own backend (mutter's screen cast, wlroots' screen
    copies, or a desktop portal's screen cast), once ``game``'s board (or, with ``chooser``, its level chooser) is on the screen
    and has stopped changing. Keys to the game go through it afterwards.

    The looks go through the one frame source and read loop (``backends.readings``). On the
    timeout the last frame is saved (the game's home goes with the game, so to the temporary
    folder) and the message names it with what the reader said of it: a start that fails only
    now and then is understood from that picture.
    """
    from ..vision import Reader
    remote = open_backend(env=game.xvfb.env())
    if not isinstance(remote, MutterBackend | WlrootsBackend | PortalBackend):
        remote.close()
        raise DesktopError(f"{game.xvfb} is no native Wayland desktop minebot plays")
    desktop = game.xvfb if isinstance(game.xvfb, Desktop) else None
    proc = game.proc
    assert proc is not None

    def alive() -> None:
        if desktop is not None:
            desktop.clear_view()
        if proc.poll() is not None:
            raise DesktopError(f"{game.package} exited at start (code {proc.returncode}); "
                               f"log: {game.log_tail()}")
    try:
        screen = remote.screen()
        # A reader of this game only: a frame of the window still being drawn was now and
        # then read as another game (a lattice of cells is all xdemineur's locator needs; seen
        # once in 16 runs at load ~6), and this start waits for this game's board alone.
        wait_for_game(FrameSource(screen, screen.rect), Reader(game=game.profile).read,
                      chooser=chooser, timeout=game.timeout, alive=alive, log=game.log_tail,
                      name=games.get(game.profile).title)
        if desktop is not None:
            desktop.await_clear_view()
    except BaseException:
        remote.close()
        raise
    # Keys go on through this session; its screen cast would only cost mutter a repaint
    # of the whole monitor for every frame while the bot plays.
    if isinstance(remote, MutterBackend | PortalBackend):
        remote.session.stop_frames()
    return remote


def wait_for_game(frames, read: Callable[[np.ndarray], object], *, chooser: bool,
                  timeout: float, alive: Callable[[], None] = lambda: None,
                  every: float = 0.15, log: Callable[[], str] = lambda: "",
                  name: str = "GNOME Mines") -> None:
    """Until two looks ``every`` seconds apart show the game (a board ``read`` reads, or with
    ``chooser`` the level chooser) on the same pixels: it is up and has stopped drawing.

    ``alive()`` raises when the game has exited. After ``timeout`` seconds a DesktopError
    names the last frame, saved, and what the reader said of it, and ends with ``log()``
    (the tail of the game's own output).
    """
    started = time.monotonic()
    deadline = started + timeout

    def before(n: int) -> bool:
        alive()
        if n:
            time.sleep(every)
        return True

    def careful(frame: np.ndarray):
        # a frame caught mid-draw at start may trip the reader anywhere: not shown yet
        try:
            return read(frame)
        except MinebotError:
            raise
        except Exception as exc:  # noqa: BLE001 - a frame caught mid-draw may trip the reader anywhere: not shown yet
            raise NoGameError(f"unreadable ({type(exc).__name__}: {exc})") from None

    last = None
    for seen in readings(frames, careful, settle=False, before=before):
        found = shows_game(seen, chooser)
        if found and last is not None and np.array_equal(last, seen.frame):
            if os.environ.get("MINEBOT_DEBUG"):
                print(f"minebot: GNOME Mines showed after {time.monotonic() - started:.2f} s",
                      file=sys.stderr)
            return
        last = seen.frame if found else None
        if time.monotonic() > deadline:
            tail = log()
            raise DesktopError(f"no {name} board on the screen within {timeout:g} s: "
                               f"{start_failure(seen, found)}"
                               + (f"; the game's log: {tail}" if tail else ""))


def shows_game(seen, chooser: bool) -> bool:
    """Whether one look at the screen shows the started game: a board read, or (``chooser``:
    no level was asked for) the level chooser."""
    from ..vision.reader import NoBoardError
    if seen.reading is not None:
        return True
    return chooser and isinstance(seen.error, NoBoardError) and seen.error.state is GameState.CHOOSER


def start_failure(seen, found: bool) -> str:
    """What the last look at a game that never showed was: its frame saved (named), and what
    the reader said of it."""
    import tempfile
    if seen.frame is None:
        return f"no frame could be grabbed ({seen.error})"
    path = save_frame(seen.frame, Path(tempfile.mkdtemp(prefix="minebot-gnome-mines-start-")),
                      "no-board-at-start")
    if found:
        said = ("a board, but the screen was still changing" if seen.reading is not None
                else "the level chooser, but the screen was still changing")
    else:
        said = str(seen.error) if seen.error is not None else "nothing"
    return f"the last frame ({path}) read as: {said}"
