"""Games a user teaches minebot: a small profile file per game, no code.

A clone minebot has no folder for is described by a TOML file in the user's config directory,
``$XDG_CONFIG_HOME/minebot/games/NAME.toml`` (``~/.config/minebot/games``; ``MINEBOT_GAMES``
names another folder). Its looks are taught with ``minebot calibrate SET --game NAME``; from
then on ``minebot read --game NAME`` reads its screenshots. Why a file and not options: the
reader, the calibration and the CLI all need the same facts (how the board is drawn, where
the mines may lie, where the counter is), and a profile is what every layer already asks.

The file (every key but ``[grid] kind`` and ``rules`` may be left out)::

    title = "My Mines"                  # shown in messages (default: the file's name)
    rules = "preopened"                 # zero | safe | preopened | unprotected (minebot.rules)
    counter = "seven-segment-left"      # none | flags-of-total | seven-segment-left | status-bar
    templates = ["my-mines"]            # its template sets, the default first (default: [NAME])

    [window]                            # how its window is recognised
    title = "My Mines"                  # the exact title, or
    title_contains = "mines"            # a part of it, and/or
    wm_class = "mymines"                # a part of its WM_CLASS

    [grid]                              # how its board is drawn
    kind = "lines"                      # tiles | lines | bevelled (minebot.games.GridKind)
    pitch = 21                          # px between cell origins, when fixed
    line = 1                            # px of the lines between cells
    min_cols = 8
    min_rows = 8

    [play]                              # live play (``minebot play --game NAME``)
    new_game_key = "F2"                 # the key that starts a new game (none: one game a run)
    flags_to_win = false                # the game is won only once every mine is flagged

A file that names a built-in game, or that says something minebot does not know, is bad input
with the file and the key in the message.
"""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

from ..errors import BadInputError
from ..rules import Rules
from .profile import CounterKind, GameProfile, GridGeometry, GridKind, WindowMatch

SUFFIX = ".toml"


def games_dir() -> Path:
    """Where the user's game profiles are: ``$MINEBOT_GAMES``, else
    ``$XDG_CONFIG_HOME/minebot/games`` (``~/.config/minebot/games``)."""
    own = os.environ.get("MINEBOT_GAMES")
    if own:
        return Path(own)
    config = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(config) / "minebot" / "games"


def _choice(path: Path, key: str, value: object, enum: type[Enum]) -> Any:
    known = [m.value for m in enum]
    if value not in known:
        raise BadInputError(f"{path}: {key} = {value!r}: expected one of {', '.join(map(str, known))}")
    return enum(value)


def _int(path: Path, key: str, value: object, low: int) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < low:
        raise BadInputError(f"{path}: {key} = {value!r}: expected a whole number >= {low}")
    return value


def _text(path: Path, key: str, value: object) -> str:
    if not isinstance(value, str) or not value:
        raise BadInputError(f"{path}: {key} = {value!r}: expected a non-empty text")
    return value


def load_profile(path: str | Path, builtin: frozenset[str] = frozenset()) -> GameProfile:
    """The ``GameProfile`` a user's file describes; its name is the file's name less ``.toml``.
    ``builtin``: names the file may not take (a built-in game's profile is never replaced)."""
    path = Path(path)
    name = path.name[:-len(SUFFIX)] if path.name.endswith(SUFFIX) else path.name
    if name in builtin:
        raise BadInputError(f"{path}: {name!r} is a game minebot knows already: name the file "
                            f"after your own game")
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise BadInputError(f"{path}: cannot read it ({exc.strerror or exc})") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise BadInputError(f"{path}: not a TOML file ({exc})") from None
    allowed = {"title", "rules", "counter", "templates", "window", "grid", "play"}
    unknown = sorted(set(data) - allowed)
    if unknown:
        raise BadInputError(f"{path}: unknown key {unknown[0]!r} (known: {', '.join(sorted(allowed))})")
    if "rules" not in data:
        raise BadInputError(f"{path}: rules is missing: where may the mines lie "
                            f"({', '.join(r.value for r in Rules)})")
    grid = data.get("grid")
    if not isinstance(grid, dict) or "kind" not in grid:
        raise BadInputError(f"{path}: [grid] kind is missing: how is the board drawn "
                            f"({', '.join(k.value for k in GridKind)})")
    unknown = sorted(set(grid) - {"kind", "pitch", "line", "min_cols", "min_rows"})
    if unknown:
        raise BadInputError(f"{path}: unknown key grid.{unknown[0]}")
    pitch = grid.get("pitch")
    geometry = GridGeometry(
        kind=_choice(path, "grid.kind", grid["kind"], GridKind),
        pitch=None if pitch is None else _int(path, "grid.pitch", pitch, 4),
        line=_int(path, "grid.line", grid.get("line", 0), 0),
        min_cols=_int(path, "grid.min_cols", grid.get("min_cols", 4), 2),
        min_rows=_int(path, "grid.min_rows", grid.get("min_rows", 4), 2))
    window = data.get("window", {})
    if not isinstance(window, dict) or set(window) - {"title", "title_contains", "wm_class"}:
        raise BadInputError(f"{path}: [window] takes title, title_contains and wm_class")
    match = WindowMatch(**{k: _text(path, f"window.{k}", v) for k, v in window.items()})
    templates = data.get("templates", [name])
    if not isinstance(templates, list) or not templates:
        raise BadInputError(f"{path}: templates = {templates!r}: expected a list of set names")
    return GameProfile(
        name=name,
        title=_text(path, "title", data.get("title", name)),
        window=match,
        grid=geometry,
        templates=tuple(_text(path, "templates", t) for t in templates),
        rules=_choice(path, "rules", data["rules"], Rules),
        counter=_choice(path, "counter", data.get("counter", "none"), CounterKind),
    )


@dataclass(frozen=True)
class PlayOptions:
    """What live play needs beyond the profile (the file's ``[play]`` table): the key that
    starts a new game (None: minebot plays the game shown and cannot start another), and
    whether the game is won only once every mine is flagged."""

    new_game_key: str | None = None
    flags_to_win: bool = False


def play_options(name: str) -> PlayOptions:
    """The ``[play]`` table of the user's profile file ``name`` (defaults when it has none)."""
    path = games_dir() / f"{name}{SUFFIX}"
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError, UnicodeDecodeError):
        return PlayOptions()        # load_profile has said what is wrong with it already
    play = data.get("play", {})
    if not isinstance(play, dict) or set(play) - {"new_game_key", "flags_to_win"}:
        raise BadInputError(f"{path}: [play] takes new_game_key and flags_to_win")
    key = play.get("new_game_key")
    flags = play.get("flags_to_win", False)
    if not isinstance(flags, bool):
        raise BadInputError(f"{path}: play.flags_to_win = {flags!r}: expected true or false")
    return PlayOptions(None if key is None else _text(path, "play.new_game_key", key), flags)


def find(name: str, builtin: frozenset[str] = frozenset()) -> GameProfile | None:
    """The user's profile called ``name`` (``games_dir()/NAME.toml``), or None when there is
    no such file; a file that is there but wrong is bad input."""
    if not name or any(ch in name for ch in "/\\") or name.startswith("."):
        return None
    path = games_dir() / f"{name}{SUFFIX}"
    if not path.is_file():
        return None
    return load_profile(path, builtin)


def names() -> tuple[str, ...]:
    """The names of the user's game profiles (the files there now)."""
    folder = games_dir()
    if not folder.is_dir():
        return ()
    return tuple(sorted(p.name[:-len(SUFFIX)] for p in folder.glob(f"*{SUFFIX}") if p.is_file()))
