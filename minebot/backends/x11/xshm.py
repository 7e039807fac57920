"""Grab one X window's own pixels with MIT-SHM (XShmGetImage on the window), through ctypes.

Why not the root window (what mss grabs): under XWayland the root reads black, and under a
compositing window manager the root is what is composed, not the game. A grab of the game's
own drawable works under Xvfb, every X window manager and XWayland. python-xlib's
``get_image`` does the same over the socket but takes ~20 ms for an expert window; shared memory
takes ~1-2 ms, and the live game grabs many frames per move.

Caveat (X11 without a compositor): where another window covers ours the server returns the
covering window's pixels, so the caller must check the stacking before trusting a frame.
Errors (window closed, unmapped, off screen) come back as ``DesktopError``; Xlib's default
handler, which would end the process, is replaced while a grab runs.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import threading
from typing import Any

import numpy as np

from ...errors import DesktopError

_ZPIXMAP = 2
_ALL_PLANES = 0xFFFFFFFF
_IPC_PRIVATE, _IPC_CREAT, _IPC_RMID = 0, 0o1000, 0


class _XImage(ctypes.Structure):
    _fields_ = [("width", ctypes.c_int), ("height", ctypes.c_int), ("xoffset", ctypes.c_int),
                ("format", ctypes.c_int), ("data", ctypes.c_void_p), ("byte_order", ctypes.c_int),
                ("bitmap_unit", ctypes.c_int), ("bitmap_bit_order", ctypes.c_int),
                ("bitmap_pad", ctypes.c_int), ("depth", ctypes.c_int),
                ("bytes_per_line", ctypes.c_int), ("bits_per_pixel", ctypes.c_int)]


class _ShmInfo(ctypes.Structure):
    _fields_ = [("shmseg", ctypes.c_ulong), ("shmid", ctypes.c_int), ("shmaddr", ctypes.c_void_p),
                ("readOnly", ctypes.c_int)]


class _WindowAttributes(ctypes.Structure):
    _fields_ = [("x", ctypes.c_int), ("y", ctypes.c_int), ("width", ctypes.c_int),
                ("height", ctypes.c_int), ("border_width", ctypes.c_int), ("depth", ctypes.c_int),
                ("visual", ctypes.c_void_p), ("root", ctypes.c_ulong), ("class_", ctypes.c_int),
                ("bit_gravity", ctypes.c_int), ("win_gravity", ctypes.c_int),
                ("backing_store", ctypes.c_int), ("backing_planes", ctypes.c_ulong),
                ("backing_pixel", ctypes.c_ulong), ("save_under", ctypes.c_int),
                ("colormap", ctypes.c_ulong), ("map_installed", ctypes.c_int),
                ("map_state", ctypes.c_int), ("all_event_masks", ctypes.c_long),
                ("your_event_mask", ctypes.c_long), ("do_not_propagate_mask", ctypes.c_long),
                ("override_redirect", ctypes.c_int), ("screen", ctypes.c_void_p)]


class _XErrorEvent(ctypes.Structure):
    _fields_ = [("type", ctypes.c_int), ("display", ctypes.c_void_p), ("resourceid", ctypes.c_ulong),
                ("serial", ctypes.c_ulong), ("error_code", ctypes.c_ubyte),
                ("request_code", ctypes.c_ubyte), ("minor_code", ctypes.c_ubyte)]


_ERROR_HANDLER = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.POINTER(_XErrorEvent))
_LIBS = None
_LOCK = threading.Lock()
_errors: list[int] = []


@_ERROR_HANDLER
def _record_error(display, event) -> int:
    _errors.append(int(event.contents.error_code))
    return 0


def _libs():
    """libX11, libXext and libc with the prototypes used here (loaded once, on first use)."""
    global _LIBS
    if _LIBS is None:
        names = {n: ctypes.util.find_library(n) for n in ("X11", "Xext", "c")}
        missing = [n for n, path in names.items() if path is None]
        if missing:
            raise DesktopError(f"cannot grab windows: lib{missing[0]} not found (apt install "
                               "libx11-6 libxext6)")
        x11, xext, libc = (ctypes.CDLL(names[n], use_errno=True) for n in ("X11", "Xext", "c"))
        vp, ul, ci = ctypes.c_void_p, ctypes.c_ulong, ctypes.c_int
        x11.XOpenDisplay.restype, x11.XOpenDisplay.argtypes = vp, [ctypes.c_char_p]
        x11.XCloseDisplay.argtypes = [vp]
        x11.XSync.argtypes = [vp, ci]
        x11.XSetErrorHandler.restype, x11.XSetErrorHandler.argtypes = vp, [vp]
        x11.XGetWindowAttributes.argtypes = [vp, ul, ctypes.POINTER(_WindowAttributes)]
        x11.XFree.argtypes = [vp]
        xext.XShmQueryExtension.argtypes = [vp]
        xext.XShmCreateImage.restype = ctypes.POINTER(_XImage)
        xext.XShmCreateImage.argtypes = [vp, vp, ctypes.c_uint, ci, vp, ctypes.POINTER(_ShmInfo),
                                         ctypes.c_uint, ctypes.c_uint]
        xext.XShmAttach.argtypes = xext.XShmDetach.argtypes = [vp, ctypes.POINTER(_ShmInfo)]
        xext.XShmGetImage.argtypes = [vp, ul, ctypes.POINTER(_XImage), ci, ci, ul]
        libc.shmget.restype, libc.shmget.argtypes = ci, [ci, ctypes.c_size_t, ci]
        libc.shmat.restype, libc.shmat.argtypes = vp, [ci, vp, ci]
        libc.shmdt.argtypes = [vp]
        libc.shmctl.argtypes = [ci, ci, vp]
        _LIBS = (x11, xext, libc)
    return _LIBS


class WindowGrabber:
    """``WindowGrabber(":5", wid).grab(x, y, w, h) -> (h, w, 3) uint8 BGR`` (window coordinates).

    One X connection and one shared-memory segment, attached once and grown only when a grab
    needs more than it holds. Each size asked for gets its own image header over that segment
    (``XShmGetImage`` fills exactly its image's size): the live game alternates small grabs of
    the clicked cells with whole frames, and re-making the segment at every change of size
    (shmget, shmat, an attach with a round trip) would cost more than the grabs themselves.
    ``close()`` is idempotent; use it as a context manager.
    """

    MAX_IMAGES = 16
    """Image headers kept, one per size; past that the oldest go (a header is a few bytes)."""

    def __init__(self, display: str, window: int) -> None:
        self.x11, self.xext, self.libc = _libs()
        self.window = window
        self._d = self.x11.XOpenDisplay(display.encode())
        if not self._d:
            raise DesktopError(f"cannot open X display {display} to grab the window")
        if not self.xext.XShmQueryExtension(self._d):
            self.close()
            raise DesktopError(f"X display {display} has no MIT-SHM extension")
        self._images: dict[tuple[int, int], Any] = {}   # (width, height) -> ctypes XImage pointer
        self._shm = _ShmInfo()
        self._capacity = 0          # bytes of the attached segment (0: none)
        self._attrs: _WindowAttributes | None = None

    def attributes(self) -> _WindowAttributes:
        attrs = _WindowAttributes()
        with self._trap("read the window's attributes"):
            self.x11.XGetWindowAttributes(self._d, self.window, ctypes.byref(attrs))
        return attrs

    def _trap(self, what: str):
        """Run X calls with errors recorded instead of ending the process; raise DesktopError."""
        grabber = self

        class _Trap:
            def __enter__(self):
                _LOCK.acquire()
                _errors.clear()
                self.old = grabber.x11.XSetErrorHandler(ctypes.cast(_record_error, ctypes.c_void_p))

            def __exit__(self, exc_type, exc, tb):
                try:
                    grabber.x11.XSync(grabber._d, 0)
                    codes = list(_errors)
                    grabber.x11.XSetErrorHandler(self.old)
                finally:
                    _LOCK.release()
                if codes and exc_type is None:
                    raise DesktopError(f"cannot {what} of window 0x{grabber.window:x} "
                                       f"(X error {codes[0]}: closed, unmapped or off screen?)")
        return _Trap()

    def _image(self, width: int, height: int) -> Any:
        """The image header for a grab of ``width`` x ``height``, over a segment big enough."""
        image = self._images.get((width, height))
        if image is not None:
            return image
        if self._attrs is None:
            self._attrs = self.attributes()
        attrs = self._attrs
        image = self.xext.XShmCreateImage(self._d, attrs.visual, attrs.depth, _ZPIXMAP, None,
                                          ctypes.byref(self._shm), width, height)
        if not image:
            raise DesktopError("XShmCreateImage failed")
        if image.contents.bits_per_pixel != 32:
            self.x11.XFree(image)
            raise DesktopError(f"window depth {attrs.depth}: only 32 bits per pixel are supported")
        size = image.contents.bytes_per_line * height
        if size > self._capacity:
            # room for the whole window at once too: the next full frame needs no new segment
            self._new_segment(max(size, 4 * max(attrs.width, 1) * max(attrs.height, 1)))
        image.contents.data = self._shm.shmaddr
        if len(self._images) >= self.MAX_IMAGES:
            oldest = next(iter(self._images))
            self.x11.XFree(self._images.pop(oldest))
        self._images[(width, height)] = image
        return image

    def _new_segment(self, size: int) -> None:
        """A shared segment of ``size`` bytes, attached to the server (the old one, and every
        image header over it, freed first)."""
        self._free_images()
        shmid = self.libc.shmget(_IPC_PRIVATE, size, _IPC_CREAT | 0o600)
        if shmid < 0:
            raise DesktopError(f"shmget failed (errno {ctypes.get_errno()})")
        addr = self.libc.shmat(shmid, None, 0)
        self._shm.shmid, self._shm.shmaddr, self._shm.readOnly = shmid, addr, 0
        with self._trap("attach shared memory"):
            self.xext.XShmAttach(self._d, ctypes.byref(self._shm))
        self.libc.shmctl(shmid, _IPC_RMID, None)   # freed once both sides detach
        self._capacity = size

    def grab(self, x: int, y: int, width: int, height: int) -> np.ndarray:
        """The window's pixels in the rectangle (x, y, width, height) of the window, BGR."""
        image = self._image(width, height)
        with self._trap("grab the pixels"):
            ok = self.xext.XShmGetImage(self._d, self.window, image, x, y, _ALL_PLANES)
        if not ok:
            raise DesktopError(f"XShmGetImage failed on window 0x{self.window:x}")
        img = image.contents
        buf = (ctypes.c_ubyte * (img.bytes_per_line * height)).from_address(self._shm.shmaddr)
        rows = np.frombuffer(buf, np.uint8).reshape(height, img.bytes_per_line // 4, 4)
        import cv2  # dropping alpha with cvtColor is several times faster than a numpy copy
        return cv2.cvtColor(rows[:, :width] if rows.shape[1] != width else rows, cv2.COLOR_BGRA2BGR)

    def _free_images(self) -> None:
        """Every image header, and the segment under them (detached from the server first)."""
        for image in self._images.values():
            self.x11.XFree(image)
        self._images.clear()
        if self._capacity:
            self.xext.XShmDetach(self._d, ctypes.byref(self._shm))
            self.x11.XSync(self._d, 0)
            self.libc.shmdt(ctypes.c_void_p(self._shm.shmaddr))
            self._capacity = 0

    def close(self) -> None:
        if getattr(self, "_d", None):
            try:
                self._free_images()
            finally:
                self.x11.XCloseDisplay(self._d)
                self._d = None

    def __enter__(self) -> "WindowGrabber":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
