"""Choosing a guess when no cell is certain.

Lowest probability alone throws away what a guess reveals. Each candidate (the safest frontier
cells, plus representative background cells: corners, edges, inner cells) is scored by a
one-step look-ahead: for every value v it could show, the position is re-counted exactly, which
gives both P(v) (layouts that show v over all layouts) and the safety of the best move in the
next position (1 when v makes some cell certain). The score is

    sum over v of P(v) * best_next_safety(v)  =  P(survive this guess and the next move),

with the chance of a certain cell afterwards ("progress") and the plain safety as tie-breaks.
That plain score is the ``Guesser``'s own default; the options weigh it further (the second
safest cell next, a cell's share in likely 50/50s, dead cells last), and ``Solver()`` switches
those on (``solver.DEFAULT_GUESSING``).
A 50/50 that no number outside it can ever resolve (unavoidable.py) is taken first: it must be
guessed anyway, and guessing it first risks nothing else in vain (where the exhaustive endgame
search can run, it decides instead: it knows which cell of the set is best).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import NamedTuple

from ..board import neighbours
from .backbone import any_certain_safe, frontier_bounds, frontier_solver
from .constraints import Constraints, Reveal
from .endgame import Endgame
from .fifty_fifty import FiftyFifties
from .lookahead import StepBudget, evaluation_steps, revealed_position, safety_of, two_best_safeties
from .probability import CountCache, Counts
from .two_guess import rescore_close_calls
from .unavoidable import unavoidable_fifty_fifty

Coord = tuple[int, int]


class GuessKind(str, Enum):
    """Which rule picked a guess; tools group guesses by it (the reason text is for people)."""

    SAFEST = "safest"              # no mine total, or a single candidate: the safest cell
    FORCED_FIFTY = "forced5050"    # a 50/50 nothing can ever resolve: taken at once
    ENDGAME = "endgame"            # the exhaustive endgame search's best cell
    PSEUDO_FIFTY = "pseudo"        # a mine only where it is half of an unresolvable 50/50
    LOOKAHEAD = "lookahead"        # the one-step look-ahead's best score
    BUDGET = "budget"              # look-ahead budget spent before any score: the safest cell
    TWO_GUESS = "twoguess"         # a close call settled by the two-guess look-ahead


@dataclass
class Choice:
    cell: Coord
    p_mine: float
    score: float
    reason: str
    kind: GuessKind


def _neighbours(shape: tuple[int, int], cell: Coord) -> list[Coord]:
    return list(neighbours(*shape, *cell))


DOMINANCE_GAP = 0.001   # safer by more than this, so rounding alone never swaps two cells


def dominating(cons: Constraints, safety: dict[Coord, float], chosen: Coord,
               others: list[Coord]) -> Coord | None:
    """The first of ``others`` that is safer than ``chosen`` (by more than DOMINANCE_GAP) and
    safe in every layout where ``chosen`` is safe; None if there is none.

    Such a cell dominates the guess: opening it first survives at least as often, and if
    ``chosen`` is still worth opening afterwards it can be opened then, knowing more; opening
    ``chosen`` first would only make that cell certain. A scored look-ahead can still prefer
    ``chosen`` when its weights (second safest, 50/50 influence, progress) count the certain
    cell it leaves behind. Frontier cells only (a background cell's safety is shared)."""
    if chosen not in cons.index:
        return None
    better = [c for c in others if c in cons.index and safety[c] > safety[chosen] + DOMINANCE_GAP]
    if not better:
        return None
    solver = frontier_solver(cons, "native", frontier_bounds(cons))
    try:
        a = cons.index[chosen] + 1
        for cell in better:
            if not solver.solve(assumptions=[-a, cons.index[cell] + 1]):   # no layout: chosen safe, cell a mine
                return cell
        return None
    finally:
        solver.delete()


class Guesser:
    """Scores guesses; keeps a component-count cache across the look-ahead's positions."""

    UNKNOWN_TOTAL_SAFETY = 0.8   # background guess without a mine total: typical density

    def __init__(self, cache: CountCache, candidates: int = 4, margin: float = 0.06,
                 background_reps: int = 2, endgame_layouts: int = 200, endgame_budget: int = 4000,
                 step_budget: int = 1200, progress_weight: float = 0.0, second_weight: float = 0.0,
                 fifty_weight: float = 0.0, pseudo_fifty: bool = False, close_margin: float = 0.0,
                 close_candidates: int = 3, close_budget: int = 20000, edge_background: int = 0,
                 living: bool = False, fifty_patterns: bool = False, blend_certain: bool = False,
                 dominance: bool = False, defer_dead: bool = False) -> None:
        if step_budget < 1:
            raise ValueError(f"step_budget must be at least 1, not {step_budget}")
        if progress_weight < 0 or not 0 <= second_weight <= 1:
            raise ValueError(f"progress_weight must be >= 0 and second_weight in [0, 1], "
                             f"not {progress_weight} and {second_weight}")
        # Score = sum_v P(v) * ((1 - second_weight) * best + second_weight * second best safety
        # next), times (1 + progress_weight * P(a certain cell follows)). Both 0 (the default):
        # P(survive this guess and the next move). The peer (JSMinesweeper) uses 0.2 and 0.2.
        self.progress_weight = progress_weight
        self.second_weight = second_weight
        # Score x (1 + fifty_weight x the share of the cell's safe layouts in which it is part of
        # a potential 50/50, see potential_fifty_fifty): such a cell will likely have to be
        # guessed at even odds anyway, so guessing it now costs less than its risk says. The
        # peer uses 0.9 (with its own pattern list); 0 (default) leaves it out.
        if fifty_weight < 0:
            raise ValueError(f"fifty_weight must be >= 0, not {fifty_weight}")
        self.fifty_weight = fifty_weight
        # With fifty_patterns the 50/50 influence also counts 2x2 boxes and the cells that would
        # complete a likely pattern (enablers), the pseudo-50/50 also boxes, and cells that such
        # influence brings within margin of the best join the candidates (fifty_fifty.py); as
        # JSMinesweeper's long-term-risk helper does. False (the default): pairs only.
        self.fifty_patterns = fifty_patterns
        self.pseudo_fifty = pseudo_fifty     # guess a pseudo-50/50 before the look-ahead
        # Close calls: when the best one-step scores are within close_margin, up to
        # close_candidates of them are compared by the two-guess look-ahead (two_guess.py),
        # within close_budget steps of its own. 0 (the default) leaves it out.
        if close_margin < 0 or close_candidates < 2 or close_budget < 1:
            raise ValueError(f"close_margin must be >= 0, close_candidates >= 2 and close_budget >= 1, "
                             f"not {close_margin}, {close_candidates} and {close_budget}")
        self.close_margin = close_margin
        self.close_candidates = close_candidates
        self.close_budget = close_budget
        self.step_budget = step_budget
        self.endgame_layouts = endgame_layouts
        self.endgame_budget = endgame_budget
        self.cache = cache
        self.candidates = candidates
        self.margin = margin
        self.background_reps = background_reps
        # Background cells two steps from a number, next to the frontier: the number they show
        # also counts frontier cells, so they can resolve the frontier where a far corner only
        # hopes for a 0 (the peer looks at such cells; the hybrid runs of peer_hybrid.py found its
        # off-frontier guesses better than minebot's). Up to this many are looked at besides
        # the representatives; 0 (the default) leaves them out.
        if edge_background < 0:
            raise ValueError(f"edge_background must be >= 0, not {edge_background}")
        self.edge_background = edge_background
        # The next move's safety counts living cells only (two_best_safeties): a guess whose
        # safe values leave only dead certain cells has gained nothing certain. False (the
        # default) counts every cell, as before.
        self.living = living
        # With blend_certain a value that leaves a certain cell is blended with the second
        # safest cell too (1 - second_weight x its risk) instead of counting as 1: one certain
        # cell with only risky ones behind it is less progress than several, as the peer
        # (JSMinesweeper) scores it. False (the default): a certain cell next counts as 1.
        self.blend_certain = blend_certain
        # With dominance the look-ahead's best cell gives way to a safer candidate that is safe
        # whenever it is (see dominating), as the peer does. False (the default): the best
        # score is played.
        self.dominance = dominance
        # With defer_dead a cell that can show only one value if safe (dead: opening it tells
        # nothing) is guessed only when every scored cell is dead. Deferring such a cell never
        # loses: whatever would follow it can be played first (its number adds nothing), and it is
        # opened at the end, or never if the rest proves it a mine. The one-step score misses
        # this (it charges the cell's risk now, as if it could never be avoided), and the peer
        # puts dead cells last too. False (the default): scored like any other cell.
        self.defer_dead = defer_dead

    def choose(self, cons: Constraints, counts: Counts) -> Choice:
        layouts = counts.layouts
        pool, safety = self.candidate_pool(cons, counts)
        if not counts.mines_known:
            cell = max(pool, key=lambda c: (safety[c], -self._covered_around(cons, c)))
            return Choice(cell, 1.0 - safety[cell], safety[cell], "safest cell", GuessKind.SAFEST)
        # Before the one-candidate shortcut: the endgame search weighs every cell, and where a
        # single cell is far safer than the rest it may still not be the one that wins most.
        if self.endgame_layouts and counts.layouts <= self.endgame_layouts:
            found = self._endgame(cons)
            if found is not None and found[0] is not None:
                cell, win = found
                p = 1.0 - safety.get(cell, safety_of(cons, counts, cell))
                return Choice(cell, p, win, f"endgame search over {counts.layouts} layouts: "
                                            f"{win:.1%} to win from here", GuessKind.ENDGAME)
        # After the endgame search: a cell of an unavoidable 50/50 wins as often as any (see
        # unavoidable.py), but not every cell of it does, and the search knows which.
        forced = unavoidable_fifty_fifty(cons, counts)
        if forced is not None:
            scored = self._score(cons, counts, forced, safety, None)
            cell = scored[0].cell if scored else forced[0]
            return Choice(cell, 0.5, 0.5, f"forced 50/50: no number outside these {len(forced)} cells can ever "
                                          "tell their two ways to hold the mines apart, so guess it now",
                          GuessKind.FORCED_FIFTY)
        fifties = FiftyFifties(cons, counts, self.cache) if self.fifty_weight or self.pseudo_fifty else None
        if fifties is not None and self.fifty_patterns and self.fifty_weight:
            self._add_influenced(pool, safety, counts, fifties)
        if len(pool) == 1:
            cell = pool[0]
            return Choice(cell, 1.0 - safety[cell], safety[cell], "safest cell", GuessKind.SAFEST)
        if fifties is not None and self.pseudo_fifty:
            pseudo = fifties.pseudo(self.fifty_patterns)
            if pseudo is not None:
                return Choice(pseudo, 1.0 - safety[pseudo], safety[pseudo],
                              "pseudo-50/50: a mine only where it is half of a 50/50 nothing can "
                              "resolve, so its risk comes anyway: take it now", GuessKind.PSEUDO_FIFTY)
        scored = self._score(cons, counts, pool, safety, fifties)
        ranked = self._ranked(cons, pool, safety)
        if not scored:
            cell = ranked[0]
            return Choice(cell, 1.0 - safety[cell], safety[cell], "safest cell (look-ahead step budget spent)",
                          GuessKind.BUDGET)
        best_living, score, progress, _clears, s, cell = scored[0]
        if self.dominance:
            others = [t.cell for t in scored[1:]]
            better = dominating(cons, safety, cell, others + [c for c in ranked if c not in others and c != cell])
            if better is not None:
                b = safety[better]
                return Choice(better, 1.0 - b, b, f"dominates the look-ahead's best cell {cell}: "
                                                   f"{b:.1%} safe against {s:.1%}, and safe whenever it is",
                              GuessKind.LOOKAHEAD)
        if self.close_margin:
            close = [(t.score, t.cell) for t in scored
                     if t.living == best_living and t.score >= score - self.close_margin][: self.close_candidates]
            if len(close) >= 2:
                found = rescore_close_calls(self, cons, close, safety, layouts, StepBudget(self.close_budget))
                if found is not None:
                    cell, deeper = found
                    s = safety[cell]
                    return Choice(cell, 1.0 - s, deeper,
                                  f"two-guess look-ahead over {len(close)} close calls: {s:.1%} safe now, "
                                  f"{deeper:.1%} to survive this and the next guess", GuessKind.TWO_GUESS)
        plain = not (self.progress_weight or self.second_weight or self.fifty_weight)   # a survival chance
        reason = (f"look-ahead: {s:.1%} safe now, "
                  + (f"{score:.1%} to survive the next move too, " if plain else f"score {score:.3f}, ")
                  + f"{progress:.0%} chance of a certain cell after it")
        return Choice(cell, 1.0 - s, score, reason, GuessKind.LOOKAHEAD)

    def _ranked(self, cons: Constraints, pool: list[Coord], safety: dict[Coord, float]) -> list[Coord]:
        """Safest first, then fewest unknown neighbours (more likely to open up)."""
        return sorted(pool, key=lambda c: (-safety[c], self._covered_around(cons, c)))

    def _score(self, cons: Constraints, counts: Counts, pool: list[Coord], safety: dict[Coord, float],
               fifties: FiftyFifties | None) -> list[_Scored]:
        """The look-ahead scores of the cells of ``pool`` worth scoring, best first.

        Safest first: a cell cannot score above its own safety, so once some cell's score
        beats another's safety that one need not be looked at (same choice, less work). Past
        the step budget the cells scored so far are all there is (none, if it ran out on the
        first). The budget counts work, not time, so the choice is reproducible (see
        evaluation_steps).
        """
        layouts = counts.layouts
        scored = []
        floor = -1.0
        budget = StepBudget(self.step_budget)
        for cell in self._ranked(cons, pool, safety):
            fifty = 1.0
            if fifties is not None and self.fifty_weight and safety[cell] > 0:
                # Integer over integer: on a huge board the layouts overflow a float.
                safe_layouts = layouts - fifties.mine_weight(cell)
                share = fifties.influence(cell, self.fifty_patterns) / safe_layouts
                fifty += self.fifty_weight * share
            lift = fifty * (1.0 + self.progress_weight)       # a score is at most safety x lift
            # Close calls need every score within close_margin of the best, not only the best.
            if safety[cell] * lift < floor - self.close_margin - 1e-9:
                continue
            found = self.bounded_look_ahead(cons, cell, layouts, safety[cell], floor - self.close_margin, budget, fifty)
            if found is None:
                if budget.spent:
                    break
                continue
            score = found.survive * fifty * (1.0 + self.progress_weight * found.progress)
            living = not (self.defer_dead and found.values == 1)
            if living:      # a deferred cell's score must not prune the living cells after it
                floor = max(floor, score)
            scored.append(_Scored(living, score, found.progress, found.clears if self.living else 0.0,
                                  safety[cell], cell))
            if budget.spent:
                break
        scored.sort(key=_Scored.rank, reverse=True)
        return scored

    def candidate_pool(self, cons: Constraints, counts: Counts) -> tuple[list[Coord], dict[Coord, float]]:
        """The cells worth a look-ahead, and the safety of each frontier cell and of them.

        The safest frontier cells within ``margin`` of the best safety (at most ``candidates``),
        plus a few background cells when the background is that safe too (or nothing else is
        left). Also what the two-guess look-ahead considers in the position after a guess, so
        both depths choose among the same kind of cells."""
        layouts = counts.layouts
        safety: dict[Coord, float] = {}
        for v, cell in enumerate(cons.cells):
            safety[cell] = 1.0 - counts.mine_weight[v] / layouts
        bg_safety = None
        if counts.background_weight is not None and cons.background:
            bg_safety = 1.0 - counts.background_weight / layouts
        elif cons.background:
            bg_safety = self.UNKNOWN_TOTAL_SAFETY
        best = max(list(safety.values()) + ([bg_safety] if bg_safety is not None else []))
        frontier = sorted((c for c in safety if safety[c] > 0), key=lambda c: -safety[c])
        pool = [c for c in frontier if safety[c] >= best - self.margin][: self.candidates]
        if bg_safety is not None and (bg_safety >= best - self.margin or not frontier):
            reps = self._background_reps(cons)
            reps += [c for c in self._edge_background(cons) if c not in reps]
            for cell in reps:
                safety[cell] = bg_safety
            pool += reps
        return pool, safety

    def _add_influenced(self, pool: list[Coord], safety: dict[Coord, float], counts: Counts,
                        fifties: FiftyFifties) -> None:
        """Cells of likely 50/50 patterns (and their enablers) whose safety plus 50/50
        influence comes within ``margin`` of the best safety join ``pool``: their risk will
        likely be taken anyway, so they are worth scoring even when plainly less safe."""
        layouts = counts.layouts
        best = max(safety[c] for c in pool) if pool else 0.0
        members, enablers = fifties.scan()
        for cell in sorted(set(members) | set(enablers)):
            if cell in pool:
                continue
            s = 1.0 - fifties.mine_weight(cell) / layouts
            if 0 < s and s + fifties.influence(cell, True) / layouts >= best - self.margin:
                pool.append(cell)
                safety[cell] = s

    def _endgame(self, cons: Constraints):
        search = Endgame.of_position(cons, self.endgame_layouts, self.endgame_budget)
        return None if search is None else search.best()

    def _covered_around(self, cons: Constraints, cell: Coord) -> int:
        unknown = set(cons.index) | set(cons.background)
        return sum(1 for x in _neighbours(cons.shape, cell) if x in unknown)

    def _background_reps(self, cons: Constraints) -> list[Coord]:
        """A few background cells, the ones most likely to open up: fewest unknown neighbours
        (corners, then edges), then most background neighbours (a zero there cascades)."""
        bg = set(cons.background)
        unknown = bg | set(cons.index)

        def key(cell: Coord):
            nb = _neighbours(cons.shape, cell)
            return (sum(1 for x in nb if x in unknown), -sum(1 for x in nb if x in bg), cell)

        ranked = sorted(cons.background, key=key)
        reps: list[Coord] = []
        kinds = set()
        for cell in ranked:
            k = key(cell)[0]
            if k in kinds:
                continue
            kinds.add(k)
            reps.append(cell)
            if len(reps) >= self.background_reps:
                break
        return reps

    def _edge_background(self, cons: Constraints) -> list[Coord]:
        """Up to ``edge_background`` background cells two cells straight out from a number with
        unknown neighbours (so each touches frontier cells): fewest unknown neighbours first (an
        edge cell's number speaks about fewer cells), then most frontier neighbours."""
        if not self.edge_background:
            return []
        background = set(cons.background)
        frontier = set(cons.index)
        witnesses = {w for cell in cons.cells for w in _neighbours(cons.shape, cell)} - frontier - background
        found = {(r + dr, c + dc) for r, c in witnesses for dr, dc in ((2, 0), (-2, 0), (0, 2), (0, -2))}
        found &= background

        def key(cell: Coord):
            nb = _neighbours(cons.shape, cell)
            return (sum(1 for x in nb if x in background or x in frontier), -sum(1 for x in nb if x in frontier), cell)

        return sorted(found, key=key)[: self.edge_background]

    def look_ahead(self, cons: Constraints, counts: Counts, cell: Coord) -> LookAhead:
        """The look-ahead's figures for guessing ``cell`` in this position, scored in full (no
        step budget, no pruning): what ``choose`` compares, for tools that score a cell it did
        not pick."""
        found = self.bounded_look_ahead(cons, cell, counts.layouts, safety_of(cons, counts, cell))
        assert found is not None    # no floor and no budget: never cut short
        return found

    def bounded_look_ahead(self, cons: Constraints, cell: Coord, layouts: int, safe: float = 1.0,
                           floor: float = -1.0, budget: "StepBudget | None" = None,
                           fifty: float = 1.0) -> LookAhead | None:
        """The look-ahead's figures for guessing ``cell`` (see LookAhead), cut short by a
        ``floor`` and a step ``budget`` (the two-guess look-ahead runs it inside its positions).

        None as soon as the score provably stays below ``floor``: what is left of the cell's
        safety, counted as certain survival, would still not reach it.
        """
        survive = progress = clears = 0.0
        seen = 0.0
        values = 0
        lift = fifty * (1.0 + self.progress_weight)
        reveal = Reveal(cons, cell)
        for value in range(len(_neighbours(cons.shape, cell)) + 1):
            if (survive + (safe - seen)) * lift < floor - 1e-9 or (budget is not None and budget.spent):
                return None
            found = revealed_position(reveal, value, self.cache)
            if found is None:
                continue
            nxt, counts = found
            if budget is not None:
                budget.spend(evaluation_steps(nxt, counts))
            p_value = counts.layouts / layouts
            seen += p_value
            values += 1
            if not (self.living or self.blend_certain) and any_certain_safe(nxt):
                # A SAT answer, cheaper than the per-cell counts' backward pass.
                safe_next, certain = 1.0, True
            else:
                first, second, certain = two_best_safeties(counts, nxt, self.living, reveal.changed)
                blended = first + self.second_weight * (second - first)
                safe_next = blended if self.blend_certain or not certain else 1.0
            survive += p_value * safe_next
            if certain:
                progress += p_value
                if self.living:
                    clears += p_value * sum(1 for w in counts.mine_weight if w == 0)
        return LookAhead(survive, progress, clears, values)


class _Scored(NamedTuple):
    """One scored candidate of ``Guesser.choose``. ``living`` is False only for a cell that
    ``defer_dead`` puts after the others."""

    living: bool
    score: float
    progress: float
    clears: float
    safety: float
    cell: Coord

    def rank(self) -> tuple:
        """The sort key, higher is better: living cells first, then the score, then (ties) the
        chance of a certain cell next, the expected clears and the safety now (rounded, so float
        noise breaks no tie)."""
        return (self.living, round(self.score, 12), round(self.progress, 12), round(self.clears, 9), self.safety)


class LookAhead(NamedTuple):
    """What the one-step look-ahead finds for one guess.

    ``survive``: sum over the values v the cell can show of P(v) x the next move's safety
    (1 when v leaves a certain cell; with ``second_weight``, blended with the second safest
    cell's). ``progress``: P(a certain cell follows). ``clears``: the expected number of
    certain safe frontier cells after it (counted with ``living`` only), a tie-break: of two
    guesses that score the same, the one that is expected to open more tells more. ``values``:
    how many values the cell can show if safe (1: the cell is dead, opening it tells nothing).
    """

    survive: float
    progress: float
    clears: float
    values: int
