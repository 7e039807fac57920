"""Live play under headless KWin through the desktop portal, KMines a native Wayland client
(marked live).

No X server, no window list: the bot sees the game only through the portal's ScreenCast
(PipeWire) and plays it only through the portal's RemoteDesktop (``minebot.backends.portal``),
with xdg-desktop-portal-kde behind it as on KDE Plasma. The user's approval is the restore
token the test desktop wrote into the permission store (``KWinDesktop.grant``); without it the
portal shows its dialog, which no one answers here.
"""

from __future__ import annotations

import tempfile
import threading
from pathlib import Path

import pytest
from test_live import (
    assert_clicks_inside,
    cli_plays_a_game_it_did_not_start,
    hint_has_no_overlay_and_once_works,
    play_and_check,
)
from test_live_sway import kmines_on_wayland

from minebot.sandbox.session import available

KMINES_WINDOW = {"easy": (640, 560), "hard": (1290, 760)}


pytestmark = [pytest.mark.live,
              pytest.mark.skipif(not available("kwin") or not kmines_on_wayland(),
                                 reason="needs kwin-wayland, xdg-desktop-portal-kde, PipeWire "
                                        "and KMines with its Qt's Wayland plugin (KWin 6: "
                                        "Debian 13 and later)")]


@pytest.fixture(scope="module")
def desktop():
    from minebot.sandbox.session import open_desktop
    with open_desktop("kwin") as desk:
        yield desk


def state_with_token(desktop) -> dict:
    """The desktop's environment with a state folder of its own holding the approval (the
    restore token the desktop granted), as after a user approved once."""
    from minebot.backends.portal.tokens import TokenStore
    env = desktop.env()
    env["XDG_STATE_HOME"] = tempfile.mkdtemp(prefix="minebot-test-state-")
    TokenStore.for_env(env).save(desktop.token)
    return env


def live_kmines(desktop, env: dict, level: str):
    """KMines at ``level`` (Classic theme) and a live game on it through the portal."""
    from minebot.backends.backend import open_backend
    from minebot.game.live import LiveGame
    from minebot.games.interfaces import ui_for
    from minebot.games.kmines.launcher import KMINES_LEVELS, KMines
    mines = KMines(desktop, level=level, theme="classic", window=KMINES_WINDOW[level])
    mines.start()
    try:
        backend = open_backend(env=env)
        game = LiveGame(backend=backend, mines=KMINES_LEVELS[level][2], ui=ui_for("kmines"),
                        frames_dir=tempfile.mkdtemp(prefix="minebot-test-frames-"))
    except BaseException:
        mines.stop()
        raise
    return mines, game


def test_the_portal_backend_is_picked_and_keeps_the_next_token(desktop):
    """A Wayland session that is neither GNOME nor wlroots, with a portal that has
    RemoteDesktop: the portal backend is picked by itself, casts the whole output, and the
    token the portal hands out is kept for the next run."""
    from minebot.backends.backend import open_backend
    from minebot.backends.portal.tokens import TokenStore
    env = state_with_token(desktop)
    with open_backend(env=env) as backend:
        assert backend.name == "portal"
        assert backend.screen_rect.width == desktop.width
        assert backend.screen_rect.height == desktop.height
        frame = backend.screen().grab()
        assert frame.shape == (desktop.height, desktop.width, 3)
    assert TokenStore.for_env(env).load() is not None


def logs(desk) -> str:
    """The tails of the portal's and its KDE backend's logs (what they said of a request)."""
    return "\n".join(f"== {name}\n" + (desk.home / name).read_text(errors="replace")[-3000:]
                     for name in ("portal-kde.log", "portal.log")
                     if desk.home is not None and (desk.home / name).exists())


def test_a_second_run_asks_nothing_and_without_the_token_the_dialog_waits():
    """On a KWin desktop where only the token stands for the user's approval (no standing
    permission): two runs in a row with the kept token ask nothing (each would wait 20 s for a
    dialog no one answers, and fail). A run with no token waits for the dialog, and says so in
    one line: the token is what spares it."""
    from minebot.backends.portal.backend import PortalBackend
    from minebot.backends.portal.tokens import TokenStore
    from minebot.errors import DesktopError
    from minebot.sandbox.session import KWinDesktop
    with KWinDesktop(authorize=False) as desk:
        env = state_with_token(desk)
        store = TokenStore.for_env(env)
        try:
            for run in range(2):
                with PortalBackend(desk.bus, store, dialog_timeout=20) as backend:
                    assert backend.session.restored, f"run {run + 1} was not restored"
            empty = TokenStore(Path(tempfile.mkdtemp(prefix="minebot-test-state-")))
            with pytest.raises(DesktopError, match="did not answer in time"):
                PortalBackend(desk.bus, empty, dialog_timeout=5)
            assert empty.load() is None
        except BaseException as exc:
            raise AssertionError(f"{exc}\n{logs(desk)}") from exc


def test_kmines_beginner_and_expert(desktop):
    """KMines Easy (two games) and Hard (one) played to the end through the portal, every
    click inside the board read."""
    from minebot.solver import Solver
    env = state_with_token(desktop)
    for level, games, shape in (("easy", 2, (9, 9)), ("hard", 1, (16, 30))):
        mines, game = live_kmines(desktop, env, level)
        try:
            results = play_and_check(game, Solver(), games, max_stops=3)
            assert all(r.final.shape == shape for r in results)
            assert_clicks_inside(game)
        finally:
            game.close()
            mines.stop()


def end_sessions_as_the_desktop_does(desktop) -> int:
    """Close every RemoteDesktop session xdg-desktop-portal-kde has, through its own Session
    objects: what its "end the session" control does. The number closed."""
    import xml.etree.ElementTree as ET

    from jeepney import DBusAddress, new_method_call
    from jeepney.io.blocking import open_dbus_connection
    from jeepney.wrappers import Introspectable
    kde = "org.freedesktop.impl.portal.desktop.kde"
    closed = 0
    with open_dbus_connection(bus=desktop.bus_address) as conn:
        def children(path: str) -> list[str]:
            reply = conn.send_and_get_reply(Introspectable(DBusAddress(path, kde)).Introspect(),
                                            timeout=5)
            root = ET.fromstring(reply.body[0])
            return [f"{path.rstrip('/')}/{node.get('name')}" for node in root.findall("node")]
        stack = ["/org/freedesktop/portal/desktop/session"]
        while stack:
            path = stack.pop()
            kids = children(path)
            if kids:
                stack.extend(kids)
            elif path.count("/") >= 6:
                conn.send_and_get_reply(new_method_call(
                    DBusAddress(path, kde, "org.freedesktop.impl.portal.Session"), "Close"),
                    timeout=5)
                closed += 1
    return closed


def test_the_desktop_ending_the_session_stops_the_run(desktop):
    """The fail-safe on a portal desktop: the user ends the sharing from the desktop (here
    through xdg-desktop-portal-kde's own session object, as its control does) while the bot
    plays; the run stops with the fail-safe's ``Interrupted`` (exit 130), every click inside
    the board."""
    from test_live import stopped_by_fail_safe
    env = state_with_token(desktop)
    mines, game = live_kmines(desktop, env, "hard")
    ended: list[int] = []

    def hand(stop: threading.Event) -> None:
        stop.wait(3.0)   # the bot is playing by then
        if not stop.is_set():
            ended.append(end_sessions_as_the_desktop_does(desktop))
    try:
        game.start()
        stopped_by_fail_safe(game, hand, "ended the screen-sharing")
        assert ended and ended[0] >= 1
    finally:
        game.close()
        mines.stop()


def test_minebot_play_finds_a_game_it_did_not_start(desktop, tmp_path):
    """`minebot play` in the desktop's environment (WAYLAND_DISPLAY, a KDE session bus, the
    approval in its state folder, no DISPLAY) picks the portal backend by itself, finds the
    board of a native GNOME Mines and plays one game."""
    cli_plays_a_game_it_did_not_start(desktop, tmp_path, "portal")


def test_hint_says_there_is_no_overlay_yet_and_once_works(desktop, tmp_path):
    """No overlay through a portal: `minebot hint` says so in one line (exit 5) and names
    what works; `hint --once --text` and `--once --png` read the game through the portal."""
    hint_has_no_overlay_and_once_works(desktop, tmp_path, "no overlay on KDE Plasma")
