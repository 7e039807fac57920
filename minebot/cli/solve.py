"""``minebot solve BOARD_FILE``: what the numbers prove, the exact probabilities, the move."""

from __future__ import annotations

import argparse
import json
import math

from ..bignum import count_json, count_text
from ..board import Board
from ..errors import BadInputError
from ..rules import RULES

HELP = "solve a board file: certain cells, exact mine probabilities and the move to play"

DESCRIPTION = HELP + """.

Certain cells are proved by the revealed numbers (and the mine total when known) with a SAT
backbone; each comes with the smallest set of numbers that proves it. Probabilities are exact
(counted over every layout, weighted by the mine total). Flags and question marks count as
covered cells: a flag the numbers prove wrong is reported.

--json prints {"safe": [[r,c],...], "mines": [[r,c],...], "probability": rows of numbers (null
for cells that are not covered), "move": {"action": "open"|"flag", "cell": [r,c]}}, plus
"wrong_flags", "layouts" and "reason".

An inconsistent board (no mine layout fits it) exits with code 3 and names the smallest set of
contradicting numbers found."""


def register(sub) -> None:
    p = sub.add_parser("solve", help=HELP, description=DESCRIPTION,
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("board", metavar="BOARD_FILE", help="board in minebot's text format")
    p.add_argument("--mines", type=int, default=None,
                   help="total number of mines (overrides the file's header)")
    p.add_argument("--rules", default=None, choices=RULES,
                   help="first-click rule set (only matters on an untouched board)")
    p.add_argument("--encoding", default="native", choices=("native", "binomial"),
                   help="backbone encoding (default native Minicard constraints)")
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.set_defaults(func=run)


def _cells(cells) -> str:
    return " ".join(f"{r},{c}" for r, c in cells) or "-"


def run(args) -> int:
    from ..solver import Solver, check_rules

    board = Board.load(args.board)
    mines = args.mines if args.mines is not None else board.mines
    if mines is not None and mines < 0:
        raise BadInputError(f"--mines {mines}: must be 0 or more")
    board = board.replace(mines=mines)
    solver = Solver(args.encoding)
    if not board.unknown.any():
        check_rules(board, args.board)     # numbers that contradict each other: exit 3, named
        raise BadInputError(f"{args.board}: no covered cell left to solve")
    result = solver.analyse(board, mines)
    moves = solver.next_moves(board, mines, rules=args.rules)
    move = next((m for m in moves if m.action.value in ("open", "flag")), moves[0])
    prob = result.probability
    rows = [[None if math.isnan(x) else round(float(x), 6) for x in row] for row in prob]
    if args.json:
        out = {
            "safe": [list(c) for c in result.safe],
            "mines": [list(c) for c in result.mines],
            "probability": rows,
            "move": move.to_json(),
            "wrong_flags": [list(c) for c in result.wrong_flags],
            "layouts": count_json(result.layouts),
            "reason": solver.last_reason,
        }
        print(json.dumps(out))
        return 0
    print(f"safe ({len(result.safe)}): {_cells(result.safe)}")
    print(f"mines ({len(result.mines)}): {_cells(result.mines)}")
    if result.wrong_flags:
        print(f"wrong flags ({len(result.wrong_flags)}): {_cells(result.wrong_flags)}")
    for cell in (result.safe + result.mines)[:20]:
        numbers, total = result.explanation(cell)
        what = "safe" if cell in result.safe else "mine"
        print(f"  {cell[0]},{cell[1]} {what}: by the numbers at {_cells(numbers)}"
              + (" and the mine total" if total else ""))
    if len(result.safe) + len(result.mines) > 20:
        print("  ...")
    where = "full layouts" if result.mines_known else "frontier layouts (mine total unknown)"
    print(f"layouts: {count_text(result.layouts)} {where}")
    print("probability of a mine (%), '.' revealed, '?' unknown:")
    unknown = board.unknown
    for r, row in enumerate(rows):
        print(" ".join(("   ?" if unknown[r, c] else "   .") if x is None else f"{x * 100:4.0f}"
                       for c, x in enumerate(row)))
    p = f" ({move.p_mine:.1%} mine)" if move.p_mine else ""
    print(f"move: {move.action.value} {move.cell[0]},{move.cell[1]}{p} - {solver.last_reason}")
    return 0
