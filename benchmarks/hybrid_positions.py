"""Rollout positions from a peer_hybrid run: in each game, the first guess of one category where
the peer chose another cell than minebot.

    python benchmarks/hybrid_positions.py out/hyb-s11/expert-zero-seed102-n1000 --category middle \\
        --solver strong --out positions.jsonl

A hybrid run's ``default.jsonl`` logs every guess of minebot's games with both solvers' cells,
but not the boards. This replays each game that has such a guess, on the run's own boards
(``boards.jsonl``) with the same solver options, up to that guess, and writes the position in
the ``--positions`` format of ``benchmarks/rollouts.py``:

    {"board": "<board text>", "cells": [minebot's [r, c], the peer's [r, c]], "game": i,
     "kind": minebot's guess kind, "peer_kind": ...}

Rollouts then value both cells on the same layouts. The first differing guess of a game is the
one whose value is "this cell, then minebot's play" for both, which is what a change of
minebot's rule there would give. Both solvers are deterministic, so the replay meets the logged
guess with the logged cell; where it does not (other options or another version of minebot than
the run's), the tool stops with exit code 2 and names the game.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from minebot.errors import EXIT_OK, BadInputError, MinebotError, interrupt_exit_code  # noqa: E402
from minebot.solver import Solver  # noqa: E402


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=__doc__.split("\n\n", 1)[1])
    ap.add_argument("run", help="a chunk folder of peer_hybrid (SETTING-seedS-nN, with boards.jsonl and default.jsonl)")
    ap.add_argument("--category", default="middle", help="peer_hybrid's category of guesses (default middle)")
    ap.add_argument("--solver", default="{}", help="the run's solver options: JSON or a preset (default {})")
    ap.add_argument("--max", type=int, default=0, help="at most this many positions (default 0: all)")
    ap.add_argument("--out", required=True, help="JSONL file the positions are written to")
    return ap.parse_args(argv)


class _Stop(Exception):
    """Raised by the replaying solver when it reaches the wanted guess."""


class _Replay(Solver):
    """The run's solver, stopping at its ``target``-th guess (0-based) with the board there."""

    def __init__(self, target: int, **options) -> None:
        super().__init__(**options)
        self.target = target
        self.made = 0
        self.board = None
        self.choice = None

    def guess(self, result):
        choice = super().guess(result)
        if self.made == self.target:
            self.board, self.choice = result.board, choice
            raise _Stop
        self.made += 1
        return choice


def position(layout, rules: str, options: dict, row: dict, k: int, where: str) -> dict:
    """Replay one game to its guess number ``k``; the position with both logged cells."""
    from minebot.game.engine import EngineGame
    from minebot.loop import play_game
    solver = _Replay(k, **options)
    game = EngineGame(layout.rows, layout.cols, len(layout.mines), rules=rules, layout=layout)
    try:
        play_game(game, solver)
    except _Stop:
        pass
    logged = row["guesses"][k]
    if solver.choice is None or list(solver.choice.cell) != logged["minebot_cell"]:
        got = "the game ended first" if solver.choice is None else f"cell {list(solver.choice.cell)}"
        raise BadInputError(f"{where}: game {row['i']}, guess {k + 1}: the replay chose {got}, the run logged "
                            f"{logged['minebot_cell']}: give the run's --solver options (and minebot version)")
    return {"board": solver.board.to_text(), "cells": [logged["minebot_cell"], logged["peer_cell"]],
            "game": row["i"], "kind": logged["minebot_kind"], "peer_kind": logged["peer_kind"]}


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    from peer_compare import SETTINGS
    from peer_hybrid import check_category, first_differing, read_rows

    from minebot.cli.bench import solver_options
    from minebot.game.layouts import load_layouts
    run = Path(args.run)
    written = 0
    try:
        if args.max < 0:
            raise BadInputError("--max must be at least 0")
        options = solver_options(args.solver)
        category = check_category(args.category)
        setting = run.name.split("-seed")[0]
        if setting not in SETTINGS:
            raise BadInputError(f"{run}: not a peer_hybrid chunk folder (SETTING-seedS-nN; settings: "
                                f"{', '.join(SETTINGS)})")
        rows = read_rows(run / "default.jsonl")
        if not rows:
            raise BadInputError(f"{run / 'default.jsonl'}: no games (run peer_hybrid.py first)")
        layouts = load_layouts(str(run / "boards.jsonl"))
        with open(args.out, "w", encoding="utf-8") as out:
            for i in sorted(rows):
                k = first_differing(rows[i], category)
                if k is None:
                    continue
                if not 1 <= i <= len(layouts):
                    raise BadInputError(f"{run / 'boards.jsonl'}: no board for game {i}")
                pos = position(layouts[i - 1], SETTINGS[setting].rules, options, rows[i], k, str(run))
                out.write(json.dumps(pos) + "\n")
                written += 1
                if written == args.max:
                    break
    except OSError as err:
        print(f"hybrid_positions: {err.filename}: {err.strerror}", file=sys.stderr)
        return BadInputError.exit_code
    except MinebotError as err:
        print(f"hybrid_positions: {err}", file=sys.stderr)
        return err.exit_code
    except KeyboardInterrupt as stop:       # Ctrl-C, or SIGTERM (Terminated)
        print(f"hybrid_positions: stopped; {written} positions written to {args.out}", file=sys.stderr)
        return interrupt_exit_code(stop)
    print(f"{written} positions written to {args.out}")
    return EXIT_OK


if __name__ == "__main__":
    from minebot.cli import stop_on_signals
    stop_on_signals()
    sys.exit(main())
