"""Exact layout counts for one frontier component, without visiting each layout.

A counting DP walks the component's cells in a fixed order. After deciding the first i cells,
what matters for the rest is only how many mines each *partly assigned* number still needs, so
the state is those needs (packed in one integer, a field per open number) and each state
carries a polynomial: entry p counts the prefix layouts with p mines. Going forward gives the
count of layouts per number of mines;
going backward (completions per state, again by mines) and combining the two around each cell
gives, for every cell, how many layouts with k mines make it a mine. All in exact integers.

The cell order keeps the set of partly assigned numbers small (greedy: next the cell that
shares the most numbers with the open ones), which is what keeps tangled frontiers in
milliseconds where plain enumeration takes seconds.
"""

from __future__ import annotations

from functools import lru_cache
from math import comb, log2

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


def field_bits(n: int, bound: int | None = None) -> int:
    """Bits per coefficient when a polynomial is packed into one integer.

    The coefficients that matter count layouts (or prefixes or completions that are part of
    one) of a component of n cells: each is at most its number of layouts, so below 2**n and
    below any ``bound`` on that number (``layout_bound``); one bit more than that, rounded to
    whole bytes, can never carry into the next field. A state no layout passes through may hold
    larger prefix counts, but no count of a state that a layout passes through is built from it
    (its successors are dead too, and its completions are 0), so they never reach a result.
    Narrower fields make the wide integer products of the backward pass cheaper. With no
    bound, n + 2 bits and at least 64 (one numpy word a field).
    """
    if bound is None:
        return max(64, -(-(n + 2) // 8) * 8)
    return max(8, -(-(min(bound, 1 << n).bit_length() + 1) // 8) * 8)


# log2(C(size, size // 2)) / size: what a number of that many cells costs a bound per cell
# (a board number has at most 8 cells; larger ones, built by hand, cost the most).
_BITS_PER_CELL = [0.0] + [log2(comb(size, size // 2)) / size for size in range(1, 9)]


def layout_bound(n: int, shape: tuple[tuple[int, ...], ...]) -> int:
    """An upper bound on the layouts of a component of n cells with numbers over ``shape``,
    whatever their needs: numbers with no cell in common each allow at most C(size, size // 2)
    ways over their cells, and every other cell two. Numbers that cost few bits per cell first."""
    def cost(j: int) -> tuple[float, int]:
        size = len(shape[j])
        return (_BITS_PER_CELL[size] if size < len(_BITS_PER_CELL) else 1.0), j
    used: set[int] = set()
    bound = 1
    for j in sorted(range(len(shape)), key=cost):
        vs = shape[j]
        if used.isdisjoint(vs):
            used.update(vs)
            bound *= comb(len(vs), len(vs) // 2)
    return bound << (n - len(used))


def unpack(value: int, fields: int, bits: int) -> list[int]:
    """The coefficients of a packed polynomial (little end first).

    Fields of 8 bytes are read by numpy at once, narrower ones too after widening each to 8
    bytes. Wider fields (components of more than 62 cells) mostly hold counts that still fit in
    64 bits, so numpy splits every field into its low 8 bytes and the rest at once, and only
    when some high part is not zero are the fields joined one by one in Python (the per-cell
    mine counts of large components are unpacked tens of thousands of times an expert game)."""
    size = bits // 8
    raw = value.to_bytes(fields * size, "little")
    if bits == 64:
        return np.frombuffer(raw, dtype="<u8").tolist()
    table = np.frombuffer(raw, dtype=np.uint8).reshape(fields, size)
    if size < 8:
        wide = np.zeros((fields, 8), dtype=np.uint8)
        wide[:, :size] = table
        return wide.view("<u8").ravel().tolist()
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
    if size < 8:
        wide = np.zeros((len(values) * fields, 8), dtype=np.uint8)
        wide[:, :size] = table
        return wide.view("<u8").reshape(len(values), fields).tolist()
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
    final = forward[-1].get(0)
    if not final:
        return None
    return ComponentCounts(order, unpack(final, n + 1, bits), None,
                           lambda: _backward(forward, links, n, bits),
                           work=sum(len(states) for states in forward))


def forward_pass(cells: list[int], numbers: list[tuple[tuple[int, ...], int]]
                 ) -> tuple[list[int], list[dict[int, int]], list[dict[int, tuple]], int]:
    """The forward DP: ``(order, forward, links, bits)``.

    ``forward[i]`` maps each state after the first i cells of ``order`` to its packed prefix
    polynomial; ``links[i][state]`` is ``(state if cell i is safe, state if it is a mine)``, None
    where that choice breaks a number. Shared by the counting and by the layout sampler
    (``sampling.py``), which walks the same states with the completions of ``backward_pass``.

    A state, the mines each open number still needs, is one integer with a field of
    ``SLOT_BITS`` bits per open number (see ``_plan``), 0 when none is open: the start and
    the end. A closed number's field is 0 (a layout closes a number only when it has all its
    mines), so states are exactly the tuples of the open numbers' needs, one to one, and the
    safe and mine branches are a few integer operations instead of a loop over the numbers.
    """
    key = (tuple(cells), tuple(vs for vs, _ in numbers))
    order, bits, steps = _plan(*key)
    needs = [need for _, need in numbers]
    if needs and not 0 <= min(needs) <= max(needs) <= SLOT_MAX:
        raise ValueError(f"a number needs between 0 and {SLOT_MAX} mines, not {min(needs)}..{max(needs)}")
    opened = [tuple([needs[j] for j in step[0]]) for step in steps]
    forward: list[dict[int, int]] = [{0: 1}]
    links: list[dict[int, tuple]] = []
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
        opening, shifts, safe_add, mine_add, top, one = steps[i]
        add = 0
        for need, shift in zip(opened[i], shifts):
            add += need << shift
        nxt: dict[int, int] = {}
        link: dict[int, tuple] = {}
        get = nxt.get
        for state, poly in forward[-1].items():
            # Only the fields of the numbers holding this cell are tested (``_plan``): with the
            # cell safe each must keep room for its needs, with a mine each must need one.
            x = state + add
            if (x + safe_add) & top:
                t0 = None
            else:
                t0 = x
                nxt[x] = get(x, 0) + poly
            if (x + mine_add) & top or (x + top - one) & top != top:
                t1 = None
            else:
                t1 = x - one
                nxt[t1] = get(t1, 0) + (poly << bits)
            link[state] = (t0, t1)
        forward.append(nxt)
        links.append(link)
    if len(_LAST_PASS) >= _LAST_PASS_LIMIT and key not in _LAST_PASS:
        del _LAST_PASS[next(iter(_LAST_PASS))]
    _LAST_PASS[key] = (opened, forward, links)
    return list(order), forward, links, bits


# The last forward pass of each recent component structure (``forward_pass``): its needs by
# step, its states and its links. Oldest first, a few dozen kept (the look-ahead's values of one
# guess follow each other); reusing a prefix changes no state, so no count and no ``work``.
_LAST_PASS: dict[tuple, tuple[list[tuple], list[dict[int, int]], list[dict[int, tuple]]]] = {}
_LAST_PASS_LIMIT = 32


def forget_last_passes() -> None:
    """Drop the kept forward passes (``forward_pass``): memory back, and a way for tests to
    count a component from scratch."""
    _LAST_PASS.clear()


# A state's field per open number (``forward_pass``): needs up to SLOT_MAX, and one bit more,
# the top, that a test's sum sets when the need is out of range.
SLOT_BITS = 5
SLOT_MAX = (1 << (SLOT_BITS - 1)) - 1


@lru_cache(maxsize=512)
def _plan(cells: tuple[int, ...], shape: tuple[tuple[int, ...], ...]) -> tuple[tuple[int, ...], int, tuple]:
    """``(order, bits, steps)`` of the forward DP over a component with these cells and these
    numbers' variables: the cell order, the field width, and per cell the step's constants.

    A number gets a field of the state when its first cell comes and gives it back after its
    last (the lowest free field first). Per cell: the numbers it opens and their fields' shifts;
    then, over the fields of the numbers holding the cell, with room r left in a number after
    it (its cells still to come) and its need v: ``safe_add``, SLOT_MAX - r per field, so that
    the sum reaches the top bit exactly when v > r (the cell safe breaks it); ``mine_add``,
    SLOT_MAX - 1 - r, the same for v - 1 > r; ``top``, the fields' top bits (a need v >= 1 sets
    it in x + top - one); ``one``, a 1 per field (the cell a mine: one fewer needed in each).

    Only the structure, not the needs: the look-ahead counts the same component once for every
    value a guess could show (the new number's need is the value, everything else is alike), so
    the plan is worked out once and looked up after (it cost about as much as the DP itself)."""
    order = _order(list(cells), shape)
    n = len(order)
    bits = field_bits(n, layout_bound(n, shape))
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
    free: list[int] = []                                  # fields given back, reused lowest first
    fields = 0
    slot: dict[int, int] = {}
    for i in range(n):
        opening = opens_at[i]
        for j in opening:
            if free:
                free.sort()
                slot[j] = free.pop(0)
            else:
                slot[j] = fields
                fields += 1
        safe_add = mine_add = top = one = 0
        closing = []
        for j in at[i]:
            left[j] -= 1
            shift = slot[j] * SLOT_BITS
            room = left[j] if left[j] < SLOT_MAX else SLOT_MAX  # (a room this large: never broken)
            safe_add += (SLOT_MAX - room) << shift
            mine_add += (SLOT_MAX - 1 - room if room < SLOT_MAX else 0) << shift
            top += 1 << (shift + SLOT_BITS - 1)
            one += 1 << shift
            if not left[j]:
                closing.append(j)
        shifts = tuple(slot[j] * SLOT_BITS for j in opening)
        steps.append((tuple(opening), shifts, safe_add, mine_add, top, one))
        for j in closing:
            free.append(slot.pop(j))
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
    completions: list[dict] = [{}] * n + [{0: 1}]
    packed = [0] * n
    backward = completions[n]
    for i in range(n - 1, -1, -1):
        prev: dict[int, int] = {}
        acc = 0
        get = backward.get          # a broken branch's None is never a state: it gets 0
        if forward is None:
            for state, (t0, t1) in links[i].items():
                poly = get(t0, 0) + (get(t1, 0) << bits)
                if poly:
                    prev[state] = poly
        else:
            fwd = forward[i]
            for state, (t0, t1) in links[i].items():
                b1 = get(t1, 0)
                if b1:
                    acc += fwd[state] * b1
                    poly = get(t0, 0) + (b1 << bits)
                else:
                    poly = get(t0, 0)
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
