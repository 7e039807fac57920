"""Guarded clicks on a wlroots compositor: minebot's virtual pointer, with the corner
fail-safe (``failsafe.CornerWatch``) checked before every click and parking move."""

from __future__ import annotations

from ...errors import Interrupted
from ..pointer import BasePointer, Button
from .devices import VirtualPointer
from .failsafe import CornerWatch


class WlrootsPointer(BasePointer):
    """``BasePointer`` over a ``VirtualPointer``; the run stops (``Interrupted``, exit 130)
    when the user has put the pointer into a corner of the output (``watch``). Each event
    batch ends with a round trip, so a click has been handled by the compositor (not only
    written) when ``click`` returns."""

    def __init__(self, device: VirtualPointer, watch: CornerWatch | None,
                 log_path: str | None = None) -> None:
        super().__init__(log_path)
        self.device, self.watch = device, watch

    def _fail_safe(self) -> None:
        corner = self.watch.corner() if self.watch is not None else None
        if corner is not None:
            raise Interrupted(f"stopped by the fail-safe (pointer moved to the {corner} "
                              "corner of the screen)")

    def _motion(self, x: int, y: int) -> None:
        self.device.move(x, y)

    def _press_release(self, x: int, y: int, button: Button) -> None:
        self.device.move(x, y)
        self.device.button(button, True)
        self.device.button(button, False)

    def _flush(self) -> None:
        self.device.conn.roundtrip()

    def close(self) -> None:
        """Idempotent: the corner surfaces, the device and the click log."""
        watch, self.watch = self.watch, None
        if watch is not None:
            watch.close()
        self.device.close()
        super().close()
