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

from minebot.backends.capture import GrabbedCapture
from minebot.backends.x11.window import Rect
from minebot.errors import EXIT_NO_GAME, NoGameError
from minebot.game.ui import GameUI
from minebot.game.window_guard import WindowGuard
from minebot.games.gnome_mines.ui import ADWAITA_ACCENTS_BGR, GnomeMinesUI, suggested_pill
from minebot.games.interfaces import ui_for

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
DIALOGS = FIXTURES / "gnome-mines" / "dialogs"
CONGRATULATIONS = DIALOGS / "bgcolors-gm50-8x8-810x656-congratulations"
EVERY_CONGRATULATIONS = sorted(p.with_suffix("") for p in DIALOGS.glob("*-congratulations.png"))


def frame_with_dialog(path: Path = CONGRATULATIONS) -> np.ndarray:
    return cv2.imread(str(path.with_suffix(".png")))


@pytest.mark.parametrize("path", EVERY_CONGRATULATIONS, ids=lambda p: p.name)
def test_the_congratulations_dialog_is_seen_by_its_suggested_button(path):
    """GNOME Mines 50's "New Game" pill, and 48's "Done" box in the scores dialog's header."""
    truth = json.loads(path.with_suffix(".json").read_text())
    frame = frame_with_dialog(path)
    assert suggested_pill(frame) == tuple(truth["pill"])
    assert GnomeMinesUI().shows_hiding_dialog(frame)


@pytest.mark.parametrize("path", EVERY_CONGRATULATIONS, ids=lambda p: p.name)
def test_without_the_button_there_is_no_dialog(path):
    frame = frame_with_dialog(path)
    x, y, w, h = suggested_pill(frame)
    frame[y:y + h, x:x + w] = frame[y - 8, x]   # the dialog's background over the button
    assert suggested_pill(frame) is None


@pytest.mark.parametrize("path", EVERY_CONGRATULATIONS, ids=lambda p: p.name)
@pytest.mark.parametrize("accent", range(len(ADWAITA_ACCENTS_BGR)))
def test_every_accent_colour(accent, path):
    """The user picks the accent (GNOME 47 and later): the button takes it."""
    frame = frame_with_dialog(path)
    blue = (frame == ADWAITA_ACCENTS_BGR[0].astype(np.uint8)).all(axis=2)
    frame[blue] = ADWAITA_ACCENTS_BGR[accent].astype(np.uint8)
    assert suggested_pill(frame) is not None


def test_no_other_kept_frame_shows_a_dialog():
    """Every screenshot kept of every game (boards fresh, mid-game, lost, won; the chooser, the
    pause, 40.1's confirmation window): none is taken for a dialog over the board, so a
    run never presses Escape because of one."""
    frames = [p for p in sorted(FIXTURES.rglob("*.png")) if p.with_suffix("") not in EVERY_CONGRATULATIONS]
    assert len(frames) > 300
    seen = [p.name for p in frames if suggested_pill(cv2.imread(str(p))) is not None]
    assert seen == []


def test_only_gnome_mines_draws_such_a_dialog():
    frame = frame_with_dialog()
    for game in ("xdemineur", "kmines"):
        ui = ui_for(game)
        assert type(ui).shows_hiding_dialog is GameUI.shows_hiding_dialog
        assert not ui.shows_hiding_dialog(frame)


class DialogScreen(GrabbedCapture):
    """The whole screen of a desktop without window list: ``before`` until ``keys`` closing it
    were pressed, then ``after``."""

    def __init__(self, desk: "Desk") -> None:
        self.desk = desk
        self.rect = Rect(0, 0, desk.before.shape[1], desk.before.shape[0])

    def grab(self, region: Rect) -> np.ndarray:
        shown = self.desk.after if "Escape" in self.desk.keys else self.desk.before
        return shown[region.top:region.bottom, region.left:region.right].copy()

    def close(self) -> None:
        pass


class Desk:
    """A desktop backend as native Wayland under mutter is to the guard: no X server, no
    window list, the whole screen's frames, keys to the focused window."""

    x11 = None
    window_list = None
    name = "scripted"
    display = "scripted"

    def __init__(self, before: np.ndarray, after: np.ndarray) -> None:
        self.before, self.after, self.keys = before, after, []

    def screen(self) -> DialogScreen:
        return DialogScreen(self)

    def key(self, combo: str) -> None:
        self.keys.append(combo)


def on_canvas(frame: np.ndarray, shape=(800, 1000)) -> np.ndarray:
    canvas = np.full((*shape, 3), (74, 46, 17), np.uint8)   # the desktop's background
    canvas[:frame.shape[0], :frame.shape[1]] = frame[:shape[0], :shape[1]]
    return canvas


BOARD_50 = FIXTURES / "gnome-mines" / "bgcolors-gm50-16x16-810x656-fresh.png"


def test_a_new_run_closes_the_dialog_with_escape_and_finds_the_board():
    """The guard of a new run (``WindowGuard.locate`` on the whole screen): the dialog is seen,
    Escape pressed, and the board that shows then is the game's; no click."""
    from minebot.vision import Reader
    desk = Desk(on_canvas(frame_with_dialog()), on_canvas(cv2.imread(str(BOARD_50))))
    guard = WindowGuard(desk, GnomeMinesUI(), settle_timeout=0.5)
    reader = Reader()
    guard.locate(reader.read)
    assert desk.keys == ["Escape"]
    assert reader.read(guard.frames.grab()).board.shape == (16, 16)


def test_a_dialog_that_stays_stops_the_run_with_its_frame_saved(tmp_path):
    from minebot.vision import Reader
    with_dialog = on_canvas(frame_with_dialog())
    desk = Desk(with_dialog, with_dialog)
    guard = WindowGuard(desk, GnomeMinesUI(), settle_timeout=0.5, frames_dir=tmp_path)
    with pytest.raises(NoGameError) as stop:
        guard.locate(Reader().read)
    assert desk.keys == ["Escape"]
    message = str(stop.value)
    assert "\n" not in message and "dialog hides its board" in message
    assert stop.value.exit_code == EXIT_NO_GAME
    assert stop.value.frame is not None and np.array_equal(cv2.imread(str(stop.value.frame)), with_dialog)


def test_no_dialog_no_key():
    """A screen with neither board nor dialog: the usual stop, and no key was pressed."""
    from minebot.vision import Reader
    empty = on_canvas(np.zeros((1, 1, 3), np.uint8))
    desk = Desk(empty, empty)
    with pytest.raises(NoGameError, match="no board on the whole screen"):
        WindowGuard(desk, GnomeMinesUI(), settle_timeout=0.5).locate(Reader().read)
    assert desk.keys == []


def test_a_closed_dialog_with_no_board_after_it_says_so(tmp_path):
    """Escape closed the dialog but no board showed (the level chooser, say): the stop says the
    dialog went and no board came, not that the dialog stayed."""
    from minebot.vision import Reader
    chooser = on_canvas(cv2.imread(str(FIXTURES / "gnome-mines" / "screens" / "classic-810x656-chooser.png")))
    desk = Desk(on_canvas(frame_with_dialog()), chooser)
    guard = WindowGuard(desk, GnomeMinesUI(), settle_timeout=0.5, frames_dir=tmp_path)
    with pytest.raises(NoGameError, match="was closed, and then no board showed") as stop:
        guard.locate(Reader().read)
    assert "\n" not in str(stop.value)
    assert np.array_equal(cv2.imread(str(stop.value.frame)), chooser)
