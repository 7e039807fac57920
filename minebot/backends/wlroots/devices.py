"""minebot's own input devices on a wlroots seat: a virtual pointer and a virtual keyboard.

Why both are minebot's: ``zwlr_virtual_pointer_v1`` and ``zwp_virtual_keyboard_v1`` add
devices to the seat, as a second mouse and keyboard would, so the game gets ordinary input
events and the user's own devices keep working (and can stop a run, see ``failsafe``).

The keyboard carries the keymap minebot gives it: the standard US layout that the
compositor's xkeyboard-config resolves (``KEYMAP``), so the evdev code of every key name
minebot presses is known here (``EVDEV``) with no keymap parsing. wlroots does not derive the
modifiers from a virtual keyboard's keys: they are sent with each change (``modifiers``).
"""

from __future__ import annotations

import os
import time

from ...errors import DesktopError
from ..keys import KEY_ALIASES
from ..pointer import Button
from . import protocol as p
from .client import Connection, Output

BTN_CODES = {Button.LEFT: 0x110, Button.RIGHT: 0x111, Button.MIDDLE: 0x112}
"""Linux input button codes (``BTN_LEFT``, ``BTN_RIGHT``, ``BTN_MIDDLE``)."""

KEYMAP = """xkb_keymap {
    xkb_keycodes { include "evdev+aliases(qwerty)" };
    xkb_types { include "complete" };
    xkb_compat { include "complete" };
    xkb_symbols { include "pc+us+inet(evdev)" };
};
"""
"""The keyboard's keymap: US, as xkeyboard-config's rules name it; resolved by the
compositor (its includes are looked up there)."""

_ROWS = {16: "qwertyuiop", 30: "asdfghjkl", 44: "zxcvbnm", 2: "1234567890"}
EVDEV: dict[str, int] = {ch: first + i for first, row in _ROWS.items() for i, ch in enumerate(row)}
EVDEV.update({"Escape": 1, "minus": 12, "BackSpace": 14, "Tab": 15, "Return": 28,
              "Control_L": 29, "Shift_L": 42, "Alt_L": 56, "space": 57, "Pause": 119,
              "F1": 59, "F2": 60, "Up": 103, "Left": 105, "Right": 106, "Down": 108})
"""Evdev key codes of the key names minebot's combos use, for the US keymap above."""

MODIFIER_MASKS = {"Shift_L": 1, "Control_L": 4, "Alt_L": 8}
"""The xkb modifier bit each modifier key sets (Shift, Control, Mod1)."""


def evdev_keys(combo: str) -> list[int]:
    """The evdev codes of a ``ctrl+n``-style combo, in order."""
    codes = []
    for name in combo.split("+"):
        key = KEY_ALIASES.get(name.lower(), name)
        code = EVDEV.get(key, EVDEV.get(key.lower()) if len(key) == 1 else None)
        if code is None:
            raise DesktopError(f"unknown key {name!r} in {combo!r}")
        codes.append(code)
    return codes


def _now_ms() -> int:
    return int(time.monotonic() * 1000) & 0xFFFFFFFF


class VirtualPointer:
    """A pointer of minebot's own on the seat: absolute motion over ``output`` and buttons,
    each followed by ``frame`` (the end of one logical event). A compositor with version 1 of
    the protocol maps absolute motion over the whole layout: right when it is one output."""

    def __init__(self, conn: Connection, seat: int | None, output: Output) -> None:
        if not conn.version(p.VIRTUAL_POINTER_MANAGER):
            raise DesktopError("the compositor offers no zwlr_virtual_pointer_manager_v1")
        self.conn, self.output = conn, output
        manager = conn.bind(p.VIRTUAL_POINTER_MANAGER, 2)
        self.id = conn.new(p.VIRTUAL_POINTER)
        if conn.version(p.VIRTUAL_POINTER_MANAGER) >= 2:
            # absolute motion over this output alone, not over the whole layout
            conn.request(manager, "create_virtual_pointer_with_output", seat, output.object_id,
                         self.id)
            self._origin = (output.x, output.y)
        else:
            conn.request(manager, "create_virtual_pointer", seat, self.id)
            self._origin = (0, 0)

    def move(self, x: int, y: int) -> None:
        """To (x, y) in layout coordinates (on the output)."""
        out = self.output
        self.conn.request(self.id, "motion_absolute", _now_ms(), x - self._origin[0],
                          y - self._origin[1], out.width, out.height)
        self.conn.request(self.id, "frame")

    def button(self, button: Button, pressed: bool) -> None:
        self.conn.request(self.id, "button", _now_ms(), BTN_CODES[button], 1 if pressed else 0)
        self.conn.request(self.id, "frame")

    def close(self) -> None:
        try:
            self.conn.request(self.id, "destroy")
        except DesktopError:
            pass   # the connection is gone, and the device with it


class VirtualKeyboard:
    """A keyboard of minebot's own on the seat, with the US ``KEYMAP``."""

    def __init__(self, conn: Connection, seat: int) -> None:
        if not conn.version(p.VIRTUAL_KEYBOARD_MANAGER):
            raise DesktopError("the compositor offers no zwp_virtual_keyboard_manager_v1 "
                               "(minebot's keys: a new game, dialogs)")
        self.conn = conn
        manager = conn.bind(p.VIRTUAL_KEYBOARD_MANAGER, 1)
        self.id = conn.new(p.VIRTUAL_KEYBOARD)
        conn.request(manager, "create_virtual_keyboard", seat, self.id)
        raw = KEYMAP.encode() + b"\0"
        fd = os.memfd_create("minebot-keymap", os.MFD_CLOEXEC)
        try:
            os.write(fd, raw)
            conn.request(self.id, "keymap", 1, fd, len(raw))   # 1: xkb text v1
        finally:
            os.close(fd)
        self._mods = 0

    def combo(self, combo: str) -> None:
        """Press the keys of ``combo`` in order, release them in reverse."""
        names = [KEY_ALIASES.get(n.lower(), n) for n in combo.split("+")]
        codes = evdev_keys(combo)
        for name, code in zip(names, codes):
            self._key(name, code, True)
        for name, code in reversed(list(zip(names, codes))):
            self._key(name, code, False)

    def _key(self, name: str, code: int, pressed: bool) -> None:
        self.conn.request(self.id, "key", _now_ms(), code, 1 if pressed else 0)
        mask = MODIFIER_MASKS.get(name, 0)
        if mask:
            self._mods = self._mods | mask if pressed else self._mods & ~mask
            self.conn.request(self.id, "modifiers", self._mods, 0, 0, 0)

    def close(self) -> None:
        try:
            self.conn.request(self.id, "destroy")
        except DesktopError:
            pass   # the connection is gone, and the device with it
