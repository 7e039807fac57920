"""KMines 22.12 (Debian's ``kmines``): KDE's game, themed with SVG and scaled to its window.

Window: ``_NET_WM_NAME`` "KMines", class ``kmines``. Square cells that touch, each with its
own bevel, the field (with a one-cell frame all round) centred in the view and scaled to it
(``minefielditem.cpp`` resizeToFitInRect). The mines are placed on the first release, never on
the clicked cell or its 8 neighbours (``generateField``): rule set ``zero``. The counter is
"Mines: F/T" in the status bar. Looks shipped: Classic, and the default (Oxygen).
"""

from __future__ import annotations

from ...rules import Rules
from ..profile import CounterKind, GameProfile, GridGeometry, GridKind, WindowMatch

WINDOW = WindowMatch(wm_class="kmines")

LEVELS = {"easy": (9, 9, 10), "medium": (16, 16, 40), "hard": (16, 30, 99)}
"""KMines' difficulty levels: name -> (rows, cols, mines) (``mainwindow.cpp`` newGame)."""

PROFILE = GameProfile(
    name="kmines",
    title="KMines",
    window=WINDOW,
    grid=GridGeometry(GridKind.BEVELLED, pitch=None, line=0, min_cols=5, min_rows=5),
    templates=("kmines-classic", "kmines-default"),
    rules=Rules.ZERO,
    counter=CounterKind.STATUS_BAR,
)
