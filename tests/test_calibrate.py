"""``minebot calibrate``: new template sets from labelled screenshots or by answering prompts.

The new set must then read other real screenshots of the same theme exactly (truth boards),
which is the user's promise: from nothing to ``minebot read`` with this command.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

from minebot.board import Board
from minebot.cli import main
from minebot.errors import EXIT_BAD_INPUT
from minebot.vision import Reader, load_image

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "gnome-mines"


def fx(name: str) -> str:
    return str(FIXTURES / name)


def test_calibrate_from_examples_reads_another_screenshot(tmp_path):
    code = main(["calibrate", "learned", "--out", str(tmp_path), "--game", "gnome-mines",
                 "--example", fx("default-30x16-1290x760-mid.png"), fx("default-30x16-1290x760-mid.board"),
                 "--example", fx("default-30x16-1290x760-lost.png"), fx("default-30x16-1290x760-lost.board"),
                 "--example", fx("default-16x16-810x656-lost.png"), fx("default-16x16-810x656-lost.board")])
    assert code == 0
    meta = json.loads((tmp_path / "learned" / "templates.json").read_text())
    assert {c["label"] for c in meta["cells"]} >= set("-0123F?*XW")
    target = "default-16x16-810x656-mid"     # not among the examples
    truth = Board.load(fx(target + ".board"))
    reading = Reader(str(tmp_path / "learned")).read(load_image(fx(target + ".png")))
    assert (reading.board.cells == truth.cells).all()
    assert reading.board.state == truth.state
    assert reading.counter == (4, 40)       # counter glyphs are carried over


def answer_by_truth(truth: list[str], asked: list[str]):
    """A user at the labelling prompt, who looks at the saved picture and types its label
    (here: the cell's truth); every prompt is kept in ``asked``."""
    def answer(prompt: str) -> str:
        asked.append(prompt)
        m = re.search(r"row (\d+) col (\d+); picture: (\S+)", prompt)
        assert m and Path(m.group(3)).is_file()
        return truth[int(m.group(1))][int(m.group(2))]
    return answer


def test_calibrate_interactively_from_a_screenshot(tmp_path, monkeypatch, capsys):
    """The user answers each prompt by looking at the saved picture (here: the truth board)."""
    shot = "classic-8x8-590x460-lost"
    truth = Board.load(fx(shot + ".board")).rows_text()
    asked: list[str] = []
    monkeypatch.setattr("builtins.input", answer_by_truth(truth, asked))
    code = main(["calibrate", "mine", "--out", str(tmp_path), "--ask-all",
                 "--screenshot", fx(shot + ".png")])
    assert code == 0
    assert 5 <= len(asked) <= 30           # one question per look, not per cell
    reading = Reader(str(tmp_path / "mine")).read(load_image(fx(shot + ".png")))
    assert reading.board.rows_text() == truth


def test_calibrate_prelabels_known_looks(tmp_path, monkeypatch):
    asked: list[str] = []
    monkeypatch.setattr("builtins.input", lambda p: asked.append(p) or "s")
    assert main(["calibrate", "again", "--out", str(tmp_path),
                 "--screenshot", fx("bgcolors-8x8-590x460-mid.png")]) == 0
    assert asked == []                      # the shipped bgcolors set knows every look


def test_calibrate_errors(tmp_path, capsys):
    assert main(["calibrate", "x", "--out", str(tmp_path)]) == EXIT_BAD_INPUT
    assert "nothing to learn from" in capsys.readouterr().err
    code = main(["calibrate", "x", "--out", str(tmp_path),
                 "--example", fx("default-8x8-590x460-mid.png"), fx("default-16x16-810x656-mid.board")])
    assert code == EXIT_BAD_INPUT
    assert "8x8" in capsys.readouterr().err
    bad = tmp_path / "bad.board"
    bad.write_text("01Z\n")
    code = main(["calibrate", "y", "--out", str(tmp_path),
                 "--example", fx("default-8x8-590x460-mid.png"), str(bad)])
    assert code == EXIT_BAD_INPUT
    assert "bad.board" in capsys.readouterr().err


def test_calibrate_base_keeps_real_tile_sizes(tmp_path):
    """Templates of big tiles are stored shrunk; --base must carry their on-screen size over."""
    base = json.loads((Path(__file__).resolve().parents[1] / "templates" / "gnome-mines-default"
                       / "templates.json").read_text())
    assert max(c["size"] for c in base["cells"]) > 48      # the shipped set has shrunk tiles
    code = main(["calibrate", "grown", "--out", str(tmp_path), "--base", "gnome-mines-default",
                 "--example", fx("default-8x8-590x460-mid.png"), fx("default-8x8-590x460-mid.board")])
    assert code == 0
    meta = json.loads((tmp_path / "grown" / "templates.json").read_text())
    sizes = {c["size"] for c in meta["cells"]}
    assert {c["size"] for c in base["cells"]} <= sizes
