"""Clicks through the portal's RemoteDesktop session, and the fail-safe there.

The fail-safe: a portal client cannot see the pointer. Its screen cast can carry the pointer's
position only as PipeWire buffer metadata (``cursor_mode`` 4), which GStreamer's ``pipewiresrc``
does not pass on, or drawn into the frames (``cursor_mode`` 2), which would lie over the cells
read. What a portal does give is the user's own control over the session: the desktop shows
that the screen is shared and controlled (KDE: a notification and a status icon) and lets the
user end it; the portal then closes the session (its ``Closed`` signal). That is the fail-safe
here: before each batch of clicks and each parking move the session must still be open, else
the run stops (``Interrupted``, exit 130). Ctrl-C and SIGTERM stop it as everywhere.
"""

from __future__ import annotations

from ...errors import Interrupted
from ..pointer import BasePointer, Button
from .session import PortalSession


class PortalPointer(BasePointer):
    """``BasePointer`` over a ``PortalSession``: absolute motion on the stream, then the
    button, in one write with no answer waited for (the portal forwards a connection's calls
    in order; the caller watches the screen for the result)."""

    def __init__(self, session: PortalSession, log_path: str | None = None) -> None:
        super().__init__(log_path)
        self.session = session

    def _fail_safe(self) -> None:
        if self.session.ended():
            raise Interrupted("stopped by the fail-safe: the desktop ended the screen-sharing "
                              "and remote-control session (on a portal desktop, ending the "
                              "sharing from the desktop stops a run, as throwing the pointer "
                              "into a screen corner does on X11)")

    def _motion(self, x: int, y: int) -> None:
        self.session.move(x, y)

    def _press_release(self, x: int, y: int, button: Button) -> None:
        self.session.click(x, y, button)
