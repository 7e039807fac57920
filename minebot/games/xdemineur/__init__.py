"""xdemineur: ``profile`` (its window, fixed lattice, look, rules and 7-segment counter),
``ui`` (its smiley, its preopened boards). Its template set is ``templates/xdemineur``; the
private copy the tests and ``demo`` start is ``minebot.sandbox.clones.Xdemineur`` (the
sandbox stays out of production code)."""
