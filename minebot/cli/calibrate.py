"""``minebot calibrate``: teach minebot a new look (theme, clone) as a template set."""

from __future__ import annotations

import argparse

from .. import games
from ..backends.backend import open_backend
from ..backends.frames import FrameSource
from ..board import CELL_CHARS, Board
from ..errors import BadInputError, MinebotError

EPILOG = """\
how to go from nothing to 'minebot read' on a new theme or clone:
  1. Show a game with as many different cells as you can: covered, several numbers, a flag,
     a question mark; after a loss also mines, the exploded mine and a wrong flag.
  2. Run one of:
       minebot calibrate my-theme --live                 (grabs the screen: X11, GNOME on Wayland)
       minebot calibrate my-theme --screenshot shot.png  (an unlabelled screenshot)
       minebot calibrate my-theme --example shot.png shot.board [--example ...]
     --example takes screenshots whose true board you wrote in the board text format
     (- covered, F flag, ? question, 0-8 numbers, * mine, X exploded, W wrong flag).
  3. For --live/--screenshot, minebot groups identical-looking cells, labels those an existing
     set recognises, saves one enlarged crop per remaining group as a PNG (the path is shown)
     and asks you to type its label. Answer h for a hover look of a covered cell, p for a
     pressed one, s to skip a group.
  4. The set is written to ~/.local/share/minebot/templates/NAME (or --out DIR/NAME) and
     'minebot read' finds it there: 'minebot read shot.png --templates NAME'. Run calibrate
     again with more screenshots and --base NAME to add looks you had not seen yet (e.g.
     the numbers 5-8, or every look at a much smaller or larger window).
"""


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "calibrate", help="build a template set for a new theme or clone",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Build a template set (PNG tiles + templates.json) from screenshots with\n"
                    "known boards, or from an unlabelled screenshot / the live screen by\n"
                    "grouping identical cells and asking you to label each group once.",
        epilog=EPILOG)
    p.add_argument("name", help="name of the new set (a folder name, e.g. my-theme)")
    p.add_argument("--example", nargs=2, action="append", metavar=("IMAGE", "BOARD"), default=[],
                   help="a screenshot and its true board file (repeatable)")
    p.add_argument("--screenshot", action="append", metavar="IMAGE", default=[],
                   help="an unlabelled screenshot to label interactively (repeatable)")
    p.add_argument("--live", action="store_true",
                   help="grab the screen (X11 root window, or GNOME on Wayland's screen cast) and "
                        "label its cells interactively")
    p.add_argument("--base", action="append", metavar="SET", default=[],
                   help="start from this existing set's templates and use it to pre-label "
                        "(repeatable; default: every installed set pre-labels, none is copied)")
    p.add_argument("--ask-all", action="store_true",
                   help="ask for every look, even those an existing set recognises")
    p.add_argument("--out", metavar="DIR",
                   help="parent folder of the new set (default ~/.local/share/minebot/templates)")
    p.add_argument("--game", metavar="GAME",
                   help=f"the game the screenshots show ({games.listing(last=None)}): how its "
                        "board is found, and stored in the set so that 'minebot read' knows the "
                        "game by this look (default: any game's way; stored as 'custom'); also a "
                        "game described in ~/.config/minebot/games/GAME.toml (docs/vision.md)")
    p.add_argument("--force", action="store_true", help="replace an existing set of that name")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import shutil
    import sys
    from pathlib import Path

    import cv2

    from ..solver import check_rules
    from ..vision import load_image
    from ..vision.calibrate import Example, check_conflicts, examples_from_frame, merge_examples
    from ..vision.templates import TemplateSet, available_sets, user_templates_dir, write_set

    profile = games.get(args.game) if args.game else None
    if not (args.example or args.screenshot or args.live):
        raise BadInputError("nothing to learn from: give --example IMAGE BOARD, --screenshot "
                            "IMAGE or --live (see minebot calibrate --help)")
    if not args.name or any(ch in args.name for ch in "/\\") or args.name.startswith("."):
        raise BadInputError(f"set name {args.name!r}: use a plain folder name")
    out = Path(args.out) if args.out else user_templates_dir()
    folder = out / args.name
    if folder.exists() and not args.force:
        raise BadInputError(f"{folder} already exists (use --force to replace it, or another name)")

    base_sets = [TemplateSet.load(b) for b in args.base]
    kept: list[Example] = []
    glyphs: list[tuple] = []
    for tset in base_sets:   # reuse the loaded patches; keep the real (not stored) tile sizes
        kept = merge_examples(kept, [
            Example(load_image(tset.path / f), CELL_CHARS[code], look, patch, int(size))
            for f, code, look, patch, size
            in zip(tset.files, tset.codes, tset.looks, tset.patches, tset.sizes)])
        glyphs += zip(tset.glyph_images, tset.glyph_chars)
    # GNOME Mines' counter is a label in the desktop's font, not the theme's: borrow any set's
    # glyphs (the other games' counters are not read with glyphs)
    if not glyphs and (profile is None or profile.counter is games.CounterKind.FLAGS_OF_TOTAL):
        for path in available_sets().values():
            try:
                donor = TemplateSet.load(path)
            except BadInputError:
                continue
            if donor.glyph_images:
                glyphs = list(zip(donor.glyph_images, donor.glyph_chars))
                break

    def progress(msg: str) -> None:
        print(msg, file=sys.stderr, flush=True)

    # Every example board is checked against the rules first: one with swapped numbers would
    # teach wrong looks, and every later read would inherit the mistake.
    boards = [Board.load(board_file) for _, board_file in args.example]
    for (_, board_file), board in zip(args.example, boards):
        check_rules(board, board_file)
    by_looks = False
    for (image, _board_file), board in zip(args.example, boards):
        frame = load_image(image)
        new, found_by_looks = examples_from_frame(frame, board, source=image, profile=profile,
                                                  kept=kept)
        if found_by_looks:
            progress(f"{image}: no lines between the cells; the board was found by its looks")
            by_looks = True
        before = len(kept)
        kept = merge_examples(kept, new)
        progress(f"{image}: {len(new)} cells, {len(kept) - before} new looks")

    frames = [(s, load_image(s)) for s in args.screenshot]
    if args.live:
        frames.append(("<screen>", _screen_frame()))
    if frames:
        from ..vision.interactive import label_frames
        review = out / f"{args.name}-review"
        kept = label_frames(frames, kept, base_sets, review, progress=progress,
                            suggest=not args.ask_all, profile=profile)

    if not kept:
        raise BadInputError("no cells were labelled: nothing to write")
    conflicts = check_conflicts(kept)
    if conflicts:
        a, b = conflicts[0]
        raise BadInputError(f"two cells look the same but were labelled {kept[a].label!r} and "
                            f"{kept[b].label!r}: check the board files / labels")
    if folder.exists():
        shutil.rmtree(folder)
    theme = args.name
    write_set(folder, args.name, profile.name if profile else "custom", theme,
              [(e.image, e.label, e.look, e.size) for e in kept],
              [(g if g.ndim == 3 else cv2.cvtColor(g, cv2.COLOR_GRAY2BGR), ch) for g, ch in glyphs]
              or None, {"lattice": "looks"} if by_looks else None)
    labels = sorted({e.label for e in kept})
    missing = [ch for ch in "-012345678F?*XW" if ch not in labels]
    print(f"wrote {folder} ({len(kept)} templates; labels {''.join(labels)})")
    if missing:
        print(f"not seen yet: {' '.join(missing)} -- cells looking like these will be reported as "
              f"unmatched until you calibrate again with --base {args.name}")
    for image, _ in args.example:
        _verify(image, folder, progress)
    for image, _ in frames:
        if image != "<screen>":
            _verify(image, folder, progress)
    return 0


def _screen_frame():
    """The whole screen now, through the desktop's own backend and the one frame source: the
    root window on X11, mutter's screen cast on GNOME on Wayland; under XWayland, whose root
    reads black, a clear refusal rather than a black frame to label."""
    with open_backend() as backend, \
            FrameSource(backend.screen(), backend.screen_rect) as screen:
        return screen.grab()


def _verify(image: str, folder, progress) -> None:
    """Read a calibration image back with the new set: the user sees at once if it works."""
    from ..vision import Reader, load_image

    try:
        reading = Reader(str(folder)).read(load_image(image))
        progress(f"check {image}: read {reading.board.cols}x{reading.board.rows}, "
                 f"state {reading.board.state.value}")
    except MinebotError as exc:
        progress(f"check {image}: {exc}")
