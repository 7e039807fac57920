"""Safe cells that one number, or two overlapping numbers, prove on their own.

Why: the look-ahead asks, for every value a guessed cell could show, how safe the two safest
cells of the next position are. When two cells are certainly safe the answer is (1, 1) with no
per-cell count at all, and the per-cell counts (the counting DP's backward pass and the
weighting of every cell) are most of a look-ahead's cost. About a third of the look-ahead's
positions on expert have two such cells that a number alone or a pair of numbers proves, so a
cheap sound test spares their counts; anything it misses is counted as before.

The rule for a pair A, B of numbers sharing cells: the shared cells hold at least
``need_A - |A \\ B|`` of A's mines; when that is already ``need_B``, the cells of B outside A
hold none. A number that needs no mine proves its cells safe alone. Only safe cells are looked for:
certain mines do not make the next move free.
"""

from __future__ import annotations

from typing import Iterable

from .constraints import Constraints


def two_certain_safe(cons: Constraints, among: Iterable[int] | None = None) -> bool:
    """Whether the numbers alone or in pairs prove at least two frontier cells safe.

    Sound, not complete: True only when two cells are safe in every layout; False says
    nothing (the SAT backbone or the counts may still find safe cells). ``among``: see
    ``pair_safe_cells``."""
    return len(pair_safe_cells(cons, 2, among)) >= 2


def pair_safe_cells(cons: Constraints, enough: int | None = None,
                    among: Iterable[int] | None = None) -> set[int]:
    """Frontier variables that a number alone or a pair of numbers proves safe; the search
    stops once ``enough`` are found (None: all of them).

    ``among`` (indices into ``cons.numbers``) limits the search to the numbers given and the
    pairs with one of them in: the look-ahead passes the numbers a reveal changed, since the
    pairs it left alone proved nothing in the position before (it had no certain cell)."""
    limit = enough if enough is not None else cons.frontier_size + 1
    numbers = cons.numbers
    chosen = range(len(numbers)) if among is None else tuple(among)
    safe: set[int] = set()
    for j in chosen:
        if numbers[j].need == 0:
            safe.update(numbers[j].vars)
            if len(safe) >= limit:
                return safe
    owners: dict[int, list[int]] = {}
    for j, number in enumerate(numbers):
        for v in number.vars:
            owners.setdefault(v, []).append(j)
    sets: dict[int, frozenset[int]] = {}
    for j in chosen:
        a = sets.get(j) or sets.setdefault(j, frozenset(numbers[j].vars))
        need_a = numbers[j].need
        for k in {k for v in numbers[j].vars for k in owners[v] if k != j}:
            b = sets.get(k) or sets.setdefault(k, frozenset(numbers[k].vars))
            need_b = numbers[k].need
            # The shared cells hold at least need_A - |A \ B| of A's mines; if that is need_B
            # already, B's own cells hold none (and the same the other way round).
            if need_a - len(a - b) >= need_b:
                safe.update(b - a)
            elif among is not None and need_b - len(b - a) >= need_a:
                safe.update(a - b)
            else:
                continue
            if len(safe) >= limit:
                return safe
    return safe
