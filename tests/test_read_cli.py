"""``minebot read`` and the vision error paths: clear messages, the right exit codes."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import cv2
import numpy as np
import pytest

from minebot.board import Board
from minebot.cli import main
from minebot.errors import EXIT_BAD_INPUT, EXIT_NO_GAME, BadInputError, NoGameError
from minebot.vision import Reader, UnmatchedCellsError, load_image, read_image
from minebot.vision.templates import META

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "gnome-mines"
TEMPLATES = Path(__file__).resolve().parents[1] / "templates"
MID = FIXTURES / "classic-16x16-810x656-mid.png"


def test_read_prints_the_board(capsys):
    assert main(["read", str(MID)]) == 0
    out = capsys.readouterr().out
    assert Board.parse(out) == Board.load(MID.with_suffix(".board"))


def test_read_json(capsys):
    assert main(["read", str(MID), "--json", "--templates", "gnome-mines-classic"]) == 0
    data = json.loads(capsys.readouterr().out)
    truth = Board.load(MID.with_suffix(".board"))
    assert data["rows"] == 16 and data["cols"] == 16 and data["mines"] == 40
    assert data["state"] == "playing"
    assert data["board"] == truth.rows_text()
    left, top, right, bottom = data["board_px"]
    assert 0 <= left < right <= 810 and 0 <= top < bottom <= 656


def test_mines_override(capsys):
    assert main(["read", str(MID), "--json", "--mines", "41"]) == 0
    assert json.loads(capsys.readouterr().out)["mines"] == 41


def test_not_an_image(tmp_path, capsys):
    bad = tmp_path / "notes.png"
    bad.write_text("this is not a picture")
    assert main(["read", str(bad)]) == EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert "notes.png" in err and "not an image" in err
    with pytest.raises(BadInputError):
        load_image(tmp_path / "missing.png")


def test_image_without_a_board(tmp_path, capsys):
    blank = tmp_path / "desktop.png"
    img = np.full((600, 800, 3), (200, 120, 40), np.uint8)
    cv2.putText(img, "hello", (100, 300), cv2.FONT_HERSHEY_SIMPLEX, 3, (255, 255, 255), 5)
    cv2.imwrite(str(blank), img)
    assert main(["read", str(blank), "--json"]) == EXIT_NO_GAME
    captured = capsys.readouterr()
    assert json.loads(captured.out)["state"] == "none"
    assert "no Minesweeper board" in captured.err
    with pytest.raises(NoGameError):
        read_image(img)


def _subset(tmp_path: Path, keep: set[str]) -> Path:
    """A copy of the classic set holding only the templates whose label is in ``keep``."""
    src = TEMPLATES / "gnome-mines-classic"
    dst = tmp_path / "partial"
    shutil.copytree(src, dst)
    meta = json.loads((dst / META).read_text())
    meta["cells"] = [c for c in meta["cells"] if c["label"] in keep]
    meta["name"] = "partial"
    (dst / META).write_text(json.dumps(meta))
    return dst


def test_cells_matching_no_template_are_named_and_saved(tmp_path, capsys):
    partial = _subset(tmp_path, {"-", "0", "1", "2", "3", "4", "F", "*", "X", "W"})  # no "?"
    truth = Board.load(MID.with_suffix(".board"))
    questions = {tuple(map(int, rc)) for rc in np.argwhere(truth.cells == 11)}
    crops = tmp_path / "crops"
    with pytest.raises(UnmatchedCellsError) as info:
        Reader(str(partial), crops_dir=crops).read(load_image(MID))
    assert set(info.value.cells) == questions
    assert {p.name for p in crops.iterdir()} == {f"cell-{r}-{c}.png" for r, c in questions}
    code = main(["read", str(MID), "--templates", str(partial), "--crops", str(tmp_path / "c2")])
    assert code == EXIT_BAD_INPUT
    err = capsys.readouterr().err
    r, c = sorted(questions)[0]
    assert f"{r},{c}" in err and "match no template" in err


@pytest.mark.parametrize("problem", ["missing", "bad-json", "no-cells", "bad-label", "missing-png"])
def test_malformed_template_set(tmp_path, capsys, problem):
    folder = tmp_path / "broken"
    if problem != "missing":
        shutil.copytree(TEMPLATES / "gnome-mines-default", folder)
        meta = json.loads((folder / META).read_text())
        if problem == "bad-json":
            (folder / META).write_text("{not json")
        elif problem == "no-cells":
            (folder / META).write_text(json.dumps({"format": 1, "cells": []}))
        elif problem == "bad-label":
            meta["cells"][0]["label"] = "Z"
            (folder / META).write_text(json.dumps(meta))
        elif problem == "missing-png":
            (folder / meta["cells"][0]["file"]).unlink()
    code = main(["read", str(MID), "--templates", str(folder)])
    assert code == EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert "broken" in err and "Traceback" not in err
    code = main(["read", str(MID), "--templates", "no-such-set"])
    assert code == EXIT_BAD_INPUT
    assert "no-such-set" in capsys.readouterr().err


# -- which game ---------------------------------------------------------------------------------

CLONE_SHOTS = [
    (Path(__file__).resolve().parents[1] / "fixtures" / "xdemineur" / "xdemineur-16x16-40-mid.png", "xdemineur"),
    (Path(__file__).resolve().parents[1] / "fixtures" / "kmines" / "classic-30x16-1200x700-mid.png", "kmines"),
    (MID, "gnome-mines"),
]


@pytest.mark.parametrize("shot, game", CLONE_SHOTS, ids=[g for _, g in CLONE_SHOTS])
def test_read_tells_which_game(shot, game, capsys):
    assert main(["read", str(shot), "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["game"] == game
    assert data["board"] == Board.load(shot.with_suffix(".board")).rows_text()
    assert main(["read", str(shot)]) == 0
    assert f"({game})" in capsys.readouterr().err


def test_read_game_forced_to_another_game_does_not_read(capsys):
    shot = CLONE_SHOTS[0][0]
    assert main(["read", str(shot), "--game", "kmines"]) in (EXIT_BAD_INPUT, EXIT_NO_GAME)
    assert main(["read", str(shot), "--game", "xdemineur", "--quiet"]) == 0
    captured = capsys.readouterr()
    assert captured.err.count("\n") == 1 and "xdemineur" not in captured.err.split("\n", 1)[1]


def test_read_unknown_game_is_bad_input(capsys):
    assert main(["read", str(MID), "--game", "winmine"]) == EXIT_BAD_INPUT
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "winmine" in err and "kmines" in err


@pytest.mark.parametrize("kind", ["noise", "text", "flat"])
def test_read_an_unrelated_image_is_a_one_line_error(kind, tmp_path, capsys):
    rng = np.random.default_rng(5)
    image = np.full((480, 640, 3), (200, 180, 160), np.uint8)
    if kind == "noise":
        image = rng.integers(0, 256, image.shape, dtype=np.uint8)
    elif kind == "text":
        cv2.putText(image, "not a game", (60, 240), cv2.FONT_HERSHEY_SIMPLEX, 2, (0, 0, 0), 3)
    path = tmp_path / f"{kind}.png"
    cv2.imwrite(str(path), image)
    assert main(["read", str(path)]) == EXIT_NO_GAME
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and str(path) in err and "no Minesweeper board" in err
