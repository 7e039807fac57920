"""Which cells changed between two frames (``vision.changes``), against a cell-by-cell
comparison, and the read that reuses the rest: only changed cells are averaged and have their
numbers read again, and the readings are a fresh reader's (``test_reader_reuse``)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from minebot.vision import Reader, load_image
from minebot.vision.changes import board_pixels, changed_cells
from minebot.vision.locate import Grid
from minebot.vision.numbers import NumberReader

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "gnome-mines"


def lattice(rows: int, cols: int, tile: int, gap: int, left: int = 7, top: int = 5) -> Grid:
    x0 = left + np.arange(cols) * (tile + gap)
    y0 = top + np.arange(rows) * (tile + gap)
    return Grid(x0, x0 + tile, y0, y0 + tile, (0, 0, 0), (top * 2 + rows * (tile + gap), left * 2 + cols * (tile + gap)))


def by_cell(before: np.ndarray, after: np.ndarray, grid: Grid) -> np.ndarray:
    """The plain truth: each tile's pixels compared on their own."""
    return np.array([[not np.array_equal(before[grid.y0[r]:grid.y1[r], grid.x0[c]:grid.x1[c]],
                                         after[grid.y0[r]:grid.y1[r], grid.x0[c]:grid.x1[c]])
                      for c in range(grid.cols)] for r in range(grid.rows)])


@pytest.mark.parametrize("rows,cols,tile,gap", [(16, 30, 24, 2), (8, 8, 40, 0), (3, 5, 9, 1)])
def test_changed_cells_are_the_cells_whose_pixels_differ(rows, cols, tile, gap):
    rng = np.random.default_rng(rows * cols + tile)
    grid = lattice(rows, cols, tile, gap)
    before = rng.integers(0, 256, (*grid.frame_shape, 3), dtype=np.uint8)
    for _ in range(30):
        after = before.copy()
        for _ in range(int(rng.integers(0, 6))):
            r, c = int(rng.integers(rows)), int(rng.integers(cols))
            y = int(rng.integers(grid.y0[r], grid.y1[r]))
            x = int(rng.integers(grid.x0[c], grid.x1[c]))
            after[y, x, int(rng.integers(3))] ^= np.uint8(1 + rng.integers(255))
        found = changed_cells(board_pixels(before, grid), board_pixels(after, grid), grid)
        assert found.shape == (rows, cols)
        assert np.array_equal(found, by_cell(before, after, grid))


def test_a_change_between_cells_changes_no_cell_and_a_shared_line_both():
    grid = lattice(4, 4, 10, 3)
    before = np.zeros((*grid.frame_shape, 3), np.uint8)
    after = before.copy()
    after[int(grid.y1[1]) + 1, int(grid.x0[2]) + 4] = 255      # in the gap under cell (1, 2)
    after[int(grid.y0[3]) + 9, int(grid.x0[0])] = 1            # inside cell (3, 0)
    found = changed_cells(board_pixels(before, grid), board_pixels(after, grid), grid)
    assert np.array_equal(found, by_cell(before, after, grid)) and found.sum() == 1
    # boxes that overlap by a pixel (touching cells that share their line): a change on that
    # line is in both cells' pixels
    x0 = 3 + np.arange(5) * 10
    y0 = 2 + np.arange(3) * 10
    shared = Grid(x0, x0 + 11, y0, y0 + 11, (0, 0, 0), (40, 60))
    before = np.zeros((40, 60, 3), np.uint8)
    after = before.copy()
    after[int(y0[1]) + 4, int(x0[2])] = 9                        # column 2's first pixel = column 1's last
    found = changed_cells(board_pixels(before, shared), board_pixels(after, shared), shared)
    assert np.array_equal(found, by_cell(before, after, shared))
    assert found[1, 1] and found[1, 2] and found.sum() == 2


def test_a_second_read_reads_numbers_only_in_changed_cells(monkeypatch):
    fresh, mid = (load_image(FIXTURES / f"bgcolors-30x16-1290x760-{s}.png") for s in ("fresh", "mid"))
    reader = Reader()
    reader.read(mid)                    # found afresh: its cells were read while the set was picked
    first = reader.read(mid)            # the first read on the kept grid: every cell
    rects = first.cell_rects
    asked: list[int] = []
    real = NumberReader.read

    def counting(self, frame, grid, colours, cells):
        asked.append(int(np.count_nonzero(cells)))
        return real(self, frame, grid, colours, cells)
    monkeypatch.setattr(NumberReader, "read", counting)
    again = reader.read(mid.copy())
    assert asked == [0]                 # the same pixels: no number read again
    assert np.array_equal(again.board.cells, first.board.cells)
    # three numbered cells shown covered, as on the fresh board: only they may be read
    numbered = [tuple(int(v) for v in rc) for rc in np.argwhere(
        (first.board.cells >= 1) & (first.board.cells <= 8))][:3]
    frame = mid.copy()
    for r, c in numbered:
        x0, y0, x1, y1 = (int(v) for v in rects[r, c])
        frame[y0:y1, x0:x1] = fresh[y0:y1, x0:x1]
    asked.clear()
    changed = reader.read(frame)
    assert sum(asked) <= len(numbered)
    monkeypatch.setattr(NumberReader, "read", real)
    assert np.array_equal(changed.board.cells, Reader().read(frame).board.cells)
    asked.clear()
    monkeypatch.setattr(NumberReader, "read", counting)
    back = reader.read(mid)             # and back: the numbers are read again there
    assert np.array_equal(back.board.cells, first.board.cells)
    assert 0 < sum(asked) <= len(numbered)


def test_fits_speaks_for_its_own_frame_only():
    mid = load_image(FIXTURES / "bgcolors-30x16-1290x760-mid.png")
    reader = Reader()
    reader.read(mid)
    first = reader.read(mid)
    assert reader.fits(mid)
    # the board moved 7 px right and 5 down after that check: the read must not take the
    # check of the other frame for its own, and finds the board where it is now
    moved = np.roll(np.roll(mid, 7, axis=1), 5, axis=0)
    again = reader.read(moved)
    left, top, right, bottom = first.board_px
    assert again.board_px == (left + 7, top + 5, right + 7, bottom + 5)
    assert np.array_equal(again.board.cells, first.board.cells)
    assert not reader.fits(mid)
