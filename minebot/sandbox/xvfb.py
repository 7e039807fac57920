"""A private X server (Xvfb) on a free display number, started and stopped by its own PID.

Live tests and ``minebot demo`` must never touch the user's desktop or another test's
display, so the server picks its display number itself (``-displayfd``: no race between
checking ``/tmp/.X11-unix`` and binding) and runs in its own process group, which is the only
thing ``stop`` ever signals.
"""

from __future__ import annotations

import os
import select
import shutil
import signal
import subprocess
import tempfile
import time
from pathlib import Path

from ..errors import DesktopError


def die_with_parent() -> None:
    """``preexec_fn``: have the kernel send SIGTERM to the child when our process dies.

    Context managers stop everything on a normal exit, an exception or Ctrl-C; this covers
    the rest (SIGKILL, a timeout killing the parent), so no X server or game is left behind.
    """
    try:
        import ctypes
        libc = ctypes.CDLL("libc.so.6", use_errno=True)
        libc.prctl(1, signal.SIGTERM)   # PR_SET_PDEATHSIG
    except Exception:  # noqa: BLE001, S110 - no prctl (not Linux): the context managers still stop the child
        pass


def exit_on_sigterm() -> None:
    """Turn SIGTERM (e.g. from ``timeout`` or a CI runner) into SystemExit, so the context
    managers that own our X server and game run and stop them."""
    def _handler(signum, frame):
        raise SystemExit(128 + signum)
    try:
        signal.signal(signal.SIGTERM, _handler)
    except ValueError:   # not the main thread
        pass


def stop_process_group(proc: subprocess.Popen | None, timeout: float = 3.0) -> None:
    """End ``proc`` and everything in its process group (it must lead its own group).

    Why a group: ``dbus-run-session`` and ``Xvfb`` may leave children; signalling the group we
    created reaches exactly those, never a process someone else started.
    """
    if proc is None:
        return
    pgid = proc.pid
    for sig, wait in ((signal.SIGTERM, timeout), (signal.SIGKILL, timeout)):
        try:
            os.killpg(pgid, sig)
        except ProcessLookupError:
            break
        except PermissionError:  # pragma: no cover - never our group then
            break
        try:
            proc.wait(timeout=wait)
        except subprocess.TimeoutExpired:
            continue
        # The leader is gone; give the rest of the group a moment to follow.
        deadline = time.monotonic() + wait
        while time.monotonic() < deadline:
            try:
                os.killpg(pgid, 0)
            except ProcessLookupError:
                return
            time.sleep(0.02)
    try:
        proc.wait(timeout=0.1)
    except subprocess.TimeoutExpired:  # pragma: no cover
        pass


class Xvfb:
    """``with Xvfb(1280, 1024) as x: ... x.display == ":5"``.

    ``env()`` is the environment for programs that should use this display (DISPLAY plus an
    empty private XAUTHORITY file: Xvfb runs without access control for local clients, and
    python-xlib wants the file to exist).
    """

    def __init__(self, width: int = 1280, height: int = 1024, depth: int = 24,
                 timeout: float = 10.0) -> None:
        self.width, self.height, self.depth, self.timeout = width, height, depth, timeout
        self.proc: subprocess.Popen | None = None
        self.display: str | None = None
        self._tmp: str | None = None

    @property
    def xauthority(self) -> str:
        assert self._tmp is not None
        return os.path.join(self._tmp, "Xauthority")

    def start(self) -> "Xvfb":
        exe = shutil.which("Xvfb")
        if exe is None:
            raise DesktopError("Xvfb is not installed (apt install xvfb)")
        self._tmp = tempfile.mkdtemp(prefix="minebot-xvfb-")
        Path(self.xauthority).touch()
        read_fd, write_fd = os.pipe()
        self._log = open(os.path.join(self._tmp, "Xvfb.log"), "wb")
        try:
            self.proc = subprocess.Popen(
                [exe, "-displayfd", str(write_fd), "-screen", "0",
                 f"{self.width}x{self.height}x{self.depth}", "-nolisten", "tcp", "-noreset"],
                pass_fds=(write_fd,), stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                stderr=self._log, start_new_session=True, preexec_fn=die_with_parent)
        finally:
            os.close(write_fd)
            self._log.close()
        try:
            number = self._read_display_number(read_fd)
        except BaseException:
            os.close(read_fd)
            self.stop()
            raise
        os.close(read_fd)
        self.display = f":{number}"
        return self

    def _read_display_number(self, fd: int) -> int:
        deadline = time.monotonic() + self.timeout
        data = b""
        while not data.endswith(b"\n"):
            left = deadline - time.monotonic()
            if left <= 0:
                raise DesktopError(f"Xvfb did not report a display within {self.timeout:.0f} s")
            ready, _, _ = select.select([fd], [], [], left)
            if not ready:
                continue
            chunk = os.read(fd, 64)
            if not chunk:
                time.sleep(0.1)
                log = Path(self._tmp or ".", "Xvfb.log")
                err = log.read_bytes()[-500:] if log.exists() else b""
                raise DesktopError("Xvfb exited before reporting a display: "
                                   + err.decode(errors="replace").strip())
            data += chunk
        return int(data.strip())

    def env(self, base: dict | None = None) -> dict:
        env = dict(os.environ if base is None else base)
        env["DISPLAY"] = self.display or ""
        env["XAUTHORITY"] = self.xauthority
        return env

    def stop(self) -> None:
        """Stop exactly the server this object started (its process group). Safe to call twice."""
        proc, self.proc = self.proc, None
        if proc is not None:
            stop_process_group(proc)
        if self._tmp:
            shutil.rmtree(self._tmp, ignore_errors=True)
            self._tmp = None

    def __enter__(self) -> "Xvfb":
        return self.start() if self.proc is None else self

    def __exit__(self, *exc) -> None:
        self.stop()
