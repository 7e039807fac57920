"""Benchmark live play on a real Minesweeper (GNOME Mines, xdemineur, KMines, Simon Tatham's Mines)
under a private Xvfb.

    python benchmarks/live_play.py --level expert --games 200   # -> benchmarks/live_results/
    python benchmarks/live_play.py --game xdemineur --size 30x16 --mines 99 --games 100 --engine 2000
    python benchmarks/live_play.py --game kmines --level medium --games 100 --engine 2000
    python benchmarks/live_play.py --game sgt-mines --size 16x16 --mines 40 --games 100 --engine 2000

Starts its own Xvfb and GNOME Mines (theme and window size chosen), plays ``--games`` games
with the same loop, reader and solver as ``minebot play``, and prints win rate (with a 95 %
Wilson interval), median wall time of a won game, clicks, guesses, the median solver time per
turn, and where the games' time went (``minebot.timing``, as ``minebot play --profile``):
waiting for the game to draw, settling, grabbing, reading, solving, planning, sending, and the
bot's share (all but the drawing), over all games and over the won ones. Every finished game is appended to
``games.jsonl`` at once; ``summary.json`` is rewritten after every game, so an interrupted run
keeps its figures. A game the bot had to stop (unreadable frame, inconsistent board) is
counted as ``stopped`` with its reason and frame; a new game is started and the run goes on.

Compare the win rate with the engine under the same rule: ``minebot bench --size 30x16
--mines 99 --rules zero --games N`` (``--game NAME`` for a clone's rules), or here with
``--engine N``: N engine games of the same size under the game's rules (``bench --game``),
both rates with 95 % Wilson intervals and the two-sided p-value of their difference.

xdemineur (``--size COLSxROWS --mines N``, Debian package ``xdemineur``) and KMines
(``--level easy|medium|hard``, Classic theme, package ``kmines``) are started privately by
their folder's ``launcher`` (``minebot.games.NAME.launcher``); their board size is fixed
when they start. Simon Tatham's Mines
(``--size COLSxROWS --mines N`` as its argument, ``--window`` its window; package
``sgt-puzzles``) deals only boards logic solves from the first opening, and its engine games
are such boards too (``bench --game sgt-mines``).
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from minebot.stats import wilson  # noqa: E402
from minebot.timing import TurnProfile  # noqa: E402


def time_split(records: list[dict]) -> dict | None:
    """The games' profiles (their log lines' ``profile``) added up; None when none has one."""
    profiles = [TurnProfile.from_json(r["profile"]) for r in records if r.get("profile")]
    return TurnProfile.total(profiles).to_json() if profiles else None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--game", default="gnome-mines", choices=("gnome-mines", "xdemineur", "kmines",
                                                                    "sgt-mines"))
    ap.add_argument("--level", default=None,
                    help="GNOME Mines: beginner/intermediate/expert (default beginner); "
                         "KMines: easy/medium/hard (default easy)")
    ap.add_argument("--size", default="30x16",
                    help="xdemineur's or Simon Tatham's board COLSxROWS (default 30x16)")
    ap.add_argument("--mines", type=int, default=99, help="their mines (default 99)")
    ap.add_argument("--engine", type=int, default=0, metavar="N",
                    help="also play N engine games of the same size under the game's rules and compare")
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--theme", default="bgcolors", choices=("bgcolors", "default", "classic"))
    ap.add_argument("--window", default="1010x656", help="X window size WxH")
    ap.add_argument("--out", default=None, help="folder for games.jsonl, summary.json, stopped frames")
    ap.add_argument("--minutes", type=float, default=None, help="stop starting new games after this")
    ap.add_argument("--record", metavar="DIR", help="record every frame and move (minebot replay DIR)")
    ap.add_argument("--resume", action="store_true",
                    help="count the games already in OUT/games.jsonl and play --games more")
    args = ap.parse_args(argv)

    from minebot.sandbox.xvfb import Xvfb, exit_on_sigterm
    exit_on_sigterm()
    from minebot.errors import MinebotError
    from minebot.game.live import LiveGame
    from minebot.loop import play_game
    from minebot.solver import Solver

    window = tuple(int(v) for v in args.window.lower().split("x"))
    if args.level is None:
        args.level = {"gnome-mines": "beginner", "kmines": "easy"}.get(args.game)
    if args.game in ("xdemineur", "sgt-mines"):
        args.level, args.theme = args.size, "built-in"
    elif args.game == "kmines":
        args.theme = "classic"
    label = args.level if args.game == "gnome-mines" else f"{args.game}-{args.level}"
    out = Path(args.out or ROOT / "benchmarks" / "live_results" / f"{label}-{args.theme}-{args.window}")
    out.mkdir(parents=True, exist_ok=True)
    results: list[dict] = []
    if args.resume and (out / "games.jsonl").exists():
        results = [json.loads(line) for line in (out / "games.jsonl").read_text().splitlines() if line]
    elif (out / "games.jsonl").exists():
        (out / "games.jsonl").unlink()   # a new run: the summary describes exactly its games
    log = (out / "games.jsonl").open("a", encoding="utf-8")
    first_number = len(results)
    started = time.monotonic()

    from minebot.sandbox.versions import environment
    measured_on = environment()

    def summary() -> dict:
        done = [r for r in results if r["result"] in ("won", "lost")]
        wins = sum(r["result"] == "won" for r in done)
        won_secs = [r["seconds"] for r in done if r["result"] == "won"]
        lo, hi = wilson(wins, len(done))
        return {
            "game": args.game, "level": args.level, "theme": args.theme, "window": list(window),
            "games": len(done), "wins": wins,
            "win_rate": round(wins / len(done), 4) if done else None,
            "win_rate_95": [round(lo, 4), round(hi, 4)],
            "stopped": sum(r["result"] == "stopped" for r in results),
            "median_won_seconds": round(statistics.median(won_secs), 3) if won_secs else None,
            "median_seconds": round(statistics.median([r["seconds"] for r in done]), 3) if done else None,
            "clicks": sum(r.get("clicks", 0) for r in done),
            "guesses": sum(r.get("guesses", 0) for r in done),
            "median_solve_ms_per_turn": round(statistics.median(
                [ms for r in done for ms in r.get("move_ms", [])]), 2) if done else None,
            "time_split": time_split(done),
            "time_split_won": time_split([r for r in done if r["result"] == "won"]),
            "wall_minutes_this_run": round((time.monotonic() - started) / 60, 2),
            "environment": measured_on,
        }

    solver = Solver()
    with Xvfb(1920, 1080) as xvfb, launcher(args, xvfb, window) as mines:
        from minebot.game.replay import Recording
        from minebot.games.interfaces import ui_for
        recorder = Recording(args.record) if args.record else None
        options = ({"level": args.level} if args.game == "gnome-mines"
                   else {"ui": ui_for(args.game), "mines": mines.board[2]})
        game = LiveGame(mines.display, window_id=mines.window.id, frames_dir=out,
                        recorder=recorder, **options)
        try:
            for n in range(first_number + 1, first_number + args.games + 1):
                if args.minutes and time.monotonic() - started > 60 * args.minutes:
                    break
                game.start() if n == first_number + 1 else game.new_game()
                try:
                    r = play_game(game, solver)
                    rec = {"game": n, "result": r.result, "seconds": round(r.seconds, 4),
                           "clicks": r.clicks, "guesses": r.guesses, "turns": r.turns,
                           "move_ms": [round(m, 2) for m in r.move_ms],
                           "profile": r.profile.to_json() if r.profile else None}
                except MinebotError as exc:
                    saved = game.save_frame(f"stopped-{n}")
                    rec = {"game": n, "result": "stopped", "reason": str(exc)[:300],
                           "frame": str(saved) if saved else None}
                    game.reading = None
                results.append(rec)
                log.write(json.dumps(rec) + "\n")
                log.flush()
                s = summary()
                (out / "summary.json").write_text(json.dumps(s, indent=1) + "\n")
                print(f"{n}: {rec['result']} {rec.get('seconds', '')} | {s['wins']}/{s['games']} won, "
                      f"{s['stopped']} stopped, median won {s['median_won_seconds']} s", flush=True)
        finally:
            game.close()
            log.close()
            if recorder is not None:
                recorder.close()
    final = summary()
    if args.engine:
        final["engine"] = engine_rates(args, mines.board if args.game != "gnome-mines" else None,
                                       final["wins"], final["games"])
        (out / "summary.json").write_text(json.dumps(final, indent=1) + "\n")
    for label, key in (("all games", "time_split"), ("won games", "time_split_won")):
        if final[key]:
            print(f"time of {label}: {TurnProfile.from_json(final[key]).line()}")
    print(json.dumps(final))
    return 0


def launcher(args, xvfb, window):
    """The private game to play (not started)."""
    from minebot.games.kmines.launcher import KMines
    from minebot.games.sgt_mines.launcher import SgtMines
    from minebot.games.xdemineur.launcher import Xdemineur
    from minebot.levels import parse_size
    from minebot.sandbox.mines import GnomeMines
    if args.game == "xdemineur":
        rows, cols = parse_size(args.size)
        return Xdemineur(xvfb, cols=cols, rows=rows, mines=args.mines)
    if args.game == "sgt-mines":
        rows, cols = parse_size(args.size)
        return SgtMines(xvfb, cols=cols, rows=rows, mines=args.mines, window=window)
    if args.game == "kmines":
        return KMines(xvfb, level=args.level, theme="classic", window=window)
    return GnomeMines(xvfb, theme=args.theme, window=window, level=args.level)


def engine_rates(args, board, wins: int, games: int) -> dict:
    """N engine games of the live size under the game's rules, against the live rate: both with
    95 % Wilson intervals and the two-sided p-value of a two-proportion z-test."""
    import math

    from minebot.cli.bench import game_rules, play_tasks, solver_spec, summarise
    from minebot.levels import LEVELS
    played = game_rules(args.game)
    rules, flags = played.rules, played.flags_to_win
    if board is None:
        lv = LEVELS[args.level]
        board = (lv.rows, lv.cols, lv.mines)
    rows, cols, mines = board
    if played.no_guess:
        # the game deals only no-guess boards: so do the engine's games (``bench --game``)
        from minebot.solver.noguess import no_guess_layouts
        from minebot.solver.solver import default_first_click
        first = default_first_click(rows, cols, rules)
        tasks = [(rows, cols, mines, rules, first, None, lay, solver_spec(), flags)
                 for lay in no_guess_layouts(rows, cols, mines, rules, first, args.engine, seed=1)]
    else:
        tasks = [(rows, cols, mines, rules, None, 1_000_003 + i, None, solver_spec(), flags)
                 for i in range(args.engine)]
    e = summarise(list(play_tasks(tasks, 1)))
    p1, p2 = (wins / games if games else 0.0), e["win_rate"]
    pooled = (wins + e["wins"]) / (games + e["games"]) if games else 0.0
    se = math.sqrt(pooled * (1 - pooled) * (1 / max(games, 1) + 1 / e["games"])) if pooled not in (0, 1) else 0.0
    z = (p1 - p2) / se if se else 0.0
    p_value = math.erfc(abs(z) / math.sqrt(2))
    return {"rules": rules, "flags_to_win": flags, "no_guess": played.no_guess, "board": [cols, rows, mines], "games": e["games"],
            "wins": e["wins"], "win_rate": round(p2, 4), "win_rate_95": [round(v, 4) for v in e["ci95"]],
            "live_minus_engine": round(p1 - p2, 4), "p_value": round(p_value, 4)}


if __name__ == "__main__":
    sys.exit(main())
