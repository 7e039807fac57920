"""Simon Tatham's Mines (Debian's ``sgt-puzzles``, ``/usr/games/sgt-mines``, GTK 3).

Facts from ``mines.c`` (sgt-puzzles) and from running it (``fixtures/CLONES.md``):

- Window: title "Mines", class ``("sgt-mines", "Sgt-mines")``; a 10x10 helper window of the
  same class is never the largest, so it is never taken for the game.
- Grid: touching square tiles, the tile size following the window (the drawing area is the
  board plus a border of 1.5 tiles all round); a covered tile is a raised bevel (white top-left
  triangle, a darker bottom-right one, the face in the window's grey), an open one flat, a
  shade darker, with 1 px lines on its top and left. Tiles touch: ``GridKind.BEVELLED``.
- Rules: the mines are placed at the first opening, never on the clicked cell or its 8
  neighbours (``minegen``), so the first click always opens an area: rule set ``zero``. Unless
  "Ensure solubility" is off (an ``a`` after the mine count in the game's parameters), the
  layout is then changed until the game's own solver deduces the whole board from that
  opening: no guess is ever needed (``no_guess``).
- Counter: the status bar under the board reads "Marked: F / T" while playing (F = flags
  placed), "DEAD!" after a loss, "COMPLETED!" after a win.
- A loss shows only the mine that was hit (on red); the game allows undo after it, which
  minebot never uses: the loss is the game's end.
- A win turns every covered cell into a flag. There are no "?" marks.
"""

from __future__ import annotations

from ...rules import Rules
from ..profile import CounterKind, GameProfile, GridGeometry, GridKind, WindowMatch

WINDOW = WindowMatch(wm_class="sgt-mines")

LEVELS = {"beginner": (9, 9, 10), "intermediate": (16, 16, 40), "expert": (16, 30, 99)}
"""The usual three of the game's Type menu: name -> (rows, cols, mines). The menu also offers
denser boards of the same sizes (9x9/35, 16x16/99, 30x16/170): the status bar's total tells
them apart."""

PROFILE = GameProfile(
    name="sgt-mines",
    title="Simon Tatham's Mines",
    window=WINDOW,
    grid=GridGeometry(GridKind.BEVELLED, pitch=None, line=0, min_cols=3, min_rows=3),
    templates=("sgt-mines",),
    rules=Rules.ZERO,
    counter=CounterKind.STATUS_BAR,
    no_guess=True,
)
