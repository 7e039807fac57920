#!/usr/bin/env python3
"""Render the counter bank (templates/digits/counter.npz): "0"-"9" and "/" in many UI fonts.

GNOME Mines' "flags/total" counter is a GTK label in the desktop's interface font (DejaVu
Sans on a bare Debian, Cantarell on GNOME, ...), not in the theme. Each character is rendered
with librsvg in every family given, at the sizes such a label takes (1x and 2x scale), and
stored as the counter reader's glyph mask (``minebot.vision.counter.glyph_mask``).

    apt-get install librsvg2-bin fonts-...             # the fonts to learn from
    python tools/make_counter_bank.py                   # the default families, where installed
    python tools/make_counter_bank.py --fonts "Cantarell" "Noto Sans"

A development tool: minebot itself only reads the bank file.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path
from xml.sax.saxutils import escape

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))
from make_digit_bank import render  # noqa: E402

from minebot.vision.counter import COUNTER_BANK, glyph_mask  # noqa: E402

CHARS = "0123456789/"
FAMILIES = ["Cantarell", "DejaVu Sans", "Noto Sans", "Liberation Sans", "Arimo", "FreeSans",
            "Nimbus Sans", "Open Sans", "Lato", "Roboto", "Go", "Oxygen", "Ubuntu", "B612",
            "Droid Sans", "Source Sans Pro", "Fira Sans", "Inter", "Bitstream Vera Sans"]
SIZES = list(range(10, 25)) + [26, 28, 30, 32, 36]
"""Font sizes in pixels (a 10-11 pt label at 96 dpi is 13-15 px; 2x scale doubles it)."""


def installed(family: str) -> bool:
    out = subprocess.run(["fc-list", f":family={family}", "family"], capture_output=True, text=True)
    return bool(out.stdout.strip())


def char_mask(ch: str, family: str, size: int) -> np.ndarray | None:
    box = 2 * size
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" width="{box}" height="{box}">'
           f'<text x="{size // 2}" y="{int(size * 1.4)}" font-family="{escape(family)}" '
           f'font-size="{size}px">{escape(ch)}</text></svg>').encode()
    alpha = render(svg)
    ys, xs = np.nonzero(alpha > 0.1)
    if ys.size == 0:
        return None
    crop = alpha[ys.min():ys.max() + 1, xs.min():xs.max() + 1]
    grey = np.round(255 * (1 - crop)).astype(np.uint8)      # dark text on a light window
    return glyph_mask(cv2.cvtColor(grey, cv2.COLOR_GRAY2BGR))


SAME = 0.06
"""Mean mask difference under which a glyph adds nothing to one already kept for its char."""


def thin(masks: list, chars: list, names: list) -> tuple[list, list, list]:
    """Keep a glyph only when no kept glyph of the same char looks almost the same: the
    reader compares every label glyph with every kept one, so fewer is faster."""
    keep: list[int] = []
    for i, mask in enumerate(masks):
        same = [j for j in keep if chars[j] == chars[i]]
        if same and min(np.abs(masks[j] - mask).mean() for j in same) < SAME:
            continue
        keep.append(i)
    return [masks[i] for i in keep], [chars[i] for i in keep], [names[i] for i in keep]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fonts", nargs="*", default=FAMILIES)
    ap.add_argument("--out", default=str(COUNTER_BANK))
    args = ap.parse_args()
    fonts = [f for f in args.fonts if installed(f)]
    masks, chars, names = [], [], []
    for family in fonts:
        for size in SIZES:
            for ch in CHARS:
                mask = char_mask(ch, family, size)
                if mask is not None:
                    masks.append(mask)
                    chars.append(ch)
                    names.append(family)
    masks, chars, names = thin(masks, chars, names)
    np.savez_compressed(args.out, masks=np.round(np.stack(masks) * 255).astype(np.uint8),
                        chars=np.array(chars), fonts=np.array(names))
    print(f"{args.out}: {len(masks)} glyphs from {len(fonts)} fonts: {', '.join(fonts)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
