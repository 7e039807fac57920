"""Play the real GNOME Mines across fonts, themes, window sizes and GDK_SCALE, and count.

On a private desktop (`--desktop`: Xvfb by default, or openbox, metacity, weston, mutter), for
every (font, theme, window, scale, level) case a game is started with
that font forced as the game's "Monospace"; the bot plays ``--games`` games; every number it
read during a game is checked against the truth the finished game proves (``minebot.truth``).
Prints per case: games finished, games stopped (and why), games lost to a misread, wins.

    python benchmarks/font_matrix.py --games 4              # the whole matrix
    python benchmarks/font_matrix.py --fonts Hack --themes default --games 20

Needs `bash .ci/setup` (Xvfb, gnome-mines, the fonts). Ctrl-C prints what was measured.
"""

from __future__ import annotations

import argparse
import itertools
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from minebot.errors import MinebotError  # noqa: E402
from minebot.game.live import LiveGame  # noqa: E402
from minebot.loop import play_game  # noqa: E402
from minebot.sandbox.mines import GnomeMines  # noqa: E402
from minebot.sandbox.session import DESKTOPS, open_desktop  # noqa: E402
from minebot.solver import Solver  # noqa: E402
from minebot.truth import misreads  # noqa: E402

FONTS = ["DejaVu Sans Mono", "Liberation Mono", "Hack", "JetBrains Mono", "Noto Sans Mono"]
THEMES = ["bgcolors", "default", "classic"]
WINDOWS = ["590x460", "900x700", "1100x800", "1700x1000", "590x460@2"]
LEVELS = ["beginner", "expert"]


def run_case(xvfb, font, theme, window, scale, level, games, solver) -> dict:
    out = {"games": 0, "stops": [], "misread_games": 0, "wins": 0, "misreads": []}
    mines = GnomeMines(xvfb, theme=theme, window=window, level=level, font=font, scale=scale).start()
    game = LiveGame(mines.display, window_id=mines.window.id, level=level,
                    frames_dir=tempfile.mkdtemp(prefix="minebot-matrix-"))
    try:
        for i in range(games):
            try:
                game.start() if i == 0 else game.new_game()
                boards: list = []
                result = play_game(game, solver, on_step=lambda b, m: boards.append(b))
            except MinebotError as exc:
                out["stops"].append(str(exc)[:160])
                game.reading = None
                continue
            out["games"] += 1
            out["wins"] += result.won
            wrong = misreads(boards + [result.final], result.final)
            if wrong:
                out["misread_games"] += 1
                out["misreads"] += wrong[:3]
    finally:
        game.close()
        mines.stop()
    return out


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fonts", nargs="*", default=FONTS)
    ap.add_argument("--themes", nargs="*", default=THEMES)
    ap.add_argument("--windows", nargs="*", default=WINDOWS, help="WxH, or WxH@2 for GDK_SCALE=2")
    ap.add_argument("--levels", nargs="*", default=LEVELS)
    ap.add_argument("--games", type=int, default=2)
    ap.add_argument("--desktop", default="xvfb", choices=DESKTOPS)
    args = ap.parse_args()
    solver = Solver()
    totals = {"games": 0, "stops": 0, "misread_games": 0, "wins": 0}
    start = time.monotonic()
    sizes = [tuple(int(v) * int((w.partition("@")[2] or 1)) for v in w.partition("@")[0].split("x"))
             for w in args.windows]
    screen = (max(1920, *(w + 40 for w, _ in sizes)), max(1200, *(h + 40 for _, h in sizes)))
    xvfb = open_desktop(args.desktop, *screen).start()
    try:
        for font, theme, window, level in itertools.product(args.fonts, args.themes, args.windows, args.levels):
            size, _, scale = window.partition("@")
            w, h = map(int, size.split("x"))
            scale = int(scale or 1)
            if level == "expert" and w < 900:
                continue   # a 30x16 board does not fit: GNOME Mines scrolls it
            r = run_case(xvfb, font, theme, (w, h), scale, level, args.games, solver)
            for k in totals:
                totals[k] += len(r[k]) if k == "stops" else r[k]
            print(f"{font:17s} {theme:8s} {window:10s} {level:8s} games {r['games']} won {r['wins']} "
                  f"stopped {len(r['stops'])} misread-games {r['misread_games']} "
                  f"{r['stops'][:1]} {r['misreads'][:2]}", flush=True)
    except KeyboardInterrupt:
        print("interrupted", flush=True)
    finally:
        xvfb.stop()
        print(f"total: {totals['games']} games finished, {totals['wins']} won, {totals['stops']} stopped, "
              f"{totals['misread_games']} with a misread ({time.monotonic() - start:.0f} s)", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
