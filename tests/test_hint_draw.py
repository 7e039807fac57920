"""Drawing the hints: layers, painted images, shaped-window rectangles, the terminal view and
the board-file side of ``minebot hint`` (no display, no vision)."""

from __future__ import annotations

import numpy as np
import pytest

from minebot.backends.x11.window import Rect
from minebot.board import Board
from minebot.cli import main
from minebot.hint import LAYERS, DrawOptions, advise_board, draw_hints, hint_layers, render_text
from minebot.hint.draw import cell_at
from minebot.hint.overlay import label_layers, label_origin, mask_rectangles, rectangles_mask

BOARD = Board.parse("""{"mines": 5}
12--1-
-2---1
--11-0
0----1
-01---
""")


def grid_rects(rows: int, cols: int, pitch: int = 30, tile: int = 26, x0: int = 10, y0: int = 20):
    """Tile rectangles of a regular grid, as a vision Reading would give them."""
    r, c = np.mgrid[0:rows, 0:cols]
    left, top = x0 + c * pitch, y0 + r * pitch
    return np.stack([left, top, left + tile, top + tile], axis=-1)


def cell_pixels(image, rect, colour):
    x0, y0, x1, y1 = rect
    return int((image[y0:y1, x0:x1] == np.array(colour, np.uint8)).all(axis=-1).sum())


def test_marks_land_on_their_cells_and_nowhere_else():
    hints, _ = advise_board(BOARD)
    rects = grid_rects(BOARD.rows, BOARD.cols)
    image = np.full((200, 220, 3), 128, np.uint8)
    out = draw_hints(image, hints, rects, with_caption=False)
    assert out.shape == image.shape
    for r in range(BOARD.rows):
        for c in range(BOARD.cols):
            rect = rects[r, c]
            green = cell_pixels(out, rect, LAYERS["safe"])
            red = cell_pixels(out, rect, LAYERS["mine"])
            assert (green > 0) == ((r, c) in hints.safe), (r, c)
            assert (red > 0) == ((r, c) in hints.mines), (r, c)
            # a frame, not a fill: the tile's centre keeps its pixels
            cy, cx = (rect[1] + rect[3]) // 2, (rect[0] + rect[2]) // 2
            assert (out[cy, cx] == 128).all()
    # pixels between tiles are never painted
    gaps = np.ones(image.shape[:2], bool)
    for rect in rects.reshape(-1, 4):
        gaps[rect[1]:rect[3], rect[0]:rect[2]] = False
    assert (out[gaps] == 128).all()


def test_probability_digits_and_guess_frame():
    board = Board.parse('{"mines": 4}\n1---\n----\n----\n----\n')
    hints, _ = advise_board(board)
    assert hints.guess is not None
    rects = grid_rects(board.rows, board.cols, pitch=40, tile=36)
    masks = hint_layers(hints, rects, (200, 240))
    x0, y0, x1, y1 = rects[hints.guess]
    assert masks["guess"][y0:y1, x0:x1].any()
    assert masks["text"][y0:y1, x0:x1].any()
    # only the guess carries digits by default, every uncertain covered cell with the option
    assert masks["text"].sum() == masks["text"][y0:y1, x0:x1].sum()
    every = hint_layers(hints, rects, (200, 240), DrawOptions(probabilities=True))
    numbered = [(r, c) for r in range(board.rows) for c in range(board.cols)
                if every["text"][rects[r, c][1]:rects[r, c][3], rects[r, c][0]:rects[r, c][2]].any()]
    expected = [(r, c) for r in range(board.rows) for c in range(board.cols)
                if board.unknown[r, c] and not np.isnan(hints.probability[r, c])
                and (r, c) not in hints.safe and (r, c) not in hints.mines]
    assert numbered == expected
    assert not (every["text"] & every["outline"]).any()


def test_inconsistent_board_draws_only_the_contradicting_numbers():
    board = Board.parse('{"mines": 5}\n3--\n-0-\n---\n')
    hints, _ = advise_board(board)
    masks = hint_layers(hints, grid_rects(3, 3), (120, 120))
    assert masks["problem"].any()
    assert not any(masks[n].any() for n in ("safe", "mine", "guess", "text", "wrong"))


def test_explanation_layers_frame_the_proof_numbers():
    hints, expl = advise_board(BOARD, explain=(1, 0))
    rects = grid_rects(BOARD.rows, BOARD.cols)
    masks = hint_layers(hints, rects, (200, 220), explanation=expl)
    for r in range(BOARD.rows):
        for c in range(BOARD.cols):
            x0, y0, x1, y1 = rects[r, c]
            assert masks["proof"][y0:y1, x0:x1].any() == ((r, c) in expl.numbers)
    x0, y0, x1, y1 = rects[1, 0]
    assert masks["target"][y0:y1, x0:x1].any()


def test_offset_moves_layers_to_board_local_pixels():
    hints, _ = advise_board(BOARD)
    rects = grid_rects(BOARD.rows, BOARD.cols)
    whole = hint_layers(hints, rects, (200, 220))
    local = hint_layers(hints, rects, (200 - 20, 220 - 10), offset=(10, 20))
    assert (whole["safe"][20:, 10:] == local["safe"]).all()


@pytest.mark.parametrize("seed", range(5))
def test_mask_rectangles_cover_exactly(seed):
    rng = np.random.default_rng(seed)
    mask = rng.random((37, 53)) < 0.3
    mask[5:15, 5:25] = True
    rects = mask_rectangles(mask)
    assert (rectangles_mask(rects, mask.shape) == mask).all()
    # no two rectangles overlap
    total = sum(w * h for _, _, w, h in rects)
    assert total == int(mask.sum())


def test_frame_is_four_rectangles():
    hints, _ = advise_board(Board.parse('{"mines": 1}\n0F--\n11--\n----\n'))
    masks = hint_layers(hints, grid_rects(3, 4), (120, 140))
    assert len(mask_rectangles(masks["wrong"])) == 4
    assert mask_rectangles(np.zeros((3, 3), bool)) == []


def test_label_layers_and_placement():
    layers = label_layers(["7 safe, 2 mine(s)", "a long sentence " * 10], 300)
    assert layers["label_bg"].shape == layers["label_text"].shape
    assert layers["label_bg"].shape[0] > 40           # the long line was wrapped
    assert layers["label_text"].any()
    screen = Rect(0, 0, 1000, 800)
    assert label_origin(Rect(10, 10, 600, 500), screen, 50) == (10, 510)
    assert label_origin(Rect(10, 300, 600, 500), screen, 50) == (10, 250)
    assert label_origin(Rect(0, 0, 1000, 800), screen, 50) == (0, 750)


def test_render_text_marks_and_percentages():
    hints, expl = advise_board(BOARD, explain=(0, 5))
    text = render_text(hints, probabilities=True, explanation=expl)
    lines = text.splitlines()
    row0 = lines[1]
    cells = [row0[4 + 3 * c: 7 + 3 * c].strip() for c in range(BOARD.cols)]
    assert cells[0] == "1" and cells[3] == "S" and cells[5] == "M"
    assert "certainly a mine" in text
    assert "\x1b[" not in text
    assert "\x1b[" in render_text(hints, colour=True)


def write(tmp_path, text, name="b.board"):
    path = tmp_path / name
    path.write_text(text)
    return str(path)


def test_cli_text_and_explain_on_board_file(tmp_path, capsys):
    path = write(tmp_path, BOARD.to_text())
    assert main(["hint", path, "--explain", "1,0"]) == 0
    out = capsys.readouterr().out
    assert "certainly a mine because of the 1 at (0,0)" in out
    assert main(["hint", "--text", "-p", path]) == 0
    assert "S safe" in capsys.readouterr().out


def test_cli_errors_are_clear(tmp_path, capsys):
    path = write(tmp_path, BOARD.to_text())
    assert main(["hint", path, "--explain", "9,9"]) == 2
    assert "outside the 5x6 board" in capsys.readouterr().err
    assert main(["hint", path, "--png", str(tmp_path / "x.png")]) == 2
    assert "needs a screenshot" in capsys.readouterr().err
    bad = write(tmp_path, '{"mines": 5}\n3--\n-0-\n---\n', "bad.board")
    assert main(["hint", bad]) == 3
    captured = capsys.readouterr()
    assert "inconsistent" in captured.err and "inconsistent" in captured.out


def test_cell_at_maps_pixels_to_tiles():
    rects = grid_rects(3, 4)           # tiles 26 px at a 30 px pitch from (10, 20)
    assert cell_at(rects, 10, 20) == (0, 0)
    assert cell_at(rects, 10 + 30 * 3 + 25, 20 + 30 * 2 + 25) == (2, 3)
    assert cell_at(rects, 10 + 27, 25) is None        # in the gap between tiles
    assert cell_at(rects, 5, 5) is None


def test_cli_pointer_explain_needs_the_overlay(tmp_path, capsys):
    path = write(tmp_path, BOARD.to_text())
    assert main(["hint", path, "--explain", "pointer"]) == 2
    assert "needs the live overlay" in capsys.readouterr().err
