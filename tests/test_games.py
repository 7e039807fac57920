"""The game profiles: one per clone, found by name, with values the other layers accept."""

import pytest

from minebot import games
from minebot.errors import BadInputError
from minebot.rules import RULES


def test_every_profile_is_registered_under_its_name_with_known_rules():
    assert set(games.PROFILES) == {"gnome-mines", "xdemineur", "kmines", "sgt-mines", "ace-minesweeper"}
    for name, profile in games.PROFILES.items():
        assert games.get(name) is profile
        assert profile.rules in RULES
        assert profile.templates, name
        assert games.for_template_set(profile.templates[0]) is profile
    assert games.get("xdemineur").rules == "preopened"
    assert games.get("kmines").rules == "zero"
    assert games.get("ace-minesweeper").rules == "unprotected"
    assert games.get("sgt-mines").rules == "zero" and games.get("sgt-mines").no_guess
    assert not any(p.no_guess for p in games.PROFILES.values() if p.name != "sgt-mines")


def test_unknown_game_is_bad_input_listing_the_known_ones():
    with pytest.raises(BadInputError) as err:
        games.get("winmine")
    assert "xdemineur" in str(err.value) and "kmines" in str(err.value)


@pytest.mark.parametrize("name, title, wm_class, expected", [
    ("gnome-mines", "Mines", ("gnome-mines", "Gnome-mines"), True),
    ("gnome-mines", "Mines — other", ("gnome-mines",), False),
    ("xdemineur", "xd\ufffdmineur", ("/usr/games/xdemineur", "XD\ufffdmineur"), True),
    ("xdemineur", "xterm", ("xterm", "XTerm"), False),
    ("kmines", "KMines", ("kmines", "kmines"), True),
    ("kmines", "Mines", ("gnome-mines",), False),
])
def test_window_match(name, title, wm_class, expected):
    assert games.get(name).window.matches(title, wm_class) is expected
