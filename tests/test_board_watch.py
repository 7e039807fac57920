"""Without a window list (GNOME on Wayland, the whole-screen fallback) the board itself is
watched: the ring of pixels around it, and the shared guarded click loop. No display needed."""

from __future__ import annotations

import numpy as np
import pytest

from minebot.backends.pointer import BasePointer, UnsafeClickError
from minebot.backends.watch import RING_GAP, ring_box, ring_unchanged
from minebot.backends.x11.window import Rect

BOARD = (40, 30, 140, 90)   # left, top, right, bottom


def frame() -> np.ndarray:
    rng = np.random.default_rng(3)
    return rng.integers(0, 255, (160, 200, 3), dtype=np.uint8)


def test_changes_on_the_board_do_not_count_but_the_ring_does():
    before = frame()
    inside = before.copy()
    inside[50:60, 60:80] = 0               # cells opened
    assert ring_unchanged(before, inside, BOARD)
    assert not ring_unchanged(before, inside, BOARD, inside=True)
    gap = before.copy()
    gap[60, BOARD[2] + RING_GAP - 1] = 0   # an edge cell's border, painted past its rectangle
    assert ring_unchanged(before, gap, BOARD)
    for y, x in ((BOARD[1] - RING_GAP - 1, 90), (BOARD[3] + RING_GAP, 90),
                 (60, BOARD[0] - RING_GAP - 1), (60, BOARD[2] + RING_GAP + 2)):
        ring = before.copy()
        ring[y, x] = 255 - ring[y, x]
        assert not ring_unchanged(before, ring, BOARD), (y, x)


def test_a_moved_board_changes_the_ring():
    before = frame()
    moved = np.roll(before, 4, axis=1)    # the window moved 4 px right
    assert not ring_unchanged(before, moved, BOARD)
    assert not ring_unchanged(before, before[:-1], BOARD)   # another size: not the same


def test_ring_box_is_clipped_to_the_frame():
    assert ring_box((2, 3, 50, 40), (45, 60, 3)) == (0, 0, 50 + RING_GAP + 3, 45)


class Recorded(BasePointer):
    """A transport that writes down what would reach the display server."""

    def __init__(self) -> None:
        super().__init__()
        self.sent: list[tuple] = []

    def _motion(self, x, y):
        self.sent.append(("move", x, y))

    def _press_release(self, x, y, button):
        self.sent.append(("click", x, y, button))

    def _flush(self):
        self.sent.append(("flush",))


def test_a_batch_with_one_point_outside_clicks_nothing():
    p = Recorded()
    with pytest.raises(UnsafeClickError):
        p.click_many([(10, 10, "left"), (200, 10, "left")], (0, 0, 100, 100))
    assert p.sent == [] and p.log == []


def test_a_check_that_fails_stops_the_batch_and_the_parking():
    p = Recorded()
    made = p.click_many([(10, 10, "left"), (20, 20, "right"), (30, 30, "left")], (0, 0, 100, 100),
                        park=(95, 50, (0, 0, 100, 100)),
                        check=lambda i: (0, 0, 100, 100) if i < 2 else None)
    assert [(c.x, c.button) for c in made] == [(10, "left"), (20, "right")]
    clicks = [s for s in p.sent if s[0] == "click"]
    assert clicks == [("click", 10, 10, "left"), ("click", 20, 20, "right")]
    assert ("move", 95, 50) not in p.sent   # the window moved: no parking at the old place
    whole = Recorded()
    whole.click_many([(10, 10, "left")], (0, 0, 100, 100), park=(95, 50, (0, 0, 100, 100)))
    assert whole.sent == [("click", 10, 10, "left"), ("move", 95, 50), ("flush",)]


class Holding(Recorded):
    """A transport that holds the display server (X11's grab): the window's geometry is read
    under the hold, ``moves`` times it reads as moved first."""

    holds_window = True

    def __init__(self, geometry: Rect, moved: int = 0) -> None:
        super().__init__()
        self.geometry, self.moved = geometry, moved

    def _press_release_all_held(self, clicks, hold):
        self.sent.append(("hold",))
        try:
            if self.moved:
                self.moved -= 1
                return False
            if hold[1] != self.geometry:
                return False
            for x, y, button in clicks:
                self._press_release(x, y, button)
            return True
        finally:
            self.sent.append(("release",))


def test_a_held_batch_checks_the_geometry_once_and_logs_it_with_every_click():
    """Where the pointer holds the server, a batch with nothing to check between its clicks
    goes out under one hold, each click logged with the geometry verified under it; a window
    that moved since the batch was planned gets no click and no parking."""
    window = Rect(0, 0, 100, 100)
    p = Holding(window)
    points = [(10, 10, "left"), (20, 20, "right"), (30, 30, "left")]
    made = p.click_many(points, (0, 0, 100, 100), park=(95, 50, (0, 0, 100, 100)), hold=(7, window))
    assert [s[0] for s in p.sent] == ["hold", "click", "click", "click", "release", "move", "flush"]
    assert [(c.x, c.window) for c in made] == [(10, (0, 0, 100, 100)), (20, (0, 0, 100, 100)),
                                                (30, (0, 0, 100, 100))]
    assert p.log == made
    moved = Holding(window, moved=1)
    assert moved.click_many(points, (0, 0, 100, 100), park=(95, 50, (0, 0, 100, 100)),
                            hold=(7, window)) == []
    assert [s[0] for s in moved.sent] == ["hold", "release", "flush"] and moved.log == []
