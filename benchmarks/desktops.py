"""Per-desktop live figures: grab latency, click-to-changed-frame latency, expert games.

    python benchmarks/desktops.py --desktops openbox metacity weston xvfb --games 10

For each desktop (``minebot.sandbox.session``: a private display, window manager or Wayland
compositor, all ended by PID) it starts GNOME Mines at expert (1290x760 window) and measures,
through the same backend ``minebot play`` uses:

- grab: wall time of one capture of the game's visible window area (median, p90 of 200; on
  native Wayland (``gnome-wayland``, ``gnome-shell-wayland``) the whole monitor: the newest
  frame of mutter's cast of the board area laid over the screen as last cast in full, whose
  freshness the next figure shows; on ``sway`` one wlr-screencopy of the whole output);
- click->frame: from sending a right-click on a covered cell (a flag shows on button down) to
  the first grab in which that cell has changed (median, p90 of 20; a cell unchanged after 1 s
  counts 1 s and in ``click_to_frame_over_1s``). Each flag is then read once it shows and
  taken off, and before the first game every flag and "?" left is taken off and the board
  read again (GNOME Mines 50 greys out Play Again while only marks were placed: a mark left
  there stops every new game); a board that cannot be cleared, or a new game that does not
  come, is said on stderr and in the row's ``problem``, and no games are played;
- games: ``--games`` expert games with the default solver: won/played, the median wall
  time of a won game (first click to the final frame) and its number of turns (each one
  click batch and the wait for its frame); the 1-minute load average before and after;
- where the won games' time went (``minebot.timing``, as ``minebot play --profile``): waiting
  for the game to draw, settling, grabbing, reading, solving, planning, sending, and the bot's
  share (all but the drawing).

Prints one line per desktop and one JSON object per desktop on stdout's last lines, each
with the versions of the programs measured (``minebot.sandbox.versions``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from minebot.sandbox.versions import environment  # noqa: E402
from minebot.timing import TurnProfile  # noqa: E402


def _p90(values: list[float]) -> float:
    return sorted(values)[max(0, int(round(0.9 * len(values))) - 1)]


def await_mark(game, cell: tuple[int, int], timeout: float = 5.0):
    """The board once ``cell`` shows a flag or "?" (or after ``timeout``: then the click was
    lost), read from a capture started afresh each time (``LiveGame.forget_grid``: mutter's
    area cast sent no frame of some flags under load)."""
    from minebot.board import Cell
    deadline = time.monotonic() + timeout
    while True:
        game.forget_grid()
        board = game.observe()
        if board.cells[cell] in (Cell.FLAG, Cell.QUESTION) or time.monotonic() > deadline:
            return board
        time.sleep(0.2)


def take_marks_off(game, tries: int = 3):
    """Take every flag and "?" off the board, each read from a capture started afresh;
    returns the board read last and the cells still marked on it (none: the board is as
    fresh as a new game's, and GNOME Mines 50's Play Again is greyed out while only marks
    were placed, so the next game is that board itself)."""
    from minebot.board import Cell
    from minebot.errors import MinebotError
    from minebot.move import Action, Move
    for attempt in range(tries + 1):
        game.forget_grid()
        board = game.observe()
        marked = [(int(r), int(c)) for r, c in np.argwhere(
            (board.cells == Cell.FLAG) | (board.cells == Cell.QUESTION))]
        if not marked or attempt == tries:
            return board, marked
        try:
            game.act([Move(Action.UNFLAG, cell) for cell in marked])
        except MinebotError as exc:
            print(f"  taking {len(marked)} mark(s) off: {str(exc)[:120]}", file=sys.stderr)
            game.reading = None
    return board, marked


def measure(kind: str, games: int) -> dict:
    from minebot.board import Cell, GameState
    from minebot.errors import MinebotError, NoGameError
    from minebot.game.live import LiveGame
    from minebot.loop import play_game
    from minebot.move import Action, Move
    from minebot.sandbox.mines import GnomeMines
    from minebot.sandbox.session import open_desktop
    from minebot.solver import Solver
    with open_desktop(kind) as desk, \
            GnomeMines(desk, level="expert", window=(1290, 760)) as mines:
        if desk.display is None:   # native Wayland: the desktop's own backend, no window
            from minebot.backends.backend import open_backend
            where = {"backend": open_backend(env=desk.env())}
        else:
            where = {"window_id": mines.window.id}
        game = LiveGame(desk.display, level="expert", frames_dir="/tmp/minebot-bench-frames",
                        **where)
        try:
            board = game.start()
            grabs = []
            for _ in range(200):
                t = time.perf_counter()
                game.grab()
                grabs.append(time.perf_counter() - t)
            # click -> changed frame: flag a covered cell, then take the flag off again
            latencies, late = [], 0
            rects = game.reading.cell_rects
            for i in range(20):
                cell = (i % 16, (i * 7) % 30)
                if game.reading is None:   # the last flag's move stopped: read again
                    board = game.observe()
                if board.cells[cell] != Cell.COVERED:
                    continue
                x0, y0, x1, y1 = rects[cell]
                before = game.grab()[y0:y1, x0:x1].copy()
                aim = game.on_screen()
                # beside the centre, where the bot's own clicks to take the flag off will not
                # be (GTK 4 drops a press too near the last one: points.REPEAT_STEP)
                x, y = aim.cell_point(cell, 1)
                t = time.perf_counter()
                game.pointer.click_many([(x, y, "right")], aim.bounds, park=aim.park_point())
                changed = False
                while time.perf_counter() - t < 1.0:
                    if not np.array_equal(game.grab()[y0:y1, x0:x1], before):
                        changed = True
                        break
                    game.frames.wait_next()   # a stream's next frame, or 1 ms (as live play waits)
                latencies.append(time.perf_counter() - t)
                late += not changed
                # the flag, read once it shows (it may show late: a flag left on the board
                # greys out GNOME Mines 50's Play Again), then taken off by the bot's own move
                board = await_mark(game, cell)
                if board.cells[cell] == Cell.FLAG:
                    try:
                        board = game.act([Move(Action.UNFLAG, cell)])
                    except MinebotError as exc:   # the clean-up below looks again
                        print(f"  {kind}: taking the flag off {cell}: {str(exc)[:120]}", file=sys.stderr)
                        game.reading = None
            board, left = take_marks_off(game)
            problem = None
            if left:
                problem = (f"{len(left)} mark(s) left on the board after the click latency phase "
                           f"(at {left[:6]}): GNOME Mines 50 greys out Play Again then")
            else:
                try:
                    game.start()   # the board is all covered: it is the first game's
                except MinebotError as exc:
                    problem = f"no new game after the click latency phase: {str(exc)[:160]}"
            if problem is not None:
                print(f"  {kind}: {problem}; no games played", file=sys.stderr)
            won, played, times, turns = 0, 0, [], []
            profiles: list = []
            load = [os.getloadavg()[0]]
            for n in range(games if problem is None else 0):
                if n:
                    try:
                        game.new_game()
                    except NoGameError as exc:
                        print(f"  {kind}: new game {n + 1}: {str(exc)[:120]}; picking the level "
                              "again", file=sys.stderr)
                        game.reading = None
                        game.start()
                t = time.monotonic()
                try:
                    result = play_game(game, Solver())
                except MinebotError as exc:
                    print(f"  {kind}: game stopped: {str(exc)[:120]}", file=sys.stderr)
                    game.reading = None
                    continue
                played += 1
                if result.final.state is GameState.WON:
                    won += 1
                    times.append(time.monotonic() - t)
                    turns.append(result.turns)
                    if result.profile is not None:
                        profiles.append(result.profile)
            load.append(os.getloadavg()[0])
        finally:
            game.close()
        return {"desktop": kind, "backend": game.backend.name, "wm": game.backend.wm,
                "paced_clicks": game.paced,
                "grab_ms_median": round(1000 * statistics.median(grabs), 2),
                "grab_ms_p90": round(1000 * _p90(grabs), 2),
                "click_to_frame_ms_median": round(1000 * statistics.median(latencies), 1),
                "click_to_frame_ms_p90": round(1000 * _p90(latencies), 1),
                "click_to_frame_over_1s": late, "problem": problem,
                "games": games, "played": played, "won": won,
                "median_won_s": round(statistics.median(times), 2) if times else None,
                "median_won_turns": statistics.median(turns) if turns else None,
                "load_start_end": [round(v, 1) for v in load],
                "time_split_won": TurnProfile.total(profiles).to_json() if profiles else None,
                "environment": environment()}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--desktops", nargs="+", default=["xvfb", "openbox", "metacity", "weston"])
    ap.add_argument("--games", type=int, default=10, help="expert games per desktop")
    args = ap.parse_args(argv)
    rows = []
    for kind in args.desktops:
        row = measure(kind, args.games)
        rows.append(row)
        print(f"{kind:9} {row['backend']:9} grab {row['grab_ms_median']:5.2f} ms (p90 "
              f"{row['grab_ms_p90']:.2f})  click->frame {row['click_to_frame_ms_median']:5.1f} ms "
              f"(p90 {row['click_to_frame_ms_p90']:.1f})  expert won {row['won']}/{row['played']}"
              f"  median won {row['median_won_s']} s ({row['median_won_turns']} turns)  load "
              f"{row['load_start_end']}", flush=True)
        if row["time_split_won"]:
            print(f"{'':9} time of won games: {TurnProfile.from_json(row['time_split_won']).line()}", flush=True)
    for row in rows:
        print(json.dumps(row))
    return 0


if __name__ == "__main__":
    sys.exit(main())
