"""The positions where a solver variant would guess another cell than the base solver.

Game results need thousands of boards to tell two guessing rules apart, because most games are
decided by luck and a variant changes few guesses. This tool finds the guesses that differ: it
plays seeded expert games with ``--base``, and at every guess asks ``--variant`` (on the very
same position) which cell it would open. Where the two differ it writes one line to ``--out``:

    {"board": "<board text>", "cells": [[r, c] of the base, [r, c] of the variant],
     "kind": base's guess kind, "variant_kind": ..., "seed": game seed}

which is the ``--positions`` format of ``benchmarks/rollouts.py``: rollouts then value both
cells on the same layouts, position by position. The games go on with the base's move, so the
positions are the ones the base meets. Also printed: guesses seen, how many differ, and both
solvers' CPU time for those guesses.

    python benchmarks/variant_positions.py --base strong --variant '{"close_margin": 0.03}' \\
        --games 150 --seed 5000 --rules zero --out positions.jsonl

A variant is the base's options updated with ``--variant`` (JSON), so only what it names differs.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from minebot.errors import BadInputError, MinebotError, interrupt_exit_code  # noqa: E402

FIRST = {"zero": (3, 3), "safe": (0, 0)}


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n\n", 1)[1])
    ap.add_argument("--base", default=None, help="base solver: JSON options or a preset (default: the default solver)")
    ap.add_argument("--variant", required=True, help="JSON options laid over the base's")
    ap.add_argument("--games", type=int, default=100, help="seeded expert games (default 100)")
    ap.add_argument("--seed", type=int, default=5000, help="seed of the first game (default 5000)")
    ap.add_argument("--rules", choices=sorted(FIRST), default="zero", help="first-click rule (default zero)")
    ap.add_argument("--out", required=True, help="JSONL file the differing positions are appended to")
    return ap.parse_args(argv)


def variant_options(base: dict, text: str) -> dict:
    """The base's options with the variant's JSON object laid over them (checked by
    solver_options, which builds a Solver)."""
    from minebot.cli.bench import solver_options
    try:
        extra = json.loads(text)
    except ValueError as err:
        raise BadInputError(f"--variant: not JSON ({err})") from None
    if not isinstance(extra, dict):
        raise BadInputError("--variant: not a JSON object")
    return solver_options(json.dumps({**base, **extra}))


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    from minebot.cli.bench import solver_options
    from minebot.game.engine import EngineGame
    from minebot.loop import play_game
    from minebot.solver import Solver
    try:
        if args.games < 1:
            raise BadInputError("--games must be at least 1")
        base = solver_options(args.base)
        variant = variant_options(base, args.variant)
        out = open(args.out, "a", encoding="utf-8")
    except OSError as err:
        print(f"variant_positions: --out {args.out}: {err.strerror}", file=sys.stderr)
        return BadInputError.exit_code
    except MinebotError as err:
        print(f"variant_positions: {err}", file=sys.stderr)
        return err.exit_code
    seen = differ = 0
    cpu = [0.0, 0.0]
    other = Solver(**variant)
    board_now: dict = {}

    class Base(Solver):
        """The base solver, asking the variant at each of its guesses."""

        def next_moves(self, board, mines=None, rules=None, first_click=None):
            board_now["board"] = board if board.mines is not None or mines is None else board.replace(mines=mines)
            return super().next_moves(board, mines, rules, first_click)

        def guess(self, result):
            nonlocal seen, differ
            t = time.process_time()
            mine = super().guess(result)
            cpu[0] += time.process_time() - t
            t = time.process_time()
            theirs = other.guess(result)
            cpu[1] += time.process_time() - t
            seen += 1
            if theirs.cell != mine.cell:
                differ += 1
                out.write(json.dumps({"board": board_now["board"].to_text(),
                                      "cells": [list(mine.cell), list(theirs.cell)],
                                      "kind": mine.kind.value, "variant_kind": theirs.kind.value,
                                      "seed": board_now["seed"]}) + "\n")
                out.flush()
            return mine

    stopped: KeyboardInterrupt | None = None
    try:
        with out:
            for i in range(args.games):
                board_now["seed"] = args.seed + i
                game = EngineGame(16, 30, 99, rules=args.rules, seed=args.seed + i, first_click=FIRST[args.rules])
                play_game(game, Base(**base))
                print(f"game {i + 1}/{args.games}: {differ} of {seen} guesses differ", file=sys.stderr)
    except KeyboardInterrupt as stop:       # Ctrl-C, or SIGTERM (Terminated)
        stopped = stop
    print(f"{differ} of {seen} guesses differ (written to {args.out}); CPU for those guesses: "
          f"base {cpu[0]:.1f} s, variant {cpu[1]:.1f} s")
    return interrupt_exit_code(stopped) if stopped is not None else 0


if __name__ == "__main__":
    from minebot.cli import stop_on_signals
    stop_on_signals()
    sys.exit(main())
