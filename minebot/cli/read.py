"""``minebot read``: read a Minesweeper board from a screenshot."""

from __future__ import annotations

import argparse
import json

from .. import games
from ..errors import BadInputError
from ..outputs import check_folder


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "read", help="read the board from a screenshot",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Locate the Minesweeper board in IMAGE (a whole screen or a window), classify\n"
                    "every cell with a template set and print the board in the text format\n"
                    "(header line with rows, cols, mines, state). Which game the image shows\n"
                    f"({games.listing(last=None)}) is found from how its board is drawn and\n"
                    "which looks fit, and said on stderr (in the JSON with --json); --game\n"
                    "forces one. The set that fits best is picked automatically unless\n"
                    "--templates names one.",
        epilog="Template sets are folders with PNG tiles and templates.json, searched in\n"
               "$MINEBOT_TEMPLATES, ~/.local/share/minebot/templates (where 'minebot calibrate'\n"
               "writes) and the repository's templates/ folder.\n\n"
               "exit codes: 0 ok; 2 bad input (not an image, bad template set, cells that match\n"
               "no template: they are named and their crops saved, or cells that each match but\n"
               "make a board no game can show, as another game's or theme's looks may); 4 no\n"
               "board in the image (the screen's state, e.g. paused or chooser, is still printed\n"
               "with --json), or a board that two games fit about equally, neither's mine\n"
               "counter in view: both are named, and --game reads it as the one it is.")
    p.add_argument("image", help="screenshot file (PNG, JPEG, ...)")
    p.add_argument("--json", action="store_true",
                   help='print {"rows", "cols", "mines", "state", "board", "board_px", ...}')
    p.add_argument("--templates", metavar="NAME",
                   help=f"template set name (e.g. {games.get(games.DEFAULT).templates[0]}) or folder")
    p.add_argument("--game", metavar="GAME",
                   help=f"the game the image shows: {games.listing()} (default: found), or a "
                        "game described in a profile file (docs/vision.md)")
    p.add_argument("--quiet", action="store_true", help="do not say which game was found")
    p.add_argument("--mines", type=int, metavar="N",
                   help="total number of mines (overrides the on-screen counter)")
    p.add_argument("--crops", metavar="DIR",
                   help="where to save crops of cells that match no template (default: not saved)")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    import sys

    from ..vision import (
        AmbiguousGameError,
        ImplausibleBoardError,
        NoBoardError,
        Reader,
        UnmatchedCellsError,
        load_image,
    )

    if args.mines is not None and args.mines < 0:
        raise BadInputError(f"--mines {args.mines}: must be >= 0")
    if args.crops:     # checked first: crops that cannot be saved must be said before reading
        check_folder(args.crops, "--crops", create=False)
    game = games.get(args.game) if args.game else None
    frame = load_image(args.image)
    reader = Reader(args.templates, mines=args.mines, crops_dir=args.crops, game=game)
    try:
        reading = reader.read(frame)
    except NoBoardError as exc:
        if args.json:
            print(json.dumps({"rows": None, "cols": None, "mines": args.mines,
                              "state": exc.state.value, "board": [], "board_px": None}))
        raise NoBoardError(f"{args.image}: {exc}", exc.state) from None
    except AmbiguousGameError as exc:
        raise AmbiguousGameError(f"{args.image}: {exc}", exc.games) from None
    except ImplausibleBoardError as exc:
        raise ImplausibleBoardError(f"{args.image}: {exc}", exc.cells, None) from None
    except UnmatchedCellsError as exc:
        unsaved = "; their crops could not be saved" if args.crops and exc.crops_dir is None else (
            "" if args.crops else " (--crops DIR saves their crops)")
        raise UnmatchedCellsError(f"{args.image}: {exc}{unsaved}", exc.cells, exc.crops_dir) from None
    except BadInputError as exc:
        raise BadInputError(f"{args.image}: {exc}") from None
    if args.json:
        print(json.dumps(reading.to_json()))
    else:
        if not args.quiet:
            print(f"{args.image}: {games.get(reading.game).title} ({reading.game}), looks "
                  f"{reading.templates}", file=sys.stderr)
        sys.stdout.write(reading.board.to_text())
    return 0
