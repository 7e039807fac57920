"""Ace of Penguins' minesweeper read from real screenshots (``fixtures/ace-minesweeper``,
recorded under Xvfb by ``tools/record_clone_fixtures.py --only ace --more``; truth proven by
each game's loss, which shows every mine: ``tests/test_clone_fixtures.py``'s rules).

What is particular to it: its cells are sprites at four fixed sizes (48, 36, 24, 12 px for the
8x8, 11x11, 16x16 and 32x32 boards), an open cell's edges are dotted (the lattice locator
joins the dots: ``GridGeometry.dotted``), and its looks are not taught from screenshots but
cut from the sprite sheets compiled into the game (``tools/ace_sprites.py``), so 7 and 8,
which play almost never shows, are known too. Every screenshot cell is checked to be, pixel
for pixel, the sprite of its proven label: that is what makes the sheet's order, and so its 7
and 8, trustworthy.
"""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from minebot.board import Board, GameState
from minebot.vision import Reader

ROOT = Path(__file__).resolve().parents[1]
ACE = ROOT / "fixtures" / "ace-minesweeper"
TEMPLATES = ROOT / "templates" / "ace-minesweeper"
STEMS = sorted(p.stem for p in ACE.glob("*.png"))
LOST = [s for s in STEMS if s.endswith("-lost")]


def _tools_module(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault(name, module)
    spec.loader.exec_module(module)
    return module


def _sprites_from_set() -> dict[tuple[int, str], np.ndarray]:
    meta = json.loads((TEMPLATES / "templates.json").read_text())
    return {(c["size"], c["label"]): cv2.imread(str(TEMPLATES / c["file"])) for c in meta["cells"]}


def test_fixtures_cover_every_board_size_with_losses():
    sizes = {json.loads((ACE / f"{s}.json").read_text())["cell_pitch"] for s in LOST}
    assert sizes == {48, 36, 24, 12}
    assert len(STEMS) == 20


@pytest.mark.parametrize("stem", STEMS)
def test_every_screenshot_reads_exactly_and_is_named_ace(stem):
    """No game named: the reader finds the board, names the game and reads every cell as the
    finished game proves it (flags, "?", wrong flags and the mine hit included)."""
    truth = Board.load(ACE / f"{stem}.board")
    reading = Reader().read(cv2.imread(str(ACE / f"{stem}.png")))
    assert reading.game == "ace-minesweeper"
    assert reading.board.rows_text() == truth.rows_text()
    assert reading.board.state is truth.state
    assert reading.board.mines == truth.mines      # the size gives the total (FIXED_TOTALS)
    meta = json.loads((ACE / f"{stem}.json").read_text())
    left, top, right, bottom = reading.board_px
    pitch = meta["cell_pitch"]
    assert (left, top) == tuple(meta["first_cell_origin"])
    assert (right - left, bottom - top) == (truth.cols * pitch, truth.rows * pitch)


@pytest.mark.parametrize("stem", STEMS)
def test_every_cell_is_the_sprite_of_its_proven_label(stem):
    """Pixel for pixel: the template set (cut from the binary) is what the game draws, for
    every label the screenshots show at every size."""
    truth = Board.load(ACE / f"{stem}.board")
    meta = json.loads((ACE / f"{stem}.json").read_text())
    x0, y0 = meta["first_cell_origin"]
    p = meta["cell_pitch"]
    img = cv2.imread(str(ACE / f"{stem}.png"))
    sprites = _sprites_from_set()
    text = truth.rows_text()
    for r, line in enumerate(text):
        for c, ch in enumerate(line):
            crop = img[y0 + r * p: y0 + (r + 1) * p, x0 + c * p: x0 + (c + 1) * p]
            assert np.array_equal(crop, sprites[(p, ch)]), (stem, r, c, ch)


def test_screenshots_show_most_labels_and_the_set_has_all_fifteen():
    shown = {ch for s in STEMS for line in Board.load(ACE / f"{s}.board").rows_text() for ch in line}
    assert {"-", "0", "1", "2", "3", "*", "X", "F", "?", "W"} <= shown
    labels = {label for (_, label) in _sprites_from_set()}
    assert labels == set("012345678*XF?-W")
    assert {size for (size, _) in _sprites_from_set()} == {48, 36, 24, 12}


def test_seven_and_eight_read_at_every_size():
    """A board made of the game's own sprites reads at each size once placed in a real
    screenshot's lattice; 7 and 8 come from the sheets, never from play. Each number stands
    among covered cells, enough of them to hold its mines (a board no game can show, such as
    a row 1-8, is refused by the reader's plausibility check)."""
    sprites = _sprites_from_set()
    places = {"8": (1, 1), "7": (1, 4), "1": (4, 0), "2": (4, 2), "3": (4, 4), "4": (4, 6),
              "5": (6, 1), "6": (6, 4)}
    for stem in ("ace-8x8-6-401x427-fresh", "ace-11x11-20-401x427-fresh", "ace-16x16-45-401x427-fresh",
                 "ace-32x32-200-401x427-fresh"):
        meta = json.loads((ACE / f"{stem}.json").read_text())
        x0, y0 = meta["first_cell_origin"]
        p = meta["cell_pitch"]
        img = cv2.imread(str(ACE / f"{stem}.png"))
        for ch, (r, c) in places.items():
            img[y0 + r * p: y0 + (r + 1) * p, x0 + c * p: x0 + (c + 1) * p] = sprites[(p, ch)]
        rows = Reader(game="ace-minesweeper").read(img).board.rows_text()
        assert {ch: rows[r][c] for ch, (r, c) in places.items()} == {ch: ch for ch in places}, stem


@pytest.mark.skipif(not Path("/usr/games/ace-minesweeper").exists(), reason="ace-of-penguins not installed")
def test_the_shipped_set_is_what_the_binary_holds():
    """``tools/ace_sprites.py`` is reproducible: the sheets it finds in the installed game are
    the shipped templates, byte for byte in pixels."""
    tool = _tools_module("ace_sprites")
    shipped = _sprites_from_set()
    found = tool.sprites()
    assert set(found) == set(shipped)
    for key, image in found.items():
        assert np.array_equal(image, shipped[key]), key


def test_lost_states():
    for stem in LOST:
        assert Board.load(ACE / f"{stem}.board").state is GameState.LOST
