"""Keys to the focused X window through XTEST (X11 and XWayland)."""

from __future__ import annotations

from ...errors import DesktopError
from ..keys import keysyms
from .window import X11


def send_keys(x: X11, combo: str) -> None:
    """Press the keys of ``combo`` (``+``-separated) in order and release them in reverse."""
    from Xlib import X
    from Xlib.ext import xtest
    codes = []
    for name, sym in zip(combo.split("+"), keysyms(combo)):
        code = x.d.keysym_to_keycode(sym)
        if not code:
            raise DesktopError(f"unknown key {name!r} in {combo!r}")
        codes.append(code)
    for code in codes:
        xtest.fake_input(x.d, X.KeyPress, code)
    for code in reversed(codes):
        xtest.fake_input(x.d, X.KeyRelease, code)
    x.d.sync()
