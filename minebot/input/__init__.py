"""Mouse input for the live game (python-xlib, imported lazily: it needs a display).

Every click goes through ``Pointer``, which refuses any point outside the rectangle it is
given (the board just read) and logs each press, so tests can prove no click left the board.
"""

from .pointer import BasePointer, Click, Pointer, UnsafeClickError

__all__ = ["BasePointer", "Click", "Pointer", "UnsafeClickError"]
