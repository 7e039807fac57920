"""Test-wide settings: the user's data folder is a private one; a private X server for the
clones' live tests.

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


@pytest.fixture(scope="module")
def xvfb():
    """A private 1280x1024 Xvfb per test module, stopped by its own process group (the clones'
    live tests: ``test_live_clones``, ``test_live_sgt_mines``; a module may define its own)."""
    from minebot.sandbox.xvfb import Xvfb
    server = Xvfb(1280, 1024).start()
    try:
        yield server
    finally:
        server.stop()
