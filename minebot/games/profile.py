"""What minebot must know about one Minesweeper clone, as a value: a ``GameProfile``.

Every layer that differs between games (finding the window, locating the lattice, the looks,
the rules, the mine counter, later how to start a game and see its end) asks the profile
instead of assuming GNOME Mines. A profile is a frozen value so it can be passed around,
compared and printed; the per-game folders (``gnome_mines``, ``xdemineur``, ``kmines``) each
define one ``PROFILE`` in their ``profile`` module, and ``minebot.games`` keeps the registry.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from ..rules import Rules


@dataclass(frozen=True)
class WindowMatch:
    """How a game's top-level window is recognised.

    ``title``: the exact window title, or None for any title; ``title_contains``: a substring
    the title must contain (case-insensitive); ``wm_class``: a substring of one of the
    WM_CLASS parts (case-insensitive), or a tuple of such substrings of which any will do (a
    game whose class changed between versions: GNOME Mines 40 is ``gnome-mines``, 48 and later
    ``org.gnome.Mines``). Substrings, because some games put their path into the class
    (xdemineur's instance is ``argv[0]``, e.g. ``/usr/games/xdemineur``) or a non-ASCII letter
    into their title (``xdémineur``, Latin-1).
    """

    title: str | None = None
    title_contains: str | None = None
    wm_class: str | tuple[str, ...] | None = None

    @property
    def classes(self) -> tuple[str, ...]:
        """The accepted WM_CLASS substrings (empty: any class)."""
        if self.wm_class is None:
            return ()
        return (self.wm_class,) if isinstance(self.wm_class, str) else tuple(self.wm_class)

    def class_matches(self, wm_class: tuple[str, ...]) -> bool:
        """Whether one of the window's WM_CLASS parts contains one of the accepted classes."""
        wanted = [c.lower() for c in self.classes]
        return not wanted or any(w in part.lower() for w in wanted for part in wm_class)

    def matches(self, title: str, wm_class: tuple[str, ...]) -> bool:
        """Whether a window with this title and WM_CLASS parts is the game's."""
        if self.title is not None and title != self.title:
            return False
        if self.title_contains is not None and self.title_contains.lower() not in title.lower():
            return False
        return self.class_matches(wm_class)


class GridKind(Enum):
    """How the game draws its lattice of cells (the locator picks its method by this)."""

    TILES = "tiles"
    """Separate filled tiles on a background colour, with gaps (GNOME Mines)."""
    LINES = "lines"
    """Cells of a fixed size separated by thin dark lines (xdemineur: 20 px cells, 1 px lines)."""
    BEVELLED = "bevelled"
    """Touching cells, each with its own raised bevel, scaled to the window (KMines, Simon Tatham's Mines)."""


@dataclass(frozen=True)
class GridGeometry:
    """What the locator may assume about a game's lattice.

    ``pitch``: the fixed distance between cell origins in pixels, or None when the board is
    scaled to the window; ``line``: the width of the lines between cells (0 when cells touch
    or when the gaps vary); ``min_cols``/``min_rows``: the smallest board the game offers
    (a smaller lattice is not this game's board); ``dotted``: the game draws some cell sides
    as dotted lines, with dots this many pixels apart at most (Ace of Penguins' open cells),
    which the lattice locator joins into solid sides (0: every side is drawn solid).
    """

    kind: GridKind
    pitch: int | None = None
    line: int = 0
    min_cols: int = 4
    min_rows: int = 4
    dotted: int = 0


class CounterKind(Enum):
    """Where and how the game shows its mine count."""

    NONE = "none"
    FLAGS_OF_TOTAL = "flags-of-total"
    """GNOME Mines: a "flags/total" label in the window's font beside the board."""
    SEVEN_SEGMENT_LEFT = "seven-segment-left"
    """xdemineur: a red 7-segment display of mines minus flags above the board's left side."""
    STATUS_BAR = "status-bar"
    """A status bar under the board that shows "F/T" or "F / T" after a word (F = flags
    placed, T = total): KMines' "Mines: 2/10", Simon Tatham's Mines' "Marked: 2 / 10"."""
    FIXED_TOTALS = "fixed-totals"
    """No count is read from the frame, but every board size the game offers has one mine
    total, which the profile's ``totals`` declare (Ace of Penguins': 8x8 always has 6)."""


@dataclass(frozen=True)
class GameProfile:
    """One clone: its name, window, lattice, looks, rules and counter.

    ``templates``: the shipped template sets made for this game, the default look first;
    ``rules``: a rule set of ``minebot.rules.Rules`` (where mines may go relative to the
    first click); ``no_guess``: the game only deals boards that logic alone solves from the
    first opening (Simon Tatham's Mines), so ``bench --game`` plays such boards. How to start
    a new game and see a win or a loss is the game's ``GameUI``
    (``minebot.games.interfaces.UIS``), kept apart so that a profile stays data that the
    reader, the calibration and the engine use without the live side.
    """

    name: str
    title: str
    window: WindowMatch
    grid: GridGeometry
    templates: tuple[str, ...]
    rules: Rules
    counter: CounterKind
    no_guess: bool = False
    totals: tuple[tuple[int, int, int], ...] = ()
    """(rows, cols, mines) of every board a ``CounterKind.FIXED_TOTALS`` game offers."""

    def __str__(self) -> str:
        return self.name
