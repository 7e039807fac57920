"""The Wayland wire format, as small as minebot needs it: messages to bytes and back.

Why by hand and not through bindings: the three wlroots protocols minebot speaks
(screencopy, virtual pointer, virtual keyboard, plus layer-shell for the fail-safe) come as
XML that Debian 12 packages nowhere, and bindings such as pywayland generate their Python from
that XML and load libwayland-client through cffi. The wire format itself is stable and tiny: a
message is the object id (u32), the opcode and the total size (u16 each, in one u32), then its
arguments, each 4-byte aligned; file descriptors travel beside the bytes (``SCM_RIGHTS``). Each
message minebot sends or reads is declared once, with its argument types, in ``protocol.py``.

Argument types (the letters of a signature): ``i`` int32, ``u`` uint32, ``f`` fixed 24.8,
``s`` string, ``o`` object id (0: null), ``n`` new object id, ``a`` array, ``h`` fd (not in the
bytes). Pure Python, no socket here: ``encode`` and ``decode`` are tested on their own.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass

from ...errors import DesktopError

HEADER = struct.Struct("<II")


class WireError(DesktopError):
    """A message that breaks the wire format (from the compositor, or one we cannot encode)."""


def _pad(n: int) -> int:
    return (n + 3) & ~3


def encode(object_id: int, opcode: int, signature: str, args: tuple) -> tuple[bytes, list[int]]:
    """The bytes of one request and the file descriptors that go with it (in order)."""
    if len(signature) != len(args):
        raise WireError(f"signature {signature!r} takes {len(signature)} arguments, got {len(args)}")
    body = bytearray()
    fds: list[int] = []
    for kind, value in zip(signature, args):
        if kind == "i":
            body += struct.pack("<i", value)
        elif kind in "uon":
            body += struct.pack("<I", 0 if value is None else value)
        elif kind == "f":
            body += struct.pack("<i", int(round(value * 256)))
        elif kind == "s":
            raw = value.encode() + b"\0"
            body += struct.pack("<I", len(raw)) + raw + b"\0" * (_pad(len(raw)) - len(raw))
        elif kind == "a":
            raw = bytes(value)
            body += struct.pack("<I", len(raw)) + raw + b"\0" * (_pad(len(raw)) - len(raw))
        elif kind == "h":
            fds.append(value)
        else:
            raise WireError(f"unknown argument type {kind!r}")
    size = HEADER.size + len(body)
    if size > 0xFFFF:
        raise WireError(f"a message of {size} bytes is longer than the wire allows")
    return HEADER.pack(object_id, (size << 16) | opcode) + bytes(body), fds


@dataclass(frozen=True)
class Message:
    """One event as read: the object it is for, its opcode, its raw argument bytes."""

    object_id: int
    opcode: int
    body: bytes


def split(data: bytes) -> tuple[list[Message], bytes]:
    """The whole messages at the start of ``data``, and the bytes left over (a message not
    complete yet)."""
    messages = []
    at = 0
    while len(data) - at >= HEADER.size:
        object_id, word = HEADER.unpack_from(data, at)
        size, opcode = word >> 16, word & 0xFFFF
        if size < HEADER.size:
            raise WireError(f"a message of {size} bytes for object {object_id}")
        if len(data) - at < size:
            break
        messages.append(Message(object_id, opcode, bytes(data[at + HEADER.size:at + size])))
        at += size
    return messages, bytes(data[at:])


def decode(signature: str, body: bytes, fds: list[int] | None = None) -> tuple:
    """The arguments of an event with ``signature`` (``h`` arguments taken from ``fds``, in
    order: the caller owns and closes them)."""
    out: list = []
    at = 0
    for kind in signature:
        if kind == "h":
            if not fds:
                raise WireError("an event announced a file descriptor that did not come")
            out.append(fds.pop(0))
            continue
        if at + 4 > len(body):
            raise WireError(f"event too short for its signature {signature!r}")
        if kind == "i":
            out.append(struct.unpack_from("<i", body, at)[0])
            at += 4
        elif kind in "uon":
            out.append(struct.unpack_from("<I", body, at)[0])
            at += 4
        elif kind == "f":
            out.append(struct.unpack_from("<i", body, at)[0] / 256)
            at += 4
        elif kind in "sa":
            (length,) = struct.unpack_from("<I", body, at)
            raw = body[at + 4:at + 4 + length]
            at += 4 + _pad(length)
            if kind == "s":
                out.append(raw[:-1].decode(errors="replace") if length else None)
            else:
                out.append(raw)
        else:
            raise WireError(f"unknown argument type {kind!r}")
    return tuple(out)
