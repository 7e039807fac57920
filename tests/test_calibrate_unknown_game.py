"""`minebot calibrate` on a game minebot has no code for: a profile file plus one screenshot.

The game is a real one, xdemineur, told as a user would tell a clone minebot never saw: a
small profile file (``minebot.games.user``) in the user's config folder saying how its window
is named, how its board is drawn (20 px cells, 1 px lines between them), where its mines may
lie and where its counter is; then ``minebot calibrate`` with ONE screenshot and its board file.
The built-in xdemineur looks take no part: a user's game reads only with its own sets (a set
made for a built-in game is never tried on it), as the first test shows. Then every other
xdemineur screenshot we keep (other boards, sizes, phases, the "?" marks series) is read
exactly and named as the user's game.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest

from minebot import games
from minebot.board import Board
from minebot.cli import main
from minebot.errors import BadInputError, MinebotError
from minebot.vision import Reader

XDEMINEUR = Path(__file__).resolve().parents[1] / "fixtures" / "xdemineur"
TEACH = XDEMINEUR / "xdemineur-30x16-100-lost"
HELD_OUT = sorted(p for p in XDEMINEUR.glob("*.board") if not p.stem.startswith("xdemineur-30x16-100-"))

PROFILE = """\
title = "My Mines"
rules = "preopened"
counter = "seven-segment-left"

[window]
wm_class = "xdemineur"

[grid]
kind = "lines"
pitch = 21
line = 1
min_cols = 12
"""


@pytest.fixture
def user_dirs(tmp_path, monkeypatch):
    """The user's config folder holding ``my-mines.toml``, and an empty template folder."""
    config = tmp_path / "config"
    (config / "minebot" / "games").mkdir(parents=True)
    (config / "minebot" / "games" / "my-mines.toml").write_text(PROFILE)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(config))
    monkeypatch.delenv("MINEBOT_GAMES", raising=False)
    sets = tmp_path / "sets"
    sets.mkdir()
    monkeypatch.setenv("MINEBOT_TEMPLATES", str(sets))
    return config, sets


def _image(stem: Path):
    return cv2.imread(str(stem.with_suffix(".png")))


def test_the_profile_file_makes_a_game(user_dirs):
    profile = games.get("my-mines")
    assert profile.title == "My Mines" and profile.rules == "preopened"
    assert profile.grid.kind is games.GridKind.LINES and profile.grid.pitch == 21
    assert profile.counter is games.CounterKind.SEVEN_SEGMENT_LEFT
    assert profile.window.matches("xd\xe9mineur", ("/usr/games/xdemineur", "XD\xe9mineur"))
    assert "my-mines" not in games.PROFILES       # a user's game, not a built-in one


def test_not_readable_before_it_is_taught(user_dirs):
    with pytest.raises(MinebotError):
        Reader(game="my-mines").read(_image(TEACH))


def test_one_screenshot_teaches_it_and_the_others_read_exactly(user_dirs, capsys):
    _, sets = user_dirs
    assert main(["calibrate", "my-mines", "--game", "my-mines", "--out", str(sets), "--example",
                 str(TEACH.with_suffix(".png")), str(TEACH.with_suffix(".board"))]) == 0
    assert len(HELD_OUT) >= 10
    for board_path in HELD_OUT:
        truth = Board.load(board_path)
        reading = Reader(game="my-mines").read(_image(board_path))
        assert reading.game == "my-mines" and reading.templates == "my-mines", board_path.name
        assert reading.board.rows_text() == truth.rows_text(), board_path.name
        assert reading.board.state == truth.state, board_path.name
        assert reading.board.mines == truth.mines, board_path.name   # its 7-segment counter
    capsys.readouterr()
    shot = HELD_OUT[0].with_suffix(".png")
    assert main(["read", str(shot), "--game", "my-mines"]) == 0
    out = capsys.readouterr()
    assert out.out == Board.load(HELD_OUT[0]).to_text()
    assert "My Mines (my-mines), looks my-mines" in out.err


@pytest.mark.parametrize("text, problem", [
    ("rules = 'zero'\n", "[grid] kind is missing"),
    ("[grid]\nkind = 'lines'\n", "rules is missing"),
    ("rules = 'sometimes'\n[grid]\nkind = 'lines'\n", "rules = 'sometimes'"),
    ("rules = 'zero'\n[grid]\nkind = 'hexagons'\n", "grid.kind = 'hexagons'"),
    ("rules = 'zero'\ncolour = 'red'\n[grid]\nkind = 'lines'\n", "unknown key 'colour'"),
    ("rules = 'zero'\n[grid]\nkind = 'lines'\npitch = -3\n", "grid.pitch = -3"),
    ("rules = [zero\n", "not a TOML file"),
])
def test_a_wrong_profile_file_is_bad_input_naming_the_file(user_dirs, text, problem):
    config, _ = user_dirs
    path = config / "minebot" / "games" / "broken.toml"
    path.write_text(text)
    with pytest.raises(BadInputError) as err:
        games.get("broken")
    assert str(path) in str(err.value) and problem in str(err.value)


def test_a_profile_file_cannot_replace_a_built_in_game(user_dirs):
    from minebot.games import user
    config, _ = user_dirs
    path = config / "minebot" / "games" / "kmines.toml"
    path.write_text(PROFILE)
    assert games.get("kmines") is games.PROFILES["kmines"]
    with pytest.raises(BadInputError):
        user.load_profile(path, frozenset(games.PROFILES))


def test_an_unknown_game_names_where_its_profile_file_would_be(user_dirs):
    config, _ = user_dirs
    with pytest.raises(BadInputError) as err:
        games.get("no-such-game")
    assert "my-mines" in str(err.value)
    assert str(config / "minebot" / "games" / "no-such-game.toml") in str(err.value)
