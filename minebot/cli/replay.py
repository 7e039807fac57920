"""``minebot replay DIR``: run the play loop over a recording and report what differs."""

from __future__ import annotations

import argparse
import json

from ..errors import MinebotError
from ..game.replay import RecordingEndedError, ReplayGame, load_recording, split_games
from ..loop import play_game


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "replay", help="re-run reading and solving over a recorded live run",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="""\
Replay a folder written by `minebot play --record DIR`: every recorded frame is read again
and the same play loop chooses its moves again. Any frame whose board read or chosen move
differs from the recording is listed. Exit code 0 when every game was replayed to its last
recorded frame and nothing differs; 1 when anything differs or some game could not be replayed
to the end (a missing, truncated or unreadable frame, a game that ended sooner): a step that
was not replayed was not checked.""")
    p.add_argument("dir", help="recording folder (holds steps.jsonl and frames/)")
    p.add_argument("--templates", help="template set for reading (default: pick the best fit)")
    p.add_argument("--json", action="store_true", help="print the report as one JSON object")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from ..solver import Solver
    from ..vision import Reader

    steps = load_recording(args.dir)
    reader = Reader(args.templates)
    solver = Solver()
    games = []
    incomplete: list[int] = []     # games not replayed to their last recorded frame
    differences = []
    frames = 0
    for n, recorded in enumerate(split_games(steps), 1):
        game = ReplayGame(recorded, reader)
        complete = False      # every recorded frame of the game replayed and checked
        try:
            result = play_game(game, solver)
            outcome, complete = result.result, game.complete
            if not complete:
                outcome = (f"stopped: the game ended at frame {recorded[game.pos].i}, before the "
                           f"recording's last frame {recorded[-1].i}")
        except RecordingEndedError:
            outcome, complete = "every frame replayed (the recording ends in the middle of the game)", True
        except MinebotError as exc:
            outcome = f"stopped: {exc}"
        frames += game.frames_read
        if not complete:
            incomplete.append(n)
        games.append({"game": n, "frames": len(recorded), "result": outcome,
                      "recorded": recorded[-1].board.state.value if recorded[-1].board.state else None,
                      "differences": len(game.differences)})
        differences += [dict(d.to_json(), game=n) for d in game.differences]
        if not args.json:
            print(f"game {n}: {len(recorded)} frames, replay {outcome}, recorded "
                  f"{games[-1]['recorded']}, {len(game.differences)} difference(s)")
            for d in game.differences:
                print(f"  frame {d.frame} ({d.file}): {d.kind}: {d.detail}")
    report = {"games": len(games), "frames": frames, "differences": len(differences),
              "incomplete": len(incomplete)}
    if args.json:
        print(json.dumps(dict(report, per_game=games, details=differences)))
    else:
        print(f"{report['games']} game(s), {frames} frames read, {len(differences)} difference(s)"
              + (f", {len(incomplete)} game(s) not replayed to the end (game "
                 f"{', '.join(map(str, incomplete))}): FAILED" if incomplete else ""))
    return 0 if not differences and not incomplete else 1
