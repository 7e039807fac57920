"""Windows a compositor lists for its clients though it lets them capture none alone.

Why: on native Wayland a client can neither grab nor raise another client's window, so the
board is found on the whole screen; but some compositors (sway, through its IPC) still say
which windows exist, with their app_id and title, and will focus one on request. That is
enough to know which game is open (its profile's keys and rules) and to give it the keyboard.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from .x11.window import Rect


@dataclass(frozen=True)
class ListedWindow:
    """One listed window: ``app_id`` (a native client's, or an X11 class), title, place on
    screen, whether it shows and has the focus, and the compositor's id for it."""

    id: int
    app_id: str
    title: str
    rect: Rect
    visible: bool
    focused: bool


class WindowList(Protocol):
    """A compositor's window list (``source`` names it in messages: "sway's IPC")."""

    @property
    def source(self) -> str: ...

    def windows(self) -> Sequence[ListedWindow]: ...

    def focus(self, window: ListedWindow) -> None: ...
