"""The live side of the games registry: each game's ``GameUI`` class, by profile name.

Why apart from the profiles (``minebot.games``): a profile is data that the reader, the
calibration and the engine use too; a ``GameUI`` is live play (keys, dialogs, the pointer),
which depends on the backends and on reading. Keeping the classes here lets the profiles stay
below everything that reads a game, and live play above them, with no cycle.

Adding a game: its folder (``minebot/games/NAME/``: ``profile.py``, ``ui.py`` with one
``GameUI`` subclass) and its name in ``minebot.games.FOLDERS``; ``UIS`` below is built from
that registry, each folder's ``ui`` module imported by its fixed name (``IMPORTS_BY_CONVENTION``,
which ``tools/import_graph.py`` counts as imports, so a cycle through a game's ``ui`` is still
found).
"""

from __future__ import annotations

import importlib
import importlib.util
import inspect
from collections.abc import Sequence
from types import ModuleType

from ..backends.listed import ListedWindow
from ..backends.x11.window import X11, find_game_window
from ..errors import BadInputError
from ..game.ui import GameUI
from . import FOLDERS, PROFILES, GameProfile, get
from .user_ui import UserGameUI

IMPORTS_BY_CONVENTION = ("minebot.games.*.ui",)
"""The modules this one imports by name (each registered folder's ``ui``): for the import
graph, which cannot see ``importlib``."""


def folder_ui(folder: ModuleType) -> type[GameUI] | None:
    """The ``GameUI`` subclass a game folder's ``ui.py`` defines (None without a ``ui.py``: a
    game that can be read but not played live); a folder whose ``ui`` defines none, or several,
    or one for another game, is a programming error, reported at import."""
    name = f"{folder.__name__}.ui"
    if importlib.util.find_spec(name) is None:
        return None
    module = importlib.import_module(name)
    found = [cls for cls in vars(module).values() if isinstance(cls, type) and issubclass(cls, GameUI)
             and cls.__module__ == module.__name__ and not inspect.isabstract(cls)]
    if len(found) != 1 or found[0].game != folder.PROFILE.name:
        raise ImportError(f"{name}: expected one GameUI for {folder.PROFILE.name!r}, found "
                          f"{[(c.__name__, c.game) for c in found]}")
    return found[0]


UIS: dict[str, type[GameUI]] = {
    folder.PROFILE.name: ui for folder in FOLDERS if (ui := folder_ui(folder)) is not None}
"""Every game minebot can play live: its profile's name -> its ``GameUI`` class, in registry
order."""


def ui_for(profile: GameProfile | str) -> GameUI:
    """The ``GameUI`` of a game (a profile or its name); bad input when it cannot be played live."""
    if isinstance(profile, str):
        profile = get(profile)
    ui = UIS.get(profile.name)
    if ui is None and profile.name not in PROFILES:     # a user's game (a profile file)
        return UserGameUI(profile)
    if ui is None:
        raise BadInputError(f"minebot cannot play {profile.title} live yet")
    return ui(profile)


def detect(x11: X11, window_id: int | None = None) -> GameUI | None:
    """The ``GameUI`` of the supported game that owns ``window_id``, or (with none given) of
    the first supported game, in registry order, with a window open; None if there is none."""
    info = x11.info(window_id) if window_id is not None else None
    for profile in PROFILES.values():
        if profile.name not in UIS:
            continue
        if window_id is not None:
            if info is not None and profile.window.matches(info.title, info.wm_class):
                return ui_for(profile)
        elif find_game_window(x11, profile.window) is not None:
            return ui_for(profile)
    return None


def game_windows(profile: GameProfile, windows: Sequence[ListedWindow]) -> list[ListedWindow]:
    """The shown windows of ``profile``'s game in a compositor's list (app_id for the class)."""
    return [w for w in windows if w.visible and profile.window.matches(w.title, (w.app_id,))]


def detect_listed(windows: Sequence[ListedWindow]) -> GameUI | None:
    """The ``GameUI`` of the first supported game, in registry order, with a shown window in a
    compositor's list (sway's); None if there is none."""
    for profile in PROFILES.values():
        if profile.name in UIS and game_windows(profile, windows):
            return ui_for(profile)
    return None
