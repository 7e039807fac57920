"""Each game's private launcher, found from the games registry (``minebot.games.FOLDERS``).

A game's folder holds its launcher for the sandbox in ``launcher.py``: the ``PrivateGame``
subclass the tests and benchmarks start, and ``DEMO`` (a ``private_game.Demo``: how
``minebot demo`` starts it). It belongs to the sandbox, so only the sandbox imports it, here,
by its fixed name: the production side of the folder (``profile``, ``ui``) never sees it, and
adding a game adds no line here.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from .. import games
from .private_game import Demo

IMPORTS_BY_CONVENTION = ("minebot.games.*.launcher",)
"""The modules this one imports by name (each registered folder's ``launcher``): for the
import graph, which cannot see ``importlib``."""


def launcher(name: str) -> ModuleType:
    """The ``launcher`` module of the game called ``name`` (bad input for an unknown game)."""
    profile = games.get(name)
    folder = next(f for f in games.FOLDERS if f.PROFILE is profile)
    return importlib.import_module(f"{folder.__name__}.launcher")


def demo(name: str) -> Demo:
    """How ``minebot demo`` starts the game called ``name`` (its launcher's ``DEMO``)."""
    found = launcher(name).DEMO
    if not isinstance(found, Demo):
        raise TypeError(f"{name}: its launcher's DEMO is not a private_game.Demo")
    return found


def native_wayland() -> tuple[str, ...]:
    """The games whose demo runs as a native Wayland client (``minebot demo --wayland``)."""
    return tuple(name for name in games.NAMES if demo(name).native_wayland)
