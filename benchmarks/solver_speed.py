"""Per-position solver costs on real expert positions (not a test: prints figures).

Plays seeded expert games with the solver, keeps every position it was asked about, then times
on those positions: building the constraints, the SAT backbone with each encoding, and the exact
probabilities (counting DP). CPU time (``time.process_time``), so other load on the machine
does not inflate the figures.

    python benchmarks/solver_speed.py [--games 20] [--seed 1]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from minebot.cli.bench import game_seed
from minebot.game.engine import EngineGame
from minebot.loop import play_game
from minebot.solver import Solver
from minebot.solver.backbone import backbone
from minebot.solver.constraints import build_constraints
from minebot.solver.probability import count_position


def _timed(fn, items) -> np.ndarray:
    out = []
    for item in items:
        t0 = time.process_time()
        fn(item)
        out.append((time.process_time() - t0) * 1000.0)
    return np.asarray(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    boards = []
    solver = Solver()
    for i in range(args.games):
        game = EngineGame(16, 30, 99, rules="zero", seed=game_seed(args.seed, i), first_click=(3, 3))
        play_game(game, solver, on_step=lambda b, moves: boards.append(b) if moves and b.revealed.any() else None)
    cons = [build_constraints(b, b.mines) for b in boards]
    rows = [
        ("constraints from a Board", _timed(lambda b: build_constraints(b, b.mines), boards)),
        ("backbone, native (Minicard)", _timed(lambda c: backbone(c, "native"), cons)),
        ("backbone, binomial (Minisat22)", _timed(lambda c: backbone(c, "binomial"), cons)),
        ("exact probabilities (counting DP)", _timed(lambda c: count_position(c).mine_weight, cons)),
        ("whole analysis (Solver.analyse)", _timed(lambda b: Solver().analyse(b, b.mines), boards)),
    ]
    print(f"{len(boards)} positions from {args.games} expert games (CPU ms: median / p99 / max)")
    for name, ms in rows:
        print(f"  {name:36s} {np.median(ms):7.2f} {np.percentile(ms, 99):8.2f} {ms.max():8.2f}")


if __name__ == "__main__":
    main()
