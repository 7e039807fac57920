"""xdemineur: ``profile`` (its window, fixed lattice, look, rules and 7-segment counter),
``ui`` (its smiley, its preopened boards). Its template set is ``templates/xdemineur``; the
private copy the tests and ``demo`` start is its ``launcher`` (``Xdemineur``, on the sandbox side: the
sandbox stays out of production code)."""

from .profile import PROFILE

__all__ = ["PROFILE"]
