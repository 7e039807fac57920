"""The Wayland messages minebot uses, each with its opcode and argument types (``wire.py``).

Why only these: every message listed here is one minebot sends or reads; an event of an
interface not listed (or an opcode not listed) is read and dropped. The opcodes and types are
the ones the protocols' XML declares (wayland core; wlr-screencopy-unstable-v1 version 3;
wlr-virtual-pointer-unstable-v1 version 2; virtual-keyboard-unstable-v1; wlr-layer-shell-
unstable-v1), in declaration order.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Interface:
    """One interface: its requests by name -> (opcode, signature), events by opcode ->
    (name, signature)."""

    name: str
    requests: dict[str, tuple[int, str]] = field(default_factory=dict)
    events: dict[int, tuple[str, str]] = field(default_factory=dict)


def _interface(name: str, requests: str = "", events: str = "") -> Interface:
    """An ``Interface`` from "name:signature name:signature" lists, opcodes in order (a
    message minebot never uses keeps its place as ``-``)."""
    def table(text: str) -> list[tuple[str, str]]:
        return [tuple(item.split(":")) if ":" in item else (item, "")  # type: ignore[misc]
                for item in text.split()]
    reqs = {n: (op, sig) for op, (n, sig) in enumerate(table(requests)) if n != "-"}
    evs = {op: (n, sig) for op, (n, sig) in enumerate(table(events)) if n != "-"}
    return Interface(name, reqs, evs)


WL_DISPLAY = _interface("wl_display", "sync:n get_registry:n", "error:ous delete_id:u")
WL_REGISTRY = _interface("wl_registry", "bind:usun", "global:usu global_remove:u")
WL_CALLBACK = _interface("wl_callback", "", "done:u")
WL_COMPOSITOR = _interface("wl_compositor", "create_surface:n create_region:n")
WL_REGION = _interface("wl_region", "destroy add:iiii subtract:iiii")
WL_SHM = _interface("wl_shm", "create_pool:nhi", "format:u")
WL_SHM_POOL = _interface("wl_shm_pool", "create_buffer:niiiiu destroy")
WL_BUFFER = _interface("wl_buffer", "destroy", "release")
WL_SURFACE = _interface("wl_surface", "destroy attach:oii damage:iiii frame:n - set_input_region:o "
                        "commit",
                        "enter:o leave:o")
WL_SEAT = _interface("wl_seat", "get_pointer:n", "capabilities:u name:s")
WL_POINTER = _interface("wl_pointer", "",
                        "enter:uoff leave:uo motion:uff button:uuuu axis:uuf frame")
WL_OUTPUT = _interface("wl_output", "",
                       "geometry:iiiiissi mode:uiii done scale:i name:s description:s")
SCREENCOPY_MANAGER = _interface("zwlr_screencopy_manager_v1",
                                "capture_output:nio capture_output_region:nioiiii destroy")
SCREENCOPY_FRAME = _interface("zwlr_screencopy_frame_v1", "copy:o destroy",
                              "buffer:uuuu flags:u ready:uuu failed damage:uuuu "
                              "linux_dmabuf:uuu buffer_done")
VIRTUAL_POINTER_MANAGER = _interface("zwlr_virtual_pointer_manager_v1",
                                     "create_virtual_pointer:on destroy "
                                     "create_virtual_pointer_with_output:oon")
VIRTUAL_POINTER = _interface("zwlr_virtual_pointer_v1",
                             "motion:uff motion_absolute:uuuuu button:uuu - frame - - - destroy")
VIRTUAL_KEYBOARD_MANAGER = _interface("zwp_virtual_keyboard_manager_v1",
                                      "create_virtual_keyboard:on")
VIRTUAL_KEYBOARD = _interface("zwp_virtual_keyboard_v1",
                              "keymap:uhu key:uuu modifiers:uuuu destroy")
LAYER_SHELL = _interface("zwlr_layer_shell_v1", "get_layer_surface:noous")
LAYER_SURFACE = _interface("zwlr_layer_surface_v1",
                           "set_size:uu set_anchor:u set_exclusive_zone:i set_margin:iiii "
                           "set_keyboard_interactivity:u - ack_configure:u destroy",
                           "configure:uuu closed")

NEEDED = (SCREENCOPY_MANAGER.name, VIRTUAL_POINTER_MANAGER.name)
"""The globals without which the wlroots backend cannot see or click (checked at start)."""

WL_SHM_ARGB8888, WL_SHM_XRGB8888 = 0, 1
"""wl_shm formats whose bytes are B, G, R, A/x in memory (little-endian 32-bit words)."""
WL_SHM_ABGR8888, WL_SHM_XBGR8888 = 0x34324241, 0x34324258
"""wl_shm formats whose bytes are R, G, B, A/x in memory (DRM fourcc codes)."""
SCREENCOPY_Y_INVERT = 1
"""The screencopy frame's ``flags`` bit: rows come bottom to top."""
