"""A blank cursor theme for the headless test desktops, written as Xcursor files.

Why: a headless wlroots output has no hardware cursor plane, so the compositor draws the
cursor into every frame, screen copies included, while on a real output (with a GPU) the
cursor is a hardware plane that screen copies leave out. Drawn there, the cursor lies on the
ring of pixels the bot watches around the board (the parked pointer is 8 px off the board), and
each of its moves looks like a moved board. A theme of transparent cursors, given to the
compositor and to the game (whose toolkit sets its own cursor over its window), makes the test
desktop's frames what a real one's are.

Xcursor file layout (little-endian 32-bit words): "Xcur", header size 16, version 0x10000, the
number of table entries; each entry is type, nominal size, file offset; an image chunk is header
size 36, type 0xfffd0002, nominal size, version 1, width, height, hot x, hot y, delay, then
width * height premultiplied ARGB pixels.
"""

from __future__ import annotations

import struct
from pathlib import Path

BLANK_THEME = "minebot-blank"
IMAGE = 0xFFFD0002
SIZES = (16, 24, 32, 48)
"""Nominal sizes offered: a loader takes the nearest to the size it wants."""
NAMES = ("default", "left_ptr", "arrow", "top_left_arrow", "pointer", "hand1", "hand2",
         "pointing_hand", "text", "xterm", "wait", "watch", "progress", "left_ptr_watch",
         "crosshair", "cross", "grab", "grabbing", "move", "fleur", "not-allowed", "help",
         "context-menu", "cell", "all-scroll", "col-resize", "row-resize", "n-resize",
         "s-resize", "e-resize", "w-resize", "ne-resize", "nw-resize", "se-resize", "sw-resize",
         "ew-resize", "ns-resize", "nesw-resize", "nwse-resize", "sb_h_double_arrow",
         "sb_v_double_arrow")
"""Cursor names toolkits and compositors ask for (all the same transparent image)."""


def blank_cursor() -> bytes:
    """One Xcursor file: a transparent 1x1 image at each of ``SIZES``."""
    header = struct.pack("<4sIII", b"Xcur", 16, 0x10000, len(SIZES))
    chunk = 36 + 4
    start = len(header) + 12 * len(SIZES)
    toc = b"".join(struct.pack("<III", IMAGE, size, start + i * chunk)
                   for i, size in enumerate(SIZES))
    images = b"".join(struct.pack("<IIIIIIIII", 36, IMAGE, size, 1, 1, 1, 0, 0, 0)
                      + struct.pack("<I", 0) for size in SIZES)
    return header + toc + images


def write_blank_theme(icons: Path) -> str:
    """Write the theme under ``icons`` (a folder for ``XCURSOR_PATH``); its name."""
    cursors = icons / BLANK_THEME / "cursors"
    cursors.mkdir(parents=True, exist_ok=True)
    data = blank_cursor()
    for name in NAMES:
        (cursors / name).write_bytes(data)
    (icons / BLANK_THEME / "index.theme").write_text(
        f"[Icon Theme]\nName={BLANK_THEME}\nComment=transparent cursors for minebot's tests\n")
    return BLANK_THEME
