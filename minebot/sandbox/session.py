"""Private desktops to play on: a display server, maybe a window manager, all ended by PID.

Why: minebot must play where people play, not only on a bare Xvfb. Each ``Desktop`` starts its
display server (and window manager) on a display number / Wayland socket / D-Bus session of
its own, so tests and CI never touch the user's desktop or another run's, and ``stop`` ends
exactly the process groups it started (never a process found by name).

    with open_desktop("openbox") as desk:          # Xvfb + openbox
        GnomeMines(desk, level="expert").start()   # the game runs on desk.display

Kinds (``DESKTOPS``): ``xvfb`` (no window manager), ``openbox`` and ``metacity`` (Xvfb plus that
window manager), ``weston`` (headless weston with XWayland: the game is an X11 client of
XWayland, whose root window reads black, so only window grabs work there), ``mutter``
(headless GNOME compositor with XWayland, PipeWire and WirePlumber on a private session bus),
``gnome-wayland`` (the same mutter without XWayland: the game is a native Wayland client, seen
and played only through mutter's ScreenCast and RemoteDesktop D-Bus APIs), and
``gnome-shell-wayland`` (real GNOME Shell in place of bare mutter, played the same way), and
``sway`` (headless sway, the game a native Wayland client played through the wlroots protocols),
and ``kwin`` (headless KWin with xdg-desktop-portal-kde, the game a native Wayland client played
through the desktop portal).
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

from ..backends.mutter.dbus import Bus, has_mutter, leave_overview
from ..backends.mutter.session import MutterSession
from ..backends.portal.tokens import TokenStore
from ..backends.wlroots.backend import offers_wlroots
from ..backends.wlroots.client import Connection
from ..backends.wlroots.devices import VirtualKeyboard
from ..backends.wlroots.protocol import WL_SEAT
from ..backends.x11.window import X11, open_display
from ..errors import DesktopError
from .cursor import write_blank_theme
from .xvfb import Xvfb, die_with_parent, stop_process_group

DESKTOPS = ("xvfb", "openbox", "metacity", "weston", "mutter", "gnome-wayland",
            "gnome-shell-wayland", "sway", "kwin")
NO_SERVICES_BUS = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <!-- A session bus that starts no services: no portals or document FUSE daemons. -->
  <type>session</type>
  <listen>unix:tmpdir=/tmp</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
"""
"""A D-Bus session config that auto-starts nothing (shared by the game and window managers)."""


def _spawn(argv: list[str], env: dict, log: Path, cwd: Path) -> subprocess.Popen:
    """Start ``argv`` as the leader of a new process group (what ``stop`` signals), output to
    ``log``, dying with us if we are killed."""
    with open(log, "wb") as out:
        return subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL, stdout=out,
                                stderr=subprocess.STDOUT, start_new_session=True, cwd=cwd,
                                preexec_fn=die_with_parent)


X11_SOCKET_DIR = Path("/tmp/.X11-unix")


def ensure_x11_socket_dir(path: Path = X11_SOCKET_DIR) -> None:
    """Create ``path`` (``/tmp/.X11-unix``, sticky, world-writable) when it is missing.

    Xvfb creates it itself, but weston and mutter start Xwayland only after binding its socket
    there, and fail ("failed to bind to /tmp/.X11-unix/X0") on a machine where no X server has
    run since boot: a fresh install, a container, a pristine Debian root.
    """
    if not path.is_dir():
        try:
            path.mkdir(mode=0o1777)
            os.chmod(path, 0o1777)   # mkdir's mode is masked by the umask
        except FileExistsError:
            pass
        except OSError as exc:
            raise DesktopError(f"cannot create {path} for Xwayland's socket: {exc.strerror}") from None


def _tail(path: Path, size: int = 400) -> str:
    return path.read_bytes()[-size:].decode(errors="replace").strip() if path.exists() else ""


class Desktop:
    """A private display: ``display`` (the X display the game uses), ``env()`` for its
    programs, ``start()``/``stop()`` (idempotent) and a context manager."""

    kind = "?"

    cursor_theme: str | None = None
    """The cursor theme the desktop's programs are to use (None: their own)."""

    def clear_view(self) -> None:
        """Close whatever the desktop shows over its windows (GNOME Shell's overview), so a
        game that maps is seen as a window and not as a thumbnail; nothing to do elsewhere."""

    def await_clear_view(self) -> None:
        """Until nothing shows over the windows and it stays so a while (``clear_view``, kept);
        nothing to do on a desktop that never covers them."""

    def __init__(self, width: int = 1600, height: int = 1024, timeout: float = 15.0) -> None:
        self.width, self.height, self.timeout = width, height, timeout
        self.display: str | None = None
        self.home: Path | None = None
        self._procs: list[subprocess.Popen] = []

    def env(self, base: dict | None = None) -> dict:
        raise NotImplementedError

    def start(self) -> "Desktop":
        raise NotImplementedError

    def _home(self) -> Path:
        self.home = Path(tempfile.mkdtemp(prefix=f"minebot-{self.kind}-"))
        return self.home

    @property
    def runtime(self) -> Path:
        """The desktop's own ``XDG_RUNTIME_DIR`` (its sockets), inside its home."""
        assert self.home is not None
        return self.home / "runtime"

    def _need(self, exe: str, package: str) -> str:
        path = shutil.which(exe)
        if path is None:
            raise DesktopError(f"{exe} is not installed (apt install {package})")
        return path

    def _await(self, log: Path, ready, what: str):
        """Poll ``ready()`` until it gives a value; fail with the ``log`` tail if the newest
        process started here exits or ``timeout`` passes (``what`` did not happen)."""
        deadline = time.monotonic() + self.timeout
        while True:
            value = ready()
            if value:
                return value
            if self._procs[-1].poll() is not None:
                raise DesktopError(f"{self.kind} exited at start (code "
                                   f"{self._procs[-1].returncode}): {_tail(log)}")
            if time.monotonic() > deadline:
                raise DesktopError(f"{self.kind} {what} within {self.timeout:.0f} s: {_tail(log)}")
            time.sleep(0.05)

    def _await_x_display(self, log: Path, pattern: str, ready=lambda: True) -> str:
        """The X display a compositor's XWayland listens on, read from its ``log``."""
        def found():
            match = re.search(pattern, _tail(log, 20000))
            return match.group(1) if match and ready() else None
        return self._await(log, found, "started no XWayland")

    @property
    def pids(self) -> list[int]:
        """Leaders of the process groups this desktop started (what ``stop`` ends)."""
        return [p.pid for p in self._procs if p.poll() is None]

    def stop(self) -> None:
        """End exactly the process groups started here, newest first. Safe to call twice."""
        procs, self._procs = self._procs, []
        for proc in reversed(procs):
            stop_process_group(proc)
        if self.home is not None:
            shutil.rmtree(self.home, ignore_errors=True)
            self.home = None

    def __enter__(self) -> "Desktop":
        if not self._procs:
            try:
                self.start()
            except BaseException:
                self.stop()
                raise
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.kind} display={self.display}>"


class XvfbDesktop(Desktop):
    """Xvfb, with the window manager ``wm`` (``openbox``, ``metacity``) or none."""

    def __init__(self, wm: str | None = None, width: int = 1600, height: int = 1024,
                 timeout: float = 15.0) -> None:
        super().__init__(width, height, timeout)
        if wm not in (None, "openbox", "metacity"):
            raise DesktopError(f"unknown window manager {wm!r}: expected openbox or metacity")
        self.wm = wm
        self.kind = wm or "xvfb"
        self.xvfb = Xvfb(width, height)

    def env(self, base: dict | None = None) -> dict:
        env = self.xvfb.env(base)
        env.pop("WAYLAND_DISPLAY", None)
        return env

    def start(self) -> "XvfbDesktop":
        self.xvfb.start()
        self.display = self.xvfb.display
        if self.wm is None:
            return self
        exe = self._need(self.wm, self.wm)
        home = self._home()
        (home / "dbus.conf").write_text(NO_SERVICES_BUS)
        env = self.env()
        env.pop("DBUS_SESSION_BUS_ADDRESS", None)
        # Nothing of the user's: own config dirs (openbox reads ~/.config/openbox/rc.xml),
        # settings in memory (metacity reads GSettings).
        env.update({"XDG_CONFIG_HOME": str(home / "config"), "XDG_DATA_HOME": str(home / "data"),
                    "XDG_CACHE_HOME": str(home / "cache"), "GSETTINGS_BACKEND": "memory",
                    "NO_AT_BRIDGE": "1"})
        argv = ["dbus-run-session", f"--config-file={home / 'dbus.conf'}", "--", exe]
        log = home / f"{self.wm}.log"
        self._procs.append(_spawn(argv, env, log, home))
        self._wait_for_wm(log)
        return self

    def _wait_for_wm(self, log: Path) -> None:
        """Until the window manager has claimed the screen (EWMH ``_NET_SUPPORTING_WM_CHECK``)."""
        with X11(self.display) as x:
            self._await(log, x.wm_name, "did not manage the screen")

    def stop(self) -> None:
        super().stop()
        self.xvfb.stop()


class WestonDesktop(Desktop):
    """Headless weston with XWayland, on a private Wayland socket and runtime directory.

    Weston picks the X display number itself (with lock files, so runs never collide) and
    starts Xwayland on the first X client; we read the number from its log.
    """

    kind = "weston"

    def env(self, base: dict | None = None) -> dict:
        assert self.home is not None and self.display is not None
        env = dict(os.environ if base is None else base)
        env.update({"DISPLAY": self.display, "XAUTHORITY": str(self.home / "Xauthority"),
                    "XDG_RUNTIME_DIR": str(self.runtime), "WAYLAND_DISPLAY": self.socket,
                    # An X11 client of XWayland: the game must not go native Wayland here.
                    "GDK_BACKEND": "x11"})
        return env

    @property
    def socket(self) -> str:
        return f"minebot-{os.getpid()}-{id(self) & 0xffff:x}"

    def start(self) -> "WestonDesktop":
        exe = self._need("weston", "weston")
        self._need("Xwayland", "xwayland")
        ensure_x11_socket_dir()
        home = self._home()
        self.runtime.mkdir(mode=0o700)
        (home / "Xauthority").touch()
        env = dict(os.environ, XDG_RUNTIME_DIR=str(self.runtime))
        for var in ("DISPLAY", "WAYLAND_DISPLAY", "WAYLAND_SOCKET"):
            env.pop(var, None)
        log = home / "weston.log"
        argv = [exe, "--backend=headless-backend.so", "--xwayland", f"--socket={self.socket}",
                f"--width={self.width}", f"--height={self.height}", "--idle-time=0",
                f"--log={log}"]
        self._procs.append(_spawn(argv, env, home / "weston.out", home))
        self.display = self._await_x_display(log, r"xserver listening on display (:\d+)")
        return self


class MutterDesktop(Desktop):
    """Headless mutter (GNOME's compositor) with a virtual monitor, XWayland, PipeWire and
    WirePlumber, all on a private D-Bus session bus and runtime directory.

    The game runs as an X11 client of mutter's XWayland (``display``); the session bus also
    offers mutter's ScreenCast and RemoteDesktop APIs (``bus_address``), which a native
    Wayland game would need (no backend for that yet).
    """

    kind = "mutter"

    def __init__(self, width: int = 1600, height: int = 1024, timeout: float = 20.0) -> None:
        super().__init__(width, height, timeout)
        self.bus_address: str | None = None
        self.xauthority: str | None = None

    @property
    def socket(self) -> str:
        return f"minebot-mutter-{os.getpid()}-{id(self) & 0xffff:x}"

    def _base_env(self) -> dict:
        assert self.home is not None
        env = dict(os.environ)
        for var in ("DISPLAY", "WAYLAND_DISPLAY", "WAYLAND_SOCKET", "XAUTHORITY"):
            env.pop(var, None)
        env.update({"XDG_RUNTIME_DIR": str(self.runtime),
                    "XDG_CONFIG_HOME": str(self.home / "config"),
                    "XDG_DATA_HOME": str(self.home / "data"), "GSETTINGS_BACKEND": "memory",
                    "NO_AT_BRIDGE": "1", "GTK_USE_PORTAL": "0"})
        if self.bus_address:
            env["DBUS_SESSION_BUS_ADDRESS"] = self.bus_address
        return env

    def env(self, base: dict | None = None) -> dict:
        assert self.display is not None
        env = self._base_env() if base is None else dict(base)
        env.update({"DISPLAY": self.display, "XAUTHORITY": self.xauthority or "",
                    "WAYLAND_DISPLAY": self.socket, "GDK_BACKEND": "x11"})
        return env

    def start(self) -> "MutterDesktop":
        for exe, pkg in ((self.compositor, self.compositor), ("pipewire", "pipewire"),
                         ("wireplumber", "wireplumber"), ("dbus-daemon", "dbus"),
                         *self.needs):
            self._need(exe, pkg)
        if "--no-x11" not in self.extra_args:
            ensure_x11_socket_dir()
        home = self._home()
        self.runtime.mkdir(mode=0o700)
        (home / "dbus.conf").write_text(NO_SERVICES_BUS)
        self.bus_address = self._bus_daemon("dbus")
        env = self._base_env()
        self._procs.append(_spawn(["pipewire"], env, home / "pipewire.log", home))
        self._procs.append(_spawn(["wireplumber"], env, home / "wireplumber.log", home))
        log = self.compositor_log = home / f"{self.compositor}.log"
        self._procs.append(_spawn(
            [self.compositor, "--wayland", "--headless",
             f"--virtual-monitor={self.width}x{self.height}",
             f"--wayland-display={self.socket}", *self.extra_args],
            self._compositor_env(env), log, home))
        self._await_ready(log)
        return self

    needs: tuple[tuple[str, str], ...] = (("Xwayland", "xwayland"),)
    """Further programs (and their Debian packages) this kind runs."""

    def _compositor_env(self, env: dict) -> dict:
        """The compositor's environment (a subclass may add to it)."""
        return env

    def _bus_daemon(self, name: str) -> str:
        """Start a private dbus-daemon that starts no services (``NO_SERVICES_BUS``, log
        ``name``.log) and return its address."""
        assert self.home is not None
        read_fd, write_fd = os.pipe()
        try:
            with open(self.home / f"{name}.log", "wb") as out:
                self._procs.append(subprocess.Popen(
                    ["dbus-daemon", "--nofork", f"--config-file={self.home / 'dbus.conf'}",
                     f"--print-address={write_fd}"], pass_fds=(write_fd,), env=self._base_env(),
                    stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                    start_new_session=True, cwd=self.home, preexec_fn=die_with_parent))
        finally:
            os.close(write_fd)
        with os.fdopen(read_fd, "rb") as pipe:
            address = pipe.readline().decode().strip()
        if not address:
            raise DesktopError(f"dbus-daemon gave no address: {_tail(self.home / f'{name}.log')}")
        return address

    compositor = "mutter"
    """The program run as the compositor (gnome-shell takes mutter's options)."""
    extra_args: tuple[str, ...] = ()

    def _await_ready(self, log: Path) -> None:
        """Until mutter's XWayland accepts us (its display number, cookie, open access)."""
        runtime = self.runtime
        auth = lambda: sorted(runtime.glob(".mutter-Xwaylandauth.*"))  # noqa: E731
        self.display = self._await_x_display(log, r"Using public X11 display (:\d+)",
                                             ready=lambda: bool(auth()))
        self.xauthority = str(auth()[0])
        self._open_access()

    def _open_access(self) -> None:
        """Let every local client in, as on Xvfb: mutter's Xwayland wants its cookie, and the
        bot's own connections (python-xlib) use the process's XAUTHORITY. This
        X server is ours alone (a private socket number, ended with the desktop)."""
        from Xlib import X
        old = os.environ.get("XAUTHORITY")
        os.environ["XAUTHORITY"] = self.xauthority or ""
        try:
            d = open_display(self.display)
            try:
                d.set_access_control(X.DisableAccess)
                d.sync()
            finally:
                d.close()
        except Exception as exc:  # noqa: BLE001 - Xlib raises several unrelated types here
            raise DesktopError(f"cannot open mutter's XWayland {self.display}: {exc}") from None
        finally:
            if old is None:
                os.environ.pop("XAUTHORITY", None)
            else:
                os.environ["XAUTHORITY"] = old


class GnomeWaylandDesktop(MutterDesktop):
    """Headless mutter with no XWayland: GNOME on Wayland as a user has it, the game a native
    Wayland client. There is no X display (``display`` is None); ``bus`` says where mutter's
    ScreenCast/RemoteDesktop APIs and PipeWire are, for ``minebot.backends.mutter``."""

    kind = "gnome-wayland"
    extra_args = ("--no-x11",)
    needs = ()

    def env(self, base: dict | None = None) -> dict:
        env = self._base_env() if base is None else dict(base)
        for var in ("DISPLAY", "XAUTHORITY"):
            env.pop(var, None)
        env.update({"WAYLAND_DISPLAY": self.socket, "GDK_BACKEND": "wayland"})
        return env

    @property
    def bus(self):
        assert self.home is not None and self.bus_address is not None
        return Bus(self.bus_address, str(self.runtime))

    def _await_ready(self, log: Path) -> None:
        """Until mutter's Wayland socket exists and its ScreenCast API is on the bus; then
        give the seat a keyboard and a pointer (see ``seat``)."""
        assert self.home is not None
        sock = self.runtime / self.socket
        self._await(log, lambda: sock.exists() and has_mutter(self.bus),
                    "offered no Wayland socket and ScreenCast API")
        # The desktop's own patience, not a player's 5 s: a shell still starting (its
        # extensions, its overview) answered the seat's session after more than 5 s in CI.
        self.seat = MutterSession(self.bus, cast=False, timeout=max(self.timeout, 5.0))

    seat: MutterSession | None = None
    """A RemoteDesktop session held for the desktop's life. Headless mutter has no input
    devices; a window that maps while the seat has no keyboard never gets keyboard focus
    (its keys would go nowhere), and one that lost its keyboard when a bot's session ended
    does not get it back. A user's desktop has a keyboard: so has this one."""

    def stop(self) -> None:
        seat, self.seat = self.seat, None
        if seat is not None:
            seat.close()
        super().stop()


STARTED_MESSAGE = "GNOME Shell started at"
"""What GNOME Shell logs when its start-up (and start-up animation) is complete."""


class GnomeShellWaylandDesktop(GnomeWaylandDesktop):
    """Real GNOME Shell (``gnome-shell --wayland --headless --no-x11``: mutter with the shell's
    panel, overview and notifications on top), the game a native Wayland client; played
    through the same mutter ScreenCast/RemoteDesktop APIs as ``gnome-wayland``.

    gnome-shell asks the system bus for systemd-logind whenever ``/run/systemd/seats`` exists
    (``misc/loginManager.js``) and stops at start when there is no system bus to ask; it is
    given a private one of its own (``DBUS_SYSTEM_BUS_ADDRESS``) on which no service runs, as
    in a container, so it falls back to what it does without logind."""

    kind = "gnome-shell-wayland"
    compositor = "gnome-shell"

    def _compositor_env(self, env: dict) -> dict:
        return dict(env, DBUS_SYSTEM_BUS_ADDRESS=self._bus_daemon("system-dbus"))

    def _await_ready(self, log: Path) -> None:
        """As mutter's, then until the shell has finished starting and left the overview it
        opens at start (a user's login ends on the desktop too): a window mapped in the
        overview shows only as a thumbnail there.

        The overview is closed only after the shell's start-up animation has ended, which the
        shell logs as "GNOME Shell started at" (its 'startup-complete', GNOME Shell 3.x to 50).
        Until then an invisible pane covers the screen to hold input back, and it goes only
        when the animation's last step ends; closing the overview during the animation hides
        the actor of that step (GNOME Shell 48), so it never ends and the pane takes every
        click and key for the rest of the session while the screen looks normal: the game
        under it got none of a bot's clicks."""
        super()._await_ready(log)
        self._await(log, lambda: STARTED_MESSAGE in log.read_text(errors="replace"),
                    "did not finish starting")
        self._first_pointer_motion()
        self._await(log, self._overview_closed, "did not leave its overview")
        # Should the shell open its overview again (it did so after start-up, under load,
        # before the wait above existed), ready only once it has stayed closed a while.
        self._await_calm_overview(log)

    def _first_pointer_motion(self) -> None:
        """Move the pointer once, to the bottom-right corner, before the overview is closed.
        Why: GNOME Shell 50 opened its overview on the first pointer motion of its life (in
        every try in Debian testing, whatever the place moved to), which was the bot's first
        move: the game became a thumbnail under the bot's next look. Later motions, of this
        or any later session, opened nothing."""
        first = MutterSession(self.bus)
        try:
            # Not the middle, where a game's window opens: a pointer left over a fresh board
            # hovers a cell (GNOME Mines 48 then never looked fresh to the tests' first read);
            # not the top-left hot corner either.
            first.move(self.width - 2, self.height - 2)
            time.sleep(0.2)
        finally:
            first.close()

    def _await_calm_overview(self, log: Path) -> None:
        calm_since = time.monotonic()

        def calm() -> bool:
            nonlocal calm_since
            if not self._overview_closed():
                calm_since = time.monotonic()
            return time.monotonic() - calm_since >= self.OVERVIEW_CALM
        self._await(log, calm, "kept opening its overview")

    OVERVIEW_CALM = 1.0
    """Seconds the shell's overview must stay closed before the desktop counts as started."""

    def _overview_closed(self) -> bool:
        return leave_overview(self.bus)

    def clear_view(self) -> None:
        """GNOME Shell 48 opens its overview again after start-up (seen with the previous
        game's window gone): a game mapped then is only a thumbnail. Asked to close it."""
        self._overview_closed()

    def await_clear_view(self) -> None:
        """Until the overview has stayed closed ``OVERVIEW_CALM`` seconds: GNOME Shell 50 opened
        it again after a new game's window had shown (the previous game's window gone), so the
        game's board seen at its start became a thumbnail under the bot's next look."""
        self._await_calm_overview(self.compositor_log)


SWAY_CONFIG = """# minebot's private headless sway: one virtual output, no X server, no key bindings.
output HEADLESS-1 resolution {width}x{height} position 0 0
xwayland disable
# Every window floats at the size it asks for, as on the other test desktops (tiling would
# stretch the game over the whole output).
for_window [app_id=".*"] floating enable
focus_follows_mouse no
# Transparent cursors (``sandbox.cursor``): a headless output draws the cursor into every screen
# copy, a real output's hardware cursor is in none.
seat * xcursor_theme {cursor_theme} 24
"""
"""sway's config for the ``sway`` desktop (the output's size filled in)."""

SWAY_USER = 65534
"""The user sway runs as when we are root (``nobody``): sway refuses to run as root."""


class SwayDesktop(Desktop):
    """Headless sway (``WLR_BACKENDS=headless``, software rendering, no input devices) with one
    virtual output of ``width`` x ``height``, its own config, runtime folder (Wayland socket)
    and IPC socket (``SWAYSOCK``), and transparent cursors (``sandbox.cursor``: a headless
    output would draw the cursor into every screen copy). The game is a native Wayland client;
    there is no X display.

    sway will not run as root: when we are root it runs as ``nobody`` (``setpriv``), in a home
    of its own that user owns; root's clients (the game, minebot) may still use its sockets.
    """

    kind = "sway"

    @property
    def ipc(self) -> Path:
        return self.runtime / "sway-ipc.sock"

    socket: str | None = None
    """The Wayland socket's name in ``runtime`` (sway picks it; read once it exists)."""

    def env(self, base: dict | None = None) -> dict:
        assert self.socket is not None
        env = dict(os.environ if base is None else base)
        for var in ("DISPLAY", "XAUTHORITY", "WAYLAND_SOCKET"):
            env.pop(var, None)
        env.update({"XDG_RUNTIME_DIR": str(self.runtime), "WAYLAND_DISPLAY": self.socket,
                    "SWAYSOCK": str(self.ipc), "XDG_CURRENT_DESKTOP": "sway",
                    "GDK_BACKEND": "wayland", "QT_QPA_PLATFORM": "wayland",
                    "XCURSOR_PATH": str(self.icons), "XCURSOR_THEME": self.cursor_theme or "",
                    "XCURSOR_SIZE": "24"})
        return env

    @property
    def icons(self) -> Path:
        assert self.home is not None
        return self.home / "icons"

    def start(self) -> "SwayDesktop":
        exe = self._need("sway", "sway")
        home = self._home()
        self.runtime.mkdir(mode=0o700)
        self.cursor_theme = write_blank_theme(self.icons)
        config = home / "sway.config"
        config.write_text(SWAY_CONFIG.format(width=self.width, height=self.height,
                                             cursor_theme=self.cursor_theme))
        argv = [exe, "-c", str(config)]
        if os.geteuid() == 0:
            for path in (home, self.runtime):
                os.chown(path, SWAY_USER, SWAY_USER)
            home.chmod(0o755)
            argv = [self._need("setpriv", "util-linux"), f"--reuid={SWAY_USER}",
                    f"--regid={SWAY_USER}", "--clear-groups", "--pdeathsig=TERM", "--", *argv]
        env = {k: v for k, v in os.environ.items()
               if k not in ("DISPLAY", "WAYLAND_DISPLAY", "WAYLAND_SOCKET", "SWAYSOCK",
                            "DBUS_SESSION_BUS_ADDRESS", "XAUTHORITY")}
        env.update({"HOME": str(home), "XDG_RUNTIME_DIR": str(self.runtime),
                    "XDG_CONFIG_HOME": str(home / "config"), "SWAYSOCK": str(self.ipc),
                    "XCURSOR_PATH": str(self.icons),
                    "WLR_BACKENDS": "headless", "WLR_LIBINPUT_NO_DEVICES": "1",
                    "WLR_RENDERER": "pixman"})
        log = home / "sway.log"
        self._procs.append(_spawn(argv, env, log, home))
        self.socket = self._await(log, self._ready, "offered no Wayland socket and IPC")
        self._hold_keyboard()
        return self

    seat: Connection | None = None
    """A connection holding a virtual keyboard for the desktop's life. The headless seat has no
    input devices: a window that maps then binds no keyboard, and gets one only when the seat
    gains a keyboard, after a round trip of its own; the first keys a bot's new keyboard sent
    were lost so (1 run in 4). A user's desktop has a keyboard: so has this one."""

    def _hold_keyboard(self) -> None:
        self.seat = Connection(self.env())
        VirtualKeyboard(self.seat, self.seat.bind(WL_SEAT, 1))
        self.seat.roundtrip()

    def _ready(self) -> str | None:
        """The Wayland socket's name once it and the IPC socket exist and the compositor
        answers with the wlroots protocols."""
        socks = sorted(p.name for p in self.runtime.glob("wayland-*") if p.suffix != ".lock")
        if not socks or not self.ipc.exists():
            return None
        env = {"XDG_RUNTIME_DIR": str(self.runtime), "WAYLAND_DISPLAY": socks[0]}
        return socks[0] if offers_wlroots(env) else None

    def stop(self) -> None:
        seat, self.seat = self.seat, None
        if seat is not None:
            seat.close()
        super().stop()
        self.socket = self.cursor_theme = None


PORTAL_EXES = {"xdg-desktop-portal": "xdg-desktop-portal",
               "xdg-desktop-portal-kde": "xdg-desktop-portal-kde",
               "xdg-permission-store": "xdg-desktop-portal"}
"""The portal's programs (not on PATH: in a libexec folder) and their Debian packages."""


def libexec(name: str) -> str | None:
    """Where Debian puts ``name`` among its helper programs (``/usr/libexec`` or the
    architecture's ``lib/*/libexec``), or None."""
    import glob
    for pattern in (f"/usr/libexec/{name}", f"/usr/lib/*/libexec/{name}", f"/usr/lib/{name}"):
        for path in sorted(glob.glob(pattern)):
            if os.access(path, os.X_OK) and os.path.isfile(path):
                return path
    return None


class KWinDesktop(Desktop):
    """Headless KWin (``kwin_wayland --virtual``, no XWayland) with PipeWire, WirePlumber, the
    permission store, xdg-desktop-portal and xdg-desktop-portal-kde, all on a private D-Bus
    session bus and runtime folder: KDE Plasma on Wayland as the portal backend sees it. The
    game is a native Wayland client; there is no X display.

    ``grant`` (the default) writes the user's approval into the permission store before the
    portal starts, as a restore token the desktop knows (``token``, also saved in the
    desktop's own state folder, where minebot run with ``env()`` finds it): the portal's dialog
    needs a person, and a test has none. The token is what a real approval hands out
    (``portal.session``); a run that passes it asks nothing. Without ``grant`` the dialog comes
    (and, with no one to answer it, waits). Runs that share one state folder must not overlap:
    the portal withdraws a token while a session that used it starts.

    ``authorize`` (the default) also writes xdg-desktop-portal-kde's own standing permission
    (table ``kde-authorized``, entry ``remote-desktop``, ``yes`` for the empty app id of an
    unsandboxed program: "authorized without any further user interaction", meant for headless
    machines): then no session asks, token or not. A desktop for testing the token itself is
    started without it.

    Every program runs as the calling user, or as ``nobody`` when that is root (upstream KWin
    6 will not run as root; the home and runtime folders are then ``nobody``'s, and root's clients
    use its sockets all the same). Debian 12's kwin_wayland carries a file capability
    (``cap_sys_nice``/``cap_sys_resource``) that a process without it in its bounding set may
    not execute (EPERM, as in containers and CI roots): a copy without it runs instead (it only
    lets KWin raise its own priority).
    """

    kind = "kwin"

    def __init__(self, width: int = 1600, height: int = 1024, timeout: float = 30.0,
                 grant: bool = True, authorize: bool = True) -> None:
        super().__init__(width, height, timeout)
        self.grant, self.authorize = grant, authorize
        self.token: str | None = None
        self.bus_address: str | None = None
        self.socket = f"minebot-kwin-{os.getpid()}-{id(self) & 0xffff:x}"

    @property
    def bus(self) -> Bus:
        assert self.bus_address is not None
        return Bus(self.bus_address, str(self.runtime))

    def _base_env(self) -> dict:
        assert self.home is not None
        env = {k: v for k, v in os.environ.items()
               if k not in ("DISPLAY", "XAUTHORITY", "WAYLAND_DISPLAY", "WAYLAND_SOCKET",
                            "SWAYSOCK", "DBUS_SESSION_BUS_ADDRESS", "PIPEWIRE_REMOTE")}
        env.update({"HOME": str(self.home), "XDG_RUNTIME_DIR": str(self.runtime),
                    "XDG_CONFIG_HOME": str(self.home / "config"),
                    "XDG_DATA_HOME": str(self.home / "data"),
                    "XDG_STATE_HOME": str(self.home / "state"),
                    "XDG_CACHE_HOME": str(self.home / "cache"),
                    "XDG_CURRENT_DESKTOP": "KDE", "XDG_SESSION_TYPE": "wayland",
                    "KDE_FULL_SESSION": "true", "KDE_SESSION_VERSION": "6",
                    "NO_AT_BRIDGE": "1", "GTK_USE_PORTAL": "0"})
        if self.bus_address:
            env["DBUS_SESSION_BUS_ADDRESS"] = self.bus_address
        return env

    def env(self, base: dict | None = None) -> dict:
        env = self._base_env() if base is None else dict(base)
        env.update({"WAYLAND_DISPLAY": self.socket, "QT_QPA_PLATFORM": "wayland",
                    "GDK_BACKEND": "wayland"})
        return env

    def _as_user(self, argv: list[str]) -> list[str]:
        """``argv`` run as the desktop's user: as root, ``nobody`` (upstream KWin 6 refuses to
        run as root, though Debian 13's build ran as root here; and every part of the desktop
        runs as KWin's user: KWin tells the portal's backend by its executable, which it may
        not read from another user's process); all but xdg-desktop-portal, which runs as the
        caller for the same reason."""
        if os.geteuid() != 0:
            return argv
        return [self._need("setpriv", "util-linux"), f"--reuid={SWAY_USER}",
                f"--regid={SWAY_USER}", "--clear-groups", "--pdeathsig=TERM", "--", *argv]

    def _start_bus(self) -> str:
        """A private session bus that starts no services and lets every user in (the
        desktop's user and the calling root), its address."""
        assert self.home is not None
        (self.home / "dbus.conf").write_text(OPEN_BUS.format(folder=self.runtime))
        read_fd, write_fd = os.pipe()
        try:
            with open(self.home / "dbus.log", "wb") as out:
                self._procs.append(subprocess.Popen(
                    self._as_user(["dbus-daemon", "--nofork",
                                   f"--config-file={self.home / 'dbus.conf'}",
                                   f"--print-address={write_fd}"]),
                    pass_fds=(write_fd,), env=self._base_env(), stdin=subprocess.DEVNULL,
                    stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
                    cwd=self.home, preexec_fn=die_with_parent))
        finally:
            os.close(write_fd)
        with os.fdopen(read_fd, "rb") as pipe:
            address = pipe.readline().decode().strip()
        if not address:
            raise DesktopError(f"dbus-daemon gave no address: {_tail(self.home / 'dbus.log')}")
        return address

    def start(self) -> "KWinDesktop":
        kwin = self._need("kwin_wayland", "kwin-wayland")
        self._need("pipewire", "pipewire")
        self._need("wireplumber", "wireplumber")
        self._need("dbus-daemon", "dbus")
        exes = {}
        for name, pkg in PORTAL_EXES.items():
            path = libexec(name)
            if path is None:
                raise DesktopError(f"{name} is not installed (apt install {pkg})")
            exes[name] = path
        home = self._home()
        for sub in ("config", "data", "state", "cache"):
            (home / sub).mkdir()
        self.runtime.mkdir(mode=0o700)
        own = Path(kwin)
        if not exec_allowed(own):   # a copy without the file capability (class docstring)
            own = home / "kwin_wayland"
            shutil.copyfile(kwin, own)
            own.chmod(0o755)
        if os.geteuid() == 0:
            home.chmod(0o755)
            for item in (home, *home.iterdir()):
                os.chown(item, SWAY_USER, SWAY_USER)
        self.bus_address = self._start_bus()
        env = self._base_env()

        def spawn(argv: list[str], name: str, run_env: dict) -> Path:
            log = home / f"{name}.log"
            self._procs.append(_spawn(self._as_user(argv), run_env, log, home))
            return log
        spawn(["pipewire"], "pipewire", env)
        spawn(["wireplumber"], "wireplumber", env)
        # KWin gets a plain environment, not the session's: with the KDE session's variables
        # (KDE_FULL_SESSION and the like) KWin 6.3 crashed at start with no word (SIGSEGV).
        kwin_env = {name: env[name] for name in ("PATH", "HOME", "LANG", "XDG_RUNTIME_DIR",
                                                 "XDG_CONFIG_HOME", "XDG_DATA_HOME",
                                                 "XDG_CACHE_HOME", "DBUS_SESSION_BUS_ADDRESS")
                    if name in env}
        kwin_env.update({"QT_QPA_PLATFORM": "wayland-org.kde.kwin.qpa",
                         # KWin's own Qt platform loads only in a program whose path ends in
                         # kwin_wayland, unless told so
                         "KWIN_FORCE_OWN_QPA": "1",
                         # KWin 6.3 casts the screen only when it composites with OpenGL
                         # ("OpenGL compositing is required for screencasting"); without a
                         # GPU that is Mesa's llvmpipe, where KWin finds it
                         # KWin offers its screen-cast and fake-input protocols only to the
                         # programs whose installed .desktop file lists them, found through
                         # KDE's menu database, which a bare KWin without Plasma did not find
                         # ("zkde_screencast_unstable_v1 does not seem to be available" said
                         # xdg-desktop-portal-kde): this private KWin lets its clients have
                         # them (its only clients are the portal and the game)
                         "KWIN_WAYLAND_NO_PERMISSION_CHECKS": "1"})
        log = spawn([str(own), "--virtual", f"--width={self.width}", f"--height={self.height}",
                     f"--socket={self.socket}", "--no-lockscreen"], "kwin", kwin_env)
        self._await(log, lambda: (self.runtime / self.socket).exists()
                    and _has_name(self.bus, "org.kde.KWin"), "offered no Wayland socket")
        log = spawn([exes["xdg-permission-store"], "--replace"], "permission-store", env)
        self._await(log, lambda: _has_name(self.bus, "org.freedesktop.impl.portal.PermissionStore"),
                    "started no permission store")
        if self.grant:
            # Kept where minebot looks for it in this desktop's environment (XDG_STATE_HOME):
            # a minebot run there asks nothing, as after a user approved once.
            self.token = grant_remote_desktop(self.bus)
            TokenStore.for_env(env).save(self.token)
        if self.authorize:
            _store_set(self.bus, "kde-authorized", "remote-desktop", {"": ["yes"]},
                       ("b", True))
        log = spawn([exes["xdg-desktop-portal-kde"]], "portal-kde",
                    {**self.env(), "QT_LOGGING_RULES": "xdp-kde-remotedesktop.debug=true"})
        self._await(log, lambda: _has_name(self.bus, "org.freedesktop.impl.portal.desktop.kde"),
                    "started no xdg-desktop-portal-kde")
        # The portal itself runs as the calling user: it reads its callers' /proc entries
        # (their root folder, to tell a sandboxed app), which another user may not.
        log = home / "portal.log"
        self._procs.append(_spawn([exes["xdg-desktop-portal"], "--replace", "--verbose"],
                                  self.env(), log, home))
        self._await(log, lambda: _has_name(self.bus, "org.freedesktop.portal.Desktop"),
                    "started no xdg-desktop-portal")
        return self


OPEN_BUS = """<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <!-- A session bus that starts no services and lets every local user in. -->
  <type>session</type>
  <listen>unix:dir={folder}</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
"""
"""The ``kwin`` desktop's bus (its folder filled in): the desktop runs as ``nobody`` when we are
root, and root's programs (the game, minebot) use the same bus."""


def exec_allowed(path: Path) -> bool:
    """Whether this process may execute ``path``: a file capability outside the process's
    bounding set makes ``execve`` fail with EPERM (kwin_wayland's ``cap_sys_resource`` on
    Debian 12 in a root without it). The capability is read from the ``security.capability``
    attribute (``struct vfs_cap_data``: magic, then the permitted and inheritable words, low
    32 bits first)."""
    import struct
    try:
        raw = os.getxattr(path, "security.capability")
    except OSError:
        return True   # no file capability (or none readable): nothing to refuse
    if len(raw) < 20:
        return True
    _, perm_lo, inh_lo, perm_hi, inh_hi = struct.unpack_from("<5I", raw)
    wanted = (perm_lo | inh_lo) | (perm_hi | inh_hi) << 32
    status = Path("/proc/self/status").read_text()
    match = re.search(r"^CapBnd:\s*([0-9a-f]+)", status, re.MULTILINE)
    bounding = int(match.group(1), 16) if match else 0
    return wanted & ~bounding == 0


def _has_name(bus: Bus, name: str) -> bool:
    """Whether ``name`` has an owner on ``bus`` (a program started there is ready)."""
    from jeepney import DBus

    from ..backends.mutter.dbus import connect
    try:
        conn = connect(bus.address)
    except DesktopError:
        return False
    try:
        return bool(conn.send_and_get_reply(DBus().NameHasOwner(name), timeout=2).body[0])
    finally:
        conn.close()


def grant_remote_desktop(bus: Bus, app_id: str = "") -> str:
    """Write into the permission store on ``bus`` what xdg-desktop-portal writes when a user
    approves a RemoteDesktop session with screen sharing, keyboard and pointer, "allow
    restoring" ticked, for ``app_id`` (an unsandboxed program has the empty one), and return
    its restore token. The layout is the portal's (table ``remote-desktop``, the token as the
    entry's id, the app's permission ``yes``, the data ``(suv)``) and the data is
    xdg-desktop-portal-kde's (session "KDE", version 1, the devices and screen sharing asked
    for, as a Qt-serialised map): with that token ``Start`` shows no dialog."""
    import uuid

    from ..backends.portal.session import DeviceType
    token = str(uuid.uuid4())
    payload = qt_variant_map({"devices": int(DeviceType.KEYBOARD | DeviceType.POINTER),
                              "screenShareEnabled": True})
    _store_set(bus, "remote-desktop", token, {app_id: ["yes"]},
               ("(suv)", ("KDE", 1, ("ay", payload))))
    return token


def qt_variant_map(values: dict[str, bool | int]) -> bytes:
    """``values`` as Qt 6's QDataStream writes a QVariantMap: xdg-desktop-portal-kde keeps its
    restore payload so, as bytes inside the restore data (``restoredata.cpp``). The entry count,
    then each key (a QString: its UTF-16BE byte length, the bytes) and value (a QVariant: the
    QMetaType id, a null flag, the value; ``bool`` is Bool (1, one byte), ``int`` UInt (3, four
    bytes)), all big-endian."""
    import struct
    out = [struct.pack(">I", len(values))]
    for key, value in values.items():
        name = key.encode("utf-16-be")
        out.append(struct.pack(">I", len(name)) + name)
        if isinstance(value, bool):
            out.append(struct.pack(">IbB", 1, 0, int(value)))
        else:
            out.append(struct.pack(">IbI", 3, 0, value))
    return b"".join(out)


def _store_set(bus: Bus, table: str, entry: str, permissions: dict[str, list[str]],
               data: tuple[str, object]) -> None:
    """One entry of the permission store on ``bus`` (its ``Set``, the table made if new)."""
    from jeepney import DBusAddress, MessageType, new_method_call

    from ..backends.mutter.dbus import connect
    store = DBusAddress("/org/freedesktop/impl/portal/PermissionStore",
                        "org.freedesktop.impl.portal.PermissionStore",
                        "org.freedesktop.impl.portal.PermissionStore")
    conn = connect(bus.address)
    try:
        reply = conn.send_and_get_reply(new_method_call(
            store, "Set", "sbsa{sas}v", (table, True, entry, permissions, data)), timeout=5)
    finally:
        conn.close()
    if reply.header.message_type is MessageType.error:
        raise DesktopError(f"the permission store refused the grant: {reply.body}")


def open_desktop(kind: str, width: int = 1600, height: int = 1024) -> Desktop:
    """A not yet started desktop of ``kind`` (one of ``DESKTOPS``); use it as a context manager."""
    if kind in ("xvfb", "openbox", "metacity"):
        return XvfbDesktop(None if kind == "xvfb" else kind, width, height)
    if kind == "weston":
        return WestonDesktop(width, height)
    if kind == "mutter":
        return MutterDesktop(width, height)
    if kind == "gnome-wayland":
        return GnomeWaylandDesktop(width, height)
    if kind == "gnome-shell-wayland":
        return GnomeShellWaylandDesktop(width, height)
    if kind == "sway":
        return SwayDesktop(width, height)
    if kind == "kwin":
        return KWinDesktop(width, height)
    raise DesktopError(f"unknown desktop {kind!r}: expected one of {', '.join(DESKTOPS)}")


def available(kind: str) -> bool:
    """Whether the programs ``kind`` needs are installed (tests skip the others)."""
    exes = {"xvfb": ["Xvfb"], "openbox": ["Xvfb", "openbox", "dbus-run-session"],
            "metacity": ["Xvfb", "metacity", "dbus-run-session"], "weston": ["weston", "Xwayland"],
            "mutter": ["mutter", "Xwayland", "pipewire", "wireplumber", "dbus-daemon"],
            "gnome-wayland": ["mutter", "pipewire", "wireplumber", "dbus-daemon"],
            "gnome-shell-wayland": ["gnome-shell", "pipewire", "wireplumber", "dbus-daemon"],
            "sway": ["sway"] + (["setpriv"] if os.geteuid() == 0 else []),
            "kwin": ["kwin_wayland", "pipewire", "wireplumber", "dbus-daemon"]
            + (["setpriv"] if os.geteuid() == 0 else [])}
    if kind in ("gnome-wayland", "gnome-shell-wayland", "kwin") and not _gst_pipewire():
        return False
    if kind == "kwin" and not all(libexec(name) for name in PORTAL_EXES):
        return False
    if not all(shutil.which(e) for e in exes[kind]):
        return False
    return kind != "kwin" or kwin_major() >= 6


def kwin_major() -> int:
    """The installed KWin's major version (0 when none answers). The ``kwin`` desktop needs 6 or
    later: KWin 5.27 (Debian 12) hands a portal client no picture here (its casts of a still
    screen send buffers with the pointer's position only) and has no restore token for
    RemoteDesktop."""
    exe = shutil.which("kwin_wayland")
    if exe is None:
        return 0
    try:
        out = subprocess.run([exe, "--version"], capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return 0
    match = re.search(r"(\d+)\.\d+", out.stdout + out.stderr)
    return int(match.group(1)) if match else 0


def _gst_pipewire() -> bool:
    """GStreamer's PipeWire source and PyGObject are importable (the frames' route)."""
    try:
        import gi
        gi.require_version("Gst", "1.0")
        from gi.repository import Gst
        Gst.init([])   # an empty argv: newer PyGObject refuses None
        return Gst.ElementFactory.find("pipewiresrc") is not None
    except (ImportError, ValueError):
        return False
