"""Exact layout counts for one frontier component, without visiting each layout.

A counting DP walks the component's cells in a fixed order. After deciding the first i cells,
what matters for the rest is only how many mines each *partly assigned* number still needs, so
the state is that tuple of needs and each state carries a polynomial: entry p counts the
prefix layouts with p mines. Going forward gives the count of layouts per number of mines;
going backward (completions per state, again by mines) and combining the two around each cell
gives, for every cell, how many layouts with k mines make it a mine. All in exact integers.

The cell order keeps the set of partly assigned numbers small (greedy: next the cell that
shares the most numbers with the open ones), which is what keeps tangled frontiers in
milliseconds where plain enumeration takes seconds.
"""

from __future__ import annotations

from functools import lru_cache
from operator import itemgetter

import numpy as np

INT64_SAFE = 1 << 62


class ComponentCounts:
    """Counts for one component with n cells.

    ``total[k]``: layouts with k mines (k = 0..n). ``mine[i][k]``: those of them where cell
    ``cells[i]`` (a frontier variable) is a mine. ``mine`` needs the backward pass, which is
    run on first use: the look-ahead often needs only the totals. ``work`` is the number of DP
    states the forward pass visited: a measure of the counting's cost that, unlike a clock,
    is the same on every machine and every run (the guesser's budget is counted in it).
    """

    def __init__(self, cells: list[int], total: list[int], mine=None, backward=None,
                 work: int = 0) -> None:
        self.cells = cells
        self.total = total
        self.work = work
        self._mine = mine
        self._backward = backward      # callable computing ``mine``, or a ComponentCounts

    @property
    def mine(self) -> list[list[int]]:
        if self._mine is None:
            source = self._backward
            self._mine = source.mine if isinstance(source, ComponentCounts) else source()
            self._backward = None
        return self._mine

    def relabelled(self, cells: list[int]) -> "ComponentCounts":
        """The same counts for the same cells under other variable numbers."""
        if self._mine is not None:
            return ComponentCounts(cells, self.total, self._mine, work=self.work)
        return ComponentCounts(cells, self.total, None, self, work=self.work)

    @property
    def layouts(self) -> int:
        return sum(self.total)


def _order(cells: list[int], numbers: tuple[tuple[int, ...], ...]) -> list[int]:
    """Greedy elimination order that keeps few numbers open at a time.

    Next is the cell in the most already-open numbers (ties: the one closing most of them,
    then the one opening fewest new numbers); scores are kept up to date incrementally.
    """
    of_cell: dict[int, list[int]] = {v: [] for v in cells}
    for j, vs in enumerate(numbers):
        for v in vs:
            of_cell[v].append(j)
    # The key (open numbers holding the cell, numbers it would close, fewest unopened, lowest
    # variable) packed into one int per cell, so that picking the next cell is a C-level max.
    # A cell is in at most 9 numbers (8 neighbours, one fixed-cell number), so 5 bits a field.
    span = max(cells) + 1
    weight_unopened = 1 << span.bit_length()
    weight_closing = weight_unopened << 5
    weight_open = weight_closing << 5
    score = {v: (31 - len(of_cell[v])) * weight_unopened + span - v for v in cells}
    remaining = set(cells)
    left = [len(vs) for vs in numbers]         # unplaced cells per number
    opened = [False] * len(numbers)
    order: list[int] = []
    touching: set[int] = set()                 # unplaced cells in an open number
    best = min(cells, key=lambda v: (len(of_cell[v]), v))
    while True:
        order.append(best)
        remaining.discard(best)
        touching.discard(best)
        for j in of_cell[best]:
            vs = numbers[j]
            if not opened[j]:
                opened[j] = True
                for v in vs:
                    score[v] += weight_open + weight_unopened     # one more open, one fewer unopened
                    if v in remaining:
                        touching.add(v)
            left[j] -= 1
            if left[j] == 1:
                for v in vs:
                    if v in remaining:
                        score[v] += weight_closing
        if not remaining:
            return order
        best = max(touching or remaining, key=score.__getitem__)


def _picker(keep: list[int]):
    """A fast ``lambda vals: tuple(vals[t] for t in keep)``."""
    if not keep:
        return lambda vals: ()
    if len(keep) == 1:
        k = keep[0]
        return lambda vals: (vals[k],)
    return itemgetter(*keep)


def field_bits(n: int) -> int:
    """Bits per coefficient when a polynomial is packed into one integer.

    Every coefficient the DP ever holds counts assignments of at most n cells, so it is below
    2**n; products of a prefix and a suffix count layouts, also below 2**n. n + 2 bits (rounded
    to whole bytes, at least 64) can therefore never carry into the next field.
    """
    return max(64, -(-(n + 2) // 8) * 8)


def unpack(value: int, fields: int, bits: int) -> list[int]:
    """The coefficients of a packed polynomial (little end first).

    Wide fields (components of more than 62 cells) mostly hold counts that still fit in 64
    bits, so numpy splits every field into its low 8 bytes and the rest at once, and only when
    some high part is not zero are the fields joined one by one in Python (the per-cell mine
    counts of large components are unpacked tens of thousands of times an expert game)."""
    size = bits // 8
    raw = value.to_bytes(fields * size, "little")
    if bits == 64:
        return np.frombuffer(raw, dtype="<u8").tolist()
    table = np.frombuffer(raw, dtype=np.uint8).reshape(fields, size)
    low = np.ascontiguousarray(table[:, :8]).view("<u8").ravel().tolist()
    high = table[:, 8:]
    if not high.any():
        return low
    return [int.from_bytes(raw[k * size:(k + 1) * size], "little") for k in range(fields)]


def unpack_many(values: list[int], fields: int, bits: int) -> list[list[int]]:
    """``[unpack(v, fields, bits) for v in values]`` with one numpy pass over all of them: the
    backward pass unpacks one polynomial per cell, and numpy's cost per call was most of it."""
    if not values:
        return []
    size = bits // 8
    raw = b"".join([v.to_bytes(fields * size, "little") for v in values])
    if bits == 64:
        return np.frombuffer(raw, dtype="<u8").reshape(len(values), fields).tolist()
    table = np.frombuffer(raw, dtype=np.uint8).reshape(len(values) * fields, size)
    if not table[:, 8:].any():
        return np.ascontiguousarray(table[:, :8]).view("<u8").reshape(len(values), fields).tolist()
    return [unpack(v, fields, bits) for v in values]


def count_component(cells: list[int], numbers: list[tuple[tuple[int, ...], int]]) -> ComponentCounts | None:
    """Count the layouts of one component; None when it has none.

    ``numbers`` are ``(vars, need)`` pairs whose vars all lie in ``cells``. A polynomial in
    the number of mines is packed into one Python integer, ``bits`` bits per coefficient
    (Kronecker substitution): adding polynomials is one integer addition, "one more mine" is
    a shift, and the prefix x suffix products are integer multiplications, all exact.
    """
    order, forward, links, bits = forward_pass(cells, numbers)
    n = len(order)
    final = forward[-1].get(())
    if not final:
        return None
    return ComponentCounts(order, unpack(final, n + 1, bits), None,
                           lambda: _backward(forward, links, n, bits),
                           work=sum(len(states) for states in forward))


def forward_pass(cells: list[int], numbers: list[tuple[tuple[int, ...], int]]
                 ) -> tuple[list[int], list[dict[tuple, int]], list[dict[tuple, tuple]], int]:
    """The forward DP: ``(order, forward, links, bits)``.

    ``forward[i]`` maps each state after the first i cells of ``order`` to its packed prefix
    polynomial; ``links[i][state]`` is ``(state if cell i is safe, state if it is a mine)``, None
    where that choice breaks a number. Shared by the counting and by the layout sampler
    (``sampling.py``), which walks the same states with the completions of ``backward_pass``.
    """
    key = (tuple(cells), tuple(vs for vs, _ in numbers))
    order, bits, steps = _plan(*key)
    needs = [need for _, need in numbers]
    opened = [tuple([needs[j] for j in step[0]]) for step in steps]
    forward: list[dict[tuple, int]] = [{(): 1}]
    links: list[dict[tuple, tuple]] = []
    start = 0
    last = _LAST_PASS.get(key)
    if last is not None:
        # The same component counted just before with other needs (the look-ahead tries each
        # value a guess could show): the steps before the first number whose need differs saw
        # the same states, so they are taken as they were (the same dicts, never changed).
        last_opened, last_forward, last_links = last
        while start < len(steps) and opened[start] == last_opened[start]:
            start += 1
        forward, links = last_forward[:start + 1], last_links[:start]
    for i in range(start, len(steps)):
        _, member, pick = steps[i]
        open_needs = opened[i]
        nxt: dict[tuple, int] = {}
        link: dict[tuple, tuple] = {}
        get = nxt.get
        for state, poly in forward[-1].items():
            # Only the numbers containing this cell change (value and room left), so only
            # they are checked; the others were checked when their room last shrank.
            vals = list(state)
            vals += open_needs
            ones = vals.copy()
            ok0 = ok1 = True
            for t, cp in member:
                v = vals[t]
                if v > cp:
                    ok0 = False
                if v == 0 or v - 1 > cp:
                    ok1 = False
                else:
                    ones[t] = v - 1
            t0 = pick(vals) if ok0 else None
            t1 = pick(ones) if ok1 else None
            link[state] = (t0, t1)
            if t0 is not None:
                nxt[t0] = get(t0, 0) + poly
            if t1 is not None:
                nxt[t1] = get(t1, 0) + (poly << bits)
        forward.append(nxt)
        links.append(link)
    if len(_LAST_PASS) >= _LAST_PASS_LIMIT and key not in _LAST_PASS:
        del _LAST_PASS[next(iter(_LAST_PASS))]
    _LAST_PASS[key] = (opened, forward, links)
    return list(order), forward, links, bits


# The last forward pass of each recent component structure (``forward_pass``): its needs by
# step, its states and its links. Oldest first, a few dozen kept (the look-ahead's values of one
# guess follow each other); reusing a prefix changes no state, so no count and no ``work``.
_LAST_PASS: dict[tuple, tuple[list[tuple], list[dict[tuple, int]], list[dict[tuple, tuple]]]] = {}
_LAST_PASS_LIMIT = 32


def forget_last_passes() -> None:
    """Drop the kept forward passes (``forward_pass``): memory back, and a way for tests to
    count a component from scratch."""
    _LAST_PASS.clear()


@lru_cache(maxsize=512)
def _plan(cells: tuple[int, ...], shape: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, ...], int, tuple]:
    """``(order, bits, steps)`` of the forward DP over a component with these cells and these
    numbers' variables: the cell order, the field width, and per cell the numbers it opens, the
    open numbers it belongs to (with the room they keep after it) and the picker of the numbers
    still open after it.

    Only the structure, not the needs: the look-ahead counts the same component once for every
    value a guess could show (the new number's need is the value, everything else is alike), so
    the plan is worked out once and looked up after (it cost about as much as the DP itself)."""
    order = _order(list(cells), shape)
    n = len(order)
    bits = field_bits(n)
    pos = {v: i for i, v in enumerate(order)}
    at: list[list[int]] = [[] for _ in range(n)]          # the numbers holding each cell
    opens_at: list[list[int]] = [[] for _ in range(n)]
    left = []                                             # cells of each number not yet passed
    for j, vs in enumerate(shape):
        places = [pos[v] for v in vs]
        for p in places:
            at[p].append(j)
        opens_at[min(places)].append(j)
        left.append(len(places))
    steps = []
    active: list[int] = []
    for i in range(n):
        opening = opens_at[i]
        ext = active + opening
        where = {j: t for t, j in enumerate(ext)}
        member = []
        closing = set()
        for j in at[i]:
            left[j] -= 1
            member.append((where[j], left[j]))       # (slot, room left after this cell)
            if not left[j]:
                closing.add(where[j])
        member.sort()
        keep = [t for t in range(len(ext)) if t not in closing] if closing else list(range(len(ext)))
        steps.append((tuple(opening), tuple(member), _picker(keep)))
        active = [ext[t] for t in keep]
    return tuple(order), bits, tuple(steps)


def _backward(forward, links, n: int, bits: int) -> list[list[int]]:
    """Per-cell mine counts (see ``backward_pass``)."""
    return backward_pass(links, n, bits, forward)[1]


def backward_pass(links, n: int, bits: int, forward=None) -> tuple[list[dict], list[list[int]]]:
    """``(completions, mine_counts)``: ``completions[i][state]`` is the packed polynomial of the
    ways to finish cells i.. from ``state`` (by mines in the suffix); given the forward pass,
    ``mine_counts[i]`` is how many layouts by mine count make cell i a mine, the sum over states
    of prefix(x) * x * suffix(x) (else empty). The counting needs the counts, the layout sampler
    (``sampling.py``) the completions."""
    completions: list[dict] = [{}] * n + [{(): 1}]
    packed = [0] * n
    backward = completions[n]
    for i in range(n - 1, -1, -1):
        prev: dict[tuple, int] = {}
        fwd = forward[i] if forward is not None else None
        acc = 0
        for state, (t0, t1) in links[i].items():
            b0 = backward.get(t0, 0) if t0 is not None else 0
            b1 = backward.get(t1, 0) if t1 is not None else 0
            if b1 and fwd is not None:
                acc += fwd[state] * b1
            poly = b0 + (b1 << bits)
            if poly:
                prev[state] = poly
        packed[i] = acc << bits
        completions[i] = backward = prev
    mine_counts = unpack_many(packed, n + 1, bits) if forward is not None else [[]] * n
    return completions, mine_counts


def convolve(a: list[int], b: list[int]) -> list[int]:
    """Exact product of two count polynomials (numpy when the numbers cannot overflow)."""
    if not a or not b:
        return []
    if max(a) < INT64_SAFE >> 20 and max(b) < INT64_SAFE >> 20 and len(a) + len(b) < 1 << 10 \
            and max(a) * max(b) * min(len(a), len(b)) < INT64_SAFE:
        return [int(x) for x in np.convolve(np.array(a, dtype=np.int64), np.array(b, dtype=np.int64))]
    out = [0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return out
