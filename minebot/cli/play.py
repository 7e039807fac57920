"""``minebot play``: play the GNOME Mines window on this display.

Also home of ``play_session``, the multi-game runner shared with ``minebot demo``: one line per
game, a JSONL log line per finished game (flushed at once, so a killed run keeps every
finished game), and the summary.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import BadInputError

SUMMARY_KEYS = ("games", "wins", "win_rate", "median_seconds", "clicks", "guesses")


def add_level_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--level", choices=("beginner", "intermediate", "expert"),
                   help="switch the window to this level first (default: play the board shown)")
    p.add_argument("--size", metavar="COLSxROWS", help="a custom board size, e.g. 20x12 (with --mines)")
    p.add_argument("--mines", type=int, help="mines on the custom board (with --size)")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "play", help="play the GNOME Mines window on this display",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="""\
Find the GNOME Mines window (X11 title "Mines"), keep it focused, and play: capture the
window, read the board, click every certain cell in one batch, wait for the screen to show
the result, check it, repeat; guess the safest cell when nothing is certain. Every click is
inside the board just read. With no level given it plays whatever board the window shows
and then new games of the same size.

One line per game and a summary (wins, win rate, median seconds per game, clicks,
guesses) are printed; --json makes the last line one JSON object with the summary keys
games, wins, win_rate, median_seconds, clicks, guesses. Each finished game is appended to
the --log JSONL file at once.

Stop at any time with Ctrl-C, or by moving the mouse into a screen corner (pyautogui's
fail-safe). For a game on a private virtual display, see `minebot demo`.""")
    add_level_options(p)
    p.add_argument("--games", type=int, default=1, metavar="N", help="games to play (default 1)")
    p.add_argument("--json", action="store_true", help="print the summary as JSON on the last line")
    p.add_argument("--log", default="minebot-games.jsonl", metavar="FILE",
                   help="append one JSON line per finished game (default %(default)s; '' for none)")
    p.add_argument("--record", metavar="DIR",
                   help="save every frame read, the board read and the moves made (see `minebot replay`)")
    p.add_argument("--screenshots", metavar="DIR", help="save a PNG of each finished board here")
    p.add_argument("--click-log", metavar="FILE", help="append every click (x, y, button, board) as JSONL")
    p.add_argument("--keep-going", action="store_true",
                   help="when a board cannot be read safely, log that game as stopped (frame "
                        "saved) and start a new one instead of ending the run")
    p.add_argument("--templates", help="template set for reading (default: pick the best fit)")
    p.add_argument("--no-window", action="store_true",
                   help="do not look for the window by its title: locate the board on the whole "
                        "screen (also the fallback when no GNOME Mines window is found)")
    p.add_argument("--display", help="X display (default $DISPLAY)")
    p.set_defaults(func=run)


def parse_level(args: argparse.Namespace) -> tuple[str | None, tuple[int, int, int] | None]:
    from ..levels import parse_size
    if args.size is None and args.mines is None:
        return args.level, None
    if args.level:
        raise BadInputError("give either --level or --size/--mines, not both")
    if args.size is None or args.mines is None:
        raise BadInputError("a custom board needs both --size COLSxROWS and --mines N")
    rows, cols = parse_size(args.size)
    if not (4 <= rows <= 100 and 4 <= cols <= 100):
        raise BadInputError(f"--size {args.size}: GNOME Mines allows 4 to 100 rows and columns")
    if not 1 <= args.mines <= rows * cols - 10:
        raise BadInputError(f"--mines {args.mines}: between 1 and {rows * cols - 10} on {args.size}")
    return None, (rows, cols, args.mines)


@dataclass
class Session:
    """Results of a run, and where they go."""

    log_path: Path | None = None
    screenshots: Path | None = None
    quiet: bool = False
    results: list[dict] = field(default_factory=list)
    stopped: list[dict] = field(default_factory=list)

    def summary(self) -> dict:
        games = len(self.results)
        wins = sum(r["result"] == "won" for r in self.results)
        secs = [r["seconds"] for r in self.results]
        won_secs = [r["seconds"] for r in self.results if r["result"] == "won"]
        return {
            "games": games, "wins": wins,
            "win_rate": round(wins / games, 4) if games else 0.0,
            "median_seconds": round(statistics.median(secs), 4) if secs else None,
            "clicks": sum(r["clicks"] for r in self.results),
            "guesses": sum(r["guesses"] for r in self.results),
            "median_won_seconds": round(statistics.median(won_secs), 4) if won_secs else None,
        }

    def summary_line(self) -> str:
        s = self.summary()
        stopped = f", {len(self.stopped)} stopped unread" if self.stopped else ""
        if not s["games"]:
            return "no game finished" + stopped
        return (f"{s['games']} game(s): {s['wins']} won ({100 * s['win_rate']:.1f}%), median "
                f"{s['median_seconds']:.3f} s per game, {s['clicks']} clicks, {s['guesses']} "
                f"guesses{stopped}")

    def add(self, record: dict) -> None:
        self.results.append(record)
        self.log(record)

    def log(self, record: dict) -> None:
        if self.log_path is not None:
            self.log_path.parent.mkdir(parents=True, exist_ok=True)
            with open(self.log_path, "a", encoding="utf-8") as log:
                log.write(json.dumps(record) + "\n")
                log.flush()


def level_label(board, level: str | None, custom) -> str:
    size = f"{board.cols}x{board.rows}/{board.mines if board.mines is not None else '?'}"
    return f"{level} {size}" if level else (f"custom {size}" if custom else size)


def play_session(game, solver, games: int, session: Session, level: str | None = None,
                 custom=None, out=sys.stdout, keep_going: bool = False) -> Session:
    """Play ``games`` games on a ``LiveGame``; every finished game is logged at once.

    Games are numbered on from those already in ``session`` (one folder, one log). A board
    that cannot be read with confidence, or breaks the rules, stops the run with the frame
    saved; with ``keep_going`` that game is logged as ``stopped`` (reason and frame) and a new
    game starts instead, for long unattended runs. Interruptions always stop.
    """
    from ..errors import InconsistentBoardError, Interrupted, MinebotError
    from ..loop import play_game
    finished = 0
    first = True
    while finished < games:
        game.start() if first else game.new_game()
        first = False
        number = len(session.results) + len(session.stopped) + 1
        try:
            result = play_game(game, solver)
        except Interrupted:
            raise
        except MinebotError as exc:
            if isinstance(exc, InconsistentBoardError):
                saved = game.save_frame("inconsistent")
                message = (f"game {number}: the board read from the screen breaks the rules "
                           f"({exc}); stopped without clicking further; frame saved to {saved}")
            else:
                saved = None if "saved to" in str(exc) else game.save_frame("stopped")
                message = f"game {number}: {exc}" + (f" (last frame: {saved})" if saved else "")
            if not keep_going:
                exc.args = (message,)
                raise
            session.stopped.append({"game": number, "result": "stopped", "reason": message})
            session.log({"game": number, "result": "stopped", "reason": message,
                         "finished_at": time.strftime("%Y-%m-%dT%H:%M:%S")})
            print(f"game {number}: stopped, starting a new game ({message})", file=sys.stderr,
                  flush=True)
            game.reading = None
            continue
        finished += 1
        final = result.final
        record = {
            "game": number, "result": result.result, "level": level or ("custom" if custom else None),
            "rows": final.rows, "cols": final.cols, "mines": final.mines,
            "seconds": round(result.seconds, 4), "clicks": result.clicks,
            "guesses": result.guesses, "turns": result.turns,
            "finished_at": time.strftime("%Y-%m-%dT%H:%M:%S"),
        }
        if session.screenshots is not None and game.frame is not None:
            import cv2
            session.screenshots.mkdir(parents=True, exist_ok=True)
            path = session.screenshots / f"game-{number:03d}-{result.result}.png"
            cv2.imwrite(str(path), game.frame)
            record["screenshot"] = str(path)
        session.add(record)
        if not session.quiet:
            print(f"game {number}: {result.result} in {result.seconds:.3f} s, {result.clicks} "
                  f"clicks, {result.guesses} guesses ({level_label(final, level, custom)}, "
                  f"{finished}/{games})", file=out, flush=True)
    return session


def run(args: argparse.Namespace) -> int:
    from ..errors import Interrupted
    if args.games < 1:
        raise BadInputError("--games must be at least 1")
    level, custom = parse_level(args)
    from ..game.live import LiveGame
    from ..game.replay import Recording
    from ..solver import Solver

    recorder = Recording(args.record) if args.record else None
    session = Session(Path(args.log) if args.log else None,
                      Path(args.screenshots) if args.screenshots else None)
    game = LiveGame(args.display, templates=args.templates, level=level, custom=custom,
                    click_log=args.click_log, recorder=recorder,
                    frames_dir=args.screenshots or ".", use_window=not args.no_window)
    try:
        play_session(game, Solver(), args.games, session, level, custom,
                     keep_going=args.keep_going)
    except KeyboardInterrupt:
        print(session.summary_line(), flush=True)
        raise Interrupted("interrupted; every finished game is in the log") from None
    finally:
        game.close()
        if recorder is not None:
            recorder.close()
    print(session.summary_line())
    if args.json:
        s = session.summary()
        print(json.dumps({k: s[k] for k in SUMMARY_KEYS}))
    return 0 if session.results else 1
