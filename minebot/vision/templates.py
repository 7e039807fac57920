"""Template sets: how each cell state looks in one game and theme, and how cells are matched.

A set is a folder ``<name>/`` holding PNG crops of single tiles (any size: they are averaged
onto the same normalised patch as the cells of a frame) and ``templates.json``::

    {"format": 1, "name": "gnome-mines-default", "game": "gnome-mines", "theme": "default",
     "cells": [{"file": "cells/F-20.png", "label": "F", "look": "normal"}, ...],
     "glyphs": [{"file": "glyphs/0.png", "char": "0"}, ...]}

``label`` is the cell's character in the board text format; ``look`` is ``normal``, or
``hover``/``pressed`` for transient looks that still tell the state but ask the caller to
re-capture (the cell is reported in ``Reading.suspect``). ``glyphs`` (optional) are the
characters of the "flags/total" counter.

Matching compares colour patches by mean squared difference over all cells and all templates
at once (one matrix product). Colour is what separates flat looks (covered from revealed zero);
the 16x16 patch keeps enough of the glyph to separate digits drawn in one colour.

Sets are searched, in order, in the folders named by ``$MINEBOT_TEMPLATES`` (os.pathsep
separated; each folder is a set or holds sets), in the user's calibrated sets
(``$XDG_DATA_HOME/minebot/templates``, default ``~/.local/share/minebot/templates``), in
the repository's ``templates/`` folder next to the ``minebot`` package (a checkout or an
editable install), and in ``<prefix>/share/minebot/templates`` (where ``pip install`` puts
the shipped sets).
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import cv2
import numpy as np

from ..board import CELL_CHARS
from ..errors import BadInputError
from .counter import glyph_mask
from .features import PATCH, tile_patch
from .numbers import NumberLook

FORMAT = 1
META = "templates.json"
MAX_STORED = 48
"""Largest tile side stored as is (bigger tiles are shrunk, their size kept in the metadata)."""
TRANSIENT_LOOKS = ("hover", "pressed")
LOOKS = ("normal", "lost", "won") + TRANSIENT_LOOKS

REPO_TEMPLATES = Path(__file__).resolve().parents[2] / "templates"
INSTALLED_TEMPLATES = Path(sys.prefix) / "share" / "minebot" / "templates"


def user_templates_dir() -> Path:
    """Where ``minebot calibrate`` writes new sets by default (found by ``read`` later)."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "minebot" / "templates"


def search_dirs() -> list[Path]:
    dirs: list[Path] = []
    for part in os.environ.get("MINEBOT_TEMPLATES", "").split(os.pathsep):
        if part.strip():
            dirs.append(Path(part.strip()))
    dirs += [user_templates_dir(), REPO_TEMPLATES, INSTALLED_TEMPLATES]
    return dirs


def available_sets() -> dict[str, Path]:
    """Name -> folder of every template set found; the first folder wins for a name."""
    found: dict[str, Path] = {}
    for d in search_dirs():
        if (d / META).is_file():
            found.setdefault(d.name, d)
            continue
        if d.is_dir():
            for sub in sorted(d.iterdir()):
                if (sub / META).is_file() and not sub.name.endswith(LEARNED_SUFFIX):
                    found.setdefault(sub.name, sub)
    return found


LEARNED_SUFFIX = ".learned"
"""A set's looks learned from play live beside it in the user's folder as ``<name>.learned``."""


def learned_dir(name: str) -> Path:
    """Where the looks learned for set ``name`` are kept (never inside a shipped set)."""
    return user_templates_dir() / f"{name}{LEARNED_SUFFIX}"


def resolve(name_or_path: str) -> Path:
    """A set's folder from its name (searched) or a path; clear error when missing."""
    p = Path(name_or_path)
    if p.is_dir() or os.sep in name_or_path or name_or_path.startswith("."):
        if not (p / META).is_file():
            raise BadInputError(f"{p}: not a template set (no {META} in it)")
        return p
    sets = available_sets()
    if name_or_path not in sets:
        known = ", ".join(sorted(sets)) or "none found"
        raise BadInputError(f"template set {name_or_path!r} not found (available: {known}; "
                            f"searched {', '.join(str(d) for d in search_dirs())})")
    return sets[name_or_path]


@dataclass
class TemplateSet:
    """A loaded set: one normalised patch per template, with its cell code and look."""

    name: str
    path: Path
    patches: np.ndarray                 # (N, PATCH, PATCH, 3) float32
    codes: np.ndarray                   # (N,) int8 cell codes
    looks: list[str]
    files: list[str]
    meta: dict = field(default_factory=dict)
    glyph_images: list[np.ndarray] = field(default_factory=list)
    glyph_chars: list[str] = field(default_factory=list)
    sizes: np.ndarray | None = None     # (N,) tile width each template was cut from
    numbers: NumberLook | None = None   # how the theme draws 1-8 (read font-free), if known
    learned: np.ndarray | None = None   # (N,) bool: looks learned from play on this machine
    max_distance: float | None = None   # the set's own match limit, when its looks vary more
    _flat: np.ndarray | None = field(default=None, repr=False)
    _norms: np.ndarray | None = field(default=None, repr=False)
    _subsets: dict = field(default_factory=dict, repr=False)

    @cached_property
    def transient(self) -> np.ndarray:
        """Per template: a hover/pressed look (computed once: the reader indexes it every frame)."""
        return np.array([look in TRANSIENT_LOOKS for look in self.looks], dtype=bool)

    @cached_property
    def glyph_masks(self) -> np.ndarray:
        """The counter glyphs as masks on the fixed grid, (G, GLYPH_H, GLYPH_W), made once."""
        return np.stack([glyph_mask(g) for g in self.glyph_images])

    @classmethod
    def load(cls, name_or_path: str | Path) -> "TemplateSet":
        """Load a set by name or folder; loaded sets are cached per folder and file time."""
        folder = resolve(str(name_or_path))
        meta_path = folder / META
        extra = learned_dir(folder.name) / META
        try:
            key = (str(folder.resolve()), meta_path.stat().st_mtime_ns,
                   extra.stat().st_mtime_ns if extra.is_file() else 0)
        except OSError:
            key = None
        if key is not None and key in _CACHE:
            return _CACHE[key]
        tset = cls.load_folder(folder, meta_path)
        if extra.is_file() and extra.parent != folder:
            tset = tset.extended(cls.load_folder(extra.parent, extra))
        if key is not None:
            _CACHE[key] = tset
        return tset

    def extended(self, other: "TemplateSet") -> "TemplateSet":
        """This set plus ``other``'s looks, marked as learned (the number look stays ours)."""
        n, m = len(self.codes), len(other.codes)
        mine = self.learned if self.learned is not None else np.zeros(n, bool)
        return TemplateSet(self.name, self.path, np.concatenate([self.patches, other.patches]),
                           np.concatenate([self.codes, other.codes]), self.looks + other.looks,
                           self.files + [str(other.path / f) for f in other.files], self.meta,
                           self.glyph_images, self.glyph_chars,
                           np.concatenate([self.sizes, other.sizes]), self.numbers,
                           np.concatenate([mine, np.ones(m, bool)]), self.max_distance)

    @classmethod
    def load_folder(cls, folder: Path, meta_path: Path) -> "TemplateSet":
        """The set described by ``meta_path`` with its images in ``folder``, read as it is on
        disk: no cache, and no learned looks added (``load`` adds them; the learner reads its
        own looks alone with this)."""
        try:
            meta = json.loads(meta_path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError) as exc:
            raise BadInputError(f"{meta_path}: cannot read ({exc})") from None
        except json.JSONDecodeError as exc:
            raise BadInputError(f"{meta_path}: malformed JSON at line {exc.lineno}: {exc.msg}") from None
        if not isinstance(meta, dict) or not isinstance(meta.get("cells"), list) or not meta["cells"]:
            raise BadInputError(f"{meta_path}: expected an object with a non-empty 'cells' list")
        if meta.get("format", FORMAT) != FORMAT:
            raise BadInputError(f"{meta_path}: unsupported format {meta.get('format')!r} (expected {FORMAT})")
        patches, codes, looks, files, sizes = [], [], [], [], []
        for i, entry in enumerate(meta["cells"]):
            where = f"{meta_path}: cells[{i}]"
            if not isinstance(entry, dict) or "file" not in entry or "label" not in entry:
                raise BadInputError(f"{where}: needs 'file' and 'label'")
            label = entry["label"]
            if not isinstance(label, str) or len(label) != 1 or label not in CELL_CHARS:
                raise BadInputError(f"{where}: label {label!r} is not one of {CELL_CHARS}")
            look = entry.get("look", "normal")
            if look not in LOOKS:
                raise BadInputError(f"{where}: look {look!r} is not one of {', '.join(LOOKS)}")
            image = _read_png(folder / entry["file"], where)
            patches.append(tile_patch(image))
            size = entry.get("size", image.shape[1])
            if not isinstance(size, int) or isinstance(size, bool) or size <= 0:
                raise BadInputError(f"{where}: size {size!r} is not a positive whole number")
            sizes.append(size)
            codes.append(CELL_CHARS.index(label))
            looks.append(look)
            files.append(str(entry["file"]))
        glyph_images, glyph_chars = [], []
        for i, entry in enumerate(meta.get("glyphs", []) or []):
            where = f"{meta_path}: glyphs[{i}]"
            if not isinstance(entry, dict) or "file" not in entry or not isinstance(entry.get("char"), str):
                raise BadInputError(f"{where}: needs 'file' and 'char'")
            glyph_images.append(cv2.cvtColor(_read_png(folder / entry["file"], where), cv2.COLOR_BGR2GRAY))
            glyph_chars.append(entry["char"])
        limit = meta.get("max_distance")
        if limit is not None and (isinstance(limit, bool) or not isinstance(limit, (int, float))
                                  or not 0 < limit <= 60):
            raise BadInputError(f"{meta_path}: max_distance {limit!r} is not a number in (0, 60]")
        return cls(str(meta.get("name") or folder.name), folder, np.stack(patches),
                   np.array(codes, dtype=np.int8), looks, files, meta, glyph_images, glyph_chars,
                   np.array(sizes, dtype=np.int32), NumberLook.from_meta(meta, str(meta_path)),
                   max_distance=None if limit is None else float(limit))

    def distances(self, patches: np.ndarray, subset: np.ndarray | None = None) -> np.ndarray:
        """Root-mean-square colour distance of every patch to every template (or ``subset``)."""
        f = patches.reshape(len(patches), -1).astype(np.float32)
        if self._flat is None:
            self._flat = np.ascontiguousarray(self.patches.reshape(len(self.patches), -1).T)
            self._norms = (self._flat * self._flat).sum(0)
        if subset is None:
            flat, norms = self._flat, self._norms
        else:
            key = subset.tobytes()
            cached = self._subsets.get(key)
            if cached is None:
                cached = self._subsets[key] = (np.ascontiguousarray(self._flat[:, subset]),
                                               self._norms[subset])
            flat, norms = cached
        # opencv's gemm: same product as numpy's @, without OpenBLAS threads, whose start-up
        # costs more than this small product on a busy machine
        d2 = (f * f).sum(1)[:, None] + norms[None, :] - 2.0 * cv2.gemm(f, flat, 1.0, None, 0.0)
        return np.sqrt(np.maximum(d2, 0.0) / f.shape[1])


_CACHE: dict[tuple[str, int, int], TemplateSet] = {}


@dataclass
class Match:
    """Per-cell outcome of matching: best template, its distance, and the runner-up label's."""

    template: np.ndarray     # (M,) index into the set
    code: np.ndarray         # (M,) int8 cell code
    distance: np.ndarray     # (M,) RMS distance to the best template
    runner_up: np.ndarray    # (M,) RMS distance to the best template of another code
    numbered: np.ndarray | None = None   # (M,) bool: code read by the theme's number look

    def __post_init__(self) -> None:
        if self.numbered is None:
            self.numbered = np.zeros(len(self.code), bool)


def _match_subset(tset: TemplateSet, patches: np.ndarray, subset: np.ndarray) -> Match:
    d = tset.distances(patches, subset)
    codes = tset.codes[subset]
    best = np.argmin(d, axis=1)
    rows = np.arange(len(d))
    code = codes[best]
    other = np.where(codes[None, :] == code[:, None], np.inf, d)
    return Match(subset[best], code, d[rows, best], other.min(axis=1))


NEAR_SIZE = 3
"""Templates within this many pixels of the cell size are tried first."""

CLOSE_ENOUGH = 3.0
"""A cell matched this well among same-size templates is not compared with the rest."""


def match(tset: TemplateSet, patches: np.ndarray, tile: int | None = None) -> Match:
    """Best template for every patch (vectorised over all cells and templates).

    With ``tile`` (the located cell width), templates cut from cells of about that size are
    tried first: GNOME Mines draws digits at a size that is not proportional to the cell, so
    those are the right comparison, and fewer templates make the matrix product cheap. Cells
    that no same-size template fits well are matched against the whole set.
    """
    everything = np.arange(len(tset.codes))
    if tile is None or tset.sizes is None:
        return _match_subset(tset, patches, everything)
    near = np.flatnonzero(np.abs(tset.sizes - tile) <= NEAR_SIZE)
    if len(near) == 0 or len(near) == len(everything):
        return _match_subset(tset, patches, everything)
    m = _match_subset(tset, patches, near)
    far = np.flatnonzero(m.distance > CLOSE_ENOUGH)
    if len(far):
        # not clearly matched at this size (a look never seen at this size, or a flat look
        # recorded at other sizes only): judge these cells against the whole set
        full = _match_subset(tset, patches[far], everything)
        for name in ("template", "code", "distance", "runner_up"):
            getattr(m, name)[far] = getattr(full, name)
    return m


def _read_png(path: Path, where: str) -> np.ndarray:
    image = cv2.imread(str(path), cv2.IMREAD_COLOR)
    if image is None:
        raise BadInputError(f"{where}: cannot read image {path}")
    return image


def write_set(folder: Path, name: str, game: str, theme: str,
              cells: list[tuple[np.ndarray, str, str, int]],
              glyphs: list[tuple[np.ndarray, str]] | None = None, extra: dict | None = None) -> Path:
    """Write a set: ``cells`` are (tile image, label, look, tile width on screen); ``glyphs``
    (image, char).

    Tiles larger than ``MAX_STORED`` px are stored shrunk (area-averaged: the 16x16 patch is
    the same within a grey level) with their real size in the metadata, which the matcher uses
    to prefer templates of the cell size it sees.
    """
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "cells").mkdir(exist_ok=True)
    entries = []
    counts: dict[str, int] = {}
    for image, label, look, size in cells:
        tag = {"-": "covered", "?": "question", "*": "mine", "F": "flag", "X": "exploded",
               "W": "wrongflag"}.get(label, label)
        n = counts[tag] = counts.get(tag, 0) + 1
        size = int(size)
        rel = f"cells/{tag}-{look}-{size}px-{n}.png"
        if max(image.shape[:2]) > MAX_STORED:
            f = MAX_STORED / max(image.shape[:2])
            image = cv2.resize(image, (max(1, round(image.shape[1] * f)), max(1, round(image.shape[0] * f))),
                               interpolation=cv2.INTER_AREA)
        cv2.imwrite(str(folder / rel), image, [cv2.IMWRITE_PNG_COMPRESSION, 9])
        entries.append({"file": rel, "label": label, "look": look, "size": size})
    meta: dict = {"format": FORMAT, "name": name, "game": game, "theme": theme,
                  "patch": PATCH, "cells": entries}
    if glyphs:
        (folder / "glyphs").mkdir(exist_ok=True)
        meta["glyphs"] = []
        for i, (image, ch) in enumerate(glyphs):
            rel = f"glyphs/{i:02d}.png"
            cv2.imwrite(str(folder / rel), image, [cv2.IMWRITE_PNG_COMPRESSION, 9])
            meta["glyphs"].append({"file": rel, "char": ch})
    if extra:
        meta.update(extra)
    (folder / META).write_text(json.dumps(meta, indent=1) + "\n", encoding="utf-8")
    return folder
