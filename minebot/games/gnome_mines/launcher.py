"""The private GNOME Mines for the tests, ``demo`` and the benchmarks (the sandbox side of this
folder: production code never imports it, see ``minebot.sandbox.launchers``).

The launcher itself is ``minebot.sandbox.mines.GnomeMines``: the sandbox's desktops and its
start-up checks (``await_native``, ``wait_for_game``) are built on GNOME Mines, the default
game, so it stays there; this module is its pointer and says how ``minebot demo`` starts it.
"""

from __future__ import annotations

from ...sandbox.mines import GNOME_MINES, GnomeMines
from ...sandbox.private_game import Demo, DemoSettings


def demo_game(display, level: str, window: tuple[int, int], settings: DemoSettings) -> GnomeMines:
    """The one copy ``minebot demo`` plays every level in (it switches levels itself), in the
    chosen theme, style and font, at ``window``; ``level`` is the first one played."""
    return GnomeMines(display, theme=settings.theme, window=window, level=level,
                      font=settings.font, style=settings.style)


DEMO = Demo(demo_game, per_level=False, native_wayland=True)

__all__ = ["DEMO", "GNOME_MINES", "GnomeMines", "demo_game"]
