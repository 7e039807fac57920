#!/usr/bin/env python3
"""Render the digit bank (templates/digits/bank.npz) from the game's own SVG digits.

GNOME Mines' number icons (``/usr/share/gnome-mines/themes/default/[1-8]mines.svg``) are text
in the font "Monospace", bold. This tool renders each of them with librsvg (``rsvg-convert``,
the same pango/cairo/fontconfig stack the game draws them with), once per installed monospace
font (forced through a private ``FONTCONFIG_FILE``) and per icon size, and stores the font-free
description of every glyph (``minebot.vision.glyphs.describe``).

    apt-get install librsvg2-bin gnome-mines fonts-...   # the fonts to learn from
    python tools/make_digit_bank.py                       # all monospace families found
    python tools/make_digit_bank.py --fonts "Hack" "Go Mono" --out /tmp/bank.npz
    python tools/make_digit_bank.py --evaluate            # leave-one-font-out accuracy

A development tool: minebot itself only reads the bank file.
"""

from __future__ import annotations

import argparse
import re
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from minebot.sandbox.fonts import fontconfig_file  # noqa: E402
from minebot.vision.glyphs import BANK_FILE, Bank, describe, save_bank  # noqa: E402

THEME = Path("/usr/share/gnome-mines/themes/default")
SIZES = list(range(6, 41)) + list(range(44, 81, 4)) + [88, 96, 108, 120]
"""Icon sizes in pixels (GNOME Mines draws the icon at 80% of the tile's content box)."""

SHIFTS = ((0.0, 0.0), (0.5, 0.0), (0.0, 0.5), (0.5, 0.5))
"""Sub-pixel offsets (x, y) each icon is drawn at."""

SKIP = ("IBM 3270",)  # a decorative terminal face with dotted zeros and open loops


def monospace_families() -> list[str]:
    """Families fontconfig marks monospaced, plus those named so (some fonts carry no mark)."""
    def families(*pattern: str) -> set[str]:
        out = subprocess.run(["fc-list", *pattern, "family"], capture_output=True, text=True,
                             check=True).stdout
        return {line.split(",")[0].strip() for line in out.splitlines() if line.strip()}
    named = {n for n in families(":") if re.search(r"mono|courier|code\b", n, re.I)}
    names = families(":spacing=mono") | named
    return sorted(n for n in names if n and not n.startswith(SKIP))


def resolved(family: str, conf: Path) -> str:
    out = subprocess.run(["fc-match", "-f", "%{family}", "Monospace:bold"], capture_output=True,
                         text=True, env={"FONTCONFIG_FILE": str(conf), "PATH": "/usr/bin:/bin"})
    return out.stdout.split(",")[0]


def render(svg: Path | bytes, size: int | None = None, conf: Path | None = None) -> np.ndarray:
    """The alpha (coverage) of an SVG file or text, at ``size`` x ``size`` pixels (or its own
    size), with the fonts of ``conf`` (or the machine's)."""
    argv = ["rsvg-convert"] + (["-w", str(size), "-h", str(size)] if size else [])
    env = {"PATH": "/usr/bin:/bin"} | ({"FONTCONFIG_FILE": str(conf)} if conf else {})
    if isinstance(svg, bytes):
        png = subprocess.run(argv, input=svg, capture_output=True, check=True, env=env).stdout
    else:
        png = subprocess.run(argv + [str(svg)], capture_output=True, check=True, env=env).stdout
    image = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_UNCHANGED)
    return image[..., 3].astype(np.float32) / 255.0


def font_glyphs(family: str, workdir: Path) -> list[tuple]:
    conf = fontconfig_file(family, workdir / family.replace(" ", "_"))
    if resolved(family, conf) != family:
        print(f"  {family}: not what Monospace bold resolves to, skipped", file=sys.stderr)
        return []
    out = []
    for digit in range(1, 9):
        for size in SIZES:
            alpha = render(THEME / f"{digit}mines.svg", size, conf)
            # GTK centres the icon in the tile, often at a half-pixel offset, and draws it
            # there with bilinear filtering: each render is also stored shifted by half a
            # pixel across, down and both (this reproduces the game's pixels exactly)
            for dx, dy in SHIFTS:
                shift = np.float32([[1, 0, dx], [0, 1, dy]])
                image = cv2.warpAffine(alpha, shift, (size + 1, size + 1), flags=cv2.INTER_LINEAR)
                glyph = describe(image)
                if glyph is not None:
                    out.append((glyph, digit, family))
    return out


def evaluate(bank: Bank) -> None:
    """Leave one font out: read each font's glyphs with a bank that never saw that font."""
    total_bad = 0
    for fi, font in enumerate(bank.font_names):
        rest = bank.without(font)
        idx = np.flatnonzero(bank.fonts == fi)
        wrong, margins = [], []
        for i in idx:
            from minebot.vision.glyphs import Glyph
            g = Glyph(bank.shapes[i], float(bank.aspects[i]), int(bank.heights[i]))
            d = rest.distances(g)
            order = np.argsort(d)
            if order[0] + 1 != bank.digits[i]:
                wrong.append((int(bank.digits[i]), int(order[0] + 1), int(bank.heights[i])))
            margins.append(d[order[1]] - d[order[0]])
        total_bad += len(wrong)
        print(f"{font:28s} {len(idx):4d} glyphs, {len(wrong):3d} wrong "
              f"(true->read@height) {wrong[:6]}")
    print(f"total wrong: {total_bad} of {len(bank.digits)}")


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fonts", nargs="*", help="font families (default: every monospace family)")
    ap.add_argument("--out", default=str(BANK_FILE))
    ap.add_argument("--evaluate", action="store_true", help="print leave-one-font-out accuracy of --out")
    args = ap.parse_args()
    if args.evaluate:
        evaluate(Bank.load(args.out))
        return 0
    if not THEME.is_dir():
        print(f"{THEME}: not found (apt-get install gnome-mines)", file=sys.stderr)
        return 2
    families = args.fonts or monospace_families()
    with tempfile.TemporaryDirectory() as tmp:
        with ThreadPoolExecutor(max_workers=2) as pool:
            results = list(pool.map(lambda f: font_glyphs(f, Path(tmp)), families))
    glyphs = [g for r in results for g in r]
    fonts = sorted({f for _, _, f in glyphs})
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    save_bank(args.out, glyphs)
    print(f"{args.out}: {len(glyphs)} glyphs from {len(fonts)} fonts: {', '.join(fonts)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
