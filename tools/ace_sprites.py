"""Build the ``ace-minesweeper`` template set from the sprite sheets compiled into the game.

    .venv/bin/python tools/ace_sprites.py [--binary /usr/games/ace-minesweeper] [--out templates]

Why from the binary: Ace of Penguins' minesweeper draws every cell as a sprite cut from one of
four sheets (``minesweeper-c48``, ``-c36``, ``-c24``, ``-c12``, one per board size), and a
game in play almost never shows a 7 or an 8, so screenshots alone cannot teach every digit at
every size. The sheets are PNG images that the game's build compiles into the executable
(Debian's ``ace-of-penguins`` 1.5~rc2 links libpng and keeps the files byte for byte), so they
are found by the PNG signature and read whole, chunk by chunk up to ``IEND``:

1. every ``\\x89PNG\\r\\n\\x1a\\n`` in the file starts an image; its chunks (4-byte big-endian
   length, 4-byte type, data, CRC) are followed to ``IEND``, and those bytes are decoded;
2. a sheet is an image 15 cells wide and one cell high, for the cell sizes 48, 36, 24, 12;
3. its cells, left to right, are the open 0 (the plain green), 1-8, a mine shown at a loss,
   the mine hit (on red), a flag, a "?", a covered tile and a wrong flag (a red cross on a
   covered tile) (``ORDER``).

Nothing is guessed: ``tests/test_ace_minesweeper.py`` checks that every cell of every
recorded screenshot (``fixtures/ace-minesweeper``, truth proven by the game's loss) is,
pixel for pixel, the sprite of its true label at its size, which also pins ``ORDER`` down
for every label the screenshots show; 7 and 8 are the only ones taken on the sheet's word
alone (their place between 6 and the mine, and their shapes, which the test's check of the
other digits makes trustworthy).
"""

from __future__ import annotations

import argparse
import struct
import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from minebot.vision.templates import write_set  # noqa: E402

BINARY = Path("/usr/games/ace-minesweeper")
SIZES = (48, 36, 24, 12)
ORDER = ("0", "1", "2", "3", "4", "5", "6", "7", "8", "*", "X", "F", "?", "-", "W")
"""The labels of a sheet's 15 cells, left to right (board text format: ``minebot.board``)."""

SIGNATURE = b"\x89PNG\r\n\x1a\n"


def embedded_pngs(data: bytes) -> list[bytes]:
    """Every whole PNG file inside ``data`` (signature, then chunks up to ``IEND``)."""
    out = []
    start = data.find(SIGNATURE)
    while start >= 0:
        pos = start + len(SIGNATURE)
        while pos + 8 <= len(data):
            length, kind = struct.unpack(">I4s", data[pos:pos + 8])
            pos += 12 + length
            if kind == b"IEND":
                out.append(data[start:pos])
                break
        start = data.find(SIGNATURE, start + 1)
    return out


def sheets(binary: Path = BINARY) -> dict[int, np.ndarray]:
    """Cell size -> the game's sprite sheet for it (BGR, one cell high, ``len(ORDER)`` wide)."""
    found: dict[int, np.ndarray] = {}
    for png in embedded_pngs(binary.read_bytes()):
        image = cv2.imdecode(np.frombuffer(png, np.uint8), cv2.IMREAD_COLOR)
        if image is None:
            continue
        h, w = image.shape[:2]
        if h in SIZES and w == h * len(ORDER):
            found[h] = image
    missing = [s for s in SIZES if s not in found]
    if missing:
        raise SystemExit(f"{binary}: no sprite sheet for cell sizes {missing}")
    return found


def sprites(binary: Path = BINARY) -> dict[tuple[int, str], np.ndarray]:
    """(cell size, label) -> that cell's sprite."""
    return {(size, label): sheet[:, i * size:(i + 1) * size].copy()
            for size, sheet in sheets(binary).items() for i, label in enumerate(ORDER)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--binary", type=Path, default=BINARY)
    ap.add_argument("--out", type=Path, default=ROOT / "templates")
    args = ap.parse_args(argv)
    cells = [(image, label, "normal", size) for (size, label), image in sprites(args.binary).items()]
    folder = write_set(args.out / "ace-minesweeper", "ace-minesweeper", "ace-minesweeper", "built-in",
                       cells, extra={"source": "sprite sheets minesweeper-c48/-c36/-c24/-c12 "
                                               "compiled into /usr/games/ace-minesweeper "
                                               "(tools/ace_sprites.py)"})
    print(f"wrote {folder} ({len(cells)} cells)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
