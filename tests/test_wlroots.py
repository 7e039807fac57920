"""The wlroots backend's parts that need no compositor: the wire format, keys, pixels, sway's
tree, and what minebot says on a Wayland compositor without the wlroots protocols (a fake
compositor on a socket of the test's own, speaking the real wire format)."""

from __future__ import annotations

import socket
import struct
import threading

import numpy as np
import pytest

from minebot.backends.wlroots import protocol as p
from minebot.backends.wlroots.wire import WireError, decode, encode, split


def test_a_request_is_encoded_as_the_wire_wants():
    data, fds = encode(7, 2, "uisf", (3, -1, "abc", 1.5))
    object_id, word = struct.unpack_from("<II", data)
    assert object_id == 7 and word & 0xFFFF == 2 and word >> 16 == len(data) == 8 + 4 + 4 + 8 + 4
    assert data[8:16] == struct.pack("<Ii", 3, -1)
    assert data[16:24] == struct.pack("<I", 4) + b"abc\0"   # length counts the NUL, padded to 4
    assert data[24:28] == struct.pack("<i", 384)             # fixed 24.8
    assert fds == []


def test_fds_travel_beside_the_bytes():
    data, fds = encode(3, 0, "nhi", (9, 42, 100))
    assert fds == [42] and len(data) == 8 + 8


def test_events_are_split_and_decoded_and_a_partial_one_waits():
    one, _ = encode(2, 0, "usu", (5, "zwlr_screencopy_manager_v1", 3))
    two, _ = encode(9, 6, "", ())
    messages, rest = split(one + two + two[:5])
    assert [(m.object_id, m.opcode) for m in messages] == [(2, 0), (9, 6)]
    assert rest == two[:5]
    assert decode("usu", messages[0].body) == (5, "zwlr_screencopy_manager_v1", 3)


def test_a_broken_message_is_an_error_not_a_guess():
    with pytest.raises(WireError):
        split(struct.pack("<II", 1, (4 << 16) | 0))    # shorter than its own header
    with pytest.raises(WireError):
        decode("uu", struct.pack("<I", 1))             # an argument missing
    with pytest.raises(WireError):
        encode(1, 0, "u", ())


def test_the_protocol_table_keeps_the_xml_opcodes():
    assert p.SCREENCOPY_MANAGER.requests["capture_output_region"] == (1, "nioiiii")
    assert p.SCREENCOPY_FRAME.events[6] == ("buffer_done", "")
    assert p.VIRTUAL_POINTER.requests["frame"] == (4, "")
    assert p.VIRTUAL_POINTER.requests["destroy"] == (8, "")
    assert p.LAYER_SURFACE.requests["ack_configure"] == (6, "u")
    assert p.WL_SURFACE.requests["commit"] == (6, "")


def test_keys_are_evdev_codes_of_the_us_keymap():
    from minebot.backends.wlroots.devices import evdev_keys
    from minebot.errors import DesktopError
    assert evdev_keys("ctrl+n") == [29, 49]
    assert evdev_keys("alt+p") == [56, 25]
    assert evdev_keys("Escape") == [1] and evdev_keys("1") == [2] and evdev_keys("Tab") == [15]
    with pytest.raises(DesktopError, match="unknown key"):
        evdev_keys("ctrl+nosuchkey")


def test_pixels_become_bgr_whatever_the_format_and_row_order():
    from minebot.backends.wlroots.capture import to_bgr
    rows = np.zeros((2, 12), np.uint8)             # 2 rows of 2 pixels, 4 bytes of padding
    rows[0, 0:4] = (10, 20, 30, 255)               # B G R A in memory (XRGB8888)
    rows[1, 4:8] = (1, 2, 3, 0)
    bgr = to_bgr(rows, 2, p.WL_SHM_XRGB8888, False)
    assert bgr.shape == (2, 2, 3) and tuple(bgr[0, 0]) == (10, 20, 30) and tuple(bgr[1, 1]) == (1, 2, 3)
    assert tuple(to_bgr(rows, 2, p.WL_SHM_XRGB8888, True)[1, 0]) == (10, 20, 30)
    assert tuple(to_bgr(rows, 2, p.WL_SHM_XBGR8888, False)[0, 0]) == (30, 20, 10)


def test_sway_tree_lists_windows_floating_ones_too():
    from minebot.backends.wlroots.sway import _walk
    tree = {"type": "root", "nodes": [{"type": "output", "nodes": [{"type": "workspace", "nodes": [
        {"type": "con", "id": 11, "pid": 5, "app_id": "org.gnome.Mines", "name": "Mines", "visible": True,
         "focused": True, "rect": {"x": 10, "y": 20, "width": 300, "height": 200}}],
        "floating_nodes": [{"type": "floating_con", "id": 12, "pid": 6, "app_id": None,
                            "window_properties": {"class": "KMines"}, "name": "KMines",
                            "visible": False, "rect": {"x": 0, "y": 0, "width": 5, "height": 5}}]}]}]}
    found = list(_walk(tree))
    assert [(w.id, w.app_id, w.visible, w.focused) for w in found] == [
        (11, "org.gnome.Mines", True, True), (12, "KMines", False, False)]
    assert (found[0].rect.left, found[0].rect.top, found[0].rect.width) == (10, 20, 300)


def test_the_game_is_known_by_its_listed_window_and_only_a_shown_one_counts():
    from minebot.backends.listed import ListedWindow
    from minebot.backends.x11.window import Rect
    from minebot.games.interfaces import detect_listed
    def window(app_id: str, title: str, visible: bool = True) -> ListedWindow:
        return ListedWindow(1, app_id, title, Rect(0, 0, 10, 10), visible, False)
    assert detect_listed([window("foot", "~"), window("org.kde.kmines", "KMines")]).game == "kmines"
    assert detect_listed([window("gnome-mines", "Mines")]).game == "gnome-mines"        # 40.1
    assert detect_listed([window("org.gnome.Mines", "Mines")]).game == "gnome-mines"    # 48
    assert detect_listed([window("org.gnome.Mines", "Mines", visible=False)]) is None
    assert detect_listed([window("foot", "mines.txt - vim")]) is None


def _fake_compositor(path: str, globals_: list[str], stop: threading.Event) -> None:
    """A compositor that announces ``globals_`` and answers ``wl_display.sync``: enough for a
    client to read the registry (no output, no drawing)."""
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(path)
    server.listen()
    server.settimeout(0.1)
    while not stop.is_set():
        try:
            conn, _ = server.accept()
        except TimeoutError:
            continue
        except OSError:
            break
        with conn:
            pending = b""
            while True:
                data = conn.recv(4096)
                if not data:
                    break
                messages, pending = split(pending + data)
                for m in messages:
                    if (m.object_id, m.opcode) == (1, 1):       # get_registry
                        (registry,) = decode("n", m.body)
                        for number, name in enumerate(globals_, 1):
                            conn.sendall(encode(registry, 0, "usu", (number, name, 1))[0])
                    elif (m.object_id, m.opcode) == (1, 0):     # sync
                        (callback,) = decode("n", m.body)
                        conn.sendall(encode(callback, 0, "u", (0,))[0])
    server.close()


@pytest.fixture
def compositor(tmp_path):
    def start(globals_: list[str]) -> dict:
        stop = threading.Event()
        path = str(tmp_path / "wayland-test")
        thread = threading.Thread(target=_fake_compositor, args=(path, globals_, stop), daemon=True)
        thread.start()
        started.append((stop, thread))
        for _ in range(100):
            if (tmp_path / "wayland-test").exists():
                break
            threading.Event().wait(0.01)
        return {"XDG_RUNTIME_DIR": str(tmp_path), "WAYLAND_DISPLAY": "wayland-test"}
    started: list = []
    yield start
    for stop, thread in started:
        stop.set()
        thread.join(6)


def test_without_the_wlroots_protocols_wlroots_is_not_picked_and_forcing_it_says_why(compositor):
    from minebot.backends.backend import native_wlroots, open_backend
    from minebot.errors import EXIT_UNSUPPORTED, MinebotError
    env = compositor(["wl_compositor", "wl_shm", "wl_seat", "xdg_wm_base"])   # as weston or KWin
    assert not native_wlroots(None, env)
    with pytest.raises(MinebotError) as refused:
        open_backend(force="wlroots", env=env)
    assert refused.value.exit_code == EXIT_UNSUPPORTED
    message = str(refused.value)
    assert "zwlr_screencopy_manager_v1" in message and "zwlr_virtual_pointer_manager_v1" in message
    assert "\n" not in message


def test_with_them_it_is_offered_but_never_on_gnome(compositor):
    from minebot.backends.backend import native_wlroots
    env = compositor(["wl_shm", *p.NEEDED])
    assert native_wlroots(None, env)
    assert not native_wlroots(None, dict(env, XDG_CURRENT_DESKTOP="GNOME"))


def test_forcing_wlroots_outside_wayland_says_so():
    from minebot.backends.backend import open_backend
    from minebot.errors import EXIT_UNSUPPORTED, MinebotError
    with pytest.raises(MinebotError, match="no Wayland session") as refused:
        open_backend(force="wlroots", env={})
    assert refused.value.exit_code == EXIT_UNSUPPORTED


def test_hint_on_a_wlroots_compositor_without_layer_shell_says_why_in_one_line(compositor, tmp_path):
    """`minebot hint` where the compositor has the wlroots protocols but no layer-shell (no
    overlay layer to draw on): one line naming it and what works instead, exit 5."""
    import os
    import subprocess
    import sys

    from minebot.errors import EXIT_UNSUPPORTED
    env = compositor(["wl_compositor", "wl_shm", "wl_seat", "wl_output", *p.NEEDED])
    base = {k: v for k, v in os.environ.items()
            if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SWAYSOCK", "DBUS_SESSION_BUS_ADDRESS",
                         "XDG_CURRENT_DESKTOP")}
    out = subprocess.run([sys.executable, "-m", "minebot", "hint"], env={**base, **env},
                         capture_output=True, text=True, timeout=60, cwd=tmp_path)
    assert out.returncode == EXIT_UNSUPPORTED, out.stderr
    assert "zwlr_layer_shell_v1" in out.stderr and "--once --png" in out.stderr
    assert len(out.stderr.strip().splitlines()) == 1 and "Traceback" not in out.stderr


def test_the_overlay_messages_are_the_protocols_own():
    """The requests the overlay sends, at the opcodes wayland.xml and wlr-layer-shell declare."""
    assert p.WL_COMPOSITOR.requests["create_region"] == (1, "n")
    assert p.WL_REGION.requests["destroy"] == (0, "")
    assert p.WL_SURFACE.requests["set_input_region"] == (5, "o")
    assert p.WL_SURFACE.requests["commit"] == (6, "")
    assert p.LAYER_SURFACE.requests["set_margin"] == (3, "iiii")
    assert p.LAYER_SURFACE.requests["set_keyboard_interactivity"] == (4, "u")
