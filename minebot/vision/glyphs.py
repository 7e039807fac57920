"""Digit glyphs as font-free shapes, and the bank of digits they are compared with.

GNOME Mines draws a number as SVG text in the font "Monospace" (bold), so the fonts installed
on the player's machine decide the digit's shape and its size inside the tile. A template cut
from one font at one window size does not fit another. What does hold for every monospace
font is the shape of the digit's ink, once it is cut to its own bounding box and scaled to a
fixed grid: a 4 is a 4 in DejaVu, Hack or JetBrains Mono. So a glyph is described by

* its coverage (0 = background, 1 = ink) inside its bounding box, area-averaged onto a
  ``GLYPH_H`` x ``GLYPH_W`` grid,
* the bounding box's aspect ratio (a "1" is narrow in every font),
* its height in pixels (to compare it with bank glyphs rendered at about the same size, where
  anti-aliasing blurs them alike).

The bank (``templates/digits/bank.npz``) holds these descriptions for the digits 1-8 of many
monospace fonts at many sizes, rendered from the game's own SVG files (see
``tools/make_digit_bank.py``). A digit is read by its nearest bank glyphs; the margin to the
nearest glyph of another digit says how sure that is.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from ..errors import BadInputError

GLYPH_W, GLYPH_H = 12, 16
"""Grid a glyph's coverage is averaged onto."""

INK_THRESHOLD = 0.3
"""Coverage above which a row or column belongs to the glyph's bounding box."""

MIN_PEAK = 0.35
"""Least peak coverage of a glyph (fainter ink is anti-aliasing, not a digit)."""

MIN_HEIGHT = 4
"""Fewest pixel rows a glyph may have (smaller ink is a speck, not a digit)."""

ASPECT_WEIGHT = 0.35
"""Weight of the log aspect-ratio difference against the mean coverage difference."""

def _bank_file() -> Path:
    """The shipped bank: in the checkout's templates/, else where ``pip install`` put it."""
    repo = Path(__file__).resolve().parents[2] / "templates" / "digits" / "bank.npz"
    installed = Path(sys.prefix) / "share" / "minebot" / "templates" / "digits" / "bank.npz"
    return repo if repo.is_file() or not installed.is_file() else installed


BANK_FILE = _bank_file()


@dataclass(frozen=True)
class Glyph:
    """One glyph's font-free description (see the module docstring)."""

    shape: np.ndarray     # (GLYPH_H * GLYPH_W,) float32 coverage, 0..1
    aspect: float         # bounding-box width / height
    height: int           # bounding-box height in pixels


def coverage(tile: np.ndarray, background: np.ndarray, ink: np.ndarray) -> np.ndarray:
    """Per pixel, how much of ``ink`` covers ``background`` (0..1), for a BGR tile.

    Text is blended as ``background + a * (ink - background)``; projecting each pixel's
    difference from the background on ``ink - background`` recovers ``a`` whatever the colours.
    """
    d = tile.astype(np.float32) - np.asarray(background, np.float32)
    v = np.asarray(ink, np.float32) - np.asarray(background, np.float32)
    denom = float(v @ v)
    if denom <= 0:
        return np.zeros(tile.shape[:2], np.float32)
    return np.clip(d @ v / denom, 0.0, 1.0)


def describe(alpha: np.ndarray) -> Glyph | None:
    """The glyph in a coverage map (None when there is no glyph-sized ink).

    The coverage is scaled to its own peak first: a small glyph that the game drew scaled
    (blurred) never reaches full ink, but its shape is the same.
    """
    peak = float(alpha.max()) if alpha.size else 0.0
    if peak < MIN_PEAK:
        return None
    alpha = alpha / peak
    rows = np.flatnonzero(alpha.max(axis=1) > INK_THRESHOLD)
    cols = np.flatnonzero(alpha.max(axis=0) > INK_THRESHOLD)
    if rows.size == 0 or cols.size == 0:
        return None
    top, bottom, left, right = rows[0], rows[-1] + 1, cols[0], cols[-1] + 1
    height, width = bottom - top, right - left
    if height < MIN_HEIGHT:
        return None
    crop: np.ndarray = np.ascontiguousarray(alpha[top:bottom, left:right], dtype=np.float32)
    # upscale tiny glyphs first so INTER_AREA averages rather than skips
    scale = max(1, int(np.ceil(max(GLYPH_H / height, GLYPH_W / width))))
    if scale > 1:
        crop = cv2.resize(crop, (width * scale, height * scale), interpolation=cv2.INTER_LINEAR)
    shape = cv2.resize(crop, (GLYPH_W, GLYPH_H), interpolation=cv2.INTER_AREA)
    return Glyph(shape.reshape(-1).astype(np.float32), width / height, int(height))


@dataclass(frozen=True)
class Bank:
    """Reference glyphs: ``shapes`` (N, GLYPH_H*GLYPH_W), ``aspects``, ``heights``, ``digits``
    (1-8) and ``fonts`` (index into ``font_names``) of every rendered glyph."""

    shapes: np.ndarray
    aspects: np.ndarray
    heights: np.ndarray
    digits: np.ndarray
    fonts: np.ndarray
    font_names: tuple[str, ...]

    @classmethod
    def load(cls, path: str | Path = BANK_FILE) -> "Bank":
        return _load_bank(str(path))

    def without(self, font: str) -> "Bank":
        """The bank less one font (to measure how well unseen fonts are read)."""
        keep = self.fonts != self.font_names.index(font)
        return Bank(self.shapes[keep], self.aspects[keep], self.heights[keep],
                    self.digits[keep], self.fonts[keep], self.font_names)

    def distances(self, glyph: Glyph) -> np.ndarray:
        """Per digit 1-8, the distance to its nearest bank glyph of a comparable height."""
        near = np.abs(self.heights - glyph.height) <= max(2, 0.25 * glyph.height)
        if not near.any():
            near = np.ones(len(self.heights), bool)
        d = (np.abs(self.shapes[near] - glyph.shape).mean(axis=1)
             + ASPECT_WEIGHT * np.abs(np.log(self.aspects[near] / glyph.aspect)))
        out = np.full(8, np.inf, np.float32)
        np.minimum.at(out, self.digits[near] - 1, d)
        return out


@lru_cache(maxsize=4)
def _load_bank(path: str) -> Bank:
    try:
        with np.load(path, allow_pickle=False) as data:
            return Bank(data["shapes"].astype(np.float32) / 255.0, data["aspects"].astype(np.float32),
                        data["heights"].astype(np.int32), data["digits"].astype(np.int8),
                        data["fonts"].astype(np.int32), tuple(str(f) for f in data["font_names"]))
    except (OSError, KeyError, ValueError) as exc:
        raise BadInputError(f"{path}: cannot load the digit bank ({exc})") from None


def save_bank(path: str | Path, glyphs: list[tuple[Glyph, int, str]]) -> None:
    """Write a bank from (glyph, digit, font name) triples (shapes stored as bytes)."""
    names = sorted({font for _, _, font in glyphs})
    np.savez_compressed(
        path,
        shapes=np.stack([np.round(g.shape * 255) for g, _, _ in glyphs]).astype(np.uint8),
        aspects=np.array([g.aspect for g, _, _ in glyphs], np.float32),
        heights=np.array([g.height for g, _, _ in glyphs], np.uint16),
        digits=np.array([d for _, d, _ in glyphs], np.uint8),
        fonts=np.array([names.index(f) for _, _, f in glyphs], np.uint16),
        font_names=np.array(names))
