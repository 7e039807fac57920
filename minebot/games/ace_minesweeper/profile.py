"""Ace of Penguins' minesweeper (Debian's ``ace-of-penguins``, ``/usr/games/ace-minesweeper``).

Facts from DJ Delorie's ``minesweeper.c`` and from running Debian's 1.5~rc2 under Xvfb
(``fixtures/CLONES.md``):

- Window: title "The Ace of Penguins - ace-minesweeper", no WM_CLASS at all, so the title is
  what finds it; a fixed 401x427.
- Grid: touching square sprites (the open green with a dotted edge, the covered grey raised
  tile), one size per board: keys 1-4 give 8x8/6 at 48 px, 11x11/20 at 36 px, 16x16/45 at
  24 px, 32x32/200 at 12 px (sprite sheets ``minesweeper-c48`` ... ``-c12``, PNG images
  compiled into the binary). The mine total is fixed per size. ``GridKind.BEVELLED``.
- Rules: the mines are placed uniformly when a game starts, before any click: the first click
  is not protected (``Rules.UNPROTECTED``). A win needs every mine flagged as well as every
  other cell open.
- Marks: the right button cycles covered -> flag -> "?" -> covered. At a loss the mine hit is
  shown on red, the other mines under covered cells on the open green, wrong flags crossed; a
  mine under a "?" stays a "?".
- Counter: three yellow digits at the top left (mines minus flags), not read: the board's size
  gives its mine total (``CounterKind.FIXED_TOTALS``). The penguin in the middle starts a new
  game when clicked, as do ``r`` and F2.
"""

from __future__ import annotations

from ...rules import Rules
from ..profile import CounterKind, GameProfile, GridGeometry, GridKind, WindowMatch

TITLE = "The Ace of Penguins - ace-minesweeper"

WINDOW = WindowMatch(title=TITLE)

BOARDS: dict[str, tuple[int, int, int]] = {"1": (8, 6, 48), "2": (11, 20, 36), "3": (16, 45, 24),
                                           "4": (32, 200, 12)}
"""The game's keys -> (size of the square board, mines, cell size in px)."""

PROFILE = GameProfile(
    name="ace-minesweeper",
    title="Ace of Penguins' minesweeper",
    window=WINDOW,
    grid=GridGeometry(GridKind.BEVELLED, pitch=None, line=0, min_cols=8, min_rows=8, dotted=5),
    templates=("ace-minesweeper",),
    rules=Rules.UNPROTECTED,
    counter=CounterKind.FIXED_TOTALS,
    totals=tuple((size, size, mines) for size, mines, _ in BOARDS.values()),
)
