"""Private desktops and backend selection: clear errors with no display, exact clean-up."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from test_desktop import _alive

from minebot.errors import BadInputError, DesktopError, NoGameError
from minebot.sandbox.session import DESKTOPS, available, open_desktop

ROOT = Path(__file__).resolve().parents[1]


def test_every_desktop_module_imports_with_no_display():
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS")}
    code = ("import sys, minebot.sandbox.session, minebot.backends.backend, minebot.backends.x11.xshm, "
            "minebot.backends.mutter.backend, minebot.backends.mutter.capture, minebot.game.live, minebot.backends.x11.pointer; "
            "assert not {'gi', 'jeepney', 'pyautogui'} & set(sys.modules); print('ok')")
    out = subprocess.run([sys.executable, "-c", code], env=dict(env, PYTHONPATH=str(ROOT)),
                         capture_output=True, text=True, timeout=60)
    assert out.returncode == 0 and out.stdout.strip() == "ok", out.stderr


def test_unknown_desktop_names_the_choices():
    with pytest.raises(DesktopError, match="openbox, metacity, weston"):
        open_desktop("enlightenment")


def test_unknown_backend_lists_the_backends(monkeypatch):
    from minebot.backends.backend import open_backend
    monkeypatch.setenv("MINEBOT_BACKEND", "dx12")
    with pytest.raises(BadInputError, match="x11: .*xwayland: "):
        open_backend(":0")


def test_wayland_without_xwayland_is_a_clear_no_game(monkeypatch):
    from minebot.backends.backend import open_backend
    monkeypatch.delenv("MINEBOT_BACKEND", raising=False)
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.setenv("WAYLAND_DISPLAY", "wayland-0")
    monkeypatch.delenv("DBUS_SESSION_BUS_ADDRESS", raising=False)
    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)
    with pytest.raises(NoGameError, match="GDK_BACKEND=x11"):
        open_backend()


def test_forcing_mutter_without_its_bus_is_a_clear_no_game(monkeypatch, tmp_path):
    from minebot.backends.backend import open_backend
    from minebot.backends.mutter.dbus import Bus, has_mutter
    env = {"WAYLAND_DISPLAY": "wayland-0", "XDG_RUNTIME_DIR": str(tmp_path)}
    assert Bus.from_env(env) is None and not has_mutter(None)
    with pytest.raises(NoGameError, match="no mutter ScreenCast API"):
        open_backend(force="mutter", env=env)
    # a bus that is not there: refused the same way, no traceback of D-Bus
    gone = dict(env, DBUS_SESSION_BUS_ADDRESS=f"unix:path={tmp_path}/nobus")
    assert not has_mutter(Bus.from_env(gone))
    with pytest.raises(NoGameError, match="no mutter ScreenCast API"):
        open_backend(force="mutter", env=gone)


def test_keysyms_of_the_games_shortcuts():
    from minebot.backends.keys import keysyms
    assert keysyms("ctrl+r") == [0xFFE3, ord("r")]
    assert keysyms("Escape") == [0xFF1B]
    assert keysyms("alt+p") == [0xFFE9, ord("p")]
    with pytest.raises(DesktopError, match="unknown key 'nokey'"):
        keysyms("ctrl+nokey")


def test_click_log_carries_the_window_geometry():
    from minebot.backends.pointer import Click
    line = Click(5, 6, "left", 1.0, (0, 0, 10, 10), (1, 2, 30, 40)).to_json()
    assert line["window"] == [1, 2, 30, 40]
    assert "window" not in Click(5, 6, "left", 1.0, (0, 0, 10, 10)).to_json()


@pytest.mark.live
@pytest.mark.parametrize("kind", DESKTOPS)
def test_desktop_starts_and_ends_exactly_its_processes(kind):
    if not available(kind):
        pytest.skip(f"{kind} is not installed (bash .ci/setup installs it)")
    from minebot.backends.x11.window import X11
    desk = open_desktop(kind, 800, 600)
    with desk:
        pids = desk.pids + ([desk.xvfb.proc.pid] if hasattr(desk, "xvfb") else [])
        assert pids and all(_alive(p) for p in pids)
        if kind in ("gnome-wayland", "gnome-shell-wayland"):   # no X server: mutter's APIs
            from minebot.backends.mutter.dbus import has_mutter
            assert desk.display is None and has_mutter(desk.bus)
        elif kind == "sway":   # no X server: the wlroots protocols, and sway's window list
            from minebot.backends.wlroots.backend import offers_wlroots
            from minebot.backends.wlroots.sway import SwayWindows
            assert desk.display is None and offers_wlroots(desk.env())
            assert SwayWindows(desk.env()["SWAYSOCK"]).windows() == []
        else:
            with X11(desk.display) as x:
                assert (x.wm_name() is None) == (kind == "xvfb")
                assert x.is_xwayland() == (kind in ("weston", "mutter"))
        home = desk.home
    assert not any(_alive(p) for p in pids)
    assert home is None or not home.exists()
    desk.stop()   # idempotent


def test_the_x11_socket_folder_is_made_as_x_servers_expect(tmp_path):
    """weston and mutter bind Xwayland's socket in /tmp/.X11-unix without creating it; on a
    machine where no X server ran yet (a pristine Debian root) the desktop makes it: sticky and
    writable by all, whatever the umask, and an existing one is left as it is."""
    import stat

    from minebot.sandbox.session import ensure_x11_socket_dir
    folder = tmp_path / ".X11-unix"
    old = os.umask(0o077)
    try:
        ensure_x11_socket_dir(folder)
    finally:
        os.umask(old)
    assert stat.S_IMODE(folder.stat().st_mode) == 0o1777
    folder.chmod(0o755)
    ensure_x11_socket_dir(folder)
    assert stat.S_IMODE(folder.stat().st_mode) == 0o755
