"""Clicks clamped to a rectangle, logged, and fast.

``BasePointer`` holds what every input route shares (the guard, the log, Ctrl-C held back
while a button is down); a subclass per display server says how a motion and a click reach
it. There is no pause between clicks: the live game waits by watching the screen. Button down
and up are sent explicitly: GNOME Mines marks on button down and reveals on button up over
the same cell.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Callable, Sequence

from ..errors import MinebotError, OutputError

if TYPE_CHECKING:   # pragma: no cover
    from .x11.window import Rect


class Button(StrEnum):
    """A mouse button. A ``StrEnum``, so that the click log keeps its JSON (``"left"``)."""

    LEFT = "left"
    MIDDLE = "middle"
    RIGHT = "right"


def bounds_of(bounds) -> tuple[int, int, int, int]:
    """A click's bounds (left, top, right, bottom) as plain ints, for the log."""
    left, top, right, bottom = (int(v) for v in bounds)
    return left, top, right, bottom


class UnsafeClickError(MinebotError):
    """A click was asked for outside the allowed rectangle; it was not made."""


@dataclass(frozen=True)
class Click:
    """One click as made: screen point, button, and when."""

    x: int
    y: int
    button: Button
    t: float
    bounds: tuple[int, int, int, int]  # left, top, right, bottom (exclusive) allowed then
    window: tuple[int, int, int, int] | None = None  # the game window's geometry checked just before

    def to_json(self) -> dict:
        out = {"x": self.x, "y": self.y, "button": self.button, "t": round(self.t, 4),
               "bounds": list(self.bounds)}
        if self.window is not None:
            out["window"] = list(self.window)
        return out


class BasePointer:
    """The guarded, logged clicking every input route shares; a subclass only says how a
    motion and a click reach the display server (``_motion``, ``_press_release``, ``_flush``,
    ``_fail_safe``).

    ``click(x, y, button, bounds)`` never leaves ``bounds``. ``log`` holds every click made
    (and ``log_path``, when given, gets one JSON line per click, flushed), so a test or a user
    can check afterwards that all fell inside the board.
    """

    holds_window = False
    """Whether ``click_many``'s ``hold`` checks the window's geometry in the same step of the
    display server as each click (``_press_release_held``): then a separate check of that
    geometry before the click adds nothing (X11 holds it under a server grab)."""

    def __init__(self, log_path: str | None = None) -> None:
        self.log: list[Click] = []
        self._log_path = log_path
        self._log_file = open(log_path, "a", encoding="utf-8") if log_path else None

    # -- the transport (one per display server) ---------------------------------------------
    def _fail_safe(self) -> None:
        """Raise ``Interrupted`` when the user asked to stop through the pointer itself."""

    def _motion(self, x: int, y: int) -> None:
        raise NotImplementedError

    def _press_release(self, x: int, y: int, button: Button) -> None:
        raise NotImplementedError

    def _flush(self) -> None:
        """Until everything sent so far has reached the display server."""

    def _press_release_held(self, x: int, y: int, button: Button,
                            hold: tuple[int, Rect]) -> bool:
        """Press and release only if window ``hold[0]`` still has the geometry ``hold[1]``
        (a ``backends.x11.window.Rect``), checked and clicked as one step of the display server;
        False (nothing sent) if it moved. Where the transport cannot hold the server (no
        window to ask), the caller's own check before the click is all there is."""
        self._press_release(x, y, button)
        return True

    def _press_release_all_held(self, clicks: Sequence[tuple[int, int, Button]],
                                hold: tuple[int, Rect]) -> bool:
        """Every click of ``clicks``, all only if window ``hold[0]`` still has the geometry
        ``hold[1]``, checked and clicked as one step of the display server; False (nothing
        sent) if it moved. Here: click by click (a transport that holds the server overrides
        it with one hold for the batch)."""
        for x, y, button in clicks:
            if not self._press_release_held(x, y, button, hold):
                return False
        return True

    # -- guarded input ----------------------------------------------------------------------
    def _guard(self, x: float, y: float, bounds: tuple[int, int, int, int]) -> tuple[int, int]:
        left, top, right, bottom = bounds
        xi, yi = int(round(x)), int(round(y))
        if not (left <= xi < right and top <= yi < bottom):
            raise UnsafeClickError(f"refused a click at ({xi}, {yi}): outside the board "
                                   f"{left},{top}-{right},{bottom}")
        return xi, yi

    def move(self, x: float, y: float, bounds: tuple[int, int, int, int]) -> None:
        """Move the pointer (no click); also guarded, so parking never strays."""
        xi, yi = self._guard(x, y, bounds)
        self._fail_safe()
        self._motion(xi, yi)
        self._flush()

    def click(self, x: float, y: float, button: Button, bounds: tuple[int, int, int, int]) -> Click:
        """Press and release ``button`` at (x, y), which must lie inside ``bounds``."""
        xi, yi = self._guard(x, y, bounds)
        click = Click(xi, yi, button, time.time(), bounds_of(bounds))
        self.log.append(click)
        self._write_log([click])
        self._fail_safe()
        self._press_release(xi, yi, button)
        self._flush()
        return click

    def click_many(self, points: list[tuple[float, float, Button]],
                   bounds: tuple[int, int, int, int],
                   park: tuple[float, float, tuple[int, int, int, int]] | None = None,
                   check: Callable[[int], tuple[int, int, int, int] | None] | None = None,
                   hold: tuple[int, Rect] | None = None,
                   ) -> list[Click]:
        """Click several points in order; returns the clicks made.

        Every point is checked against ``bounds`` before the first is clicked, so a bad batch
        clicks nothing. The fail-safe is checked once.

        ``check(i)``, when given, runs before point ``i`` is clicked (after the earlier ones
        reached the server) and returns the game window's geometry at that moment (logged
        with the click), or None to stop the batch there: a batch must not outlive the window
        geometry it was planned on. Without it the whole batch goes out at once.

        ``hold`` (window id, its ``Rect``): each click goes out only while that
        window still has that geometry, checked in the same step as the click (X11: under a
        server grab), so no window move can fall between the last check and the click. Where
        the transport does that (``holds_window``) and no ``check`` is given, each click is
        logged with that geometry: the one verified as it went out.
        """
        checked = [(*self._guard(x, y, bounds), button) for x, y, button in points]
        if not checked:
            return []
        rest = self._guard(park[0], park[1], park[2]) if park else None
        self._fail_safe()
        made: list[Click] = []
        # Ctrl-C is held back while a click goes out (well under a millisecond), so it can never
        # leave a button pressed between a press and its release; it is raised right after.
        import signal
        blocked = hasattr(signal, "pthread_sigmask")
        held = False

        def hold_sigint(on: bool) -> None:
            nonlocal held
            if blocked and on != held:
                signal.pthread_sigmask(signal.SIG_BLOCK if on else signal.SIG_UNBLOCK, {signal.SIGINT})
                held = on
        try:
            hold_sigint(True)
            kept = None   # the geometry each click is held to, logged with it
            if hold is not None and self.holds_window:
                r = hold[1]
                kept = (r.left, r.top, r.right, r.bottom)
            if hold is not None and kept is not None and check is None:
                # nothing to look at between clicks: the whole batch is held to the geometry
                # at once, as one step of the display server (``_press_release_all_held``)
                clicks = [Click(xi, yi, button, time.time(), bounds_of(bounds), kept)
                          for xi, yi, button in checked]
                if self._press_release_all_held(checked, hold):
                    self.log.extend(clicks)
                    made.extend(clicks)
                else:
                    rest = None   # moved since the batch was planned: no click sent
                checked = []
            for i, (xi, yi, button) in enumerate(checked):
                window = kept
                if check is not None:
                    self._flush()
                    hold_sigint(False)   # a check may wait for the screen: Ctrl-C stays prompt
                    window = check(i)
                    if window is None:
                        rest = None   # the window moved: no parking at the old place either
                        break
                    hold_sigint(True)
                click = Click(xi, yi, button, time.time(), bounds_of(bounds), window)
                if hold is None:
                    self._press_release(xi, yi, button)
                elif not self._press_release_held(xi, yi, button, hold):
                    rest = None   # moved after the check: stop here, no click sent
                    break
                self.log.append(click)
                made.append(click)
            if rest is not None:   # then off the board, so no cell is left hovered
                self._motion(*rest)
            self._flush()
        finally:
            hold_sigint(False)
            self._write_log(made)
        return made

    def _write_log(self, clicks: Sequence[Click]) -> None:
        """Append ``clicks`` to the click log; a failed write stops the run, keeping what was
        written before (the log was checked writable before the first click)."""
        if not self._log_file or not clicks:
            return
        try:
            self._log_file.write("".join(json.dumps(c.to_json()) + "\n" for c in clicks))
            self._log_file.flush()
        except OSError as exc:
            raise OutputError(f"{self._log_path}: cannot write the click log ({exc.strerror}); "
                              "the clicks logged before are kept") from None

    def close(self) -> None:
        """Idempotent: the click log."""
        if self._log_file:
            self._log_file.close()
            self._log_file = None
