"""Build the shipped template sets of the other clones from their fixtures, with `minebot calibrate`.

    .venv/bin/python tools/make_clone_templates.py [--out templates]

Each set is taught exactly as a user would teach a new look: ``minebot calibrate NAME --game
GAME --example shot.png shot.board ...`` over the first and third series of fixtures recorded by
``tools/record_clone_fixtures.py`` (the second series, ``--more``: other board and window sizes,
is left out so that the tests read it as unseen screenshots).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from minebot.cli import main as minebot  # noqa: E402

FIXTURES = ROOT / "fixtures"

SETS = {
    # name: (game, fixture stems)
    "xdemineur": ("xdemineur", [f"xdemineur/xdemineur-{s}" for s in (
        "30x16-100-fresh", "30x16-100-mid", "30x16-100-lost", "12x10-15-fresh", "12x10-15-mid",
        "12x10-15-lost", "12x8-4-won")]),
    "kmines-classic": ("kmines", [f"kmines/classic-{s}" for s in (
        "9x9-640x480-fresh", "9x9-640x480-mid", "9x9-640x480-lost", "16x16-1000x800-fresh",
        "16x16-1000x800-mid", "16x16-1000x800-lost", "12x12-640x480-4-won", "9x9-420x360-mid",
        "9x9-420x360-lost", "9x9-560x440-mid", "9x9-560x440-lost", "9x9-640x520-mid",
        "9x9-640x520-lost")]),
    "kmines-default": ("kmines", [f"kmines/default-{s}" for s in (
        "9x9-800x600-mid", "9x9-800x600-lost", "9x9-600x480-mid", "9x9-600x480-lost",
        "9x9-1000x760-mid", "9x9-1000x760-lost")]),
    # the first series and the tile sizes (``--only sgt``, ``--only sgt --sizes``: tiles of 16
    # to 50 px); ``--only sgt --more`` (21, 30 and 33 px) stays unseen
    "sgt-mines": ("sgt-mines", [f"sgt-mines/sgt-{s}-{phase}" for s in (
        "9x9-10-240x302", "16x16-40-560x620", "30x16-99-900x640", "9x9-10-500x560",
        "9x9-10-192x254", "9x9-10-216x278", "9x9-10-276x338", "9x9-10-300x362", "9x9-10-372x434",
        "9x9-10-432x494", "9x9-10-540x602", "9x9-10-600x662", "9x9-30-288x350", "9x9-30-456x518")
        for phase in ("fresh", "mid", "dead", "lost")]),
}


MAX_DISTANCE = {
    # KMines renders its SVG looks at the cell size, and some (the exploded mine) come out a
    # little differently at every size: 17-25 between the sizes taught, against 60 and more
    # between two different looks
    "kmines-classic": 22.0,
    "kmines-default": 22.0,
    # Simon Tatham's Mines draws its bevels (a tenth of a tile), mines, flags and crosses with
    # whole pixels at every tile size: on tile sizes never taught (21, 30, 33 px) a look is up to
    # 27 from the nearest taught one, against 40 and more between two different looks (covered
    # and open 0: 16, but each within 2.1 of its own)
    "sgt-mines": 28.0,
}

NUMBERS = {
    # xdemineur draws 1-8 as bitmaps (XPM pixmaps in /usr/games/xdemineur, colour names read
    # with `strings`: blue, forestgreen, red, navy, orchid, seagreen, sienna, deeppink; 1-5
    # also measured on the fixtures)
    # on the open cell's gray70; the bitmaps fill their 20 px cells
    "xdemineur": {"method": "ink", "grounds": ["#b3b3b3"], "fill": True,
                  "colours": ["#0000ff", "#228b22", "#ff0000", "#000080",
                              "#da70d6", "#2e8b57", "#a0522d", "#ff1493"]},
    # KMines Classic draws 1-8 each in its own colour (theme SVG kmines_classic.svgz, elements
    # arabicOne..arabicEight; 1-4 also measured on the fixtures) on the open cell's #d3d7cf: the
    # colour names the digit at any size, the shape only has to be a digit's.
    "kmines-classic": {"method": "ink", "grounds": ["#d3d7cf"],
                       "colours": ["#0000ff", "#008000", "#808000", "#800080",
                                   "#ff0000", "#800000", "#008080", "#2b0000"]},
    # Simon Tatham's Mines draws 1-8 in its font, each in its own colour (mines.c game_colours:
    # 1 blue, 2 half green, 3 red, 4 half blue, 5 half red, 6 half cyan, 7 black, 8 half grey;
    # 1-4 measured on the fixtures, 0.5 drawn as 128) on the open cell's grey (0.95 of
    # the window's: #dadada under Debian's default GTK 3 theme), or on pink (#ff9999) when more
    # flags than it says are around it
    "sgt-mines": {"method": "ink", "grounds": ["#dadada", "#ff9999"],
                  "colours": ["#0000ff", "#008000", "#ff0000", "#000080",
                              "#800000", "#008080", "#000000", "#808080"]},
}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=ROOT / "templates")
    ap.add_argument("--only", choices=sorted(SETS))
    args = ap.parse_args(argv)
    for name, (game, stems) in SETS.items():
        if args.only and name != args.only:
            continue
        examples = [a for stem in stems
                    for a in ("--example", str(FIXTURES / f"{stem}.png"), str(FIXTURES / f"{stem}.board"))]
        code = minebot(["calibrate", name, "--game", game, "--out", str(args.out), "--force", *examples])
        if code:
            return code
        if name in NUMBERS or name in MAX_DISTANCE:
            meta_path = args.out / name / "templates.json"
            meta = json.loads(meta_path.read_text(encoding="utf-8"))
            if name in NUMBERS:
                meta["numbers"] = NUMBERS[name]
            if name in MAX_DISTANCE:
                meta["max_distance"] = MAX_DISTANCE[name]
            meta_path.write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
