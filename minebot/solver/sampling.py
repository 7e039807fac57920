"""Exact uniform sampling of whole mine layouts that agree with a position.

Rollouts (``benchmarks/rollouts.py``) estimate how often a guess wins by playing it out on
layouts drawn from the position; their estimate is only unbiased if every consistent layout is
drawn equally often. Rejection (draw mines at random, keep the layouts that fit) is hopeless on
an expert board, and drawing cells one by one from their marginal probabilities is biased, so
the draw follows the exact counts instead, in three steps, all in Python integers:

1. the number of mines in every frontier component and in the background, jointly, each
   combination weighted by ``prod_c total_c[k_c] * C(U, M - sum_c k_c)`` (the weight the
   probabilities in ``probability.py`` use), drawn component after component with the suffix
   products of the later components' counts;
2. inside each component a layout with exactly its k mines: the counting DP's states are walked
   forward, and each cell is a mine with probability (completions with one mine fewer after the
   mine branch) / (completions of the state), from a backward table of completions per state;
3. the background mines: a uniform subset of the background cells.

Each step is uniform given the previous ones and the weights are the exact layout counts, so the
result is uniform over all layouts. A position with no known mine total has no uniform
distribution over full layouts (the background is unbounded), so it is refused.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb

import numpy as np

from ..errors import BadInputError, InconsistentBoardError
from .constraints import Constraints
from .counting import backward_pass, convolve, forward_pass, unpack

Coord = tuple[int, int]


def below(rng: np.random.Generator, n: int) -> int:
    """A uniform integer in [0, n), exact for integers of any size (layout counts overflow int64)."""
    if n < 1 << 62:
        return int(rng.integers(n))
    bits = n.bit_length()
    size = (bits + 7) // 8
    while True:     # at most two tries on average: the first ``bits`` bits are below 2n
        x = int.from_bytes(rng.bytes(size), "little") >> (8 * size - bits)
        if x < n:
            return x


def pick(rng: np.random.Generator, weights: list[int]) -> int:
    """An index drawn with probability proportional to its exact integer weight."""
    x = below(rng, sum(weights))
    for i, w in enumerate(weights):
        x -= w
        if x < 0:
            return i
    raise AssertionError("unreachable: x < sum(weights)")


@dataclass
class _Component:
    """One component's DP, kept whole so that layouts can be drawn from it again and again.

    ``completions[i][state]`` is the packed polynomial of the ways to finish cells i.. of
    ``order`` from ``state`` (coefficient k: with k more mines), ``bits`` bits per coefficient.
    """

    order: list[int]            # frontier variables in DP order
    links: list[dict]
    completions: list[dict]
    bits: int
    total: list[int]            # layouts of the component by mine count

    @classmethod
    def build(cls, cells: list[int], numbers: list[tuple[tuple[int, ...], int]]) -> "_Component | None":
        order, _forward, links, bits = forward_pass(cells, numbers)
        n = len(order)
        completions, _ = backward_pass(links, n, bits)
        root = completions[0].get(0)
        if not root:
            return None
        return cls(order, links, completions, bits, unpack(root, n + 1, bits))

    def draw(self, rng: np.random.Generator, mines: int) -> list[int]:
        """The variables that are mines in a uniform layout of this component with ``mines`` mines."""
        bits, mask = self.bits, (1 << self.bits) - 1
        state = 0
        left = mines
        chosen: list[int] = []
        for i, var in enumerate(self.order):
            t0, t1 = self.links[i][state]
            after = self.completions[i + 1]
            w0 = (after.get(t0, 0) >> (left * bits)) & mask if t0 is not None else 0
            w1 = (after.get(t1, 0) >> ((left - 1) * bits)) & mask if t1 is not None and left else 0
            if below(rng, w0 + w1) < w1:
                chosen.append(var)
                state, left = t1, left - 1
            else:
                state = t0
        return chosen


class LayoutSampler:
    """Uniform random layouts of one position: build once (the DP), then ``draw`` many times.

    ``layouts`` is the exact number of layouts the draws are uniform over (the same number as
    ``Counts.layouts``). Raises ``BadInputError`` without a mine total and
    ``InconsistentBoardError`` when no layout fits.
    """

    def __init__(self, cons: Constraints) -> None:
        if cons.mines_left is None:
            raise BadInputError("layouts cannot be drawn uniformly without the mine total: "
                                "the position's board has none")
        self.shape = cons.shape
        self.cells = cons.cells
        self.background = cons.background
        self.mines = cons.mines_left
        comps = []
        for comp in cons.components:
            built = _Component.build(comp.vars, [(cons.numbers[j].vars, cons.numbers[j].need)
                                                 for j in comp.numbers])
            if built is None:
                raise InconsistentBoardError("no mine layout agrees with the numbers", [])
            comps.append(built)
        self.components = comps
        # suffix[c]: layouts of components c.. by their mines together.
        self._suffix = [[1]] * (len(comps) + 1)
        for c in range(len(comps) - 1, -1, -1):
            self._suffix[c] = convolve(comps[c].total, self._suffix[c + 1])
        self._rest: dict[tuple[int, int], int] = {}
        self.layouts = self._weight_after(0, 0)
        if self.layouts == 0:
            raise InconsistentBoardError(f"no mine layout agrees with the numbers and {self.mines} "
                                         "mine(s) left", [])

    def _weight_after(self, c: int, used: int) -> int:
        """Layouts of components c.. and the background, given ``used`` mines before c."""
        key = (c, used)
        found = self._rest.get(key)
        if found is None:
            u, rest = len(self.background), self.mines - used
            found = sum(q * comb(u, rest - j) for j, q in enumerate(self._suffix[c]) if q and 0 <= rest - j <= u)
            self._rest[key] = found
        return found

    def draw(self, rng: np.random.Generator) -> np.ndarray:
        """One layout, as a boolean array of the board's shape (True: a mine).

        Only the position's unknown cells can be True; mines the board already shows (after a
        loss) are not part of it.
        """
        mine = np.zeros(self.shape, dtype=bool)
        used = 0
        for c, comp in enumerate(self.components):
            k = pick(rng, [t * self._weight_after(c + 1, used + k) if t else 0
                           for k, t in enumerate(comp.total)])
            used += k
            for var in comp.draw(rng, k):
                mine[self.cells[var]] = True
        rest = self.mines - used
        if rest:
            rows, cols = np.array(self.background, dtype=np.intp).T
            chosen = rng.choice(len(self.background), rest, replace=False)
            mine[rows[chosen], cols[chosen]] = True
        return mine

    def draws(self, rng: np.random.Generator, n: int) -> list[np.ndarray]:
        """``n`` independent layouts."""
        return [self.draw(rng) for _ in range(n)]
