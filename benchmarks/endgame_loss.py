"""How many wins a solver's guesses give away near the end of the game, measured exactly.

    python benchmarks/endgame_loss.py --boards out/peer_long/expert-zero-seed101-n1000/boards.jsonl \\
        --rules zero --games 300 --limit 1000 [--solver strong] [--out positions.jsonl]

A win-rate comparison of two solvers needs thousands of games, because a game's result is mostly
luck. Near the end it need not be: once few layouts fit the board, every one can be listed and
the best chance of winning from the position is a finite game tree (``minebot.solver.endgame``),
so the chance that the solver's own guess gives away is exact too. This plays games with a
solver and, at every guess whose position has at most ``--limit`` layouts, solves the position
with a large node budget and records the best win probability and that of the cell the solver
chose.

Summed over the first such position of each game it is the expected number of wins a perfect
endgame player would add from there, a figure with no luck in it (the positions after the first
depend on the solver's own play, so they are listed but not added). The table splits the loss by
the kind of guess (``GuessKind``: endgame search, look-ahead, forced 50/50, ...) and by size.
Positions the search cannot finish within ``--budget`` nodes are counted apart.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from minebot.errors import EXIT_BAD_INPUT, EXIT_OK, MinebotError, interrupt_exit_code  # noqa: E402

SIZE_BRACKETS = (200, 1000, 5000)     # layouts: "<= 200", "<= 1000", ...


def size_bracket(layouts: int) -> str:
    for top in SIZE_BRACKETS:
        if layouts <= top:
            return f"<= {top}"
    return f"> {SIZE_BRACKETS[-1]}"


def exact_values(result, cell, limit: int, budget: int) -> dict | None:
    """The best win probability of the position and that of ``cell``; None when it has more than
    ``limit`` layouts, {"unsolved": ...} when the search needs more than ``budget`` nodes."""
    from minebot.solver.endgame import Endgame
    search = Endgame.of_position(result.constraints, limit, budget)
    if search is None:
        return None
    best = search.best()
    chosen = search.win_probability(tuple(cell)) if best is not None else None
    if best is None or chosen is None:
        return {"layouts": search.shows.shape[0], "unsolved": True}
    return {"layouts": search.shows.shape[0], "best": best[1], "best_cell": best[0], "chosen": chosen}


def make_solver(options: dict, limit: int, budget: int, sink):
    """A Solver that plays as configured and reports, at each guess, the exact values."""
    from minebot.solver import Solver

    class Measuring(Solver):
        def guess(self, result):
            choice = super().guess(result)
            counts = result.counts
            if counts.mines_known and counts.layouts <= limit:
                start = time.process_time()
                found = exact_values(result, choice.cell, limit, budget)
                if found is not None:
                    sink(dict(found, kind=choice.kind.value, cell=list(choice.cell),
                              ms=round((time.process_time() - start) * 1000, 1)))
            return choice

    return Measuring(**options)


def summarise(rows: list[dict], games: int) -> str:
    """The table: per kind and size, positions and wins given away; first positions per game."""
    first: dict[int, dict] = {}
    by: dict[tuple, list] = defaultdict(lambda: [0, 0.0, 0])
    unsolved = 0
    for row in rows:
        if row.get("unsolved"):
            unsolved += 1
            continue
        loss = row["best"] - row["chosen"]
        cell = by[(row["kind"], size_bracket(row["layouts"]))]
        cell[0] += 1
        cell[1] += loss
        cell[2] += loss > 1e-9
        first.setdefault(row["game"], row)
    lines = ["| kind of guess | layouts | positions | not the best cell | wins given away (sum) |",
             "|---|---|---|---|---|"]
    for (kind, size), (n, loss, worse) in sorted(by.items()):
        lines.append(f"| {kind} | {size} | {n} | {worse} | {loss:.3f} |")
    lost = sum(r["best"] - r["chosen"] for r in first.values())
    lines.append("")
    lines.append(f"{games} games, {len(first)} reached a solved position of this size. At the first of "
                 f"them, the solver's guesses gave away {lost:.3f} expected wins: "
                 f"{100 * lost / max(games, 1):.3f} points of win rate that a perfect endgame would add.")
    if unsolved:
        lines.append(f"{unsolved} positions were not solved within the node budget (not counted).")
    return "\n".join(lines)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 epilog=__doc__.split("\n\n", 2)[2],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--boards", help="JSONL layouts to play (e.g. the peer's boards.jsonl); "
                                     "without it, seeded random games of --size/--mines")
    ap.add_argument("--size", default="30x16", help="COLSxROWS of seeded games (default 30x16)")
    ap.add_argument("--mines", type=int, default=99, help="mines of seeded games (default 99)")
    ap.add_argument("--rules", default="zero", choices=("zero", "safe"), help="first-click rule (default zero)")
    ap.add_argument("--games", type=int, default=300, help="games to play (default 300)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the random games (default 1)")
    ap.add_argument("--solver", help="Solver options as JSON, or a preset name such as strong (default: the default)")
    ap.add_argument("--limit", type=int, default=1000, help="solve positions with at most this many layouts (default 1000)")
    ap.add_argument("--budget", type=int, default=2_000_000,
                    help="node budget of each exact solve (default 2,000,000)")
    ap.add_argument("--out", help="write every measured position here, one JSON line each")
    return ap.parse_args(argv)


def games_to_play(args) -> list:
    """(rows, cols, mines, seed, layout, first click) per game."""
    from minebot.errors import BadInputError
    from minebot.levels import parse_size
    if args.games < 1:
        raise BadInputError("--games must be at least 1")
    if args.boards:
        from minebot.game.layouts import load_layouts
        layouts = load_layouts(args.boards)[: args.games]
        if not layouts:
            raise BadInputError(f"{args.boards}: no layouts in the file")
        return [(lay.rows, lay.cols, len(lay.mines), None, lay, lay.first) for lay in layouts]
    rows, cols = parse_size(args.size)
    from minebot.cli.bench import game_seed
    from minebot.solver.solver import default_first_click
    first = default_first_click(rows, cols, args.rules)
    return [(rows, cols, args.mines, game_seed(args.seed, i), None, first) for i in range(args.games)]


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    from minebot.cli.bench import solver_options
    from minebot.game.engine import EngineGame
    from minebot.loop import play_game
    try:
        options = solver_options(args.solver)
        games = games_to_play(args)
    except MinebotError as err:
        print(f"endgame_loss: {err}", file=sys.stderr)
        return err.exit_code if hasattr(err, "exit_code") else EXIT_BAD_INPUT
    rows: list[dict] = []
    out = open(args.out, "w") if args.out else None
    current = {"game": 0}

    def sink(row: dict) -> None:
        row["game"] = current["game"]
        rows.append(row)
        if out:
            out.write(json.dumps(row) + "\n")
            out.flush()

    solver = make_solver(options, args.limit, args.budget, sink)
    played = 0
    code = EXIT_OK
    try:
        for i, (r, c, m, seed, layout, first) in enumerate(games):
            current["game"] = i
            play_game(EngineGame(r, c, m, rules=args.rules, seed=seed, layout=layout, first_click=first), solver)
            played += 1
            if sys.stderr.isatty():
                print(f"\r{played}/{len(games)} games, {len(rows)} positions", end="", file=sys.stderr)
            elif played % 50 == 0:
                print(f"{played}/{len(games)} games, {len(rows)} positions", file=sys.stderr, flush=True)
    except KeyboardInterrupt as stop:     # Ctrl-C, or SIGTERM (Terminated)
        code = interrupt_exit_code(stop)
        print("\nstopped: the figures of the games finished so far", file=sys.stderr)
        rows = [row for row in rows if row["game"] < played]
    finally:
        if out:
            out.close()
    if sys.stderr.isatty():
        print("", file=sys.stderr)
    print(summarise(rows, played))
    return code


if __name__ == "__main__":
    from minebot.cli import stop_on_signals
    stop_on_signals()          # SIGTERM (a timeout, a kill) reports what was played, as Ctrl-C does
    sys.exit(main())
