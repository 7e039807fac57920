"""The versions recorded with live figures are those the package manager has installed."""

import shutil
import subprocess

import pytest

from minebot.sandbox.versions import environment, package_versions


@pytest.mark.skipif(shutil.which("dpkg-query") is None, reason="needs dpkg")
def test_installed_packages_get_their_versions_and_unknown_ones_none():
    # dpkg itself is installed wherever dpkg-query is: its version is the truth to compare
    truth = subprocess.run(["dpkg-query", "-W", "-f", "${Version}", "dpkg"],
                           capture_output=True, text=True, check=True).stdout
    found = package_versions(("dpkg", "no-such-package-minebot"))
    assert found == {"dpkg": truth}


def test_the_environment_names_python_and_the_system():
    env = environment()
    assert env["python"].count(".") == 2
    assert isinstance(env["packages"], dict)


def test_every_registered_game_has_its_package_recorded():
    from minebot import games
    from minebot.sandbox.versions import game_packages
    assert len(game_packages()) == len(games.NAMES)
