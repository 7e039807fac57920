"""The ``minebot`` command line.

Each subcommand is a module in this package with ``register(subparsers)``; the module imports
its heavy dependencies inside its ``run`` function, so ``minebot --help`` stays fast and works
with no display. Errors a user can cause are ``MinebotError``s: printed as one line, with the
error's exit code, never as a bare traceback.
"""

from __future__ import annotations

import argparse
import importlib
import signal
import sys
from typing import Callable, Sequence

from .. import __version__
from ..errors import MinebotError, Terminated, interrupt_exit_code

# Order here is the order in ``minebot --help``. A module that does not exist yet is skipped.
COMMANDS = ("play", "demo", "hint", "solve", "read", "bench", "layouts", "calibrate", "replay", "board")

DESCRIPTION = """\
minebot plays the real Minesweeper window (GNOME Mines first): it reads the board from the
screen, works out which cells are certain and how likely each other cell is to be a mine, and
clicks. It can also show hints over your own game, read screenshots, solve board files and
benchmark its strategy on a headless engine.

Boards are text, one character per cell: - covered, F flag, ? question mark, 0-8 revealed,
* mine shown, X exploded mine, W wrong flag; an optional first line holds a JSON header such as
{"rows": 16, "cols": 30, "mines": 99}. Cells are ROW,COL (0-based); sizes are COLSxROWS (30x16).

exit codes: 0 ok, 1 failure, 2 bad input, 3 inconsistent board, 4 no game/board found or
the game could not be read, 5 the desktop does not allow it (the hint overlay on GNOME on
Wayland), 130 interrupted (Ctrl-C or the fail-safe), 143 terminated (SIGTERM)."""


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="minebot", description=DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"minebot {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMANDS:
        try:
            module = importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as exc:
            if exc.name == f"{__name__}.{name}":
                continue
            raise
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    restore_signals = stop_on_signals()
    try:
        return int(args.func(args) or 0)
    except MinebotError as exc:
        print(f"minebot {args.command}: {exc}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt as exc:
        what = "terminated" if isinstance(exc, Terminated) else "interrupted"
        print(f"minebot {args.command}: {what}", file=sys.stderr)
        return interrupt_exit_code(exc)
    except BrokenPipeError:
        return 0
    finally:
        restore_signals()


def stop_on_signals() -> Callable[[], None]:
    """SIGTERM raises ``Terminated`` and SIGINT ``KeyboardInterrupt``: commands and the long
    benchmark tools stop as on Ctrl-C, closing what they opened and printing what they finished.

    SIGINT is set only where it was ignored: a non-interactive shell starts a background job
    (``minebot bench &``, ``nohup tool &``) with SIGINT ignored and Python leaves it so, so
    ``kill -INT`` would do nothing and a run that keeps its figures in memory could only be
    killed, losing them. Returns a function that puts the previous handlers back (it does
    nothing outside the main thread, where handlers cannot be set).
    """
    def _terminate(signum, frame):
        raise Terminated()
    previous = {}
    try:
        previous[signal.SIGTERM] = signal.signal(signal.SIGTERM, _terminate)
        if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
            previous[signal.SIGINT] = signal.signal(signal.SIGINT, signal.default_int_handler)
    except ValueError:
        pass

    def restore() -> None:
        for signum, handler in previous.items():
            if handler is not None:
                signal.signal(signum, handler)
    return restore
