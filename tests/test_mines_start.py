"""How a native-Wayland GNOME Mines is waited for at start (``mines.wait_for_game``), with no
display: the frames are real screenshots of the game, served in turn by a capture of them,
and read by the real reader.

A start that fails must be understandable afterwards: the message names the last frame, saved
as a PNG that holds exactly that frame, and says what the reader made of it.
"""

from __future__ import annotations

import re
import tempfile
import typing
from pathlib import Path

import cv2
import numpy as np
import pytest

from minebot.backends.capture import GrabbedCapture
from minebot.backends.frames import FrameSource
from minebot.backends.x11.window import Rect
from minebot.errors import DesktopError
from minebot.sandbox.mines import GnomeMines, wait_for_game
from minebot.vision import Reader

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "gnome-mines"
CHOOSER = FIXTURES / "screens" / "classic-810x656-chooser.png"
FRESH = FIXTURES / "bgcolors-16x16-810x656-fresh.png"
MID = FIXTURES / "bgcolors-16x16-810x656-mid.png"
XDEMINEUR = FIXTURES.parent / "xdemineur" / "xdemineur-12x10-15-fresh.png"


@pytest.fixture(autouse=True)
def private_temp(tmp_path, monkeypatch):
    """Frames saved on a failed start go to the temporary folder: this test's own."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))


class Pictures(GrabbedCapture):
    """A capture whose frames are the given screenshots, one per grab, the last one kept."""

    def __init__(self, *paths: Path) -> None:
        self.frames = [cv2.imread(str(p)) for p in paths]
        self.grabs = 0
        h, w = self.frames[0].shape[:2]
        self.rect = Rect(0, 0, w, h)

    def grab(self, region: Rect) -> np.ndarray:
        frame = self.frames[min(self.grabs, len(self.frames) - 1)]
        self.grabs += 1
        return frame[region.top:region.bottom, region.left:region.right].copy()

    def close(self) -> None:
        pass


def frames_of(*paths: Path) -> FrameSource:
    pictures = Pictures(*paths)
    return FrameSource(pictures, pictures.rect)


def saved_frame(message: str) -> np.ndarray:
    match = re.search(r"the last frame \((\S+\.png)\)", message)
    assert match, message
    return cv2.imread(match.group(1))


def test_a_board_that_stays_the_same_is_the_game():
    frames = frames_of(FRESH)
    wait_for_game(frames, Reader().read, chooser=False, timeout=5, every=0.01)
    assert frames.capture.grabs == 2


def test_the_chooser_counts_only_when_no_level_was_asked_for():
    wait_for_game(frames_of(CHOOSER), Reader().read, chooser=True, timeout=5, every=0.01)
    with pytest.raises(DesktopError) as failed:
        wait_for_game(frames_of(CHOOSER), Reader().read, chooser=False, timeout=0.3, every=0.01,
                      log=lambda: "Gtk-WARNING: something")
    message = str(failed.value)
    assert message.endswith("the game's log: Gtk-WARNING: something")
    assert "no GNOME Mines board on the screen" in message and "chooser" in message
    assert np.array_equal(saved_frame(message), cv2.imread(str(CHOOSER)))


def test_a_screen_that_never_settles_names_its_last_frame():
    """The board is there but every look differs (here two real boards in turn): the message
    says so and the PNG is the last frame looked at."""
    pictures = Pictures(*[FRESH, MID] * 200)
    with pytest.raises(DesktopError) as failed:
        wait_for_game(FrameSource(pictures, pictures.rect), Reader().read, chooser=False,
                      timeout=0.3, every=0.01)
    message = str(failed.value)
    assert "still changing" in message
    last = pictures.frames[pictures.grabs - 1]
    assert np.array_equal(saved_frame(message), last)


def on_screen_of(path: Path, like: Path) -> Path:
    """``path``'s picture in the top-left corner of a screen the size of ``like``'s, saved."""
    screen = np.full_like(cv2.imread(str(like)), 90)
    shot = cv2.imread(str(path))
    screen[:shot.shape[0], :shot.shape[1]] = shot
    out = Path(tempfile.mkdtemp(prefix="minebot-test-")) / path.name
    cv2.imwrite(str(out), screen)
    return out


def test_a_look_read_as_another_game_does_not_hide_the_board():
    """The flaky start on native Wayland: an early look read as another game (here a real
    xdemineur screenshot) made a generic reader keep to that game, and the GNOME Mines board
    that then showed was "no board" until the timeout. A generic reader now tries the other
    games on a frame its own cannot read, so it finds the board as the game's own reader does."""
    other = on_screen_of(XDEMINEUR, FRESH)
    assert Reader().read(cv2.imread(str(other))).game == "xdemineur"
    for reader in (Reader(), Reader(game=GnomeMines.profile)):
        frames = frames_of(other, FRESH)
        wait_for_game(frames, reader.read, chooser=False, timeout=5, every=0.01)
        assert frames.capture.grabs == 3


def test_a_game_that_exits_stops_the_wait_at_once():
    def gone() -> None:
        raise DesktopError("gnome-mines exited at start (code 1)")
    frames = frames_of(FRESH)
    with pytest.raises(DesktopError, match="exited at start"):
        wait_for_game(frames, Reader().read, chooser=False, timeout=5, alive=gone)
    assert frames.capture.grabs == 0


def test_the_display_annotation_resolves():
    """``GnomeMines(display)`` takes an X display name, an Xvfb or a session Desktop: its
    annotation names ``Desktop``, which must resolve for anything that evaluates it
    (``typing.get_type_hints``, documentation tools)."""
    from minebot.sandbox.session import Desktop
    hints = typing.get_type_hints(GnomeMines.__init__)
    assert Desktop in typing.get_args(hints["display"])
