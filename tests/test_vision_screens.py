"""Screens recorded by ``fixtures/record_screens.py``: hover, pressed, paused, chooser.

Hovered and pressed cells must read as what they are (covered) and be reported in
``Reading.suspect`` so the live loop re-captures; screens without a board must say which
screen they are (paused, chooser) through ``NoBoardError.state``.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from minebot.board import Board, GameState
from minebot.vision import NoBoardError, read_image

SCREENS = Path(__file__).resolve().parents[1] / "fixtures" / "gnome-mines" / "screens"
PNGS = sorted(SCREENS.glob("*.png"))
EXPECTED_STATE = {"hover": None, "pressed": None, "paused": GameState.PAUSED,
                  "chooser": GameState.CHOOSER, "new-game question over a paused board": GameState.PAUSED}


def test_all_kinds_recorded():
    phases = {json.loads(p.with_suffix(".json").read_text())["phase"] for p in PNGS}
    assert {"hover", "pressed", "paused", "chooser"} <= phases


@pytest.mark.parametrize("png", PNGS, ids=lambda p: p.stem)
def test_screen(png: Path):
    meta = json.loads(png.with_suffix(".json").read_text())
    state = EXPECTED_STATE[meta["phase"]]
    if state is not None:
        with pytest.raises(NoBoardError) as info:
            read_image(png)
        assert info.value.state == state
        return
    truth = Board.load(png.with_suffix(".board"))
    reading = read_image(png)
    assert reading.board.rows_text() == truth.rows_text()
    assert reading.board.state == GameState.PLAYING
    assert reading.suspect == [tuple(meta["pointer_cell"])]
