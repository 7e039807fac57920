"""``minebot hint --once --png`` on real GNOME Mines screenshots: the marks must sit on the cells
the solver proves from the hand-checked truth board, located independently of the reader
(from the fixture's recorded board rectangle)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from minebot.board import Board
from minebot.cli import main
from minebot.hint import LAYERS, advise_board

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "gnome-mines"
CASES = ["bgcolors-8x8-590x460-mid", "classic-16x16-810x656-mid", "default-30x16-1290x760-mid"]


def load_case(name: str):
    png, board_file, meta_file = (FIXTURES / f"{name}{ext}" for ext in (".png", ".board", ".json"))
    if not (png.exists() and board_file.exists() and meta_file.exists()):
        pytest.fail(f"fixture {name} is missing (.png, .board and .json are all needed)")
    return png, Board.load(board_file), json.loads(meta_file.read_text())


def cell_of(meta: dict, rows: int, cols: int, x: float, y: float) -> tuple[int, int]:
    """The cell under a pixel, from the recorded board rectangle split evenly. GNOME Mines
    shares leftover pixels out so tiles drift a few pixels from an even split, far less than
    half a cell: good enough to name the cell under a mark's centre."""
    left, top, right, bottom = meta["board_rect_in_window"]
    c = int((x - left) * cols / (right - left))
    r = int((y - top) * rows / (bottom - top))
    assert 0 <= r < rows and 0 <= c < cols, (x, y)
    return r, c


def marked_cells(image: np.ndarray, colour, meta: dict, rows: int, cols: int) -> list:
    """One cell per connected blob of exactly ``colour`` (a frame), by the blob's centre."""
    import cv2
    mask = (image == np.array(colour, np.uint8)).all(axis=-1).astype(np.uint8)
    n, _, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    cells = []
    for x, y, w, h, _area in stats[1:]:
        cells.append(cell_of(meta, rows, cols, x + w / 2, y + h / 2))
    return sorted(cells)


@pytest.mark.parametrize("name", CASES)
def test_png_marks_sit_on_the_proved_cells(name, tmp_path):
    import cv2
    png, truth, meta = load_case(name)
    out = tmp_path / "hint.png"
    code = main(["hint", "--once", "--png", str(out), "--mines", str(truth.mines), str(png)])
    assert code == 0
    image = cv2.imread(str(out))
    source = cv2.imread(str(png))
    assert image.shape[1] == source.shape[1] and image.shape[0] >= source.shape[0]
    expected, _ = advise_board(truth)
    assert expected.safe or expected.mines or expected.guess, "a mid-game fixture has hints"
    board_h = source.shape[0]          # the caption strip below is left out
    for layer, cells in (("safe", expected.safe), ("mine", expected.mines),
                         ("wrong", expected.wrong_flags),
                         ("guess", [expected.guess] if expected.guess else [])):
        found = marked_cells(image[:board_h], LAYERS[layer], meta, truth.rows, truth.cols)
        assert found == sorted(cells), (name, layer)
    # Outside the board the screenshot is untouched.
    left, top, right, bottom = meta["board_rect_in_window"]
    painted = (image[:board_h] != source).any(axis=-1)
    painted[top:bottom, left:right] = False
    assert not painted.any()


def test_png_on_unrelated_image_is_a_clear_error(tmp_path, capsys):
    import cv2
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((200, 300, 3), 255, np.uint8))
    code = main(["hint", "--once", "--png", str(tmp_path / "o.png"), str(blank)])
    assert code in (2, 4)
    err = capsys.readouterr().err
    assert err.startswith("minebot hint:")
    assert not (tmp_path / "o.png").exists()
    assert main(["hint", str(tmp_path / "missing.png")]) == 2
    assert "no such file" in capsys.readouterr().err


def test_png_of_an_inconsistent_reading_says_so_and_marks_nothing(tmp_path, capsys):
    """Told a wrong mine total, the board breaks the rules: no hints, a clear message, exit 3."""
    import cv2
    png, truth, meta = load_case(CASES[0])
    proved, _ = advise_board(truth)
    too_few = max(0, len(proved.mines) - 1)
    out = tmp_path / "hint.png"
    code = main(["hint", "--once", "--png", str(out), "--mines", str(too_few), str(png)])
    assert code == 3
    assert "inconsistent" in capsys.readouterr().err
    image = cv2.imread(str(out))
    source = cv2.imread(str(png))
    for layer in ("safe", "mine", "guess", "wrong"):
        assert not (image[: source.shape[0]] == np.array(LAYERS[layer], np.uint8)).all(-1).any()
    assert image.shape[0] > source.shape[0]          # the caption strip carries the message
