"""Where a run writes, checked before the first click; write errors during the run.

A live run can take minutes per game, so a bad output path must be refused before the game
starts, not found when the first result is written. Folders for folder options (``--record``,
``--screenshots``, ``demo --out``) are created, as the options promise; a file option
(``--log``, ``--click-log``) needs an existing folder, so a typo in a path is refused instead of
silently creating a tree of folders.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Sequence

from .errors import BadInputError, OutputError


def check_file(path: str | Path, option: str) -> Path:
    """A file that lines can be appended to. An existing file is opened for appending (and
    left as it is); for a new one, a probe file is created and removed in its folder, so a
    run that stops before its first result leaves no empty log behind."""
    p = Path(path)
    if p.is_dir():
        raise BadInputError(f"{option} {path}: is a folder; give a file name")
    if not p.parent.is_dir():
        raise BadInputError(f"{option} {path}: the folder {p.parent} does not exist")
    try:
        if p.exists():
            with open(p, "a", encoding="utf-8"):
                pass
        else:
            _probe(p.parent)
    except OSError as exc:
        raise BadInputError(f"{option} {path}: cannot write ({exc.strerror})") from None
    return p


def check_folder(path: str | Path, option: str, create: bool = True) -> Path:
    """A folder that files can be created in: created (with its parents) if missing, or, with
    ``create=False``, left to be made when first needed (its nearest existing parent is
    checked instead, so an output that may never be written leaves no empty folder)."""
    p = Path(path)
    if p.exists() and not p.is_dir():
        raise BadInputError(f"{option} {path}: is a file, not a folder")
    try:
        if create:
            p.mkdir(parents=True, exist_ok=True)
        where = p
        while not where.exists():
            where = where.parent
        if not where.is_dir():
            raise NotADirectoryError(20, "a parent is a file, not a folder")
        _probe(where)
    except OSError as exc:
        raise BadInputError(f"{option} {path}: cannot write there ({exc.strerror})") from None
    return p


def _probe(folder: Path) -> None:
    """Create and remove a file in ``folder`` (raises OSError when that is not possible)."""
    with tempfile.NamedTemporaryFile(dir=folder, prefix=".minebot-probe-"):
        pass


def write_failed(what: str, path: str | Path, exc: OSError | None, kept: str) -> OutputError:
    """The error for a write that failed mid-run: names the output, the reason and what stays."""
    why = exc.strerror if exc is not None and exc.strerror else "write failed"
    return OutputError(f"{what} {path}: cannot write ({why}); {kept}")


def save_png(path: Path, image, what: str, kept: str, params: Sequence[int] = ()) -> Path:
    """``cv2.imwrite`` that fails loudly (it returns False instead of raising)."""
    import cv2
    try:
        ok = cv2.imwrite(str(path), image, list(params))
    except (OSError, cv2.error) as exc:
        raise write_failed(what, path, exc if isinstance(exc, OSError) else None, kept) from None
    if not ok:
        raise write_failed(what, path, None, kept)
    return path
