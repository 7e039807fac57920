"""`minebot calibrate` teaches any clone's look. KMines'
"Gardens of Danger" (green) theme, which minebot ships no set for and whose cells draw no lines
between them, is taught from ONE screenshot and its board file, and then other screenshots of it
(another game, and another window size) are read exactly."""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest

from minebot.board import Board
from minebot.cli import main
from minebot.errors import MinebotError
from minebot.vision import Reader
from minebot.vision.templates import META

KMINES = Path(__file__).resolve().parents[1] / "fixtures" / "kmines"
XDEMINEUR = Path(__file__).resolve().parents[1] / "fixtures" / "xdemineur"
TEACH = KMINES / "green-9x9-640x520-lost"
UNSEEN = [KMINES / "green-9x9-640x520-mid", KMINES / "green-9x9-800x600-mid"]


@pytest.fixture(scope="module")
def green(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("sets")
    code = main(["calibrate", "green", "--game", "kmines", "--out", str(out),
                 "--example", str(TEACH.with_suffix(".png")), str(TEACH.with_suffix(".board"))])
    assert code == 0
    return out / "green"


def _image(stem: Path):
    return cv2.imread(str(stem.with_suffix(".png")))


def test_green_is_not_read_before_it_is_taught():
    with pytest.raises(MinebotError):
        Reader(game="kmines").read(_image(UNSEEN[0]))


def test_calibrate_writes_a_kmines_set_found_by_its_looks(green):
    import json
    meta = json.loads((green / META).read_text())
    assert meta["game"] == "kmines" and meta["lattice"] == "looks"
    assert {c["label"] for c in meta["cells"]} >= set("-012?F*XW")


@pytest.mark.parametrize("stem", UNSEEN, ids=[s.name for s in UNSEEN])
def test_taught_green_reads_other_screenshots_exactly(green, stem):
    reading = Reader(str(green)).read(_image(stem))
    assert reading.board.rows_text() == Board.load(stem.with_suffix(".board")).rows_text()
    assert reading.game == "kmines"


def test_taught_set_is_found_among_the_installed_ones(green, monkeypatch):
    monkeypatch.setenv("MINEBOT_TEMPLATES", str(green.parent))
    reading = Reader().read(_image(UNSEEN[0]))
    assert reading.templates == "green" and reading.game == "kmines"
    assert reading.board.rows_text() == Board.load(UNSEEN[0].with_suffix(".board")).rows_text()


def test_calibrate_xdemineur_from_one_screenshot_reads_another_size(tmp_path):
    """A look with lines between its cells is taught the same way (edge lattice, no search)."""
    teach = XDEMINEUR / "xdemineur-30x16-100-lost"
    assert main(["calibrate", "xd", "--game", "xdemineur", "--out", str(tmp_path), "--example",
                 str(teach.with_suffix(".png")), str(teach.with_suffix(".board"))]) == 0
    other = XDEMINEUR / "xdemineur-16x16-40-mid"
    reading = Reader(str(tmp_path / "xd")).read(_image(other))
    assert reading.board.rows_text() == Board.load(other.with_suffix(".board")).rows_text()
    assert reading.game == "xdemineur"


def test_calibrate_refuses_a_board_file_of_another_size(tmp_path, capsys):
    teach = XDEMINEUR / "xdemineur-30x16-100-lost"
    wrong = XDEMINEUR / "xdemineur-12x10-15-lost.board"
    code = main(["calibrate", "xd", "--game", "xdemineur", "--out", str(tmp_path), "--example",
                 str(teach.with_suffix(".png")), str(wrong)])
    assert code == 2
    assert "30x16" in capsys.readouterr().err


def test_calibrate_a_clone_interactively(tmp_path, monkeypatch):
    """`calibrate --screenshot` on a KMines Classic screenshot, answering each look's label as
    a user would from the enlarged crop: one question per look, then the screenshot and another
    size of the same look read exactly."""
    from test_calibrate import answer_by_truth
    shot = KMINES / "classic-9x9-640x480-lost"
    truth = Board.load(shot.with_suffix(".board")).rows_text()
    asked: list[str] = []
    monkeypatch.setattr("builtins.input", answer_by_truth(truth, asked))
    assert main(["calibrate", "km", "--game", "kmines", "--out", str(tmp_path), "--ask-all",
                 "--screenshot", str(shot.with_suffix(".png"))]) == 0
    assert 5 <= len(asked) <= 20
    reading = Reader(str(tmp_path / "km")).read(_image(shot))
    assert reading.board.rows_text() == truth and reading.game == "kmines"


def test_looks_learned_from_a_finished_clone_game(tmp_path, monkeypatch):
    """The learning from finished games works for a clone's set: a cell the reader was unsure
    of, proven by the loss, is added to the set's learned looks and loaded with it."""
    from minebot.vision.learn import Learner
    from minebot.vision.templates import TemplateSet, learned_dir
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    shot = XDEMINEUR / "xdemineur-16x16-40-lost"
    frame = _image(shot)
    reading = Reader(game="xdemineur").read(frame)
    truth = Board.load(shot.with_suffix(".board"))
    number = next((r, c) for r in range(truth.rows) for c in range(truth.cols)
                  if 1 <= truth.cells[r, c] <= 8)
    reading.unsure[number] = (int(truth.cells[number]), 8)
    learner = Learner()
    learner.observe(frame, reading)
    assert learner.finish(truth) == {"xdemineur": 1}
    assert (learned_dir("xdemineur") / META).is_file()
    tset = TemplateSet.load("xdemineur")
    assert tset.learned is not None and tset.learned.sum() == 1
