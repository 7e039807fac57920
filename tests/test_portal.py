"""The portal backend's parts that need no desktop: the restore token's file, and what minebot
says when the portal is missing, lacks RemoteDesktop, or the user declines (a stand-in portal
on a private D-Bus session bus of the test's own, speaking the portal's real D-Bus protocol:
requests answered through Request objects' Response signals)."""

from __future__ import annotations

import os
import shutil
import stat
import subprocess
import threading
import uuid
from pathlib import Path

import pytest

from minebot.backends.mutter.dbus import Bus
from minebot.backends.portal.session import (
    PORTAL,
    REMOTE_DESKTOP,
    REQUEST,
    SCREENCAST,
    PortalSession,
    Response,
    offers_remote_desktop,
)
from minebot.backends.portal.tokens import TokenStore, state_dir
from minebot.errors import EXIT_UNSUPPORTED, DeclinedError, UnsupportedDesktopError


def test_the_state_folder_is_xdg_state_home_or_its_default():
    assert state_dir({"XDG_STATE_HOME": "/s", "HOME": "/h"}) == Path("/s/minebot")
    assert state_dir({"HOME": "/h"}) == Path("/h/.local/state/minebot")


def test_a_token_is_kept_for_the_user_only_and_read_back(tmp_path):
    store = TokenStore(tmp_path / "deep" / "minebot")
    assert store.load() is None
    token = str(uuid.uuid4())
    store.save(token)
    assert store.load() == token
    assert stat.S_IMODE(os.stat(store.path).st_mode) == 0o600
    store.forget()
    assert store.load() is None


def test_a_token_file_that_is_not_a_uuid_counts_as_none(tmp_path):
    """The portal refuses a whole request for a malformed token: such a file is ignored."""
    store = TokenStore(tmp_path)
    store.path.write_text("not-a-token\n")
    assert store.load() is None


needs_dbus = pytest.mark.skipif(shutil.which("dbus-daemon") is None, reason="needs dbus-daemon")


@pytest.fixture
def bus(tmp_path):
    """A private session bus that starts no services (nothing owns the portal's name)."""
    from minebot.sandbox.session import NO_SERVICES_BUS
    conf = tmp_path / "bus.conf"
    conf.write_text(NO_SERVICES_BUS)
    proc = subprocess.Popen(["dbus-daemon", "--nofork", f"--config-file={conf}",
                             "--print-address=1"], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL)
    try:
        address = proc.stdout.readline().decode().strip()
        yield Bus(address, str(tmp_path))
    finally:
        proc.terminate()
        proc.wait(10)


class StandInPortal:
    """Owns ``org.freedesktop.portal.Desktop`` on ``bus`` and answers as a portal does:
    ``remote_desktop`` False leaves RemoteDesktop out (as a desktop whose portal backend lacks
    it); ``start`` is the Response code ``Start`` gets (1: the user declined). ``calls`` lists
    the methods asked for, with their options."""

    def __init__(self, bus: Bus, remote_desktop: bool = True, start: Response = Response.SUCCESS):
        from jeepney import message_bus
        from jeepney.io.blocking import open_dbus_connection
        self.remote_desktop, self.start = remote_desktop, start
        self.calls: list[tuple[str, dict]] = []
        self.conn = open_dbus_connection(bus=bus.address)
        self.conn.send_and_get_reply(message_bus.RequestName(PORTAL), timeout=5)
        self._stop = False
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def _serve(self) -> None:
        from jeepney import MessageType
        while not self._stop:
            try:
                msg = self.conn.receive(timeout=0.1)
            except TimeoutError:
                continue
            except OSError:
                return
            if msg.header.message_type is MessageType.method_call:
                self._answer(msg)

    def _answer(self, msg) -> None:
        from jeepney import DBusAddress, HeaderFields, new_error, new_method_return, new_signal
        fields = msg.header.fields
        iface, member = fields.get(HeaderFields.interface), fields.get(HeaderFields.member)
        if iface == "org.freedesktop.DBus.Properties" and member == "Get":
            wanted, prop = msg.body
            if wanted == REMOTE_DESKTOP and not self.remote_desktop:
                self.conn.send(new_error(msg, "org.freedesktop.DBus.Error.UnknownInterface"))
                return
            value = {"version": 2, "AvailableDeviceTypes": 3}.get(prop, 0)
            self.conn.send(new_method_return(msg, "v", (("u", value),)))
            return
        if iface not in (REMOTE_DESKTOP, SCREENCAST) or (iface == REMOTE_DESKTOP
                                                         and not self.remote_desktop):
            self.conn.send(new_error(msg, "org.freedesktop.DBus.Error.UnknownMethod"))
            return
        options = msg.body[-1]
        self.calls.append((member, options))
        sender = fields[HeaderFields.sender].lstrip(":").replace(".", "_")
        request = f"/org/freedesktop/portal/desktop/request/{sender}/{options['handle_token'][1]}"
        self.conn.send(new_method_return(msg, "o", (request,)))
        code, results = Response.SUCCESS, {}
        if member == "CreateSession":
            token = options["session_handle_token"][1]
            results = {"session_handle": ("s", f"/org/freedesktop/portal/desktop/session/"
                                               f"{sender}/{token}")}
        elif member == "Start":
            code = self.start
        self.conn.send(new_signal(DBusAddress(request, interface=REQUEST), "Response",
                                  "ua{sv}", (int(code), results)))

    def close(self) -> None:
        self._stop = True
        self.thread.join(5)
        self.conn.close()


@needs_dbus
def test_no_portal_on_the_bus_is_one_line_naming_what_to_install(bus, tmp_path):
    assert not offers_remote_desktop(bus)
    with pytest.raises(UnsupportedDesktopError, match="no xdg-desktop-portal on the D-Bus") as err:
        PortalSession(bus, TokenStore(tmp_path))
    assert err.value.exit_code == EXIT_UNSUPPORTED


@needs_dbus
def test_a_portal_without_remote_desktop_is_named_as_such(bus, tmp_path):
    portal = StandInPortal(bus, remote_desktop=False)
    try:
        assert not offers_remote_desktop(bus)
        with pytest.raises(UnsupportedDesktopError, match="has no RemoteDesktop portal"):
            PortalSession(bus, TokenStore(tmp_path))
    finally:
        portal.close()


@needs_dbus
def test_a_declined_dialog_stops_with_one_line_and_the_saved_token_was_offered(bus, tmp_path):
    """The user declines: one line, exit 5, nothing kept; the token saved before was passed to
    SelectDevices with persist_mode 2, and the screen cast asked for one monitor with no
    pointer drawn."""
    store = TokenStore(tmp_path)
    token = str(uuid.uuid4())
    store.save(token)
    portal = StandInPortal(bus, start=Response.CANCELLED)
    try:
        assert offers_remote_desktop(bus)
        with pytest.raises(DeclinedError, match="was declined: nothing was seen or clicked") \
                as err:
            PortalSession(bus, store)
        assert err.value.exit_code == EXIT_UNSUPPORTED
    finally:
        portal.close()
    calls = dict(portal.calls)
    assert [name for name, _ in portal.calls] == ["CreateSession", "SelectDevices",
                                                  "SelectSources", "Start"]
    assert calls["SelectDevices"]["persist_mode"] == ("u", 2)
    assert calls["SelectDevices"]["restore_token"] == ("s", token)
    assert calls["SelectDevices"]["types"] == ("u", 3)
    assert calls["SelectSources"]["types"] == ("u", 1)
    assert calls["SelectSources"]["cursor_mode"] == ("u", 1)
    assert store.load() == token   # not replaced: no session started


def test_open_backend_names_the_portal_backend_and_needs_a_bus(monkeypatch):
    from minebot.backends.backend import BACKENDS, open_backend
    from minebot.errors import NoGameError
    assert "portal" in BACKENDS
    monkeypatch.delenv("MINEBOT_BACKEND", raising=False)
    with pytest.raises(NoGameError, match="backend portal: no D-Bus session bus"):
        open_backend(force="portal", env={"WAYLAND_DISPLAY": "wayland-9"})


def test_a_file_without_capabilities_may_be_executed(tmp_path):
    """``exec_allowed`` refuses only a file capability outside the bounding set (Debian 12's
    kwin_wayland in a root without ``cap_sys_resource``); a plain file is always allowed."""
    from minebot.sandbox.session import exec_allowed
    plain = tmp_path / "tool"
    plain.write_text("#!/bin/sh\n")
    assert exec_allowed(plain)
