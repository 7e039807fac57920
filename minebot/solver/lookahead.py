"""What the one-step look-ahead (``strategy.Guesser``) and the two-guess look-ahead
(``two_guess``) share: the position after a guessed cell shows a value, the safeties of the
next move there, and the step budget both spend.

Why a module of its own: the two-guess look-ahead runs the one-step look-ahead inside each of
its positions, and the one-step look-ahead calls the two-guess one for its close calls; with
these pieces apart, each imports only this module and the other one in one direction.
"""

from __future__ import annotations

from .constraints import Constraints, Reveal
from .dead_cells import DeadCells, first_living
from .pair_rules import two_certain_safe
from .probability import CountCache, Counts, count_position

Coord = tuple[int, int]


def two_best_safeties(counts: Counts, cons: Constraints, living: bool = False,
                      changed: tuple[int, ...] | None = None) -> tuple[float, float, bool]:
    """(safest, second safest unknown cell's safety, whether some cell is certainly safe).

    Cells that are mines in every layout are never played, so they do not count; with one
    playable cell the second safety is the first (nothing else to fall back on). A position
    whose unknown cells are all certain mines is won: both 1.

    With ``living``, dead cells (see dead_cells) do not count either, certain or not: opening
    one shows a number already known, so the position after it is the same position, and the
    move that matters is the safest living one. When every playable cell is dead, all count.

    Two cells that the numbers prove safe alone or in pairs (``pair_rules``) answer (1, 1)
    before any per-cell count is made: the same answer, without the counting's backward pass.
    ``changed`` (``Reveal.changed``) limits that search to the pairs a reveal changed.
    """
    if not living and two_certain_safe(cons, changed):
        return 1.0, 1.0, True
    layouts = counts.layouts
    ranked = sorted((w, v) for v, w in enumerate(counts.mine_weight) if w < layouts)
    background = counts.background_weight is not None and bool(cons.background) and counts.background_weight < layouts
    if living and ranked:
        alive = first_living(ranked, DeadCells(cons, counts), 2)
        ranked = alive if alive or background else ranked
    weights = [w for w, _ in ranked[:2]]
    if background:
        weights += [counts.background_weight] * min(2, len(cons.background))
    if not weights:
        return 1.0, 1.0, True
    lowest = sorted(weights)[:2]
    best = 1.0 - lowest[0] / layouts
    return best, 1.0 - lowest[-1] / layouts, lowest[0] == 0


def evaluation_steps(nxt: Constraints, counts: Counts) -> int:
    """The work of one look-ahead evaluation, in steps: one per frontier cell (constraints and
    SAT check) plus one per four counting-DP states (``ComponentCounts.work``).

    Counted, not timed, so a guess depends only on the position: the same on a loaded or an
    idle machine, in a live run and in its replay. About 0.025 ms of CPU per step on the
    project's machines (measured at f2310d7), so the default's budget (``DEFAULT_GUESSING``, 20000 steps)
    bounds one guess's look-ahead at about half a second. Most guesses need far less: the
    pruning by safety stops early, and on expert the slowest 1% of all moves stay under the
    default's 100 ms target (benchmarks/README.md, "Solver speed").
    """
    return nxt.frontier_size + sum(cc.work for cc in counts.components) // 4


def revealed_position(reveal: Reveal, value: int,
                      cache: CountCache | None) -> tuple[Constraints, Counts] | None:
    """The position after the reveal's cell opens safe and shows ``value``, with its exact
    counts; None when no layout shows that value there (both look-aheads try every value 0-8)."""
    nxt = reveal.show(value)
    if nxt is None:
        return None
    counts = count_position(nxt, cache)
    if counts is None or counts.layouts == 0:
        return None
    return nxt, counts


def safety_of(cons: Constraints, counts: Counts, cell: Coord) -> float:
    """P(``cell`` is safe): a frontier cell's own count, any other unknown cell the background's."""
    if cell in cons.index:
        return 1.0 - counts.mine_weight[cons.index[cell]] / counts.layouts
    return 1.0 - (counts.background_weight or 0) / counts.layouts


class StepBudget:
    """Steps left for one guess's look-ahead (counted with ``evaluation_steps``), shared by
    the one-step look-ahead and the two-guess look-ahead that compares its close calls."""

    def __init__(self, steps: int) -> None:
        self.left = steps

    def spend(self, steps: int) -> None:
        self.left -= steps

    @property
    def spent(self) -> bool:
        return self.left <= 0
