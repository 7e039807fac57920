"""``minebot demo``: the whole thing on a fresh machine, in one command.

Starts a private virtual display (when there is no $DISPLAY, or with --virtual) and a
private GNOME Mines (own D-Bus session, own settings keyfile, chosen theme and window size),
plays a few beginner games and an expert game, and leaves ``summary.json``, ``games.jsonl``
and a PNG of every finished board in the output folder. Everything it started is stopped
by PID at the end, whatever happens.
"""

from __future__ import annotations

import argparse
import json
import os
import time
from pathlib import Path
from typing import Any

from ..backends.mutter.backend import MutterBackend
from ..errors import BadInputError, Interrupted, MinebotError
from ..game.live import LiveGame
from ..game.replay import Recording
from ..games import DEFAULT, get
from ..games.gnome_mines.profile import STYLES, THEMES
from ..games.interfaces import UIS, ui_for
from ..outputs import check_file, check_folder, write_failed
from .bench import add_solver_option, solver_options
from .play import Session, add_profile_option, crops_folder, play_session


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "demo", help="start a private GNOME Mines (virtual display if needed) and play a few games",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="""\
Start a private GNOME Mines and let the bot play it: --beginner games at 8x8/10, then
--expert games at 30x16/99. With no $DISPLAY (or with --virtual) a private Xvfb display is
started too, so this runs on a headless machine. Results go to --out: summary.json (the
summary plus per-level figures), games.jsonl (one line per finished game, written at once)
and game-NNN-won.png / -lost.png (each finished board). Needs the Debian packages xvfb and
gnome-mines (installed by .ci/setup). With --wayland the same demo runs on a private headless
mutter (GNOME's compositor, no XWayland) with PipeWire and WirePlumber on a private session bus,
the game a native Wayland client.""")
    p.add_argument("--game", default=DEFAULT, choices=tuple(UIS),
                   help="the game to start (default %(default)s); each game's 'beginner' and "
                        "'expert' boards are its launcher's (DEMO_BOARDS in "
                        "minebot/games/NAME/launcher.py)")
    p.add_argument("--beginner", type=int, default=3, metavar="N", help="beginner games (default 3)")
    p.add_argument("--expert", type=int, default=1, metavar="N", help="expert games (default 1)")
    p.add_argument("--theme", default="bgcolors", choices=THEMES,
                   help="GNOME Mines theme (default %(default)s; modern from GNOME Mines 49 on; "
                        "KMines plays its Classic theme)")
    p.add_argument("--style", default="light", choices=STYLES,
                   help="the private GNOME Mines' colour scheme (default %(default)s; GNOME "
                        "Mines 49 and later follow the desktop's dark style)")
    p.add_argument("--window", default="1290x760", metavar="WxH",
                   help="game window size in pixels (default %(default)s; smallest 590x460)")
    p.add_argument("--out", default="minebot-output", help="output folder (default %(default)s)")
    p.add_argument("--virtual", action="store_true",
                   help="use a private virtual display even when $DISPLAY is set")
    p.add_argument("--wayland", action="store_true",
                   help="play on a private headless GNOME on Wayland instead (mutter, the game a "
                        "native Wayland client, seen and played through mutter's ScreenCast and "
                        "RemoteDesktop)")
    p.add_argument("--record", metavar="DIR", help="also record every frame and move (minebot replay)")
    p.add_argument("--json", action="store_true", help="print the summary as JSON on the last line")
    add_profile_option(p)
    add_solver_option(p, "how the bot guesses (default: the default solver)")
    p.add_argument("--font", metavar="FAMILY",
                   help='the font the game draws its digits in (its "Monospace"), e.g. '
                        '"DejaVu Sans Mono"; default: what the machine resolves Monospace to')
    p.add_argument("--no-learn", action="store_true",
                   help="do not add the looks it was unsure of to your learned looks (see play)")
    p.set_defaults(func=run)


def _window(text: str) -> tuple[int, int]:
    try:
        w, h = (int(v) for v in text.lower().split("x"))
    except ValueError:
        raise BadInputError(f"--window {text!r}: expected WIDTHxHEIGHT, e.g. 1290x760") from None
    if w < 590 or h < 460 or w > 4000 or h > 3000:
        raise BadInputError(f"--window {text}: between 590x460 and 4000x3000")
    return w, h


def describe_board(launcher) -> str:
    rows, cols, mines = launcher.board
    return f"{cols}x{rows}/{mines}"


def run(args: argparse.Namespace) -> int:
    from contextlib import ExitStack

    from ..sandbox import launchers  # the sandbox only when a demo runs, not with
    from ..sandbox.private_game import DemoSettings  # every command (the CLI imports each one)
    from ..sandbox.session import open_desktop
    from ..sandbox.xvfb import Xvfb
    from ..solver import Solver
    from ..vision.learn import Learner

    if args.beginner < 0 or args.expert < 0 or args.beginner + args.expert == 0:
        raise BadInputError("--beginner and --expert must be >= 0 and not both 0")
    start = launchers.demo(args.game)
    if args.wayland and not start.native_wayland:
        natives = " and ".join(get(name).title for name in launchers.native_wayland())
        raise BadInputError(f"--wayland plays {natives} only ({args.game} is an X11 program: "
                            "drop --wayland)")
    settings = DemoSettings(theme=args.theme, style=args.style, font=args.font)
    window = _window(args.window)
    # Every output is checked before anything starts (SIGTERM is handled by the CLI: the
    # context managers below stop the display and the game, and the summary is printed).
    out = check_folder(args.out, "--out")
    log = out / "games.jsonl"
    if log.exists() and not log.is_dir():
        log.unlink()   # one demo, one log: the summary must describe exactly these games
    check_file(log, "--out")
    if args.record:
        check_folder(args.record, "--record")
    solver_settings = solver_options(args.solver)
    session = Session(log, out, profile=args.profile)
    crops = crops_folder(out)
    recorder = Recording(args.record) if args.record else None
    per_level: dict[str, dict] = {}
    started = time.monotonic()
    try:
        with ExitStack() as stack:
            virtual = args.virtual or not os.environ.get("DISPLAY")
            size = (max(1280, window[0] + 40), max(1024, window[1] + 40))
            display: Any   # a private desktop, a private Xvfb, or the display's name
            if args.wayland:
                desk = stack.enter_context(open_desktop("gnome-wayland", *size))
                display = desk
                print(f"demo: private GNOME on Wayland (headless mutter, {size[0]}x{size[1]})",
                      flush=True)
            elif virtual:
                xvfb = stack.enter_context(Xvfb(*size))
                display = xvfb
                print(f"demo: private virtual display {xvfb.display}", flush=True)
            else:
                display = os.environ["DISPLAY"]
            first = "beginner" if args.beginner else "expert"
            if not start.per_level:   # one copy for every level (GNOME Mines switches itself)
                mines = stack.enter_context(start.start(display, first, window, settings))
                print(f"demo: private {get(args.game).title} ({args.theme}, {args.style}, "
                      f"window {window[0]}x{window[1]})", flush=True)
            solver = Solver(**solver_settings)
            previous = None     # the clone of the level before
            game: LiveGame | None = None
            try:
                for level, count in (("beginner", args.beginner), ("expert", args.expert)):
                    if not count:
                        continue
                    # the game is named, so the reader looks for it alone (also on Wayland,
                    # where its window cannot be recognised)
                    options: dict = {"level": level, "ui": ui_for(args.game)}
                    if start.per_level:
                        # the clones' board size is chosen when they start: one copy per level,
                        # the last one's window gone first (with no window manager a new window
                        # shows the old one's pixels until it has drawn itself)
                        if previous is not None:
                            previous.stop()
                        clone = previous = start.start(display, level, window, settings)
                        stack.enter_context(clone)   # started, and stopped with the demo
                        print(f"demo: private {args.game} ({level}: {describe_board(clone)})", flush=True)
                        options = {"ui": options["ui"], "mines": clone.board[2]}
                        mines = clone
                    if game is not None and not start.per_level:
                        game.switch_level(level)   # the same window: its UI takes it there
                    else:
                        options.update({"backend": _mutter(display)} if args.wayland else
                                       {"window_id": mines.window.id})
                        game = LiveGame(mines.display, crops_dir=crops,
                                        recorder=recorder, frames_dir=out,
                                        learner=None if args.no_learn else Learner(), **options)
                        stack.callback(game.close)
                    before = len(session.results)
                    # A board it cannot read safely is logged as stopped and the demo goes on
                    # (until a few games in a row have stopped: then it gives up).
                    play_session(game, solver, count, session, level, keep_going=True)
                    done = Session(results=session.results[before:]).summary()
                    per_level[level] = {k: done[k] for k in ("games", "wins", "median_won_seconds")}
            finally:
                if recorder is not None:
                    recorder.close()
                _write_summary(out, session, per_level, args, window, time.monotonic() - started)
    except KeyboardInterrupt as exc:
        session.report(args.json)
        raise Interrupted.by(exc, f"interrupted; finished games are in {log}") from None
    except MinebotError:
        session.report(args.json)
        raise
    session.report(args.json)
    print(f"demo: results in {out}/ (summary.json, games.jsonl, one PNG per finished board)")
    return 0


def _mutter(desk):
    """The bot's own session with the private mutter (``desk``)."""
    return MutterBackend(desk.bus)


def _write_summary(out: Path, session, per_level: dict, args: argparse.Namespace,
                   window: tuple[int, int], seconds: float) -> None:
    """``summary.json``: the run's summary plus per-level figures, the theme and window."""
    summary = session.summary()
    summary["levels"] = per_level
    summary["stopped"] = len(session.stopped)
    summary["theme"], summary["window"] = args.theme, list(window)
    summary["desktop"] = "gnome-wayland" if args.wayland else "xvfb" if args.virtual or \
        not os.environ.get("DISPLAY") else "yours"
    summary["wall_seconds"] = round(seconds, 2)
    path = out / "summary.json"
    try:
        path.write_text(json.dumps(summary, indent=1) + "\n")
    except OSError as exc:
        raise write_failed("summary", path, exc, "games.jsonl keeps every finished game") from None
