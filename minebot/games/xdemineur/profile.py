"""xdemineur 2.1.1 (Debian's ``xdemineur``): a plain Xlib game with one look.

Window (``fixtures/CLONES.md``): title ``xdémineur`` (Latin-1), class
``("/usr/games/xdemineur", "XDémineur")``, so it is matched on the substring ``xdemineur`` of
the class. Fixed 20 px cells on a 21 px pitch with 1 px black lines between them, not scaled;
at least 12 columns. Every new game opens a random zero area by itself and the player's first
click is not protected: rule set ``preopened``. The counter is a red 7-segment display of
mines minus flags at the top left.
"""

from __future__ import annotations

from ...rules import Rules
from ..profile import CounterKind, GameProfile, GridGeometry, GridKind, WindowMatch

WINDOW = WindowMatch(wm_class="xdemineur")

PROFILE = GameProfile(
    name="xdemineur",
    title="xdemineur",
    window=WINDOW,
    grid=GridGeometry(GridKind.LINES, pitch=21, line=1, min_cols=12, min_rows=4),
    templates=("xdemineur",),
    rules=Rules.PREOPENED,
    counter=CounterKind.SEVEN_SEGMENT_LEFT,
)
