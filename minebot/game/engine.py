"""The headless engine: a Minesweeper game in memory, same rules as the real games.

It implements the same ``Game`` interface as the live window, so benchmarks and tests run the
exact loop and strategy the bot uses on screen. Behaviour follows GNOME Mines 40.1 where games
differ: opening a revealed number chords if it is satisfied, a flood of zeros also opens safe
flagged or question-marked cells, a win flags every mine, a loss shows every mine, marks the
exploded one and the wrong flags. Seeded and reproducible: the same seed gives the same games.
"""

from __future__ import annotations

from collections import deque
from typing import Sequence

import numpy as np

from ..board import Board, Cell, GameState, neighbour_count, neighbours
from ..errors import BadInputError
from ..move import Action, Move
from ..rules import Rules, check_rules, place_mines
from ..timing import Phase, timed
from .base import Game
from .layouts import Layout

_MARKS = frozenset(int(c) for c in (Cell.COVERED, Cell.FLAG, Cell.QUESTION))   # plain ints: hashed fast


class EngineGame(Game):
    """A seeded in-memory game.

    With ``layout`` the mines are fixed (its ``first`` becomes the suggested first click);
    otherwise mines are drawn uniformly over the cells the rule set allows, at the first open
    (``zero``/``safe``; ``unprotected`` allows every cell, which is the same as drawing them at
    the start) or at the start (``preopened``, which then opens a random zero cell).
    ``flags_to_win``: the game is won only once every safe cell is open *and* every mine is
    flagged (xdemineur); otherwise opening the last safe cell wins and flags every mine.
    """

    def __init__(self, rows: int, cols: int, mines: int, rules: str = Rules.ZERO,
                 seed: int | None = None, layout: Layout | None = None,
                 first_click: tuple[int, int] | None = None, flags_to_win: bool = False) -> None:
        self.rules = check_rules(rules)
        self.flags_to_win = flags_to_win
        if layout is not None and (layout.rows, layout.cols) != (rows, cols):
            raise ValueError("layout size does not match the game size")
        if layout is not None:
            mines = len(layout.mines)
        if not 0 <= mines < rows * cols:
            raise ValueError(f"{mines} mines do not fit a {cols}x{rows} board")
        self.rows, self.cols, self.mines = rows, cols, mines
        self._rng = np.random.default_rng(seed)
        self._layout = layout
        self._default_first = first_click
        self._start()

    # -- set-up ---------------------------------------------------------------------------
    def _start(self) -> None:
        self.first_click = (self._layout.first if self._layout and self._layout.first
                            else self._default_first)
        self._view = np.full((self.rows, self.cols), Cell.COVERED, dtype=np.int8)
        self._state = GameState.PLAYING
        self._mine: np.ndarray | None = None
        self.clicks = 0
        if self._layout is not None:
            self._arm(self._layout.mask())
        elif self.rules is Rules.PREOPENED:
            self._arm(place_mines(self._rng, self.rows, self.cols, self.mines, Rules.PREOPENED, None))
        if self.rules is Rules.PREOPENED:
            self._preopen()

    def _arm(self, mine: np.ndarray) -> None:
        self._mine = mine
        self._count = neighbour_count(mine)
        self._safe_left = int(mine.size - mine.sum())

    PREOPEN_DRAWS = 1000   # redraws allowed to find a layout with a zero cell

    def _preopen(self) -> None:
        """Open a random zero cell, as xdemineur does, redrawing mines if there is none.

        With nearly every cell a mine a layout with a zero cell is so rare that redrawing
        would go on for ever: after ``PREOPEN_DRAWS`` draws the board is refused instead.
        """
        for _ in range(self.PREOPEN_DRAWS):
            zeros = np.flatnonzero((~self._mine & (self._count == 0)).ravel())
            if zeros.size or self._layout is not None:
                break
            self._arm(place_mines(self._rng, self.rows, self.cols, self.mines, Rules.PREOPENED, None))
        else:
            raise BadInputError(f"{self.mines} mines on a {self.cols}x{self.rows} board: no layout "
                                f"with a zero cell to pre-open in {self.PREOPEN_DRAWS} draws "
                                "(rule preopened); use fewer mines")
        if zeros.size:
            start = divmod(int(self._rng.choice(zeros)), self.cols)
            self._flood(start)

    # -- Game interface ---------------------------------------------------------------------
    def observe(self) -> Board:
        return Board(self._view, self.mines, self._state)

    @timed(Phase.DRAW)      # the engine's reveal is the game's own time, as drawing is on screen
    def act(self, moves: Sequence[Move]) -> Board:
        for move in moves:
            if self._state is not GameState.PLAYING:
                break
            r, c = move.cell
            if not (0 <= r < self.rows and 0 <= c < self.cols):
                raise ValueError(f"move {move} is off the {self.cols}x{self.rows} board")
            self.clicks += 1
            {Action.OPEN: self._open, Action.CHORD: self._chord,
             Action.FLAG: self._flag, Action.UNFLAG: self._unflag}[move.action]((r, c))
        return self.observe()

    def new_game(self) -> Board:
        self._start()
        return self.observe()

    @property
    def mine_mask(self) -> np.ndarray | None:
        """The hidden layout (None before the first click places it). For tests and replays."""
        return None if self._mine is None else self._mine.copy()

    # -- rules ----------------------------------------------------------------------------
    def _open(self, cell: tuple[int, int]) -> None:
        code = self._view[cell]
        if code <= 8:
            self._chord(cell)
            return
        if code == Cell.FLAG:
            return  # a flag blocks a reveal
        if self._mine is None:
            self._arm(place_mines(self._rng, self.rows, self.cols, self.mines, self.rules, cell))
        if self._mine[cell]:
            self._lose(cell)
        else:
            self._flood(cell)

    def _chord(self, cell: tuple[int, int]) -> None:
        number = self._view[cell]
        if number > 8:
            return
        around = list(neighbours(self.rows, self.cols, *cell))
        if sum(self._view[n] == Cell.FLAG for n in around) != number:
            return
        for n in around:
            if self._state is not GameState.PLAYING:
                return
            if self._view[n] in (Cell.COVERED, Cell.QUESTION):
                if self._mine[n]:
                    self._lose(n)
                else:
                    self._flood(n)

    def _flag(self, cell: tuple[int, int]) -> None:
        if self._view[cell] in (Cell.COVERED, Cell.QUESTION):
            self._view[cell] = Cell.FLAG
            self._check_won()

    def _unflag(self, cell: tuple[int, int]) -> None:
        if self._view[cell] in (Cell.FLAG, Cell.QUESTION):
            self._view[cell] = Cell.COVERED

    def _flood(self, start: tuple[int, int]) -> None:
        """Reveal ``start``; through zeros, reveal every connected safe cell (marks included).

        Cells are read with ``ndarray.item`` and compared with plain ints, not numpy scalars
        with enum members: a zero on expert opens hundreds of cells, one at a time."""
        view, count = self._view, self._count
        rows, cols = self.rows, self.cols
        queue = deque([start])
        while queue:
            cell = queue.popleft()
            if view.item(cell) <= 8:
                continue
            n_mines = count.item(cell)
            view[cell] = n_mines
            self._safe_left -= 1
            if n_mines == 0:
                for n in neighbours(rows, cols, *cell):
                    if view.item(n) in _MARKS:
                        queue.append(n)
        self._check_won()

    def _check_won(self) -> None:
        """Every safe cell open (and, with ``flags_to_win``, every mine flagged): won."""
        if self._mine is None or self._safe_left != 0:
            return
        view = self._view
        if self.flags_to_win and not (view[self._mine] == Cell.FLAG).all():
            return
        self._state = GameState.WON
        view[self._mine] = Cell.FLAG

    def _lose(self, cell: tuple[int, int]) -> None:
        view, mine = self._view, self._mine
        view[mine & (view == Cell.COVERED)] = Cell.MINE
        view[~mine & (view == Cell.FLAG)] = Cell.WRONG_FLAG
        view[cell] = Cell.EXPLODED
        self._state = GameState.LOST
