"""``minebot play``: play the GNOME Mines window on this display.

Also home of ``play_session``, the multi-game runner shared with ``minebot demo``: one line per
game, a JSONL log line per finished game (flushed at once, so a killed run keeps every
finished game), and the summary.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from .. import games
from ..backends.backend import BACKENDS
from ..errors import (
    BadInputError,
    InconsistentBoardError,
    Interrupted,
    MinebotError,
    NoGameError,
    OutputError,
    StoppedGameError,
    UnreadableGameError,
)
from ..game.live import LiveGame
from ..game.replay import Recording
from ..games.interfaces import ui_for
from ..levels import parse_size
from ..loop import play_game
from ..outputs import check_file, check_folder, save_png, write_failed
from ..timing import TurnProfile
from .bench import add_solver_option, solver_options

SUMMARY_KEYS = ("games", "wins", "win_rate", "median_seconds", "clicks", "guesses")


def add_profile_option(p: argparse.ArgumentParser) -> None:
    p.add_argument("--profile", action="store_true",
                   help="after each game, print where its time went: waiting for the game to draw, "
                        "settling, grabbing, reading, solving, planning, sending (ms), its turns and "
                        "the bot's share (all but the drawing); the same for all games after the "
                        "summary, and in the --json line as 'profile' (every game's log line has it)")


def add_level_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--level", choices=("beginner", "intermediate", "expert"),
                   help="switch the window to this level first (default: play the board shown)")
    p.add_argument("--size", metavar="COLSxROWS", help="a custom board size, e.g. 20x12 (with --mines)")
    p.add_argument("--mines", type=int, help="mines on the custom board (with --size)")


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "play", help=f"play the Minesweeper window ({games.titles(last=None)}) on this display",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description=f"""\
Find the game's window ({games.titles()}: the first one
open, or the one --game names), keep it focused, and play: capture the
window, read the board, click every certain cell in one batch, wait for the screen to show
the result, check it, repeat; guess by look-ahead when nothing is certain. Every click is
inside the board just read. With no level given it plays whatever board the window shows
and then new games of the same size.

One line per game and a summary (wins, win rate, median seconds per game, clicks,
guesses) are printed; --json makes the last line one JSON object with the summary keys
games, wins, win_rate, median_seconds, clicks, guesses (and profile, with --profile). Each
finished game is appended to the --log JSONL file at once, with where its time went.

Every output (--log, --click-log, --record, --screenshots) is checked before the first
click. Stop at any time with Ctrl-C (exit 130), SIGTERM (143), or the fail-safe (on X11 the
mouse thrown into a screen corner, on GNOME on Wayland moved away): the summary is printed. For
a game on a private virtual display, see `minebot demo`.""")
    add_level_options(p)
    p.add_argument("--game", metavar="NAME",
                   help=f"the game to play: {games.listing()} (default: the first of these with a "
                        "window open). A game that cannot change its board size plays the size it "
                        "shows; a game described in ~/.config/minebot/games/NAME.toml plays the "
                        "game its window shows")
    p.add_argument("--games", type=int, default=1, metavar="N", help="games to play (default 1)")
    p.add_argument("--json", action="store_true", help="print the summary as JSON on the last line")
    add_profile_option(p)
    p.add_argument("--log", default="minebot-games.jsonl", metavar="FILE",
                   help="append one JSON line per finished game (default %(default)s; '' for none)")
    p.add_argument("--record", metavar="DIR",
                   help="save every frame read, the board read and the moves made (see `minebot replay`)")
    p.add_argument("--screenshots", metavar="DIR", help="save a PNG of each finished board here")
    p.add_argument("--click-log", metavar="FILE", help="append every click (x, y, button, board) as JSONL")
    p.add_argument("--keep-going", action="store_true",
                   help="when a board cannot be read safely, log that game as stopped (frame "
                        "saved) and start a new one instead of ending the run; after 3 such games "
                        "in a row the run gives up (exit 4)")
    p.add_argument("--templates", help="template set for reading (default: pick the best fit)")
    p.add_argument("--no-learn", action="store_true",
                   help="do not learn from finished games: by default every look the reader was "
                        "unsure of is labelled with the truth the finished game proves and added "
                        "to your learned looks (~/.local/share/minebot/templates/<set>.learned)")
    p.add_argument("--no-window", action="store_true",
                   help="do not look for the window by its title: locate the board on the whole "
                        "screen (also the fallback when no GNOME Mines window is found)")
    add_solver_option(p, "how the bot guesses (default: the default solver)")
    p.add_argument("--display", help="X display (default $DISPLAY)")
    p.add_argument("--backend", metavar="NAME",
                   help="force a desktop backend instead of detecting it ('list' prints them; "
                        "also $MINEBOT_BACKEND)")
    p.set_defaults(func=run)


def parse_level(args: argparse.Namespace) -> tuple[str | None, tuple[int, int, int] | None]:
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
    profile: bool = False
    """Print each game's time split (``minebot.timing``) and add all games' to the summary."""
    results: list[dict] = field(default_factory=list)
    stopped: list[dict] = field(default_factory=list)
    profiles: list[TurnProfile] = field(default_factory=list)

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
            "profile": TurnProfile.total(self.profiles).to_json(),
        }

    def summary_line(self) -> str:
        s = self.summary()
        stopped = f", {len(self.stopped)} stopped unread" if self.stopped else ""
        if not s["games"]:
            return "no game finished" + stopped
        return (f"{s['games']} game(s): {s['wins']} won ({100 * s['win_rate']:.1f}%), median "
                f"{s['median_seconds']:.3f} s per game, {s['clicks']} clicks, {s['guesses']} "
                f"guesses{stopped}")

    def log(self, record: dict) -> None:
        """Append ``record`` to the log at once; a failed write stops the run (OutputError)
        and says that the lines written before are kept."""
        if self.log_path is None:
            return
        try:
            with open(self.log_path, "a", encoding="utf-8") as log:
                log.write(json.dumps(record) + "\n")
                log.flush()
        except OSError as exc:
            before = len(self.results) + len(self.stopped) - 1
            raise write_failed("game log", self.log_path, exc,
                               f"the {before} game(s) logged before are kept") from None

    def report(self, as_json: bool = False, out=None) -> None:
        """The summary line (and the JSON line when asked): at the end of every run, also an
        interrupted or failed one, so the finished games are never lost."""
        out = out or sys.stdout
        print(self.summary_line(), file=out, flush=True)
        if self.profile and self.profiles:
            print(f"time of all games: {TurnProfile.total(self.profiles).line()}", file=out, flush=True)
        if as_json:
            s = self.summary()
            keys = SUMMARY_KEYS + (("profile",) if self.profile else ())
            print(json.dumps({k: s[k] for k in keys}), file=out, flush=True)


def level_label(board, level: str | None, custom) -> str:
    size = f"{board.cols}x{board.rows}/{board.mines if board.mines is not None else '?'}"
    return f"{level} {size}" if level else (f"custom {size}" if custom else size)


MAX_STOPS_IN_A_ROW = 3   # with keep_going: games in a row that could not be read before giving up


def play_session(game, solver, games: int, session: Session, level: str | None = None,
                 custom=None, out=None, keep_going: bool = False) -> Session:
    """Play ``games`` games on a ``LiveGame``; every finished game is logged at once.

    Games are numbered on from those already in ``session`` (one folder, one log). A board
    that cannot be read with confidence, or breaks the rules, stops the run with the frame
    saved; with ``keep_going`` that game is logged as ``stopped`` (reason and frame) and a new
    game starts instead, for long unattended runs, until ``MAX_STOPS_IN_A_ROW`` games in a row
    have stopped: a screen that cannot be read now will not be read in the next game either,
    so the run gives up (``UnreadableGameError``) instead of starting new games for ever.
    Interruptions and failed writes always stop.
    """
    # The stream is looked up now, not when this module was imported: a default bound then
    # kept a stdout that a test harness had since replaced and closed.
    out = sys.stdout if out is None else out
    finished = 0
    stops_in_a_row = 0
    first = True
    while finished < games:
        game.start() if first else game.new_game()
        first = False
        number = len(session.results) + len(session.stopped) + 1
        try:
            result = play_game(game, solver)
        except (Interrupted, OutputError):
            raise
        except MinebotError as exc:
            if isinstance(exc, InconsistentBoardError):
                saved = game.save_frame("inconsistent")
                message = (f"game {number}: the board read from the screen breaks the rules "
                           f"({exc}); stopped without clicking further; frame saved to {saved}")
            else:
                kept = isinstance(exc, NoGameError) and exc.frame is not None
                saved = None if kept else game.save_frame("stopped")
                message = f"game {number}: {exc}" + (f" (last frame: {saved})" if saved else "")
            if not keep_going:
                raise StoppedGameError(number, exc, message) from exc
            session.stopped.append({"game": number, "result": "stopped", "reason": message})
            session.log({"game": number, "result": "stopped", "reason": message,
                         "finished_at": time.strftime("%Y-%m-%dT%H:%M:%S")})
            stops_in_a_row += 1
            if stops_in_a_row >= MAX_STOPS_IN_A_ROW:
                raise UnreadableGameError(f"{stops_in_a_row} games in a row could not be played "
                                          f"to the end; giving up (last: {message})") from None
            print(f"game {number}: stopped, starting a new game ({message})", file=sys.stderr,
                  flush=True)
            game.reading = None
            continue
        finished += 1
        stops_in_a_row = 0
        final = result.final
        record = {
            "game": number, "result": result.result, "level": level or ("custom" if custom else None),
            "rows": final.rows, "cols": final.cols, "mines": final.mines,
            "seconds": round(result.seconds, 4), "clicks": result.clicks,
            "guesses": result.guesses, "turns": result.turns,
            "finished_at": time.strftime("%Y-%m-%dT%H:%M:%S"),
        }
        if result.profile is not None:
            record["profile"] = result.profile.to_json()
            session.profiles.append(result.profile)
        # Counted first and shown last, whatever happens in between: the result stays in the
        # summary and on screen even if writing it fails or a signal arrives meanwhile, and
        # once the line is shown the game is in the log.
        session.results.append(record)
        try:
            if session.screenshots is not None and game.frame is not None:
                path = session.screenshots / f"game-{number:03d}-{result.result}.png"
                record["screenshot"] = str(save_png(path, game.frame, "screenshot",
                                                    "the earlier screenshots are kept"))
            session.log(record)
        finally:
            if not session.quiet:
                print(f"game {number}: {result.result} in {result.seconds:.3f} s, {result.clicks} "
                      f"clicks, {result.guesses} guesses ({level_label(final, level, custom)}, "
                      f"{finished}/{games})", file=out, flush=True)
                if session.profile and result.profile is not None:
                    print(f"game {number} time: {result.profile.line()}", file=out, flush=True)
    return session


def crops_folder(out: Path) -> Path:
    """This run's folder for crops of cells that match no template (made only when needed)."""
    return out / f"minebot-unmatched-{time.strftime('%Y%m%d-%H%M%S')}"


def run(args: argparse.Namespace) -> int:
    if args.backend == "list":
        for name, what in BACKENDS.items():
            print(f"{name:10s} {what}")
        return 0
    if args.backend:
        if args.backend not in BACKENDS:
            raise BadInputError(f"--backend {args.backend}: not one of {', '.join(BACKENDS)} "
                                "(--backend list describes them)")
        os.environ["MINEBOT_BACKEND"] = args.backend    # read where the backend is opened
    if args.games < 1:
        raise BadInputError("--games must be at least 1")
    level, custom = parse_level(args)
    # Every output is checked before the first click: a bad path must not cost a played game.
    log = check_file(args.log, "--log") if args.log else None
    if args.click_log:
        check_file(args.click_log, "--click-log")
    screenshots = check_folder(args.screenshots, "--screenshots") if args.screenshots else None
    frames = screenshots or check_folder(".", "the current folder (frames of stopped games)")
    if args.record:
        check_folder(args.record, "--record")
    solver_settings = solver_options(args.solver)
    from ..solver import Solver
    from ..vision.learn import Learner

    recorder = Recording(args.record) if args.record else None
    session = Session(log, screenshots, profile=args.profile)
    ui = None
    if args.game:
        ui = ui_for(args.game)   # an unknown name is bad input listing the known ones
    game = LiveGame(args.display, templates=args.templates, crops_dir=crops_folder(frames),
                    level=level, custom=custom, ui=ui, click_log=args.click_log, recorder=recorder,
                    frames_dir=frames, use_window=not args.no_window,
                    learner=None if args.no_learn else Learner())
    if not args.json:
        print(f"minebot: {game.backend.name} backend on {game.backend.display}", file=sys.stderr)
    try:
        play_session(game, Solver(**solver_settings), args.games, session, level, custom,
                     keep_going=args.keep_going)
    except KeyboardInterrupt as exc:
        session.report(args.json)
        raise Interrupted.by(exc, "interrupted; every finished game is in the log") from None
    except MinebotError:
        session.report(args.json)
        raise
    finally:
        game.close()
        if recorder is not None:
            recorder.close()
    session.report(args.json)
    return 0 if session.results else 1
