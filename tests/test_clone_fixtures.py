"""Screenshots of other Minesweeper clones (fixtures/xdemineur, fixtures/kmines,
fixtures/sgt-mines) and their truth.

Recorded by tools/record_clone_fixtures.py; no game is needed here. Every fixture is a PNG of
the game window, a truth board in minebot's text format and metadata saying what the picture
is and how its truth was proven. The truth must obey the rules of the game (``logic_problems``)
and fit the picture's geometry.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from test_vision_truth import logic_problems

from minebot.board import CELL_CHARS, Board, GameState

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
CLONES = ("xdemineur", "kmines", "sgt-mines")
REQUIRED = ("game", "theme", "window", "rows", "cols", "mines", "state", "phase",
            "board_rect_in_image", "first_cell_origin", "cell_pitch", "truth", "crop")


def fixtures() -> list[Path]:
    return sorted(p for clone in CLONES for p in (FIXTURES / clone).glob("*.board"))


def fixture_problems(board_path: Path) -> list[str]:
    """Everything wrong with one fixture (its .board, .json and .png), as sentences."""
    problems: list[str] = []
    png, meta_path = board_path.with_suffix(".png"), board_path.with_suffix(".json")
    for p in (png, meta_path):
        if not p.exists():
            problems.append(f"{p.name} is missing")
    if problems:
        return problems
    try:
        board = Board.load(board_path)
    except Exception as exc:  # noqa: BLE001 - a broken file is a finding, not a crash
        return [f"{board_path.name}: {exc}"]
    meta = json.loads(meta_path.read_text())
    problems += [f"metadata lacks {key!r}" for key in REQUIRED if key not in meta]
    if problems:
        return problems
    if board.header().get("state") != meta["state"] or board.state not in (
            GameState.PLAYING, GameState.LOST, GameState.WON):
        problems.append(f"board state {board.state} vs metadata {meta['state']!r}")
    if (board.rows, board.cols) != (meta["rows"], meta["cols"]):
        problems.append(f"board {board.rows}x{board.cols} vs metadata {meta['rows']}x{meta['cols']}")
    if board.mines != meta["mines"]:
        problems.append(f"board header mines {board.mines} vs metadata {meta['mines']}")
    # Simon Tatham's Mines shows only the mine hit at a loss ("dead"): its truth is the same
    # game's frame after Solve, checked by the test of the earlier frames below
    problems += logic_problems(board, meta["mines"], meta.get("mines_shown", "all") == "all")
    # geometry: the board rectangle is rows x cols cells of the pitch, inside the image
    import cv2
    img = cv2.imread(str(png))
    if img is None:
        return problems + [f"{png.name} is not a readable image"]
    h, w = img.shape[:2]
    if [w, h] != list(meta["window"]):
        problems.append(f"image {w}x{h} but window {meta['window']}")
    x0, y0, x1, y1 = meta["board_rect_in_image"]
    p = meta["cell_pitch"]
    if [x0, y0] != list(meta["first_cell_origin"]) or (x1 - x0, y1 - y0) != (board.cols * p, board.rows * p):
        problems.append(f"board rectangle {meta['board_rect_in_image']} is not {board.cols}x{board.rows} "
                        f"cells of {p} px from {meta['first_cell_origin']}")
    if not (0 <= x0 < x1 <= w and 0 <= y0 < y1 <= h):
        problems.append(f"board rectangle {meta['board_rect_in_image']} outside the {w}x{h} image")
        return problems
    return problems + look_problems(board, img, meta)


def look_problems(board: Board, img: np.ndarray, meta: dict) -> list[str]:
    """The truth must agree with the pixels: every cell's most similar other cell (mean absolute
    difference of the inner crops) carries the same truth code. Nearest look rather than exact
    equality: KMines draws tiles partly transparent over a background gradient. Catches a truth
    board that obeys the rules but is not this picture's."""
    x0, y0 = meta["first_cell_origin"]
    p = meta["cell_pitch"]
    k = max(1, p // 8)
    crops, codes = [], []
    for r in range(board.rows):
        for c in range(board.cols):
            crops.append(img[y0 + r * p + k: y0 + (r + 1) * p - k, x0 + c * p + k: x0 + (c + 1) * p - k]
                         .astype(np.float32).ravel())
            codes.append(int(board.cells[r, c]))
    x, codes_ = np.stack(crops), np.array(codes)
    problems = []
    for i in range(len(codes)):
        if (codes_ == codes_[i]).sum() < 2:
            continue
        d = np.abs(x - x[i]).mean(axis=1)
        d[i] = np.inf
        j = int(np.argmin(d))
        if codes_[j] != codes_[i]:
            problems.append(f"{divmod(i, board.cols)}: truth {CELL_CHARS[codes_[i]]} but it looks most like "
                            f"{divmod(j, board.cols)} ({CELL_CHARS[codes_[j]]})")
    return problems


def test_there_are_clone_fixtures():
    found = {clone: len(list((FIXTURES / clone).glob("*.board"))) for clone in CLONES}
    assert all(found.values()), found
    assert sum(found.values()) >= 15, found


@pytest.mark.parametrize("board_path", fixtures(), ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_clone_fixture(board_path):
    assert fixture_problems(board_path) == []


def test_each_lost_game_shows_its_mines_and_the_earlier_frames_agree():
    """A game's fresh/mid frames are proven by its lost frame: revealed cells never change."""
    games: dict[str, dict[str, Board]] = {}
    for path in fixtures():
        stem, _, phase = path.stem.rpartition("-")
        games.setdefault(f"{path.parent.name}/{stem}", {})[phase] = Board.load(path)
    for name, phases in games.items():
        lost = phases.get("lost")
        if lost is None:
            continue
        for phase, b in phases.items():
            if phase == "lost":
                continue
            num = b.cells <= 8
            assert (b.cells[num] == lost.cells[num]).all(), f"{name}: {phase} disagrees with lost"


# -- the check itself must be able to fail -----------------------------------------------------

def _copy(tmp_path: Path, src: Path, board_text: str | None = None, meta_change: dict | None = None) -> Path:
    dst = tmp_path / src.name
    dst.write_text(board_text if board_text is not None else src.read_text())
    dst.with_suffix(".png").write_bytes(src.with_suffix(".png").read_bytes())
    meta = json.loads(src.with_suffix(".json").read_text())
    for k, v in (meta_change or {}).items():
        if v is None:
            meta.pop(k, None)
        else:
            meta[k] = v
    dst.with_suffix(".json").write_text(json.dumps(meta))
    return dst


def _a_lost_fixture() -> Path:
    lost = [p for p in fixtures() if p.stem.endswith("-lost")]
    if not lost:
        pytest.skip("no lost clone fixture")
    return lost[0]


def test_a_broken_truth_board_fails(tmp_path):
    src = _a_lost_fixture()
    board = Board.load(src)
    c = board.cells.copy()
    r, col = map(int, np.argwhere(c <= 7)[0])            # bump one revealed number
    c[r, col] += 1
    broken = board.replace(cells=c)
    dst = _copy(tmp_path, src, broken.to_text())
    assert any(f"{r},{col}" in p for p in fixture_problems(dst))
    assert fixture_problems(_copy(tmp_path, src)) == []


def test_a_truth_that_obeys_the_rules_but_not_the_picture_fails(tmp_path):
    """Swap the truth of a 1 and a 2: the board may still look plausible, the pixels do not
    agree (the relabelled 1 looks most like the other 1s)."""
    src = _a_lost_fixture()
    board = Board.load(src)
    c = board.cells.copy()
    ones = np.argwhere(c == 1)
    twos = np.argwhere(c == 2)
    if not len(ones) >= 2 or not len(twos) >= 2:
        pytest.skip("fixture lacks repeated 1s and 2s")
    c[tuple(ones[0])], c[tuple(twos[0])] = 2, 1          # swap one 1 with one 2
    dst = _copy(tmp_path, src, board.replace(cells=c).to_text())
    assert any("looks most like" in p for p in fixture_problems(dst))


def test_missing_metadata_and_wrong_geometry_fail(tmp_path):
    src = _a_lost_fixture()
    assert any("cell_pitch" in p for p in fixture_problems(_copy(tmp_path, src, meta_change={"cell_pitch": None})))
    meta = json.loads(src.with_suffix(".json").read_text())
    assert fixture_problems(_copy(tmp_path, src, meta_change={"cell_pitch": meta["cell_pitch"] + 1}))
    assert fixture_problems(_copy(tmp_path, src, meta_change={"mines": meta["mines"] + 1}))
