"""A reader that reads frame after frame matches again only the cells that changed: its readings
must be those of a fresh reader on each frame (the same cells, suspects and doubts; distances
the same up to float rounding).

Real screenshots of GNOME Mines (fixtures/gnome-mines): a fresh, a mid-game and a lost board of
the same window, read in turn by one reader, and frames that mix two of them cell by cell (the
cells a turn opens), each compared with a reader that never saw an earlier frame.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from minebot.vision import Reader, load_image
from minebot.vision.templates import Match

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "gnome-mines"
SETS = ["bgcolors-30x16-1290x760", "classic-16x16-810x656", "bgcolors-12x10-760x600-dense"]


def same(a, b) -> None:
    """Two readings agree on everything a play decision uses."""
    assert np.array_equal(a.board.cells, b.board.cells)
    assert a.board.state == b.board.state and a.board.mines == b.board.mines
    assert a.suspect == b.suspect and a.unsure == b.unsure and a.counter == b.counter
    # the matrix product behind the distances rounds a little differently for another number
    # of cells (float32): the same up to that, far from every threshold (2 and more)
    assert np.allclose(a.distance, b.distance, atol=0.1)
    assert a.board_px == b.board_px and np.array_equal(a.cell_rects, b.cell_rects)


def mixed(first: np.ndarray, second: np.ndarray, rects: np.ndarray, cells) -> np.ndarray:
    """``first`` with ``cells`` as ``second`` shows them (as if a turn had opened them)."""
    out = first.copy()
    for r, c in cells:
        x0, y0, x1, y1 = (int(v) for v in rects[r, c])
        out[y0:y1, x0:x1] = second[y0:y1, x0:x1]
    return out


@pytest.mark.parametrize("name", SETS)
def test_reading_again_gives_what_a_fresh_reader_reads(name, monkeypatch):
    frames = [load_image(FIXTURES / f"{name}-{stage}.png") for stage in ("fresh", "mid", "lost")]
    reader = Reader()
    first = reader.read(frames[1])
    rects = first.cell_rects
    rng = np.random.default_rng(5)
    rows, cols = first.board.shape
    sequence = [frames[0], frames[1], frames[1]]
    for k in (1, 3, 12, rows * cols // 2):
        picks = rng.choice(rows * cols, size=k, replace=False)
        sequence.append(mixed(frames[0], frames[1], rects, [divmod(int(i), cols) for i in picks]))
    sequence.append(frames[2])

    # count the cells matched: only the changed ones after the first frame of a size
    import minebot.vision.reader as reader_module
    matched: list[int] = []
    real = reader_module.match

    def counting(tset, patches, tile=None) -> Match:
        matched.append(len(patches))
        return real(tset, patches, tile)
    monkeypatch.setattr(reader_module, "match", counting)
    previous = frames[1]
    for frame in sequence:
        matched.clear()
        again = reader.read(frame)
        differ = sum(not np.array_equal(frame[y0:y1, x0:x1], previous[y0:y1, x0:x1])
                     for x0, y0, x1, y1 in (tuple(int(v) for v in rects[r, c])
                                            for r in range(rows) for c in range(cols)))
        assert sum(matched) <= differ, (sum(matched), differ)
        monkeypatch.setattr(reader_module, "match", real)
        same(again, Reader().read(frame))
        monkeypatch.setattr(reader_module, "match", counting)
        previous = frame
