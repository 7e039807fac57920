"""``minebot bench``: play many engine games with the solver and report win rate and speed.

Games go through the same ``play_game`` loop as the live bot, so the figures are what the bot
does. Game i of a run with seed S uses the engine seed derived from (S, i): any game can be
re-run alone, and runs with other ``--jobs`` give the same games.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from typing import Callable, Generator, Iterable

from ..errors import BadInputError, interrupt_exit_code
from ..game.engine import EngineGame
from ..game.layouts import load_layouts, save_layouts
from ..games.interfaces import UIS, ui_for
from ..levels import parse_cell, parse_size
from ..loop import play_game
from ..rules import RULES, Rules, allowed_cells
from ..stats import wilson

HELP = "benchmark the solver on the headless engine (win rate with 95% interval, timings)"
"""Plain text: shown as it is in ``minebot bench --help`` (a description), and escaped where
argparse %-formats it (a subcommand's ``help`` in ``minebot --help``)."""


def register(sub) -> None:
    p = sub.add_parser("bench", help=HELP.replace("%", "%%"), description=HELP + ".\n\n" + __doc__.split("\n\n", 1)[1],
                       formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--size", default="30x16", help="board size COLSxROWS (default 30x16)")
    p.add_argument("--mines", type=int, default=99, help="number of mines (default 99)")
    p.add_argument("--rules", default=Rules.ZERO, choices=RULES,
                   help="first-click rule set (default zero)")
    p.add_argument("--game", default=None, metavar="NAME",
                   help=f"play by the rules of this game: {rules_help()}; overrides --rules")
    p.add_argument("--first", default=None, metavar="ROW,COL",
                   help="first click (default: the solver's choice for the rule set)")
    p.add_argument("--games", type=int, default=100, help="number of games (default 100)")
    p.add_argument("--seed", type=int, default=1, help="seed of the run (default 1)")
    p.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    p.add_argument("--boards", default=None, metavar="FILE",
                   help="play fixed layouts from a JSONL file instead (one game per layout)")
    p.add_argument("--no-guess", action="store_true",
                   help="play only boards solvable without guessing from the first click")
    p.add_argument("--save-boards", default=None, metavar="FILE",
                   help="with --no-guess: also write the generated layouts to this JSONL file")
    p.add_argument("--encoding", default="native", choices=("native", "binomial"),
                   help="backbone encoding (default native)")
    add_solver_option(p, "to measure a variant's strength and speed on the same games")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    p.set_defaults(func=run)


def rules_help() -> str:
    """``--game``'s help: every game, in registry order, with how it deals and ends its boards
    (from its profile and its ``GameUI``: ``game_rules``)."""
    parts = []
    for name in UIS:
        played = game_rules(name)
        extra = ((", and a win needs every mine flagged" if played.flags_to_win else "")
                 + (", and only boards solvable without guessing, as --no-guess"
                    if played.no_guess else ""))
        parts.append(f"{name} ({played.rules.value}{extra})")
    return ", ".join(parts)


def add_solver_option(p: argparse.ArgumentParser, purpose: str) -> None:
    """``--solver JSON|NAME`` (read with solver_options), for every command that plays."""
    p.add_argument("--solver", default=None, metavar="JSON|NAME",
                   help="Solver tuning as a JSON object of options that replace the default's one by "
                        "one, e.g. '{\"step_budget\": 4000}' (a smaller look-ahead budget per guess than "
                        "the default's 20000: faster, weaker), or a preset name: 'strong' (stronger "
                        f"guessing, at about 1.5 times the CPU per expert game): {purpose}")


def solver_options(text: str | None) -> dict:
    """``--solver``: Solver keyword arguments (a JSON object, or the name of a preset such as
    "strong"), checked here by building a Solver, so a typo is one line before the first game
    rather than a traceback in a worker."""
    from ..solver import PRESETS
    if text is None:
        return {}
    if text in PRESETS:
        return dict(PRESETS[text])
    try:
        options = json.loads(text)
        if not isinstance(options, dict):
            raise ValueError("not a JSON object")
        if "encoding" in options:
            raise ValueError("the encoding is --encoding")
        from ..solver import Solver
        Solver(**options)
    except (ValueError, TypeError) as err:
        why = (str(err) if text.lstrip().startswith("{")
               else f"not a JSON object, nor a preset ({', '.join(sorted(PRESETS))})")
        raise BadInputError(f"--solver {text}: {why}") from None
    return options


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return 0.0
    import numpy as np
    return float(np.percentile(np.asarray(values), q))


def play_task(task: tuple) -> tuple[bool, float, list[float], float]:
    """Play one game (in a worker): (won, ms for the game, ms per solver call, CPU ms)."""
    rows, cols, mines, rules, first, seed, layout, spec, *rest = task
    flags_to_win = bool(rest and rest[0])
    solver = solver_for(spec)
    game = EngineGame(rows, cols, mines, rules=rules, seed=seed, layout=layout, first_click=first,
                      flags_to_win=flags_to_win)
    cpu = time.process_time()
    result = play_game(game, solver)
    return result.won, result.seconds * 1000.0, result.move_ms, (time.process_time() - cpu) * 1000.0


_SOLVERS: dict = {}      # one Solver per worker and spec (its count cache is reused across games)


def solver_for(spec: str):
    """This worker's Solver for a ``solver_spec``, built on first use and then kept."""
    from ..solver import Solver
    solver = _SOLVERS.get(spec)
    if solver is None:
        solver = _SOLVERS[spec] = Solver(**json.loads(spec))
    return solver


def solver_spec(encoding: str = "native", options: dict | None = None) -> str:
    """The ``Solver`` keyword arguments of a task, as canonical JSON (picklable, hashable, and
    the same text for the same options, so a worker builds each solver once)."""
    return json.dumps({"encoding": encoding, **(options or {})}, sort_keys=True)


def _worker_init() -> None:
    """Workers leave Ctrl-C to the parent, which stops them and reports; SIGTERM (sent by the
    parent's ``terminate``) ends a worker at once, even in the middle of a long move."""
    import signal
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def summarise(outcomes: list[tuple]) -> dict:
    """The figures of a run. Game and move times are wall-clock (what a player would wait);
    ``cpu_ms_per_game_mean`` is the process CPU time, which other load on the machine does not
    inflate."""
    games = len(outcomes)
    wins = sum(1 for o in outcomes if o[0])
    game_ms = sorted(o[1] for o in outcomes)
    move_ms = [m for o in outcomes for m in o[2]]
    cpu_ms = [o[3] for o in outcomes if len(o) > 3]
    lo, hi = wilson(wins, games)
    return {
        "games": games, "wins": wins,
        "win_rate": wins / games if games else 0.0,
        "ci95": [lo, hi],
        "ms_per_game_mean": sum(game_ms) / games if games else 0.0,
        "ms_per_game_median": _percentile(game_ms, 50),
        "ms_per_move_p50": _percentile(move_ms, 50),
        "ms_per_move_p99": _percentile(move_ms, 99),
        "cpu_ms_per_game_mean": sum(cpu_ms) / len(cpu_ms) if cpu_ms else 0.0,
    }


def _tasks(args) -> list[tuple]:
    rows, cols = parse_size(args.size)
    first = parse_cell(args.first) if args.first else None
    if first is not None and not (0 <= first[0] < rows and 0 <= first[1] < cols):
        raise BadInputError(f"--first {args.first}: outside the {args.size} board")
    if args.games < 1 and not args.boards:
        raise BadInputError("--games must be at least 1")
    if args.jobs < 1:
        raise BadInputError(f"--jobs {args.jobs}: must be at least 1")
    if not args.boards:
        _check_mines(rows, cols, args.mines, args.rules, first)
    if args.boards:
        layouts = load_layouts(args.boards)
        if not layouts:
            raise BadInputError(f"{args.boards}: no layouts in the file")
        return layout_tasks(layouts, args.rules, first, args.encoding, solver_options(args.solver))
    spec = solver_spec(args.encoding, solver_options(args.solver))
    if args.no_guess:
        from ..solver.noguess import no_guess_layouts
        from ..solver.solver import default_first_click
        start = first or default_first_click(rows, cols, args.rules)
        if args.rules == Rules.PREOPENED:
            raise BadInputError("--no-guess needs a first click: use --rules zero or safe")
        if sys.stderr.isatty():
            sys.stderr.write(f"generating {args.games} no-guess boards...\n")
        layouts = list(no_guess_layouts(rows, cols, args.mines, args.rules, start, args.games, args.seed))
        if args.save_boards:
            save_layouts(args.save_boards, layouts)
        return [(rows, cols, args.mines, args.rules, start, None, lay, spec) for lay in layouts]
    return [(rows, cols, args.mines, args.rules, first, game_seed(args.seed, i), None, spec)
            for i in range(args.games)]


def game_seed(seed: int, i: int) -> int:
    """The engine seed of game ``i`` of ``--seed`` (tools that play "the same seeded games" as
    ``minebot bench`` use it too)."""
    return seed * 1_000_003 + i


def layout_tasks(layouts: list, rules: str, first: tuple[int, int] | None = None,
                 encoding: str = "native", options: dict | None = None) -> list[tuple]:
    """One game per fixed layout, in the task form ``play_tasks`` takes. Public so that other
    tools (``benchmarks/peer_compare.py``) play given boards exactly as ``bench --boards`` does;
    ``options`` are further ``Solver`` keyword arguments (a variant under test)."""
    spec = solver_spec(encoding, options)
    return [(lay.rows, lay.cols, len(lay.mines), rules, lay.first or first, None, lay, spec)
            for lay in layouts]


def play_tasks(tasks: Iterable[tuple], jobs: int,
               work: Callable[[tuple], tuple] = play_task) -> Generator[tuple, None, None]:
    """The outcomes of ``tasks`` in task order (see ``summarise`` for their form), each played
    by ``work`` in a worker (by default one game of ``minebot bench``; other tools pass their own).

    Games always run in worker processes, even with one job: the parent only waits, so it
    answers Ctrl-C and SIGTERM at once and ends a worker stuck in a long move on a huge board.
    Closing the generator (or an exception in the caller) stops the workers."""
    import multiprocessing
    pool = multiprocessing.get_context("fork").Pool(jobs, initializer=_worker_init)
    try:
        yield from pool.imap(work, tasks, chunksize=1 if jobs == 1 else 4)
    finally:
        pool.terminate()
        pool.join()


def _check_mines(rows: int, cols: int, mines: int, rules: str, first) -> None:
    """The mines must fit the cells the rule set leaves free (the engine draws them there)."""
    from ..solver.solver import default_first_click
    start = first or default_first_click(rows, cols, rules)
    room = int(allowed_cells(rows, cols, rules, start).sum())
    if rules == Rules.PREOPENED:           # the game opens a zero cell: at least a corner's 2x2 free
        room -= min(rows, 2) * min(cols, 2) - 1
    if not 0 <= mines <= room:
        where = f"first click {start[0]},{start[1]}, " if start is not None and rules != Rules.PREOPENED else ""
        raise BadInputError(f"--mines {mines}: between 0 and {max(room, 0)} on a {cols}x{rows} board "
                            f"({where}rule {rules})")


def _progress(done: int, total: int, wins: int, start: float) -> None:
    width = 30
    filled = int(width * done / total)
    rate = wins / done if done else 0.0
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total} games, "
                     f"{rate:.1%} won, {time.perf_counter() - start:.0f} s")
    sys.stderr.flush()


@dataclass(frozen=True)
class GameRules:
    """How a game deals and ends its boards, as the engine must play them: the rule set (where
    mines may lie), whether a win needs every mine flagged (xdemineur), and whether it only
    deals boards logic alone solves from the first opening (Simon Tatham's Mines)."""

    rules: Rules
    flags_to_win: bool = False
    no_guess: bool = False


def game_rules(name: str) -> GameRules:
    """The ``GameRules`` of a game, from its profile and its ``GameUI``."""
    ui = ui_for(name)
    return GameRules(ui.rules, ui.flags_to_win, ui.profile.no_guess)


def run(args) -> int:
    flags_to_win = False
    if getattr(args, "game", None):
        played = game_rules(args.game)
        args.rules, flags_to_win = played.rules, played.flags_to_win
        # a no-guess game is benchmarked on no-guess boards: the engine draws boards by the rule
        # set and keeps those its own certain moves solve from the first click (--no-guess)
        args.no_guess = args.no_guess or played.no_guess
    tasks = _tasks(args)
    if flags_to_win:
        tasks = [task + (True,) for task in tasks]
    outcomes: list = []
    show = sys.stderr.isatty()
    start = time.perf_counter()
    stopped_by: KeyboardInterrupt | None = None
    games = play_tasks(tasks, args.jobs)
    try:
        for outcome in games:
            outcomes.append(outcome)
            if show:
                _progress(len(outcomes), len(tasks), sum(o[0] for o in outcomes), start)
    except KeyboardInterrupt as exc:      # Ctrl-C, or SIGTERM (Terminated): report what was played
        stopped_by = exc
    finally:
        games.close()
        if show:
            sys.stderr.write("\n")
    summary = summarise(outcomes)
    if args.json:
        print(json.dumps(summary))
    else:
        lo, hi = summary["ci95"]
        print(f"games      {summary['games']}" + (" (interrupted)" if stopped_by else ""))
        print(f"wins       {summary['wins']}")
        print(f"win rate   {summary['win_rate']:.2%}  (95% CI {lo:.2%} - {hi:.2%})")
        print(f"ms/game    mean {summary['ms_per_game_mean']:.1f}  median {summary['ms_per_game_median']:.1f}")
        print(f"ms/move    p50 {summary['ms_per_move_p50']:.2f}  p99 {summary['ms_per_move_p99']:.2f}")
        print(f"cpu ms/game mean {summary['cpu_ms_per_game_mean']:.1f}")
    return interrupt_exit_code(stopped_by) if stopped_by is not None else 0
