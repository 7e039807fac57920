"""The Minesweeper games minebot knows, one folder each, and the registry.

``FOLDERS`` is the registry: one game folder (a sub-package) per game, in the order games are
looked for, GNOME Mines first (the default wherever a game is not named). Everything else is
derived from it: ``PROFILES`` maps a game's name to its profile; ``get(name)`` returns one or
raises ``BadInputError`` listing the known names; ``for_template_set(name)`` says which game a
template set was made for; ``NAMES`` and ``listing()`` give the command line its choices and
help texts. The live side (``games.interfaces``) and the sandbox (``sandbox.launchers``) find
the rest of a folder (``ui.py``, ``launcher.py``) from the same list.

Adding a game: its folder (``minebot/games/NAME/``, see ``docs/adding-a-game.md``), its
template sets, its tests, and its name in ``FOLDERS`` (with the import it needs).
"""

from __future__ import annotations

from types import ModuleType

from ..errors import BadInputError
from . import ace_minesweeper, gnome_mines, kmines, sgt_mines, user, xdemineur
from .profile import CounterKind, GameProfile, GridGeometry, GridKind, WindowMatch

FOLDERS: tuple[ModuleType, ...] = (gnome_mines, xdemineur, kmines, sgt_mines, ace_minesweeper)
"""The registry: every game's folder, in the order games are looked for (the first is the
default). A folder's ``__init__`` gives its ``PROFILE``; nothing else is listed anywhere."""

PROFILES: dict[str, GameProfile] = {folder.PROFILE.name: folder.PROFILE for folder in FOLDERS}
DEFAULT = FOLDERS[0].PROFILE.name

NAMES = tuple(PROFILES)


def get(name: str) -> GameProfile:
    """The profile called ``name``: a built-in game's, else a user's profile file
    (``minebot.games.user``: a clone minebot has no code for); an unknown name is bad input
    that lists the known ones."""
    found = PROFILES.get(name) or user.find(name, frozenset(PROFILES))
    if found is None:
        known = ", ".join((*NAMES, *user.names()))
        raise BadInputError(f"unknown game {name!r}: expected one of {known} (or a profile file "
                            f"{user.games_dir() / (name + user.SUFFIX)})")
    return found


def for_template_set(name: str) -> GameProfile | None:
    """The game whose shipped sets include ``name``, or None (a user's own set)."""
    for profile in PROFILES.values():
        if name in profile.templates:
            return profile
    return None


def _spoken(items: list[str], last: str | None) -> str:
    """``items`` as a help text lists them: "a, b, c or d" (``last`` None: "a, b, c, d")."""
    if last is None or len(items) < 2:
        return ", ".join(items)
    return f"{', '.join(items[:-1])} {last} {items[-1]}"


def listing(last: str | None = "or") -> str:
    """The games' names for a help text, in registry order: "a, b, c or d" (``last`` None:
    "a, b, c, d")."""
    return _spoken(list(NAMES), last)


def titles(last: str | None = "or") -> str:
    """The games' titles for a help text, in registry order ("GNOME Mines, xdemineur, ... or
    Simon Tatham's Mines"; ``last`` None: commas only)."""
    return _spoken([p.title for p in PROFILES.values()], last)


__all__ = ["FOLDERS", "PROFILES", "DEFAULT", "NAMES", "get", "for_template_set", "listing", "titles",
           "GameProfile", "WindowMatch", "GridGeometry", "GridKind", "CounterKind"]
