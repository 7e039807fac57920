"""``minebot layouts``: write random mine layouts to a JSONL file for reproducible comparisons."""

from __future__ import annotations

import argparse

from ..errors import BadInputError
from ..game.layouts import generate_layouts, save_layouts
from ..levels import parse_cell, parse_size
from ..rules import RULES, Rules


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "layouts", help="write random mine layouts (JSONL) for benchmarks",
        description="Draw mine layouts the way the engine would for the given rule set and first "
                    "click, and write them one JSON object per line: {\"cols\", \"rows\", "
                    "\"mines\": [[r, c], ...], \"first\": [r, c]}. `minebot bench --boards FILE` "
                    "plays them, so two solvers can be compared on identical boards.")
    p.add_argument("--size", default="30x16", help="board size COLSxROWS (default 30x16)")
    p.add_argument("--mines", type=int, default=99, help="number of mines (default 99)")
    p.add_argument("--rules", default=Rules.ZERO, choices=RULES,
                   help="which cells the first click protects (default zero)")
    p.add_argument("--first", default="3,3", help="first click ROW,COL (default 3,3)")
    p.add_argument("--games", type=int, default=100, help="how many layouts (default 100)")
    p.add_argument("--seed", type=int, default=None, help="random seed (default: random)")
    p.add_argument("-o", "--output", required=True, help="JSONL file to write")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:

    rows, cols = parse_size(args.size)
    first = parse_cell(args.first)
    if not (0 <= first[0] < rows and 0 <= first[1] < cols):
        raise BadInputError(f"--first {args.first} is off the {args.size} board")
    if args.games < 1:
        raise BadInputError("--games must be at least 1")
    try:
        layouts = list(generate_layouts(rows, cols, args.mines, args.rules, first, args.games, args.seed))
    except ValueError as exc:
        raise BadInputError(str(exc)) from None
    try:
        count = save_layouts(args.output, layouts)
    except OSError as exc:
        raise BadInputError(f"{args.output}: cannot write ({exc.strerror})") from None
    print(f"wrote {count} layouts to {args.output}")
    return 0
