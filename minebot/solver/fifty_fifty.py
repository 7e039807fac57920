"""Patterns that may end in a 50/50 no number can resolve, and how much of a cell's risk they explain.

Two kinds of pattern are unresolvable when they hold their mines in a certain way:

- a *pair*: two unknown cells side by side with one mine. Every cell beside them sees both, so
  only the cells beyond their two ends (up to six) could tell them apart; if those are all off
  the board or mines, nothing ever will;
- a *box*: 2x2 unknown cells with the mines on one diagonal. Every cell along a side sees one
  mine either way; only the four cells diagonally off its corners could tell, so again, if
  those are off the board or mines, nothing will.

The cells beyond the ends (or corners) that are not yet certain mines are the pattern's
*missing* cells. For a pattern, its tally is the number of layouts in which the missing cells
are mines and the pattern holds its mines the first way (the swapped way has as many). A cell
in such a pattern will likely have to be guessed at even odds sooner or later, so guessing it
now costs less than its bare risk says; so does a missing cell (an *enabler*), whose being a
mine is what would make the pattern unresolvable. These are JSMinesweeper's "50/50 influence"
ingredients (its LongTermRiskHelper); the counting here is minebot's own, exact with
``with_fixed``.
"""

from __future__ import annotations

from dataclasses import dataclass

from .constraints import Constraints, with_fixed
from .probability import CountCache, Counts, count_position

Coord = tuple[int, int]

ENABLER_SHARE = 0.025      # a pattern gives its missing cells influence above this chance of a 50/50


@dataclass(frozen=True)
class Pattern:
    """Cells that are an unresolvable 50/50 when ``mines`` are mines, ``safe`` are safe and
    every cell of ``ends`` on the board is a mine."""

    mines: tuple[Coord, ...]
    safe: tuple[Coord, ...]
    ends: tuple[Coord, ...]

    @property
    def cells(self) -> tuple[Coord, ...]:
        return self.mines + self.safe


def _pair(a: Coord, b: Coord) -> Pattern:
    (r, c), (r2, c2) = a, b
    if r == r2:       # side by side: the ends are the columns c - 1 and c + 2
        ends = tuple((r + dr, c1) for c1 in (c - 1, c2 + 1) for dr in (-1, 0, 1))
    else:             # one above the other: the ends are the rows r - 1 and r + 2
        ends = tuple((r1, c + dc) for r1 in (r - 1, r2 + 1) for dc in (-1, 0, 1))
    return Pattern((a,), (b,), ends)


def _box(r: int, c: int) -> Pattern:
    """The box with top-left cell (r, c), mines on the main diagonal."""
    return Pattern(((r, c), (r + 1, c + 1)), ((r, c + 1), (r + 1, c)),
                   ((r - 1, c - 1), (r - 1, c + 2), (r + 2, c - 1), (r + 2, c + 2)))


def pairs_through(cell: Coord) -> list[Pattern]:
    """The four pairs holding ``cell``, each with its first cell the mine."""
    r, c = cell
    return [_pair((r, c - 1), (r, c)), _pair((r, c), (r, c + 1)),
            _pair((r - 1, c), (r, c)), _pair((r, c), (r + 1, c))]


def boxes_through(cell: Coord) -> list[Pattern]:
    """The four boxes holding ``cell``."""
    r, c = cell
    return [_box(r0, c0) for r0 in (r - 1, r) for c0 in (c - 1, c)]


def every_pattern(shape: tuple[int, int]) -> list[Pattern]:
    """Every pair and box on a board of ``shape`` (the board scan for enablers)."""
    rows, cols = shape
    found = [_pair((r, c), (r, c + 1)) for r in range(rows) for c in range(cols - 1)]
    found += [_pair((r, c), (r + 1, c)) for r in range(rows - 1) for c in range(cols)]
    found += [_box(r, c) for r in range(rows - 1) for c in range(cols - 1)]
    return found


class FiftyFifties:
    """Pattern tallies on one position, each counted once."""

    def __init__(self, cons: Constraints, counts: Counts, cache: CountCache | None = None) -> None:
        self.cons = cons
        self.counts = counts
        self.cache = cache
        self.unknown = set(cons.index) | set(cons.background)
        weights = counts.mine_weight
        background_mine = bool(cons.background) and counts.background_weight == counts.layouts
        self.certain_mines = {cell for v, cell in enumerate(cons.cells) if weights[v] == counts.layouts}
        if background_mine:
            self.certain_mines |= set(cons.background)
        self._tallies: dict[Pattern, int] = {}
        self._scan: tuple[dict[Coord, int], dict[Coord, int]] | None = None

    def mine_weight(self, cell: Coord) -> int:
        cons, counts = self.cons, self.counts
        return counts.mine_weight[cons.index[cell]] if cell in cons.index else (counts.background_weight or 0)

    def missing(self, pattern: Pattern) -> list[Coord] | None:
        """The pattern's ends that are not yet certain mines; None when the pattern cannot form
        here (a cell of it is revealed or a certain mine, or an end is revealed)."""
        rows, cols = self.cons.shape
        if not all(x in self.unknown and x not in self.certain_mines for x in pattern.cells):
            return None
        out = []
        for x in pattern.ends:
            if not (0 <= x[0] < rows and 0 <= x[1] < cols):
                continue
            if x not in self.unknown:
                return None        # a revealed end cell tells the pattern's cells apart
            if x not in self.certain_mines:
                out.append(x)
        return out

    def tally(self, pattern: Pattern, max_missing: int) -> int:
        """Layouts in which the pattern is an unresolvable 50/50 held the first way; 0 when it
        cannot be, or needs more than ``max_missing`` missing cells (or more mines than are left)."""
        missing = self.missing(pattern)
        if missing is None or len(missing) > max_missing:
            return 0
        mines_left = self.cons.mines_left
        if mines_left is not None and len(missing) + len(pattern.mines) > mines_left:
            return 0
        if pattern not in self._tallies:
            found = count_position(with_fixed(self.cons, [*missing, *pattern.mines], list(pattern.safe)), self.cache)
            self._tallies[pattern] = found.layouts if found is not None else 0
        return self._tallies[pattern]

    def scan(self) -> tuple[dict[Coord, int], dict[Coord, int]]:
        """The likely patterns of the whole board (a pair short of at most one end mine, a box
        of at most two, with a chance of being a 50/50 above ENABLER_SHARE): per cell in one, and
        per missing cell that would complete one (an enabler), the sum of their tallies."""
        if self._scan is None:
            members: dict[Coord, int] = {}
            enablers: dict[Coord, int] = {}
            layouts = self.counts.layouts
            for pattern in every_pattern(self.cons.shape):
                limit = 1 if len(pattern.mines) == 1 else 2
                missing = self.missing(pattern)
                if missing is None or len(missing) > limit:
                    continue
                tally = self.tally(pattern, limit)
                if 2 * tally / layouts <= ENABLER_SHARE:     # int / int: huge counts stay finite
                    continue
                for group, cells in ((members, pattern.cells), (enablers, missing)):
                    for x in cells:
                        group[x] = group.get(x, 0) + tally
            self._scan = (members, enablers)
        return self._scan

    def influence(self, cell: Coord, boxes: bool = False) -> int:
        """Layouts in which ``cell``'s risk is a 50/50's: the pairs through it (up to three
        missing cells each), with ``boxes`` also the likeliest box through it and the patterns it
        would complete as an enabler; at most the cell's mine and safe layouts."""
        total = sum(self.tally(p, 3) for p in pairs_through(cell))
        if boxes:
            total += max(self.tally(p, 3) for p in boxes_through(cell))
            total += self.scan()[1].get(cell, 0)
        mine = self.mine_weight(cell)
        return min(total, mine, self.counts.layouts - mine)

    def pseudo(self, boxes: bool = False) -> Coord | None:
        """The safest frontier cell that is a mine only where it is part of one pattern short of
        at most one end mine (a pair; with ``boxes`` also a box short of at most two)."""
        found = None
        layouts = self.counts.layouts
        for v, cell in enumerate(self.cons.cells):
            weight = self.counts.mine_weight[v]
            if not 0 < weight < layouts or (found is not None and weight >= found[0]):
                continue
            if any(self.tally(p, 1) == weight for p in pairs_through(cell)) or \
                    (boxes and any(self.tally(p, 2) == weight for p in boxes_through(cell))):
                found = (weight, cell)
        return None if found is None else found[1]


def potential_fifty_fifty(cons: Constraints, counts: Counts, cell: Coord, cache: CountCache | None = None,
                          boxes: bool = False) -> int:
    """Layouts in which ``cell``'s risk is that of a 50/50 nothing can resolve (see
    FiftyFifties.influence): JSMinesweeper's "50/50 influence" of the cell."""
    return FiftyFifties(cons, counts, cache).influence(cell, boxes)


def pseudo_fifty_fifty(cons: Constraints, counts: Counts, cache: CountCache | None = None,
                       boxes: bool = False) -> Coord | None:
    """The safest frontier cell that is a mine only where it is half of a 50/50 nothing can resolve.

    In every layout where such a cell is a mine, it is part of one pattern (with at most one
    end cell still to be a mine; a box, at most two); swapping the pattern's mines gives as many
    layouts where it is safe. So the cell is "a 50/50 or safe": its risk has to be taken sooner
    or later, and taking it now gains its number at no extra risk. The peer calls this a
    pseudo-50/50 and guesses it at once."""
    return FiftyFifties(cons, counts, cache).pseudo(boxes)
