"""GNOME Mines (Debian 12's 40.1, the game minebot was first written for; Debian 13's 48.1;
Debian testing's 50, whose fourth theme "modern" has its own looks).

Window: title "Mines", class ``gnome-mines`` (40.1) or ``org.gnome.Mines`` (48 and later, whose
1x1 unmapped helper window keeps the class ``gnome-mines``: only viewable windows count). Separate rounded tiles on the window's
background, the leftover pixels shared out so tiles differ by 1 px (see
``minebot.vision.locate``). The mines are placed after the first click, never on it or its 8
neighbours (``minefield.vala`` place_mines): rule set ``zero``. The counter is a "flags/total"
label beside the board.
"""

from __future__ import annotations

from ...rules import Rules
from ..profile import CounterKind, GameProfile, GridGeometry, GridKind, WindowMatch

GTK4_CLASS = "org.gnome.Mines"
"""The X window class from 48 on (GTK 4), whose dialogs may come late or inside the window."""

THEMES = ("bgcolors", "default", "classic", "modern")
"""Every theme of every version; "modern" exists from GNOME Mines 49 on."""
STYLES = ("light", "dark")
"""The desktop's colour scheme, which GNOME Mines follows from 49 on (libadwaita)."""

WINDOW = WindowMatch(title="Mines", wm_class=("gnome-mines", GTK4_CLASS))

PROFILE = GameProfile(
    name="gnome-mines",
    title="GNOME Mines",
    window=WINDOW,
    grid=GridGeometry(GridKind.TILES, pitch=None, line=0, min_cols=4, min_rows=4),
    templates=("gnome-mines-default", "gnome-mines-classic", "gnome-mines-bgcolors",
               "gnome-mines-modern"),
    rules=Rules.ZERO,
    counter=CounterKind.FLAGS_OF_TOTAL,
)


def custom_mines_roundtrip(rows: int, cols: int, mines: int) -> int:
    """The mine count GNOME Mines' custom dialog really plays for a requested count.

    The dialog shows a whole percentage and computes the count back from it, so e.g. 20 mines
    on 12x9 become 19 % -> 20, but not every count survives; choose counts where this is equal.
    """
    percent = round(mines * 100 / (rows * cols))
    return percent * rows * cols // 100
