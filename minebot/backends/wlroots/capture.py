"""Frames of one output through ``wlr-screencopy-unstable-v1``, into shared memory and numpy.

Why region copies: each grab asks the compositor for exactly the region the frame source
wants (``capture_output_region``), so watching the ring around an expert board copies a few
thousand pixels, not the whole output. The compositor copies into a ``wl_shm`` buffer minebot
made (a memfd it maps too); the pixels are then one numpy view and one colour conversion,
with no loop over pixels. Buffers are kept per size and reused.
"""

from __future__ import annotations

import mmap
import os
from dataclasses import dataclass, field

import numpy as np

from ...errors import DesktopError, NoGameError
from ..capture import GrabbedCapture
from ..x11.window import Rect
from . import protocol as p
from .client import Connection, Output

GRAB_TIMEOUT = 5.0
"""Seconds a copy may take before the output counts as gone (a headless output renders at
60 Hz, a copy waits for its next frame)."""


@dataclass
class ShmBuffer:
    """A ``wl_buffer`` over a memfd that minebot maps as well (``pixels``: rows of bytes)."""

    buffer: int
    pool: int
    memory: mmap.mmap
    pixels: np.ndarray

    def destroy(self, conn: Connection) -> None:
        self.pixels = np.empty((0, 0), np.uint8)   # the view goes before its memory
        conn.request(self.buffer, "destroy")
        conn.request(self.pool, "destroy")
        self.memory.close()


def make_buffer(conn: Connection, shm: int, width: int, height: int, stride: int,
                fmt: int) -> ShmBuffer:
    """A buffer of that size and format in a fresh memfd, shared with the compositor."""
    size = stride * height
    fd = os.memfd_create("minebot-screencopy", os.MFD_CLOEXEC)
    try:
        os.ftruncate(fd, size)
        memory = mmap.mmap(fd, size)
        pool = conn.new(p.WL_SHM_POOL)
        conn.request(shm, "create_pool", pool, fd, size)
    finally:
        os.close(fd)   # the compositor has its own copy of the descriptor
    buffer = conn.new(p.WL_BUFFER)
    conn.request(pool, "create_buffer", buffer, 0, width, height, stride, fmt)
    pixels = np.frombuffer(memory, np.uint8).reshape(height, stride)
    return ShmBuffer(buffer, pool, memory, pixels)


def to_bgr(rows: np.ndarray, width: int, fmt: int, y_invert: bool) -> np.ndarray:
    """A BGR copy of ``width`` pixels of 32-bit ``rows`` (bytes per row >= 4 * width) in
    wl_shm format ``fmt``, turned upright when the compositor sent it bottom up."""
    import cv2
    pixels = rows[:, :width * 4].reshape(rows.shape[0], width, 4)
    if y_invert:
        pixels = pixels[::-1]
    if fmt in (p.WL_SHM_ARGB8888, p.WL_SHM_XRGB8888):
        return cv2.cvtColor(np.ascontiguousarray(pixels), cv2.COLOR_BGRA2BGR)
    if fmt in (p.WL_SHM_ABGR8888, p.WL_SHM_XBGR8888):
        return cv2.cvtColor(np.ascontiguousarray(pixels), cv2.COLOR_RGBA2BGR)
    raise DesktopError(f"the compositor offered screen copies in wl_shm format 0x{fmt:x}, "
                       "which minebot does not read")


@dataclass
class _Frame:
    """What the compositor said of one screencopy frame so far."""

    shm: tuple[int, int, int, int] | None = None   # format, width, height, stride
    described: bool = False
    y_invert: bool = False
    outcome: str | None = None                     # "ready" or "failed"
    extra: list = field(default_factory=list)

    def on_event(self, name: str, args: tuple) -> None:
        if name == "buffer":
            self.shm = (args[0], args[1], args[2], args[3])
        elif name == "flags":
            self.y_invert = bool(args[0] & p.SCREENCOPY_Y_INVERT)
        elif name in ("ready", "failed"):
            self.outcome = name
        elif name == "buffer_done":
            self.described = True


class OutputCapture(GrabbedCapture):
    """Frames of ``output`` (a ``ScreenCapture``): ``grab(region)`` in layout coordinates ->
    BGR array of exactly that region. ``rect`` is the output in the layout."""

    frame_clocked = True
    """Each copy is made at the output's next frame (up to a refresh period away, 17 ms at
    60 Hz), so the frame source asks for one region where it wants several."""

    def __init__(self, conn: Connection, output: Output) -> None:
        if not conn.version(p.SCREENCOPY_MANAGER):
            raise DesktopError("the compositor offers no zwlr_screencopy_manager_v1")
        self.conn, self.output = conn, output
        self.rect = Rect(output.x, output.y, output.width, output.height)
        self._version = min(conn.version(p.SCREENCOPY_MANAGER), 3)
        self._manager = conn.bind(p.SCREENCOPY_MANAGER, 3)
        self._shm = conn.bind(p.WL_SHM, 1)
        self._buffers: dict[tuple[int, int, int, int], ShmBuffer] = {}

    def grab(self, region: Rect | None = None) -> np.ndarray:
        region = self.rect if region is None else region
        if region.intersect(self.rect) != region:
            raise NoGameError(f"the region {region} lies outside the output {self.rect}")
        conn = self.conn
        frame = _Frame()
        fid = conn.new(p.SCREENCOPY_FRAME, frame.on_event)
        try:
            conn.request(self._manager, "capture_output_region", fid, 0, self.output.object_id,
                         region.left - self.rect.left, region.top - self.rect.top,
                         region.width, region.height)
            # Version 3 lists every buffer type, then buffer_done; before it, the shm buffer
            # event is the only one.
            conn.wait(lambda: frame.outcome is not None or (
                frame.described if self._version >= 3 else frame.shm is not None),
                GRAB_TIMEOUT, "screen copy offer")
            if frame.outcome == "failed" or frame.shm is None:
                raise DesktopError(f"the compositor refused to copy {region} of its output")
            fmt, width, height, stride = frame.shm
            if (width, height) != (region.width, region.height):
                raise DesktopError(f"the screen copy of {region} came at {width}x{height} "
                                   "(a scaled output?)")
            buffer = self._buffer(frame.shm)
            conn.request(fid, "copy", buffer.buffer)
            conn.wait(lambda: frame.outcome is not None, GRAB_TIMEOUT, "screen copy")
            if frame.outcome != "ready":
                raise DesktopError(f"the screen copy of {region} failed (the output is gone?)")
            return to_bgr(buffer.pixels, width, fmt, frame.y_invert)
        finally:
            conn.request(fid, "destroy")
            conn.forget(fid)

    def _buffer(self, shm: tuple[int, int, int, int]) -> ShmBuffer:
        found = self._buffers.get(shm)
        if found is None:
            if len(self._buffers) >= 8:   # sizes come and go with the regions asked for
                self._drop_buffers()
            fmt, width, height, stride = shm
            found = self._buffers[shm] = make_buffer(self.conn, self._shm, width, height,
                                                     stride, fmt)
        return found

    def _drop_buffers(self) -> None:
        buffers, self._buffers = self._buffers, {}
        for buffer in buffers.values():
            try:
                buffer.destroy(self.conn)
            except DesktopError:
                pass   # the connection is gone: the compositor freed its side already

    def close(self) -> None:
        """Idempotent: the buffers (the connection is the backend's)."""
        self._drop_buffers()

    def __enter__(self) -> "OutputCapture":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
