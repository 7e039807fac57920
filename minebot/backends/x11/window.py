"""Finding, focusing, moving and measuring the game window through X11 (python-xlib).

Why not just a screenshot search: the window's title and class identify *our* game even when
something else on screen looks like a board, and its geometry tells us exactly which region
to capture. EWMH's ``_NET_CLIENT_LIST`` is used when a window manager provides it; on a bare
X server (Xvfb, no WM) the top-level windows are the root's children.

GNOME Mines pauses when it loses focus once the clock runs, and with no window manager focus
follows the pointer, so ``focus`` sets it explicitly (XSetInputFocus).
"""

from __future__ import annotations

import contextlib
import io
import os
import time
from dataclasses import dataclass
from typing import Any, Iterator

from ...errors import DesktopError
from ...games.gnome_mines.profile import WINDOW as GNOME_MINES_WINDOW
from ...games.profile import WindowMatch


@dataclass(frozen=True)
class Rect:
    """A screen rectangle; ``right``/``bottom`` are exclusive."""

    left: int
    top: int
    width: int
    height: int

    @property
    def right(self) -> int:
        return self.left + self.width

    @property
    def bottom(self) -> int:
        return self.top + self.height

    def contains(self, x: float, y: float) -> bool:
        return self.left <= x < self.right and self.top <= y < self.bottom

    def intersect(self, other: "Rect") -> "Rect | None":
        left, top = max(self.left, other.left), max(self.top, other.top)
        right, bottom = min(self.right, other.right), min(self.bottom, other.bottom)
        if right <= left or bottom <= top:
            return None
        return Rect(left, top, right - left, bottom - top)

    def as_mss(self) -> dict:
        return {"left": self.left, "top": self.top, "width": self.width, "height": self.height}


@dataclass(frozen=True)
class WindowInfo:
    """One top-level window: X id, title, WM_CLASS, owning PID (if advertised), geometry."""

    id: int
    title: str
    wm_class: tuple[str, ...]
    pid: int | None
    rect: Rect
    viewable: bool
    transient_for: int | None = None


class X11:
    """One connection to an X display; cheap to keep open for the whole run.

    ``display`` defaults to ``$DISPLAY``. All methods take or return plain window ids so the
    caller never holds python-xlib objects.
    """

    def __init__(self, display: str | None = None) -> None:
        from Xlib import error as xerror  # imported here: no X at import
        name = display or os.environ.get("DISPLAY")
        if not name:
            raise DesktopError("no X display: set DISPLAY or use `minebot demo --virtual`")
        self.name = name
        self._xerror = xerror
        try:
            self.d = open_display(name)
        except Exception as exc:  # noqa: BLE001 - Xlib raises several unrelated types here
            raise DesktopError(f"cannot open X display {name}: {exc}") from None
        self.root = self.d.screen().root
        self._atoms: dict[str, int] = {}
        self._missed_change = False      # an event consumed by a wait, still owed to ``changed``
        self._activation_ignored = False  # the WM ignored a focus request once: not waited again
        self._wm_seen: bool | None = None  # whether a window manager runs (asked once)
        self._time_window: Any = None      # the private window whose PropertyNotify tells time

    def close(self) -> None:
        close_display(self.d)

    def __enter__(self) -> "X11":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # -- helpers ----------------------------------------------------------------------
    def atom(self, name: str) -> int:
        if name not in self._atoms:
            self._atoms[name] = self.d.intern_atom(name)
        return self._atoms[name]

    @property
    def screen_rect(self) -> Rect:
        s = self.d.screen()
        return Rect(0, 0, s.width_in_pixels, s.height_in_pixels)

    def _window(self, wid: int):
        return self.d.create_resource_object("window", wid)

    def _prop(self, win, name: str, type_name: str | None = None):
        try:
            prop = win.get_full_property(self.atom(name), self.atom(type_name) if type_name else 0)
        except self._xerror.XError:
            return None
        return prop.value if prop is not None else None

    def _top_level_ids(self) -> list[int]:
        """Client top-level windows: EWMH's list, else the root's children, where a child
        without WM_CLASS (a reparenting WM's frame, e.g. weston's XWayland WM, which keeps no
        ``_NET_CLIENT_LIST``) stands for the client window inside it."""
        clients = self._prop(self.root, "_NET_CLIENT_LIST")
        if clients is not None and len(clients):
            return [int(w) for w in clients]
        try:
            children = [w.id for w in self.root.query_tree().children]
        except self._xerror.XError:
            return []
        return [self._client_of(w) for w in children]

    def _client_of(self, wid: int) -> int:
        """The client window a frame ``wid`` holds (the child with WM_CLASS), else ``wid``."""
        win = self._window(wid)
        if self._prop(win, "WM_CLASS") is not None:
            return wid
        try:
            children = win.query_tree().children
        except self._xerror.XError:
            return wid
        for child in children:
            if self._prop(child, "WM_CLASS") is not None:
                return child.id
        return wid

    def _frame_of(self, wid: int) -> int:
        """The root's child that holds ``wid`` (its WM frame), or ``wid`` itself."""
        current = wid
        for _ in range(8):
            try:
                parent = self._window(current).query_tree().parent
            except self._xerror.XError:
                return wid
            if parent is None or int(parent.id) in (0, self.root.id):
                return current
            current = int(parent.id)
        return wid

    # -- queries ----------------------------------------------------------------------
    def info(self, wid: int) -> WindowInfo | None:
        """Title, class, PID and absolute geometry of a window, or None if it is gone."""
        win = self._window(wid)
        try:
            attrs = win.get_attributes()
            geom = win.get_geometry()
            origin = win.translate_coords(self.root, 0, 0)
        except self._xerror.XError:
            return None
        title = self._prop(win, "_NET_WM_NAME", "UTF8_STRING")
        if title is None:
            title = self._prop(win, "WM_NAME")
        if isinstance(title, bytes):
            title = title.decode("utf-8", "replace")
        raw_class = self._prop(win, "WM_CLASS")
        if isinstance(raw_class, str):
            raw_class = raw_class.encode("latin-1", "replace")
        wm_class = tuple(p.decode("utf-8", "replace") for p in (raw_class or b"").split(b"\0") if p)
        pid = self._prop(win, "_NET_WM_PID")
        transient = self._prop(win, "WM_TRANSIENT_FOR")
        from Xlib import X
        return WindowInfo(
            id=wid, title=str(title or ""), wm_class=wm_class,
            pid=int(pid[0]) if pid is not None and len(pid) else None,
            rect=Rect(-origin.x, -origin.y, geom.width, geom.height),
            viewable=attrs.map_state == X.IsViewable,
            transient_for=int(transient[0]) if transient is not None and len(transient) else None)

    def rect(self, wid: int) -> Rect | None:
        """Just the absolute geometry (2 round trips), or None if the window is gone/unmapped."""
        return window_rect(self.d, wid)

    def stacked_above(self, wid: int) -> list[int]:
        """Ids of the viewable windows stacked above ``wid`` (bottom to top).

        From the X server's own order of the root's children (a WM's frame stands for the
        client inside it), not EWMH's ``_NET_CLIENT_LIST_STACKING``: that list leaves out
        override-redirect windows (menus, notifications, an overlay), which take clicks too.
        """
        from Xlib import X
        try:
            ids, me = [w.id for w in self.root.query_tree().children], self._frame_of(wid)
        except self._xerror.XError:
            return []
        if me not in ids:
            return []
        above = []
        for other in ids[ids.index(me) + 1:]:
            try:
                if self._window(other).get_attributes().map_state == X.IsViewable:
                    above.append(self._client_of(other))
            except self._xerror.XError:
                continue
        return above

    # -- the desktop around the window ---------------------------------------------------
    def wm_name(self) -> str | None:
        """The EWMH window manager's name (``_NET_SUPPORTING_WM_CHECK``), or None with no WM."""
        check = self._prop(self.root, "_NET_SUPPORTING_WM_CHECK")
        if check is None or not len(check):
            return None
        win = self._window(int(check[0]))
        name = self._prop(win, "_NET_WM_NAME", "UTF8_STRING")
        if self._prop(win, "_NET_SUPPORTING_WM_CHECK") is None:
            return None   # a stale check window left by a window manager that is gone
        if isinstance(name, bytes):
            name = name.decode("utf-8", "replace")
        return str(name or "unnamed")

    def supports(self, name: str) -> bool:
        """Whether the window manager advertises the EWMH hint ``name`` (``_NET_SUPPORTED``)."""
        supported = self._prop(self.root, "_NET_SUPPORTED")
        return supported is not None and self.atom(name) in set(int(a) for a in supported)

    def is_xwayland(self) -> bool:
        """An XWayland server: its root window reads black, so only grabs of a window's own
        pixels work."""
        reply = self.d.query_extension("XWAYLAND")   # xserver >= 23.1
        if reply is not None and reply.present:
            return True
        try:   # older XWayland (Debian 12: 22.1): its RandR outputs are named XWAYLAND<n>
            from Xlib.ext import randr
            res = randr.get_screen_resources(self.root)
            return any(randr.get_output_info(self.root, o, 0).name.startswith("XWAYLAND")
                       for o in res.outputs)
        except Exception:  # noqa: BLE001 - no RandR, or a server that answers oddly: not XWayland as far as is known
            return False

    def frame_extents(self, wid: int) -> tuple[int, int, int, int]:
        """``_GTK_FRAME_EXTENTS`` (left, right, top, bottom): the invisible shadow margins a
        client-side decorated GTK window draws around itself when the WM composites; zero
        when absent."""
        value = self._prop(self._window(wid), "_GTK_FRAME_EXTENTS")
        if value is None or len(value) != 4:
            return (0, 0, 0, 0)
        left, right, top, bottom = (int(v) for v in value)
        return left, right, top, bottom

    def windows(self) -> Iterator[WindowInfo]:
        for wid in self._top_level_ids():
            info = self.info(wid)
            if info is not None:
                yield info

    def find_window(self, match: WindowMatch = GNOME_MINES_WINDOW,
                    pid: int | None = None) -> WindowInfo | None:
        """The largest viewable top-level window ``match`` accepts (by default GNOME Mines'),
        owned by ``pid`` when given.

        GTK also maps nothing for its hidden 10x10 leader window, but we still take the largest
        viewable match so an unrelated small window never wins.
        """
        best = None
        for info in self.windows():
            if not info.viewable:
                continue
            if not match.matches(info.title, info.wm_class):
                continue
            if pid is not None and info.pid not in (None, pid):
                continue
            if best is None or info.rect.width * info.rect.height > best.rect.width * best.rect.height:
                best = info
        return best

    def dialogs_of(self, wid: int) -> list[WindowInfo]:
        """Viewable windows transient for ``wid`` (e.g. GNOME Mines' "Congratulations!").

        Checked after every unexpected read, so it asks X only the cheap questions first
        (mapped? transient for whom?) and the full description of the few that match.
        """
        from Xlib import X
        found = []
        for other in self._top_level_ids():
            if other == wid:
                continue
            win = self._window(other)
            try:
                if win.get_attributes().map_state != X.IsViewable:
                    continue
            except self._xerror.XError:
                continue
            transient = self._prop(win, "WM_TRANSIENT_FOR")
            if transient is not None and len(transient) and int(transient[0]) == wid:
                info = self.info(other)
                if info is not None:
                    found.append(info)
        return found

    # -- change notification ------------------------------------------------------------
    def watch(self, wid: int) -> None:
        """Ask X to tell us when ``wid`` moves, resizes, unmaps, loses focus or is obscured,
        or when any top-level window appears or restacks.

        Checking geometry, focus and stacking before every click costs several round trips;
        with these events the check is a non-blocking look at the socket when nothing changed.
        """
        from Xlib import X
        try:
            self._window(wid).change_attributes(
                event_mask=X.StructureNotifyMask | X.FocusChangeMask | X.VisibilityChangeMask)
            self.root.change_attributes(event_mask=X.SubstructureNotifyMask)
            self.d.sync()
        except self._xerror.XError as exc:
            raise DesktopError(f"cannot watch window 0x{wid:x}: {exc}") from None

    def changed(self) -> bool:
        """True if any watched event arrived since the last call (events are consumed)."""
        seen, self._missed_change = self._missed_change, False
        while self.d.pending_events():
            self.d.next_event()
            seen = True
        return seen

    # -- actions ----------------------------------------------------------------------
    def focus(self, wid: int) -> None:
        """Give ``wid`` the keyboard focus (and raise it) so the game does not pause.

        Under a window manager that speaks EWMH this is a request to it (``_NET_ACTIVE_WINDOW``,
        source 2 "pager" so focus-stealing prevention lets it through, with a fresh server
        timestamp): a WM ignores or undoes a client's own XSetInputFocus and restacking. With
        no window manager we set focus and stacking ourselves.
        """
        from Xlib import X
        win = self._window(wid)
        try:
            if self.wm_name() is not None and self.supports("_NET_ACTIVE_WINDOW"):
                self._client_message(wid, "_NET_ACTIVE_WINDOW", [2, self.server_time(), 0])
                self._wait_focus(wid)
            else:
                win.configure(stack_mode=X.Above)
                win.set_input_focus(X.RevertToParent, X.CurrentTime)
            self.d.sync()
        except self._xerror.XError as exc:
            raise DesktopError(f"cannot focus window 0x{wid:x}: {exc}") from None

    def _wait_focus(self, wid: int, timeout: float = 0.3) -> None:
        """Until the WM has focused ``wid``, at most ``timeout``. A WM that ignored the request
        once (weston's XWM: X focus follows its Wayland seat) is not waited for again."""
        if self._activation_ignored:
            return
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.has_focus(wid):
                return
            time.sleep(0.002)
        self._activation_ignored = True

    def has_focus(self, wid: int) -> bool:
        """Whether keys go to ``wid``: the focus is on it or inside it (GTK focuses a child),
        or it is PointerRoot (focus follows the pointer) and the pointer is over ``wid``."""
        from Xlib import X
        focus = self.focused()
        if focus == wid:
            return True
        if focus == X.PointerRoot and self._managed():
            # (with no WM we set the focus ourselves instead: the user may move the pointer)
            child = self.root.query_pointer().child
            return bool(child) and int(child.id if hasattr(child, "id") else child) == self._frame_of(wid)
        try:
            tree = self._window(focus).query_tree()
        except (self._xerror.XError, TypeError):
            return False
        return int(tree.parent.id if tree.parent else 0) == wid

    def _managed(self) -> bool:
        """Whether a window manager runs (asked once per connection)."""
        if self._wm_seen is None:
            self._wm_seen = self.wm_name() is not None
        return self._wm_seen

    def _client_message(self, wid: int, name: str, data: list[int]) -> None:
        from Xlib import X
        from Xlib.protocol import event
        msg = event.ClientMessage(window=self._window(wid), client_type=self.atom(name),
                                  data=(32, (data + [0] * 5)[:5]))
        self.root.send_event(msg, event_mask=X.SubstructureRedirectMask | X.SubstructureNotifyMask)

    def server_time(self) -> int:
        """A fresh X server timestamp: append nothing to a property of a private window and
        read the time of the PropertyNotify that answers (the EWMH way to get "now")."""
        from Xlib import X, Xatom
        if self._time_window is None:
            self._time_window = self.root.create_window(
                -10, -10, 1, 1, 0, 0, X.InputOnly, X.CopyFromParent,
                event_mask=X.PropertyChangeMask, override_redirect=True)
        prop = self.atom("_MINEBOT_TIME")
        self._time_window.change_property(prop, Xatom.STRING, 8, b"", mode=X.PropModeAppend)
        self.d.flush()
        while True:
            ev = self.d.next_event()
            if ev.type == X.PropertyNotify and ev.window.id == self._time_window.id:
                return int(ev.time)
            self._missed_change = True   # a watched event: keep it for changed()

    def focus_pointer_root(self) -> None:
        """Back to focus-follows-pointer (the X default without a window manager)."""
        from Xlib import X
        self.d.set_input_focus(X.PointerRoot, X.RevertToPointerRoot, X.CurrentTime)
        self.d.sync()

    def focused(self) -> int:
        focus = self.d.get_input_focus().focus
        return int(focus) if isinstance(focus, int) else int(focus.id)

    def move_resize(self, wid: int, x: int | None = None, y: int | None = None,
                    width: int | None = None, height: int | None = None) -> None:
        """Move and/or resize a window (works directly with no window manager)."""
        args = {k: v for k, v in (("x", x), ("y", y), ("width", width), ("height", height))
                if v is not None}
        try:
            self._window(wid).configure(**args)
            self.d.sync()
        except self._xerror.XError as exc:
            raise DesktopError(f"cannot move/resize window 0x{wid:x}: {exc}") from None


def find_game_window(x11: X11, match: WindowMatch) -> WindowInfo | None:
    """The largest viewable top-level window ``match`` accepts that is not a dialog (so a
    small helper window or the game's own dialog never wins)."""
    best = None
    for info in x11.windows():
        if not info.viewable or info.transient_for is not None or \
                not match.matches(info.title, info.wm_class):
            continue
        if best is None or info.rect.width * info.rect.height > best.rect.width * best.rect.height:
            best = info
    return best


def window_rect(display, wid: int) -> Rect | None:
    """Window ``wid``'s absolute geometry on an open python-xlib ``display``, or None if it is
    gone or unmapped. A function of the connection, because a click checked under a server
    grab (``x11.pointer.Pointer``) must ask on its own connection: any other would wait for the
    grab to end."""
    from Xlib import X
    from Xlib.error import XError
    win = display.create_resource_object("window", wid)
    try:
        if win.get_attributes().map_state != X.IsViewable:
            return None
        geom = win.get_geometry()
        origin = win.translate_coords(display.screen().root, 0, 0)
    except XError:
        return None
    return Rect(-origin.x, -origin.y, geom.width, geom.height)


@contextlib.contextmanager
def quiet_xlib():
    """Hide python-xlib's "no xauthority details available" print.

    Xvfb lets local clients in without a cookie, so the empty Xauthority file that
    ``ensure_xauthority`` provides is right; python-xlib still prints a warning to standard
    output on every connection, which would litter every run.
    """
    ensure_xauthority()
    with contextlib.redirect_stdout(io.StringIO()):
        yield


def close_display(d, sync: bool = False) -> None:
    """Close a python-xlib connection (after a ``sync`` of what was sent, when asked) whose
    server may already be gone: then there is nothing left to free, and no error to report."""
    try:
        if sync:
            d.sync()
        d.close()
    except Exception:  # noqa: BLE001, S110 - the X server may already be gone; nothing to free
        pass


def open_display(name: str | None):
    """A python-xlib connection to ``name``, quietly (see ``quiet_xlib``)."""
    from Xlib import display as xdisplay
    from Xlib.protocol import display as protocol
    from Xlib.protocol import event
    # python-xlib keeps the extension event table on the class, shared by every connection:
    # after one to Xvfb, a connection to an XWayland (other extensions, other event codes)
    # fails in RandR's init ("'type' object does not support item assignment"). Each
    # connection gets a fresh table and keeps it (we select no extension events).
    protocol.Display.event_classes = event.event_class.copy()
    with quiet_xlib():
        d = xdisplay.Display(name)
    d.display.event_classes = protocol.Display.event_classes
    return d


def ensure_xauthority() -> None:
    """python-xlib fails when no Xauthority file exists.

    On a fresh machine or container ``~/.Xauthority`` may be missing; Xvfb grants local
    clients access without a cookie, so an empty file is enough, and ``/dev/null`` is one that
    always exists (a temporary file per run would be left behind by every run).
    """
    path = os.environ.get("XAUTHORITY") or os.path.expanduser("~/.Xauthority")
    if os.path.exists(path):
        return
    os.environ["XAUTHORITY"] = os.devnull
