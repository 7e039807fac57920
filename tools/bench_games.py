"""Every game of a ``minebot bench`` run, one JSON line each: won, clicks, guesses and every
move, so that two versions of minebot can be compared game by game, not only by their totals.

Why: ``minebot bench`` prints the totals of a run; a change meant to leave behaviour alone
(a restructuring, a faster count) must play the same moves on the same boards, which the
totals alone do not prove. The games are bench's own: the same engine seeds (``game_seed``)
and the same default solver, played in order by one solver (as one worker plays them).

    python tools/bench_games.py --size 30x16 --mines 99 --rules zero --games 500 --seed 3 > a.jsonl
    (other version)                                                                        > b.jsonl
    cmp a.jsonl b.jsonl
"""

from __future__ import annotations

import argparse
import json
import sys

from minebot.cli.bench import game_seed, solver_spec
from minebot.game.engine import EngineGame
from minebot.levels import parse_size
from minebot.loop import play_game
from minebot.solver import Solver


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="30x16", help="COLSxROWS (default 30x16)")
    parser.add_argument("--mines", type=int, default=99)
    parser.add_argument("--rules", default="zero")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rows, cols = parse_size(args.size)
    solver = Solver(**json.loads(solver_spec("native")))
    for i in range(args.games):
        game = EngineGame(rows, cols, args.mines, rules=args.rules, seed=game_seed(args.seed, i))
        moves: list = []
        result = play_game(game, solver, on_step=lambda board, batch: moves.append(
            [[m.action.value, int(m.cell[0]), int(m.cell[1])] for m in batch]))
        print(json.dumps({"game": i, "won": result.won, "clicks": result.clicks,
                          "guesses": result.guesses, "moves": moves}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
