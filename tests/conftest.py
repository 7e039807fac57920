"""Test-wide setting: the user's data folder is a private one.

``minebot play`` and ``demo`` learn looks from finished games into the user's template folder
(``$XDG_DATA_HOME/minebot/templates``); tests, and the commands they start, must neither read
what a person taught their own minebot nor leave anything there.
"""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True, scope="session")
def _private_user_data(tmp_path_factory):
    mp = pytest.MonkeyPatch()
    mp.setenv("XDG_DATA_HOME", str(tmp_path_factory.mktemp("xdg-data")))
    yield
    mp.undo()
