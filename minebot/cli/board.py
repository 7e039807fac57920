"""``minebot board``: check a board file and print it normalised."""

from __future__ import annotations

import argparse
import json

from ..board import Board


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "board", help="check a board file and print it",
        description="Parse a board file (text format), report the first problem with its line "
                    "and column, or print the board back normalised (--json for JSON).")
    p.add_argument("file", help="board file in the text format ('-' for standard input)")
    p.add_argument("--json", action="store_true", help="print {rows, cols, mines, state, board}")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import sys

    if args.file == "-":
        board = Board.parse(sys.stdin.read(), "<stdin>")
    else:
        board = Board.load(args.file)
    if args.json:
        print(json.dumps({**board.header(), "board": board.rows_text()}))
    else:
        sys.stdout.write(board.to_text())
    return 0
