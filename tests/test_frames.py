"""The frame source and the capture -> read loop, on scripted captures: no display needed.

A scripted capture hands out a fixed sequence of screens (the last one repeats), as a game
would draw them; what is checked is which of them the frame source and the loop hand on.
"""

from __future__ import annotations

import numpy as np
import pytest

from minebot.backends.capture import GrabbedCapture
from minebot.backends.frames import FrameSource, same_area
from minebot.backends.readings import read_once, readings
from minebot.backends.x11.window import Rect
from minebot.errors import MinebotError

SCREEN = Rect(0, 0, 60, 40)
REGION = Rect(10, 5, 40, 30)
BOARD = (10, 8, 30, 22)   # left, top, right, bottom in region pixels


class Scripted(GrabbedCapture):
    """A ``Capture`` whose screen is the next of ``screens`` at every grab (the last repeats)."""

    def __init__(self, screens: list[np.ndarray]) -> None:
        self.screens, self.grabs, self.closed = screens, 0, 0

    def grab(self, region: Rect) -> np.ndarray:
        screen = self.screens[min(self.grabs, len(self.screens) - 1)]
        self.grabs += 1
        return screen[region.top:region.bottom, region.left:region.right].copy()

    def close(self) -> None:
        self.closed += 1


def screen(seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, 255, (SCREEN.height, SCREEN.width, 3), np.uint8)


def changed(base: np.ndarray, box, value: int) -> np.ndarray:
    """``base`` with ``box`` (region pixels) painted ``value``."""
    out = base.copy()
    x0, y0, x1, y1 = box
    out[REGION.top + y0:REGION.top + y1, REGION.left + x0:REGION.left + x1] = value
    return out


def test_grab_is_the_region_and_follow_moves_it():
    base = screen()
    frames = FrameSource(Scripted([base]), REGION)
    assert np.array_equal(frames.grab(), base[5:35, 10:50])
    frames.follow(Rect(0, 0, 20, 10))
    assert np.array_equal(frames.grab(), base[0:10, 0:20])
    assert np.array_equal(frames.grab_box((2, 3, 6, 5)), base[3:5, 2:6])


def test_settled_waits_until_the_board_stops_changing_and_ignores_the_clock():
    base = screen()
    mid = changed(base, (12, 10, 16, 14), 0)     # a change painted in two pieces
    done = changed(mid, (16, 10, 20, 14), 0)
    clock = changed(done, (0, 0, 5, 4), 99)      # outside the board: must not delay it
    capture = Scripted([base, mid, done, clock])
    frame = FrameSource(capture, REGION).settled(BOARD, quiet=0.0)
    assert same_area(frame, done[5:35, 10:50], BOARD)
    assert capture.grabs == 4    # base, mid, done, then the clock frame agreeing on the board


def test_settled_after_a_click_waits_for_the_clicked_cell_and_not_a_hovered_look():
    base = screen()
    cell = (12, 10, 16, 14)
    hovered = changed(base, cell, 200)     # the cell's hover colour: not its result yet
    opened = changed(base, cell, 0)
    capture = Scripted([base, base, hovered, opened])
    frames = FrameSource(capture, REGION)
    before = base[5:35, 10:50]
    frame = frames.settled(BOARD, before=before, changed=[cell], hover_grace=10.0,
                           transient=lambda crop: bool((crop == 200).all()))
    assert (frame[10:14, 12:16] == 0).all()


def test_settled_gives_up_with_the_newest_frame():
    screens = [screen(i) for i in range(400)]   # never the same twice
    frame = FrameSource(Scripted(screens), REGION).settled(BOARD, quiet=0.0, timeout=0.05)
    assert frame.shape == (30, 40, 3)


def test_the_ring_tells_a_moved_board_from_moves_on_it():
    base = screen()
    frames = FrameSource(Scripted([base]), REGION)
    before = frames.grab()
    moves = changed(base, (14, 10, 18, 14), 0)
    frames.capture.screens = [moves]
    assert frames.ring_same(before, BOARD)
    assert not frames.ring_same(before, BOARD, inside=True)
    frames.capture.screens = [changed(base, (3, 3, 8, 27), 0)]   # a window over its left edge
    assert not frames.ring_same(before, BOARD)
    frames.capture.screens = [base]
    assert not frames.await_change(before, BOARD, 0.05)
    frames.capture.screens = [moves]
    assert frames.await_change(before, BOARD, 0.05)


@pytest.mark.parametrize("clocked", [False, True])
def test_the_ring_check_sees_each_side_and_grabs_only_the_ring(clocked):
    """One changed pixel in the ring, on any side, is seen, and one inside the board (the game's
    own cells) is not. The check before a click (it runs before every click on Wayland) grabs
    the ring's strips, never the whole board; where each grab waits for the compositor's next
    frame (``frame_clocked``: wlroots), the ring's box in one grab."""
    from minebot.backends.watch import RING_GAP
    base = screen()
    left, top, right, bottom = BOARD
    d = RING_GAP + 1   # inside the 3-pixel ring
    for x, y in ((left + 5, top - d), (left + 5, bottom + d - 1), (left - d, top + 5),
                 (right + d - 1, top + 5)):
        regions = []

        class Recording(Scripted):
            frame_clocked = clocked

            def grab(self, region):
                regions.append(region)
                return super().grab(region)
        frames = FrameSource(Recording([base]), REGION)
        before = frames.grab()
        regions.clear()
        assert frames.ring_same(before, BOARD)
        board_area = (right - left) * (bottom - top)
        if clocked:
            assert len(regions) == 1, regions
        else:
            assert regions and all(r.width * r.height < board_area for r in regions), regions
        frames.capture.screens = [changed(base, (left + 2, top + 2, left + 3, top + 3), 0)]
        assert frames.ring_same(before, BOARD)
        frames.capture.screens = [changed(base, (x, y, x + 1, y + 1), 0)]
        assert not frames.ring_same(before, BOARD), (x, y)


def test_close_is_idempotent():
    capture = Scripted([screen()])
    with FrameSource(capture, REGION) as frames:
        pass
    frames.close()
    assert capture.closed == 1


class CountingReader:
    """Reads a frame as the sum of its board's pixels; fails on an all-zero board."""

    board_px = BOARD

    def __init__(self) -> None:
        self.reads = 0

    def __call__(self, frame: np.ndarray):
        self.reads += 1
        x0, y0, x1, y1 = BOARD
        total = int(frame[y0:y1, x0:x1].sum())
        if total == 0:
            raise MinebotError("no board")
        return self

    def __repr__(self) -> str:
        return f"reads={self.reads}"


def test_readings_reads_only_when_the_board_changed_and_hands_on_errors():
    base = screen()
    clock = changed(base, (0, 0, 5, 4), 7)
    moved = changed(base, (12, 10, 16, 14), 1)
    gone = changed(base, BOARD, 0)
    capture = Scripted([base, clock, moved, gone, base])
    reader = CountingReader()
    stops = iter([True] * 5 + [False])
    seen = list(readings(FrameSource(capture, REGION), reader, settle=False, changes_only=True,
                         before=lambda n: next(stops)))
    assert [s.fresh for s in seen] == [True, False, True, True, True]
    assert reader.reads == 4                      # the clock tick was not read
    assert isinstance(seen[3].error, MinebotError) and seen[3].reading is None
    assert seen[4].error is None and seen[4].reading is reader


def test_read_once_raises_the_read_error():
    capture = Scripted([changed(screen(), BOARD, 0)])
    with pytest.raises(MinebotError, match="no board"):
        read_once(FrameSource(capture, REGION), CountingReader(), area=BOARD)
    capture.screens = [screen()]
    frame, reading = read_once(FrameSource(capture, REGION), CountingReader(), area=BOARD)
    assert frame.shape == (30, 40, 3) and reading.reads == 1


class Vanishing(Scripted):
    """A window that is gone at the second grab."""

    def grab(self, region: Rect) -> np.ndarray:
        if self.grabs == 1:
            self.grabs += 1
            raise MinebotError("the region lies outside the game window")
        return super().grab(region)


def test_a_failed_grab_is_handed_on_and_the_next_frame_read_afresh():
    capture = Vanishing([screen()])
    reader = CountingReader()
    stops = iter([True] * 3 + [False])
    seen = list(readings(FrameSource(capture, REGION), reader, settle=False, changes_only=True,
                         before=lambda n: next(stops)))
    assert seen[1].frame is None and "outside" in str(seen[1].error)
    assert [s.fresh for s in seen] == [True, True, True] and reader.reads == 2


def test_the_draw_wait_grabs_only_the_cells_still_waited_for():
    """After a click the wait looks at the clicked cells only (not the whole window, a grab
    that competes with the game for the CPU), and a cell that showed its change is not looked
    at again; the frame handed on is whole and shows every change."""
    base = screen()
    first, second = (2, 2, 6, 6), (30, 20, 34, 24)
    one = changed(base, first, 0)
    both = changed(one, second, 0)
    regions: list[Rect] = []

    class Recording(Scripted):
        def grab(self, region):
            regions.append(region)
            return super().grab(region)
    frames = FrameSource(Recording([base, one, one, both]), REGION)
    before = base[5:35, 10:50]
    frame = frames.settled(BOARD, before=before, changed=[first, second], quiet=0.0)
    assert (frame[2:6, 2:6] == 0).all() and (frame[20:24, 30:34] == 0).all()
    waits = regions[:4]
    assert all(r.width * r.height < REGION.width * REGION.height for r in waits), waits
    # the rectangle around both cells until the first showed, then the second cell alone
    assert waits[0] == waits[1] == Rect(REGION.left + 2, REGION.top + 2, 32, 22)
    assert waits[2] == waits[3] == Rect(REGION.left + 30, REGION.top + 20, 4, 4)
    assert regions[4:] == [REGION, REGION]   # then whole frames until two agree
