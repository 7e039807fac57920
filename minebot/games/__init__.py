"""The Minesweeper games minebot knows, one ``GameProfile`` each, and the registry.

``PROFILES`` maps a game's name to its profile, GNOME Mines first (the default wherever a
game is not named); ``get(name)`` returns one or raises ``BadInputError`` listing the known
names; ``for_template_set(name)`` says which game a template set was made for.
"""

from __future__ import annotations

from ..errors import BadInputError
from . import user
from .gnome_mines import profile as gnome_mines
from .kmines import profile as kmines
from .profile import CounterKind, GameProfile, GridGeometry, GridKind, WindowMatch
from .sgt_mines import profile as sgt_mines
from .xdemineur import profile as xdemineur

PROFILES: dict[str, GameProfile] = {p.name: p for p in (gnome_mines.PROFILE, xdemineur.PROFILE,
                                                        kmines.PROFILE, sgt_mines.PROFILE)}
DEFAULT = gnome_mines.PROFILE.name

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


__all__ = ["PROFILES", "DEFAULT", "NAMES", "get", "for_template_set", "GameProfile", "WindowMatch",
           "GridGeometry", "GridKind", "CounterKind"]
