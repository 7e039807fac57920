"""Paired rollout values of candidate guesses in one position.

    python benchmarks/rollouts.py BOARD.txt 0,29 2,29 [solver] --samples 1000 --seed 1 --jobs 2
    python benchmarks/rollouts.py --positions positions.jsonl --samples 400

Whether one guess is better than another cannot be read from a few game results: a game's
outcome is mostly luck. Exact win chances exist only near the end (``minebot.solver.endgame``).
Elsewhere this estimates them: N layouts are drawn uniformly from the position
(``minebot.solver.sampling``) and on each of them every candidate is opened and the game is
played on to its end by minebot's own solver (``play_game`` on the engine with that layout,
brought to the position by opening the board's revealed cells). The estimate of a candidate is
the win chance of "open it now, then play as minebot does", unbiased, and since every candidate
plays the same layouts the difference of two candidates comes from the layouts where exactly one
of them wins (the discordant ones): its standard error sqrt(discordant) / N is far below that of
separate runs, and candidates that play alike after the first click cost no variance at all.

A candidate is ``ROW,COL`` (an unknown cell) or ``solver`` (the cell minebot's solver with
``--solver`` would open). ``--positions FILE`` runs many positions, one JSON object a line:
``{"board": "<board text>", "cells": [[r, c], ...]}`` (``"solver"`` allowed in ``cells``) and
prints one row per position plus the pooled difference of the first cell minus each other one.
Layouts are drawn in the parent from ``--seed`` (position i of a file: seed ``[seed, i]``), so
``--jobs`` changes the speed, not the figures. Ctrl-C prints what is done.
"""

from __future__ import annotations

import argparse
import math
import sys
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from minebot.board import CELL_CHARS, Board, Cell  # noqa: E402
from minebot.errors import BadInputError, MinebotError, interrupt_exit_code  # noqa: E402

Coord = tuple[int, int]
SOLVER = "solver"


@dataclass
class Position:
    """A board to estimate guesses on, its candidate cells and their labels."""

    name: str
    board: Board
    cells: list[Coord]
    labels: list[str]


def check_board(board: Board, name: str) -> None:
    """Rollouts need a game in play with a known mine total and every open cell's number."""
    if board.mines is None:
        raise BadInputError(f"{name}: the board has no mine total (its header needs \"mines\")")
    if board.is_over or (board.cells == Cell.MINE).any() or (board.cells == Cell.EXPLODED).any():
        raise BadInputError(f"{name}: the game on the board is over")
    if (board.cells == Cell.OPEN).any():
        r, c = (int(x) for x in np.argwhere(board.cells == Cell.OPEN)[0])
        raise BadInputError(f"{name}: the open cell ({r}, {c}) has no number (#): the position is not known")


def candidates(board: Board, specs: list, name: str, options: dict) -> tuple[list[Coord], list[str]]:
    """The cells of ``specs`` (``"R,C"``, ``[r, c]`` or ``"solver"``), each an unknown cell."""
    from minebot.levels import parse_cell
    cells, labels = [], []
    for spec in specs:
        if spec == SOLVER:
            cell = solver_choice(board, options)
            cells.append(cell)
            labels.append(f"solver {cell[0]},{cell[1]}")
            continue
        if isinstance(spec, str):
            cell = parse_cell(spec)
        elif isinstance(spec, list) and len(spec) == 2 and all(type(v) is int for v in spec):
            cell = (spec[0], spec[1])
        else:
            raise BadInputError(f"{name}: cell {spec!r}: expected [row, col] or \"solver\"")
        r, c = cell
        if not (0 <= r < board.rows and 0 <= c < board.cols):
            raise BadInputError(f"{name}: cell {r},{c} is off the {board.cols}x{board.rows} board")
        if not board.unknown[cell]:
            raise BadInputError(f"{name}: cell {r},{c} is not unknown (it shows {CELL_CHARS[board.cells[cell]]!r})")
        cells.append(cell)
        labels.append(f"{r},{c}")
    if len(cells) < 2:
        raise BadInputError(f"{name}: give at least two candidates (cells or \"solver\")")
    return cells, labels


def solver_choice(board: Board, options: dict) -> Coord:
    """The cell the solver would open first on ``board`` (a guess, or a certain safe cell)."""
    from minebot.move import Action
    from minebot.solver import Solver
    moves = Solver(**options).next_moves(board, board.mines)
    return next(m.cell for m in moves if m.action is Action.OPEN)


def engine_at(board: Board, mine: np.ndarray):
    """An engine game with the layout ``mine``, brought to ``board``'s position.

    Opening every revealed cell in one batch: a cell a zero's flood has already opened gets the
    engine's chord, which with no flags does something only on a 0, whose neighbours are safe
    anyway. The result must show exactly the board's numbers (the layout agrees with them)."""
    from minebot.game.engine import EngineGame
    from minebot.game.layouts import Layout
    from minebot.move import Action, Move
    game = EngineGame(board.rows, board.cols, int(mine.sum()), rules="zero", layout=Layout.from_mask(mine))
    shown = board.revealed
    game.act([Move(Action.OPEN, (int(r), int(c))) for r, c in np.argwhere(shown)])
    view = game.observe().cells
    if not (view[shown] == board.cells[shown]).all():
        raise AssertionError("the sampled layout does not agree with the board's numbers")
    return game


def rollout(task: tuple) -> tuple[int, list[bool]]:
    """Play one layout with every candidate (in a worker): (position index, won per candidate)."""
    index, text, cells, mine, spec = task
    from minebot.cli.bench import solver_for
    from minebot.loop import play_game
    from minebot.move import Action, Move
    solver = solver_for(spec)
    board = Board.parse(text)
    won = []
    for cell in cells:
        game = engine_at(board, mine)
        game.act([Move(Action.OPEN, cell)])
        won.append(play_game(game, solver).won)      # an ended game is returned as it is
    return index, won


def samplers(positions: list[Position]) -> list:
    """One layout sampler per position, built before any rollout (an inconsistent board is
    refused here, in the parent, with its message)."""
    from minebot.solver import analyse
    from minebot.solver.sampling import LayoutSampler
    return [LayoutSampler(analyse(pos.board, pos.board.mines).constraints) for pos in positions]


def tasks(positions: list[Position], drawers: list, samples: int, seed: int, spec: str):
    """Every (position, layout) task; layouts drawn here, position i from seed [seed, i]."""
    for i, (pos, sampler) in enumerate(zip(positions, drawers)):
        rng = np.random.default_rng([seed, i])
        text = pos.board.to_text()
        for _ in range(samples):
            yield i, text, pos.cells, sampler.draw(rng), spec


def run(positions: list[Position], drawers: list, samples: int, seed: int, jobs: int,
        spec: str) -> tuple[list[list], KeyboardInterrupt | None]:
    """Outcomes per position (one list of wins per layout), and the Ctrl-C or SIGTERM that
    stopped the run (None when it ran to the end)."""
    from minebot.cli.bench import play_tasks
    results: list[list] = [[] for _ in positions]
    total = samples * len(positions)
    done = 0
    start = time.perf_counter()
    outcomes = play_tasks(tasks(positions, drawers, samples, seed, spec), jobs, rollout)
    try:
        for index, won in outcomes:
            results[index].append(won)
            done += 1
            if sys.stderr.isatty():
                print(f"\r{done}/{total} rollouts, {time.perf_counter() - start:.0f} s", end="", file=sys.stderr)
            elif done % max(1, total // 10) == 0:
                print(f"{done}/{total} rollouts, {time.perf_counter() - start:.0f} s", file=sys.stderr, flush=True)
        stopped = None
    except KeyboardInterrupt as stop:       # Ctrl-C, or SIGTERM (Terminated)
        stopped = stop
    finally:
        outcomes.close()        # stops the workers
        if sys.stderr.isatty():
            print("", file=sys.stderr)
    return results, stopped


def pair_figures(outcomes: list[list[bool]], a: int, b: int) -> dict:
    """Candidate a minus candidate b over the same layouts, with the se of the discordant ones."""
    from ab_solver import compare
    f = compare([(i, w[b], w[a]) for i, w in enumerate(outcomes)])   # compare's B - A = a - b
    return {"a_only": f["b_only"], "b_only": f["a_only"], "difference": f["difference"], "stderr": f["stderr"]}


def position_report(pos: Position, outcomes: list[list[bool]]) -> str:
    """Per candidate: P(mine), wins/N with the Wilson interval; per pair the paired difference."""
    from minebot.solver import analyse
    from minebot.stats import wilson
    n = len(outcomes)
    result = analyse(pos.board, pos.board.mines)
    lines = [f"{pos.name}: {pos.board.cols}x{pos.board.rows}, {pos.board.mines} mines, "
             f"{n} layouts sampled",
             "| candidate | P(mine) | wins/N | win % | 95% CI |", "|---|---|---|---|---|"]
    for k, (cell, label) in enumerate(zip(pos.cells, pos.labels)):
        wins = sum(w[k] for w in outcomes)
        lo, hi = wilson(wins, n)
        lines.append(f"| {label} | {float(result.fraction(cell)):.4f} | {wins}/{n} | "
                     f"{100 * wins / max(n, 1):.2f} | {100 * lo:.1f}-{100 * hi:.1f} |")
    for a in range(len(pos.cells)):
        for b in range(a + 1, len(pos.cells)):
            f = pair_figures(outcomes, a, b)
            lines.append(f"{pos.labels[a]} minus {pos.labels[b]}: {100 * f['difference']:+.2f} pp "
                         f"(se {100 * f['stderr']:.2f}; only {pos.labels[a]} won {f['a_only']}, "
                         f"only {pos.labels[b]} won {f['b_only']})")
    return "\n".join(lines)


def positions_report(positions: list[Position], results: list[list]) -> str:
    """One row per position, then the first cell minus each other one, pooled over positions
    (positions weighted alike; se from the positions' own)."""
    most = max(len(p.cells) for p in positions)
    heads = [f"first - cell {j + 1}" for j in range(1, most)]
    lines = ["| # | position | N | win % per cell | " + " | ".join(heads) + " |",
             "|---" * (4 + len(heads)) + "|"]
    pooled: list[list[tuple[float, float]]] = [[] for _ in heads]
    for i, (pos, outcomes) in enumerate(zip(positions, results)):
        n = len(outcomes)
        if not n:
            continue
        rates = " / ".join(f"{100 * sum(w[k] for w in outcomes) / n:.1f}" for k in range(len(pos.cells)))
        diffs = []
        for j in range(1, most):
            if j < len(pos.cells):
                f = pair_figures(outcomes, 0, j)
                pooled[j - 1].append((f["difference"], f["stderr"]))
                diffs.append(f"{100 * f['difference']:+.2f} ({100 * f['stderr']:.2f})")
            else:
                diffs.append("")
        lines.append(f"| {i + 1} | {pos.name} | {n} | {rates} | " + " | ".join(diffs) + " |")
    lines.append("")
    for head, values in zip(heads, pooled):
        if values:
            mean = sum(d for d, _ in values) / len(values)
            se = math.sqrt(sum(s * s for _, s in values)) / len(values)
            lines.append(f"pooled {head} over {len(values)} positions: {100 * mean:+.3f} pp (se {100 * se:.3f})")
    return "\n".join(lines)


def load_positions(path: str, options: dict) -> list[Position]:
    """``--positions``: one ``{"board": text, "cells": [...]}`` a line; errors name file:line."""
    from minebot.game.layouts import read_json_lines
    out = []
    for where, obj in read_json_lines(path, "positions"):
        if not isinstance(obj, dict) or not isinstance(obj.get("board"), str) or not isinstance(obj.get("cells"), list):
            raise BadInputError(f"{where}: expected {{\"board\": \"<board text>\", \"cells\": [[r, c], ...]}}")
        board = Board.parse(obj["board"], where)
        check_board(board, where)
        cells, labels = candidates(board, obj["cells"], where, options)
        out.append(Position(where, board, cells, labels))
    return out


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 epilog=__doc__.split("\n\n", 2)[2],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("board", nargs="?", help="board file (the project's text format, with the mine total)")
    ap.add_argument("cells", nargs="*", help="candidates: ROW,COL or solver (at least two)")
    ap.add_argument("--positions", metavar="FILE.jsonl", help="many positions instead of one board")
    ap.add_argument("--samples", type=int, default=500, help="layouts per position (default 500)")
    ap.add_argument("--seed", type=int, default=1, help="seed of the layouts (default 1)")
    ap.add_argument("--solver", help="Solver options as JSON, or a preset name such as strong "
                                     "(the policy that plays on, and the 'solver' candidate)")
    ap.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    return ap.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    from minebot.cli.bench import solver_options, solver_spec
    try:
        if args.samples < 1 or args.jobs < 1:
            raise BadInputError("--samples and --jobs must be at least 1")
        options = solver_options(args.solver)
        if args.positions:
            if args.board:
                raise BadInputError("give a board file or --positions, not both")
            positions = load_positions(args.positions, options)
        else:
            if not args.board:
                raise BadInputError("give a board file and two or more cells, or --positions FILE")
            board = Board.load(args.board)
            check_board(board, args.board)
            cells, labels = candidates(board, args.cells, args.board, options)
            positions = [Position(args.board, board, cells, labels)]
        drawers = samplers(positions)
        results, stopped = run(positions, drawers, args.samples, args.seed, args.jobs, solver_spec("native", options))
    except MinebotError as err:
        print(f"rollouts: {err}", file=sys.stderr)
        return err.exit_code
    if stopped is not None:
        print("interrupted: the figures of the rollouts finished so far", file=sys.stderr)
    if args.positions:
        print(positions_report(positions, results))
    else:
        print(position_report(positions[0], results[0]))
    return interrupt_exit_code(stopped) if stopped is not None else 0


if __name__ == "__main__":
    from minebot.cli import stop_on_signals
    stop_on_signals()
    sys.exit(main())
