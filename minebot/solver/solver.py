"""The Solver: one object the play loop, the CLI and the hint overlay all use."""

from __future__ import annotations

from enum import Enum

from ..board import Board, Cell
from ..move import Action, Move
from ..rules import Rules
from .analysis import Analysis, analyse
from .backbone import ENCODINGS
from .constraints import known_mine_mask
from .probability import CountCache
from .strategy import Guesser, GuessKind

Coord = tuple[int, int]

# Marks that would swallow a click (cleared first); plain ints, checked once per safe cell.
_SWALLOWING = frozenset((int(Cell.FLAG), int(Cell.QUESTION)))


class MoveKind(Enum):
    """Why the solver chose its last moves, when they were not a guess (a guess's kind is the
    ``GuessKind`` of the rule that picked it). Tools and tests tell moves apart by kind; the
    reason text (``Solver.last_reason``) is for people."""

    FIRST_CLICK = "first click"
    CERTAIN = "certain"        # cells the numbers prove safe
    ALL_MINES = "all mines"    # every unknown cell is a mine: only flags are left


def default_first_click(rows: int, cols: int, rules: str | None) -> Coord | None:
    """Where to open a fresh board.

    With ``zero`` the first cell opens an area, and a cell a few steps in from a corner opens
    a large one next to two edges; with ``safe`` only the cell itself is spared, and a corner
    has the best chance of being a zero, and so with ``unprotected``, where the first click is a
    guess like any other (every cell a mine with the same chance). ``preopened`` boards start
    with an opening.
    """
    if rules == Rules.PREOPENED:
        return None
    if rules == Rules.ZERO:
        d = 3 if min(rows, cols) >= 16 and max(rows, cols) >= 30 else 2
        return (min(d, rows - 1), min(d, cols - 1))
    return (0, 0)


class Solver:
    """Certain cells by SAT backbone, exact probabilities, and the move to play.

    ``encoding`` picks the backbone's cardinality encoding (``native`` Minicard constraints,
    or the ``binomial`` subset CNF); ``flag`` makes ``next_moves`` also flag certain mines
    (off by default: flags cost clicks and the numbers do not need them).
    """

    def __init__(self, encoding: str = "native", flag: bool = False, lookahead: bool = True,
                 **guess_options) -> None:
        if encoding not in ENCODINGS:
            raise ValueError(f"unknown encoding {encoding!r}: expected one of {', '.join(ENCODINGS)}")
        self.encoding = encoding
        self.flag = flag
        self.lookahead = lookahead
        self.cache = CountCache()
        # Guesser tuning (candidates, margin, ...): the caller's options over the default's.
        options = {**DEFAULT_GUESSING, **guess_options}
        if not lookahead:
            options.update(candidates=1, background_reps=0, endgame_layouts=0)
        # Built once, here: an unknown option fails at construction, not in the middle of a game.
        self.guesser = Guesser(self.cache, **options)
        self.last_reason = ""
        self.last_kind: MoveKind | GuessKind | None = None
        # The mines the last analysis proved: in the same game they stay certain and mostly on
        # the frontier, so the next backbone tries to prove them all in one SAT call. A hint
        # only (a new game or another board costs one call): the result does not depend on it.
        self._proved_mines: list[Coord] = []

    def analyse(self, board: Board, mines: int | None = None) -> Analysis:
        """Everything the numbers (and the mine total) prove about ``board``."""
        result = analyse(board, mines, self.encoding, self.cache, self._proved_mines)
        self._proved_mines = result.mines
        return result

    def next_moves(self, board: Board, mines: int | None = None, rules: str | None = None,
                   first_click: Coord | None = None) -> list[Move]:
        """A batch of certain safe opens, or exactly one guess (flags only if configured)."""
        if not board.revealed.any() and not known_mine_mask(board).any():
            cell = first_click or default_first_click(board.rows, board.cols, rules) or (0, 0)
            if board.unknown[cell]:
                self.last_reason, self.last_kind = "first click", MoveKind.FIRST_CLICK
                total = mines if mines is not None else board.mines
                p = (total / board.cells.size) if total is not None and rules not in (Rules.ZERO, Rules.SAFE) else 0.0
                return self._open(board, cell, p)
        result = self.analyse(board, mines)
        moves: list[Move] = []
        if result.safe:
            for cell in result.safe:
                moves.extend(self._open(board, cell, 0.0))
            self.last_reason = f"{len(result.safe)} certain safe cell(s)"
            self.last_kind = MoveKind.CERTAIN
        if self.flag:
            flags = board.flags
            moves.extend(Move(Action.FLAG, cell, 1.0) for cell in result.mines if not flags[cell])
        if moves:
            return moves
        if len(result.mines) == int(board.unknown.sum()):
            # Every unknown cell is a mine: the game is won already (the engine or window will
            # say so); flagging them is the only move left and harmless.
            self.last_reason, self.last_kind = "every unknown cell is a mine", MoveKind.ALL_MINES
            flags = board.flags
            return [Move(Action.FLAG, cell, 1.0) for cell in result.mines if not flags[cell]]
        choice = self.guess(result)
        self.last_reason, self.last_kind = choice.reason, choice.kind
        return self._open(board, choice.cell, choice.p_mine)

    def guess(self, result: Analysis):
        """The best guess on a position with no certain safe cell."""
        return self.guesser.choose(result.constraints, result.counts)

    @staticmethod
    def _open(board: Board, cell: Coord, p_mine: float) -> list[Move]:
        # A flag or question mark would swallow the click: clear it first.
        if board.cells.item(cell) in _SWALLOWING:
            return [Move(Action.UNFLAG, cell, p_mine), Move(Action.OPEN, cell, p_mine)]
        return [Move(Action.OPEN, cell, p_mine)]


# How the default guesses: ``Solver()`` passes these to its ``Guesser`` (whose own defaults are
# the plain one-step survival look-ahead, the building block the options switch on), and
# ``Solver(**options)`` or ``--solver JSON`` change them one by one. The peer's (JSMinesweeper's)
# scoring (0.8/0.2 blend with the second safest cell next, also after a certain cell; its 50/50
# influence and pseudo-50/50; dead cells last) with a look-ahead budget large enough to score
# every candidate (20000 steps), and two background cells next to the frontier among the
# candidates. On the peer's 20,000 boards per setting the scoring and budget gave +0.57 pp (se
# 0.14) on expert zero over the plain look-ahead with 1200 steps (labels cheap-b20k against
# default-s14); the two background cells +0.56 pp (se 0.26) on expert safe, where a corner start
# leaves a lone number and the next guesses are off the frontier, level elsewhere (def15-edge2
# against cheap-b20k). All within the default's speed targets (expert: mean < 150 ms a game, p99
# < 100 ms a move; strong's 6 cells come too close to the p99). See docs/solver.md.
DEFAULT_GUESSING: dict = {"blend_certain": True, "defer_dead": True, "edge_background": 2, "fifty_weight": 0.9,
                          "pseudo_fifty": True, "second_weight": 0.2, "step_budget": 20000}

# Named settings: ``Solver(**PRESETS[name])``, ``minebot bench --solver NAME``. "strong" trades
# time for strength on top of the default: up to 16 candidates within 0.1 of the safest (the
# peer's wider list), background cells next to the frontier, and the exhaustive endgame search
# up to 1000 layouts. It is level with the peer on every setting and +0.17 pp (se 0.13) above
# the default on expert safe (labels strong-unav-eg, def15-edge2; benchmarks/README.md, "Solver
# strength against the peer"). It has no speed target.
PRESETS: dict[str, dict] = {
    "strong": {**DEFAULT_GUESSING, "margin": 0.1, "candidates": 16, "edge_background": 6,
               "endgame_layouts": 1000, "endgame_budget": 20000},
}


__all__ = ["DEFAULT_GUESSING", "PRESETS", "Solver", "default_first_click"]
