"""Learning from play, on real screenshots of finished games (their truth is proven by the
game's end): the looks a read was unsure of are learned into the user's folder, never into
the shipped set, and the next read of the same looks is sure and right."""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import pytest

from minebot.board import Board
from minebot.truth import true_numbers
from minebot.vision import Reader, load_image, numbers
from minebot.vision.learn import Learner
from minebot.vision.templates import REPO_TEMPLATES, learned_dir

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "gnome-mines"


@pytest.fixture(autouse=True)
def private_user_folder(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.delenv("MINEBOT_TEMPLATES", raising=False)


def _digest(folder: Path) -> str:
    h = hashlib.sha256()
    for f in sorted(folder.rglob("*")):
        if f.is_file():
            h.update(f.name.encode() + f.read_bytes())
    return h.hexdigest()


def test_doubtful_flags_of_a_won_game_are_learned():
    png = FIXTURES / "default-30x16-900x700-won-dejavu.png"
    frame, truth = load_image(png), Board.load(png.with_suffix(".board"))
    shipped = _digest(REPO_TEMPLATES / "gnome-mines-default")
    reader = Reader()
    first = reader.read(frame)
    assert first.suspect
    learner = Learner()
    learner.observe(frame, first)
    learned = learner.finish(truth)
    assert learned == {"gnome-mines-default": pytest.approx(learned["gnome-mines-default"])}
    assert learned["gnome-mines-default"] >= 1
    assert (learned_dir("gnome-mines-default") / "templates.json").is_file()
    reader.reload_templates()
    again = reader.read(frame)
    assert again.suspect == []
    assert again.board.rows_text() == truth.rows_text()
    assert _digest(REPO_TEMPLATES / "gnome-mines-default") == shipped


def test_unsure_numbers_are_learned_and_then_read_for_sure(monkeypatch):
    png = FIXTURES / "default-16x16-810x656-lost.png"
    frame, truth = load_image(png), Board.load(png.with_suffix(".board"))
    monkeypatch.setattr(numbers, "SURE_MARGIN", float("inf"))
    monkeypatch.setattr(numbers, "CANDIDATE_MARGIN", 0.3)
    reader = Reader()
    first = reader.read(frame)
    assert len(first.unsure) >= 5
    learner = Learner()
    learner.observe(frame, first)
    assert learner.finish(truth)["gnome-mines-default"] >= 1
    fresh = Reader()        # a new run finds what the last one learned
    again = fresh.read(frame)
    # only numbers next to a "?" stay unsure: the lost game does not prove those
    unproven = {tuple(map(int, rc)) for rc in np.argwhere(true_numbers(truth) < 0)}
    assert set(again.unsure) <= unproven
    assert len(again.unsure) < len(first.unsure) / 10
    assert again.board.rows_text() == truth.rows_text()


def test_a_game_not_over_teaches_nothing():
    png = FIXTURES / "default-16x16-810x656-mid.png"
    frame = load_image(png)
    reading = Reader().read(frame)
    learner = Learner()
    learner.observe(frame, reading)
    assert learner.finish(reading.board) == {}
    assert not learned_dir("gnome-mines-default").exists()
