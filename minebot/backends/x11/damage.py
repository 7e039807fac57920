"""Waking when the game window is drawn on, through the X DAMAGE extension.

Why: after its clicks the live game waits for the game to show their result. Polling the
window's pixels every millisecond wakes this process and the X server a thousand times a
second while the game draws, on the same two cores; the server's damage report says when the
window's pixels changed, so the wait sleeps until then. The pixels still decide: a report only
says when to look again (a missed one costs at most the wait's timeout, never a wrong frame).

    watch = DamageWatch(":5", wid)      # None-like (``available`` False) without the extension
    watch.wait(0.02)                    # returns at the next drawing on the window, or after 20 ms
"""

from __future__ import annotations

import select

from ...errors import DesktopError
from .window import close_display, open_display


class DamageWatch:
    """The drawing on one X window, on a connection of its own (its events are its only ones).

    The damage object reports once when the window's damaged area goes from empty to not
    empty; ``wait`` empties it again each time (DamageSubtract), so each report is a drawing
    since the last ``wait``. ``available`` is False where the server has no DAMAGE extension
    (then ``wait`` just sleeps the timeout's first millisecond, as polling did)."""

    def __init__(self, display: str, window: int) -> None:
        try:
            self.d = open_display(display)
        except Exception as exc:  # noqa: BLE001 - Xlib raises several unrelated types here
            raise DesktopError(f"cannot open X display {display}: {exc}") from None
        # Its only requests are the damage object's: an error there (the window destroyed
        # with the game, and its damage object with it) changes nothing the pixels do not show.
        self.d.set_error_handler(lambda *_: None)
        self.available = self.d.has_extension("DAMAGE")
        self.damage = None
        if self.available:
            from Xlib import error as xerror
            from Xlib.ext import damage
            try:
                self.d.damage_query_version()
                win = self.d.create_resource_object("window", window)
                self.damage = win.damage_create(damage.DamageReportNonEmpty)
                self.d.sync()
            except xerror.XError:
                self.available = False   # the window is gone: the grabs will say so

    def _drain(self) -> bool:
        """Whether any report came since the last call (the reports are consumed)."""
        seen = False
        while self.d.pending_events():
            self.d.next_event()
            seen = True
        return seen

    def wait(self, timeout: float) -> None:
        """Until the window was drawn on since the last ``wait`` (at once if it already was),
        or ``timeout`` seconds."""
        if not self.available:
            select.select([], [], [], min(timeout, 0.001))
            return
        if not self._drain():
            ready, _, _ = select.select([self.d.fileno()], [], [], timeout)
            if ready:
                self._drain()
        # empty the damaged area, so the next drawing reports again; sent before the caller
        # grabs, so a drawing after that grab is never missed
        self.d.damage_subtract(self.damage)
        self.d.flush()

    def close(self) -> None:
        """Idempotent: the damage object goes with the connection."""
        d, self.d = getattr(self, "d", None), None
        if d is not None:
            close_display(d)
