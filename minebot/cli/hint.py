"""``minebot hint``: show a human player what is certain, what is likely, and why."""

from __future__ import annotations

import argparse
import os
from contextlib import contextmanager

from ..backends.backend import NativeDesktop, native_desktop, open_backend
from ..backends.capture import Capture
from ..backends.frames import FrameSource
from ..backends.readings import read_once
from ..backends.wlroots.backend import WlrootsBackend
from ..backends.x11.capture import CompositeCapture, Screen
from ..backends.x11.window import X11
from ..board import Board
from ..errors import (
    EXIT_INCONSISTENT,
    BadInputError,
    DesktopError,
    NoGameError,
    Terminated,
    UnsupportedDesktopError,
)
from ..levels import parse_cell

DESCRIPTION = """\
Watch the GNOME Mines window and draw the solver's conclusions over it, without ever clicking:
green frames on cells that are certainly safe, red frames on certain mines, a magenta frame on a
flag the numbers prove wrong, and an orange frame with the mine probability (percent) on the
best guess when nothing is certain. The overlay is made of shaped X windows that let every
click through to the game, so it works on any X server, with or without a compositor; it
follows the window when it moves or resizes and stops on Ctrl-C or when the game closes.
On sway and other wlroots compositors it is a layer-shell surface on the overlay layer that
takes no input (reads there come every 0.5 s at most: each hides the marks for a frame).
A caption under the game window sums the hints up (and explains a cell with --explain).

With --once, or an IMAGE, it reads one frame (the live window, or the screenshot IMAGE), and
prints the marked board (--text, the default), saves the marks drawn on the frame (--png), and
explains a cell (--explain). IMAGE may also be a board text file (.board/.txt) for --text and
--explain. A board that breaks the rules gets no hints: the contradicting numbers are named
(exit code 3)."""

EPILOG = """\
examples:
  minebot hint                              overlay on the running game
  minebot hint --probabilities              ... with every covered cell's mine percentage
  minebot hint --explain 3,4                ... and why cell row 3, column 4 is what it is
  minebot hint --explain pointer            ... and why the cell under the mouse is what it is
  minebot hint --once --text                the live board as text, with marks
  minebot hint --once --png hint.png shot.png   marks drawn on a screenshot
  minebot hint --explain 5,2 position.board  explanation for a board file"""


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "hint", help="show certain cells, probabilities and explanations over your own game",
        description=DESCRIPTION, epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("image", nargs="?", metavar="IMAGE",
                   help="a screenshot (or .board/.txt board file) instead of the live window; "
                        "implies --once")
    p.add_argument("--once", action="store_true",
                   help="read one frame, print/save the hints and exit (no overlay)")
    p.add_argument("--png", metavar="OUT.png", help="save the frame with the marks drawn on it")
    p.add_argument("--text", action="store_true",
                   help="print the board with marks and probabilities (default with --once)")
    p.add_argument("--explain", metavar="ROW,COL",
                   help="explain why this cell is safe/a mine, or how its probability was found; "
                        "with the overlay, 'pointer' explains the cell under the mouse")
    p.add_argument("-p", "--probabilities", action="store_true",
                   help="show every covered cell's mine probability, not just the best guess's")
    p.add_argument("--mines", type=int, metavar="N",
                   help="total mines, when the game's counter cannot be read")
    p.add_argument("--templates", metavar="NAME", help="vision template set (default: best fit)")
    p.add_argument("--display", metavar="DISPLAY", help="X display of the game (default $DISPLAY)")
    p.add_argument("--interval", type=float, default=0.05, metavar="SECONDS",
                   help="how often the overlay re-reads the game (default 0.05)")
    p.add_argument("--no-label", action="store_true",
                   help="overlay: no caption window under the game")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import sys

    pointer = (args.explain or "").strip().lower() == "pointer"
    explain = parse_cell(args.explain) if args.explain and not pointer else None
    if args.mines is not None and args.mines < 0:
        raise BadInputError(f"--mines {args.mines}: must be 0 or more")
    if args.interval <= 0:
        raise BadInputError(f"--interval {args.interval}: must be above 0")
    once = bool(args.once or args.image or args.png or args.text)
    if once and pointer:
        raise BadInputError("--explain pointer needs the live overlay (not --once/IMAGE/--png/--text)")
    if not once:
        wayland = _wayland(args.display)
        if wayland is NativeDesktop.WLROOTS:
            return _layer_overlay(args, explain, pointer)
        if wayland is not None:
            why = ("GNOME on Wayland does not let a program draw over another application's "
                   "window, so there is no overlay here" if wayland is NativeDesktop.MUTTER else
                   "minebot has no overlay on KDE Plasma and other desktop-portal desktops yet "
                   "(the portal gives a program no way to draw over other windows)")
            raise UnsupportedDesktopError(
                f"{why}. What works: `minebot hint --once --png "
                "hint.png` (the marks and the caption drawn on a frame of the screen), `minebot "
                "hint --once --text` (the board with marks in the terminal), both with --explain "
                "ROW,COL")
        from ..hint.live import run_overlay
        stop = _StopRequest().install()
        code = run_overlay(args.display, _live_options(args, explain, pointer), stop=stop,
                           log=lambda line: print(line, file=sys.stderr, flush=True))
        stop.raise_if_asked()
        return code

    frame, reading, board = _one_frame(args)
    from ..hint import DrawOptions, advise_board, draw_hints, render_text
    if explain is not None and not (0 <= explain[0] < board.rows and 0 <= explain[1] < board.cols):
        raise BadInputError(f"--explain {args.explain}: outside the {board.rows}x{board.cols} board "
                            f"(rows 0-{board.rows - 1}, columns 0-{board.cols - 1})")
    hints, explanation = advise_board(board, mines=args.mines, explain=explain)
    if args.png:
        if frame is None:
            raise BadInputError(f"--png needs a screenshot, but {args.image} is a board file")
        _save_png(args.png, draw_hints(frame, hints, reading.cell_rects,
                                       DrawOptions(probabilities=args.probabilities), explanation))
    if args.text or not args.png:
        colour = sys.stdout.isatty()
        sys.stdout.write(render_text(hints, args.probabilities, colour, explanation))
    elif explanation is not None:
        print(explanation.text())
    if not hints.ok:
        print(f"minebot hint: {hints.problem}", file=sys.stderr)
        return EXIT_INCONSISTENT if hints.problem_cells or "inconsistent" in hints.problem else 1
    return 0


def _live_options(args: argparse.Namespace, explain, pointer: bool):
    from ..hint.live import LiveOptions
    return LiveOptions(probabilities=args.probabilities, explain=explain,
                       explain_pointer=pointer, mines=args.mines, templates=args.templates,
                       interval=args.interval, label=not args.no_label)


class _StopRequest:
    """Ctrl-C and a polite kill ask the live overlay to stop at its next look, rather than
    interrupting it wherever it is: a ``KeyboardInterrupt`` raised in the middle of an X
    request leaves the connection half-read, and the overlay's windows must then be destroyed
    on it (one such hint stayed up for more than 10 s after Ctrl-C). A second Ctrl-C or kill
    interrupts at once. Called, it says whether a stop was asked; ``raise_if_asked`` then ends
    the command as any interrupted one (exit 130, or 143 for SIGTERM)."""

    def __init__(self) -> None:
        self.asked: KeyboardInterrupt | None = None

    def __call__(self) -> bool:
        return self.asked is not None

    def install(self) -> "_StopRequest":
        import signal

        def _ask(signum, frame):
            if self.asked is not None:
                raise self.asked
            self.asked = Terminated() if signum == signal.SIGTERM else KeyboardInterrupt()
        signal.signal(signal.SIGINT, _ask)
        signal.signal(signal.SIGTERM, _ask)
        return self

    def raise_if_asked(self) -> None:
        if self.asked is not None:
            raise self.asked


def _layer_overlay(args: argparse.Namespace, explain, pointer: bool) -> int:
    """The overlay on sway and other wlroots compositors: a layer-shell surface, when the
    compositor offers layer-shell (the backend declares it: ``draws_overlay``)."""
    import sys

    from ..hint.live import run_layer_overlay
    if pointer:
        raise UnsupportedDesktopError(
            "--explain pointer: a Wayland client is not told where the pointer is over another "
            "program's window; name the cell instead (--explain ROW,COL)")
    with WlrootsBackend(os.environ) as backend:
        if not backend.draws_overlay:
            raise UnsupportedDesktopError(
                f"the Wayland compositor at {backend.conn.path} offers no zwlr_layer_shell_v1, "
                "so minebot cannot draw over the game. What works: `minebot hint --once --png "
                "hint.png`, `minebot hint --once --text`")
        stop = _StopRequest().install()
        code = run_layer_overlay(backend, _live_options(args, explain, pointer), stop=stop,
                                 log=lambda line: print(line, file=sys.stderr, flush=True))
    stop.raise_if_asked()
    return code


def _one_frame(args):
    """(frame or None, reading or None, board) from IMAGE or the live window."""
    from pathlib import Path

    if args.image and Path(args.image).suffix.lower() in (".board", ".txt"):
        board = Board.load(args.image)
        if args.mines is not None:
            board = board.replace(mines=args.mines)
        return None, None, board
    from ..vision import Reader, load_image
    reader = Reader(args.templates, mines=args.mines)
    if args.image:
        reading = reader.read(frame := load_image(args.image))
        return frame, reading, reading.board
    with _game_frames(args.display) as frames:
        frame, reading = read_once(frames, reader.read)
    return frame, reading, reading.board


@contextmanager
def _game_frames(display):
    """The frame source of the live game: the window's own pixels (Composite, so a running
    overlay's marks are not read; else the screen), or on GNOME on Wayland the whole screen
    from mutter's screen cast or wlroots' screen copies (no window to grab there)."""
    if _wayland(display) is not None:
        with open_backend() as backend, \
                FrameSource(backend.screen(), backend.screen_rect) as frames:
            yield frames
        return
    with X11(display) as x11:
        game = x11.find_window()   # GNOME Mines' title and class
    if game is None:
        raise NoGameError("no GNOME Mines window found (start the game, or give an IMAGE)")
    try:
        composite: CompositeCapture | None = CompositeCapture(display, game)
    except DesktopError:
        composite = None
    pixels: Capture
    if composite is None or not composite.available:
        if composite is not None:
            composite.close()
        pixels = Screen(display)
    else:
        pixels = composite
    with FrameSource(pixels, game.rect) as frames:
        yield frames


def _wayland(display) -> NativeDesktop | None:
    """The native Wayland desktop of the game, or None (an X display named with --display
    means X11)."""
    return None if display is not None else native_desktop()


def _save_png(path: str, image) -> None:
    import cv2

    try:
        ok = cv2.imwrite(path, image)
    except cv2.error as exc:
        raise BadInputError(f"{path}: cannot write image ({exc})") from None
    if not ok:
        raise BadInputError(f"{path}: cannot write image (unknown extension or folder missing)")
