"""Key combinations as every backend takes them: ``ctrl+n``, ``Escape``, ``alt+p``.

Why shared: X11 (XTEST) and mutter's RemoteDesktop both take X keysyms, so a combo is turned
into keysyms once, here, and each backend sends them its own way
(``minebot.backends.x11.keys``, ``minebot.backends.mutter``).
"""

from __future__ import annotations

from collections.abc import Callable

from ..errors import DesktopError

KEY_ALIASES = {"ctrl": "Control_L", "alt": "Alt_L", "shift": "Shift_L", "esc": "Escape",
               "enter": "Return", "space": "space"}
"""Short names accepted in a combo, with the X keysym name each stands for."""


def keysyms(combo: str) -> list[int]:
    """The X keysyms (what RemoteDesktop takes on Wayland too) of ``ctrl+n``-style combos."""
    from Xlib import XK  # python-xlib only when a key is sent
    syms = []
    for name in combo.split("+"):
        sym = XK.string_to_keysym(KEY_ALIASES.get(name.lower(), name))
        if not sym:
            raise DesktopError(f"unknown key {name!r} in {combo!r}")
        syms.append(sym)
    return syms


def press_combo(send: Callable[[int, bool], None], combo: str) -> None:
    """Press the keys of ``combo`` in order and release them in reverse, through ``send(keysym,
    pressed)``: a RemoteDesktop session's ``NotifyKeyboardKeysym`` (mutter, the desktop portal)."""
    syms = keysyms(combo)
    for sym in syms:
        send(sym, True)
    for sym in reversed(syms):
        send(sym, False)
