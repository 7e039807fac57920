"""GNOME Mines 50's "Congratulations!" as a new run finds it: drawn inside the game's window over
the board (libadwaita's floating dialog), so that no board reads on the screen. Known by its
suggested button (``suggested_pill``), checked on a real frame of GNOME Mines 50 under headless
mutter 50 (native Wayland, the monitor's cast), and never seen on any other frame we keep."""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from minebot.game.ui import GameUI
from minebot.games.gnome_mines.ui import ADWAITA_ACCENTS_BGR, GnomeMinesUI, suggested_pill
from minebot.games.interfaces import ui_for

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
CONGRATULATIONS = FIXTURES / "gnome-mines" / "screens" / "bgcolors-gm50-8x8-810x656-congratulations"


def frame_with_dialog() -> np.ndarray:
    return cv2.imread(str(CONGRATULATIONS.with_suffix(".png")))


def test_the_congratulations_dialog_is_seen_by_its_new_game_button():
    truth = json.loads(CONGRATULATIONS.with_suffix(".json").read_text())
    frame = frame_with_dialog()
    assert suggested_pill(frame) == tuple(truth["pill"])
    assert GnomeMinesUI().shows_hiding_dialog(frame)


def test_without_the_button_there_is_no_dialog():
    frame = frame_with_dialog()
    x, y, w, h = suggested_pill(frame)
    frame[y:y + h, x:x + w] = frame[y - 8, x]   # the dialog's background over the button
    assert suggested_pill(frame) is None


@pytest.mark.parametrize("accent", range(len(ADWAITA_ACCENTS_BGR)))
def test_every_accent_colour(accent):
    """The user picks the accent (GNOME 47 and later): the button takes it."""
    frame = frame_with_dialog()
    blue = (frame == ADWAITA_ACCENTS_BGR[0].astype(np.uint8)).all(axis=2)
    frame[blue] = ADWAITA_ACCENTS_BGR[accent].astype(np.uint8)
    assert suggested_pill(frame) is not None


def test_no_other_kept_frame_shows_a_dialog():
    """Every screenshot kept of every game (boards fresh, mid-game, lost, won; the chooser, the
    pause, 40.1's confirmation window): none is taken for a dialog over the board, so a
    run never presses Escape because of one."""
    frames = [p for p in sorted(FIXTURES.rglob("*.png")) if p.stem != CONGRATULATIONS.name]
    assert len(frames) > 300
    seen = [p.name for p in frames if suggested_pill(cv2.imread(str(p))) is not None]
    assert seen == []


def test_only_gnome_mines_draws_such_a_dialog():
    frame = frame_with_dialog()
    for game in ("xdemineur", "kmines"):
        ui = ui_for(game)
        assert type(ui).shows_hiding_dialog is GameUI.shows_hiding_dialog
        assert not ui.shows_hiding_dialog(frame)
