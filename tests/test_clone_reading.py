"""Every clone fixture is read exactly by the shipped looks, with no calibration.

The truth of each fixture is proven by its own game (``tests/test_clone_fixtures.py``); the
shipped sets were taught from the first series only (``tools/make_clone_templates.py``), so the
second series (other board and window sizes: xdemineur 16x16, KMines 30x16 at 1200x700, 9x9 at
480x400, Oxygen 16x16 at 900x760; Simon Tatham's Mines at 21, 30 and 33 px tiles) are
screenshots these looks have never seen. The game is
found from the picture (which game's lattice and looks fit), and must be the fixture's.
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from minebot.board import Board
from minebot.errors import NoGameError
from minebot.vision import Reader

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
SHIPPED_THEMES = ("built-in", "classic", "default")
"""Looks minebot ships sets for; green ("Gardens of Danger") is taught in test_calibrate_clones."""


def clone_fixtures() -> list[Path]:
    out = []
    for clone in ("xdemineur", "kmines", "sgt-mines"):
        for path in sorted((FIXTURES / clone).glob("*.board")):
            meta = json.loads(path.with_suffix(".json").read_text())
            if meta["theme"] in SHIPPED_THEMES:
                out.append(path)
    return out


def _game(path: Path) -> str:
    return path.parent.name


@pytest.mark.parametrize("board_path", clone_fixtures(), ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_clone_fixture_is_read_exactly(board_path):
    truth = Board.load(board_path)
    reading = Reader().read(cv2.imread(str(board_path.with_suffix(".png"))))
    assert reading.game == _game(board_path)
    assert reading.board.rows_text() == truth.rows_text()
    assert reading.board.state == truth.state
    assert not reading.unsure
    if reading.game == "xdemineur":      # its 7-segment display: mines minus flags
        assert reading.board.mines == truth.mines
    if reading.board.mines is not None:  # KMines' status bar, when it was read
        assert reading.board.mines == truth.mines


@pytest.mark.parametrize("board_path", clone_fixtures()[::3], ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_clone_fixture_inside_a_bigger_screen(board_path):
    """The window somewhere on a larger screen: the lattice is found where it is."""
    window = cv2.imread(str(board_path.with_suffix(".png")))
    h, w = window.shape[:2]
    screen = np.full((h + 157, w + 231, 3), (96, 64, 40), np.uint8)
    screen[101:101 + h, 170:170 + w] = window
    reading = Reader(game=_game(board_path)).read(screen)
    truth = Board.load(board_path)
    assert reading.board.rows_text() == truth.rows_text()
    left, top, _, _ = reading.board_px
    meta = json.loads(board_path.with_suffix(".json").read_text())
    x0, y0 = meta["first_cell_origin"]
    assert abs(left - (x0 + 170)) <= 2 and abs(top - (y0 + 101)) <= 2


def test_seven_segment_counter_reads_mines_minus_flags():
    """Every xdemineur fixture's display, against its truth (the test can fail: a wrong
    segment table or slot split gives other numbers)."""
    from minebot.board import Cell
    from minebot.vision.sevenseg import read_seven_segment
    seen = set()
    for path in sorted((FIXTURES / "xdemineur").glob("*.board")):
        truth = Board.load(path)
        meta = json.loads(path.with_suffix(".json").read_text())
        flags = int(np.isin(truth.cells, (Cell.FLAG, Cell.WRONG_FLAG)).sum())
        shown = read_seven_segment(cv2.imread(str(path.with_suffix(".png"))),
                                   tuple(meta["board_rect_in_image"]))
        assert shown == truth.mines - flags, path.name
        seen.add(shown)
    assert len(seen) >= 5


def test_status_bar_counter_reads_flags_of_total():
    """KMines' "Mines: F/T" (F = flags placed, wrong ones too): every value read is the truth,
    and it is read on all but a few screenshots (glyphs that touch, "4/", are not split)."""
    from minebot.board import Cell
    from minebot.vision.counter import find_status_counter
    paths = sorted((FIXTURES / "kmines").glob("*.board"))
    read = 0
    for path in paths:
        truth = Board.load(path)
        meta = json.loads(path.with_suffix(".json").read_text())
        flags = int(np.isin(truth.cells, (Cell.FLAG, Cell.WRONG_FLAG)).sum())
        found = find_status_counter(cv2.imread(str(path.with_suffix(".png"))),
                                    tuple(meta["board_rect_in_image"]))
        if found is not None:
            assert found == (flags, truth.mines), path.name
            read += 1
    assert read >= 0.9 * len(paths)


def test_seven_segment_absent_gives_no_counter():
    from minebot.vision.sevenseg import read_seven_segment
    frame = cv2.imread(str(FIXTURES / "kmines" / "classic-9x9-640x480-mid.png"))
    assert read_seven_segment(frame, (163, 95, 478, 410)) is None


@pytest.mark.parametrize("side", ["left", "right", "top", "bottom"])
def test_part_of_a_clone_board_is_refused(side):
    """A board cut by the image's edge is never read as a smaller board."""
    path = FIXTURES / "kmines" / "classic-16x16-1000x800-mid.png"
    meta = json.loads(path.with_suffix(".json").read_text())
    frame = cv2.imread(str(path))
    x0, y0, x1, y1 = meta["board_rect_in_image"]
    p = meta["cell_pitch"]
    cut = {"left": frame[:, x0 + 3 * p + 10:], "right": frame[:, :x1 - 3 * p - 10],
           "top": frame[y0 + 3 * p + 10:], "bottom": frame[:y1 - 3 * p - 10]}[side]
    with pytest.raises(NoGameError):
        Reader(game="kmines").read(np.ascontiguousarray(cut))


@pytest.mark.parametrize("name, shot", [
    ("xdemineur", FIXTURES / "xdemineur" / "xdemineur-16x16-40-lost"),
    ("kmines-classic", FIXTURES / "kmines" / "classic-30x16-1200x700-mid"),
])
def test_numbers_are_read_without_number_templates(name, shot, tmp_path):
    """xdemineur's and KMines Classic's numbers are read from their colours (each digit has
    its own) and a digit-shaped glyph, not from pictures of the digits: a copy of the set with
    every number template removed reads the same board."""
    import shutil

    from minebot.vision.templates import META, REPO_TEMPLATES
    copy = tmp_path / name
    shutil.copytree(REPO_TEMPLATES / name, copy)
    meta = json.loads((copy / META).read_text())
    meta["cells"] = [c for c in meta["cells"] if c["label"] not in "12345678"]
    (copy / META).write_text(json.dumps(meta))
    truth = Board.load(shot.with_suffix(".board"))
    assert any(ch in "12345678" for row in truth.rows_text() for ch in row)
    reading = Reader(str(copy)).read(cv2.imread(str(shot.with_suffix(".png"))))
    assert reading.board.rows_text() == truth.rows_text()
