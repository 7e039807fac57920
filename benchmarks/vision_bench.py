"""Time the vision pipeline on a 30x16 board inside a 1920x1080 frame.

Prints the median time to locate the grid from scratch, to read once located (the live
player's per-frame path: re-validate the cached grid, average every tile, match all cells,
read the counter), and the parts of that read. Targets: locate < 50 ms, read < 10 ms.

    python benchmarks/vision_bench.py [--repeat N] [--image PNG]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from minebot.errors import MinebotError  # noqa: E402
from minebot.vision import Reader, load_image  # noqa: E402
from minebot.vision.counter import find_counter  # noqa: E402
from minebot.vision.features import grid_patches  # noqa: E402
from minebot.vision.locate import locate  # noqa: E402
from minebot.vision.templates import TemplateSet, match  # noqa: E402

CLOCK = time.perf_counter
"""Wall time; ``--cpu``: this process's CPU time (steadier on a machine others keep busy)."""


def timed(fn, repeat: int) -> float:
    samples = []
    for _ in range(repeat):
        t = CLOCK()
        fn()
        samples.append(CLOCK() - t)
    return statistics.median(samples) * 1000.0


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repeat", type=int, default=50)
    ap.add_argument("--image", default=str(ROOT / "fixtures/gnome-mines/default-30x16-1290x760-mid.png"))
    ap.add_argument("--cpu", action="store_true", help="time in CPU ms of this process, not wall ms")
    args = ap.parse_args()
    global CLOCK
    if args.cpu:
        CLOCK = time.process_time
    window = load_image(args.image)
    frame = np.empty((1080, 1920, 3), np.uint8)
    frame[:] = (48, 10, 36)
    frame[161:161 + window.shape[0], 237:237 + window.shape[1]] = window[:1080 - 161, :1920 - 237]
    reader = Reader()
    first = reader.read(frame)                     # picks the template set, caches the grid
    b = first.board
    print(f"frame 1920x1080, board {b.cols}x{b.rows} at {first.board_px}, set {first.templates}, "
          f"repeat {args.repeat}")
    t_locate = timed(lambda: locate(frame, min_cells=4), args.repeat)
    t_read = timed(lambda: reader.read(frame), args.repeat)
    grid = reader.locate(frame)                    # the cached grid, still valid
    tset = TemplateSet.load(first.templates)
    t_valid = timed(lambda: grid.still_valid(frame), args.repeat)
    patches = grid_patches(frame, grid.x0, grid.x1, grid.y0, grid.y1)
    flat = patches.reshape(-1, *patches.shape[2:])
    t_patch = timed(lambda: grid_patches(frame, grid.x0, grid.x1, grid.y0, grid.y1), args.repeat)
    tile = int(np.median(grid.x1 - grid.x0))
    t_match = timed(lambda: match(tset, flat, tile), args.repeat)
    t_counter = timed(lambda: find_counter(frame, grid, tset), args.repeat)
    t_cold = timed(lambda: Reader(tset.name).read(frame), max(3, args.repeat // 10))
    t_again = timed(lambda: (reader.forget(), reader.read(frame)), max(3, args.repeat // 5))
    print(f"locate (from scratch)         {t_locate:7.2f} ms   target < 50")
    print(f"read, grid located (cached)   {t_read:7.2f} ms   target < 10")
    print(f"  re-validate cached grid     {t_valid:7.2f} ms")
    print(f"  tile patches (all cells)    {t_patch:7.2f} ms")
    print(f"  match ({len(tset.patches)} templates, {tile} px)  {t_match:7.2f} ms")
    print(f"  counter                     {t_counter:7.2f} ms")
    print(f"new Reader + locate + read    {t_cold:7.2f} ms   (loads the set each time)")
    print(f"locate again + read, game known {t_again:5.2f} ms   (the window moved)")
    clones(args.repeat, frame)
    return 0


CLONE_SHOTS = [("xdemineur", "fixtures/xdemineur/xdemineur-30x16-100-mid.png"),
               ("kmines", "fixtures/kmines/classic-30x16-1200x700-mid.png"),
               ("kmines", "fixtures/kmines/default-16x16-900x760-mid.png")]


def clones(repeat: int, gnome_frame: np.ndarray) -> None:
    """The other clones' windows in the same 1920x1080 frame: the lattice locator, a read with
    the grid cached, a fresh reader that must first find which game it is (every game
    tried in turn, GNOME Mines first), and a reader that has read GNOME Mines' frame and now
    gets this one (its game finds no board: the others are tried on this frame)."""
    from minebot.games import get
    from minebot.vision.grids import locate_board
    for game, path in CLONE_SHOTS:
        window = load_image(str(ROOT / path))
        frame = np.empty((1080, 1920, 3), np.uint8)
        frame[:] = (48, 10, 36)
        h, w = window.shape[:2]
        frame[161:161 + h, 237:237 + w] = window
        profile = get(game)
        reader = Reader(game=game)
        reader.read(frame)
        t_locate = timed(lambda: locate_board(frame, profile), max(3, repeat // 5))
        t_read = timed(lambda: reader.read(frame), repeat)
        t_which = timed(lambda: Reader().read(frame), max(3, repeat // 10))
        switches = []
        for _ in range(max(3, repeat // 10)):
            known = Reader()
            known.read(gnome_frame)
            try:
                switches.append(timed(lambda r=known: r.read(frame), 1))
            except MinebotError:
                break       # a reader that keeps to the game it read first cannot
        after = f"{statistics.median(switches):7.2f} ms" if switches else "  fails"
        name = Path(path).stem
        print(f"{name:32s} locate {t_locate:7.2f} ms, cached read {t_read:6.2f} ms, "
              f"new Reader finding the game {t_which:7.2f} ms, after GNOME Mines {after}")


if __name__ == "__main__":
    raise SystemExit(main())
