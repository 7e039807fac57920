"""Read the numbers 1-8 without depending on the font or the window size.

A template set's templates show one font at the sizes it was recorded at. The number cells
are the ones that change with the player's fonts and window, so they are read from what the
theme itself encodes instead (its ``"numbers"`` entry in ``templates.json``):

* ``background``: every number has its own tile colour (GNOME Mines' bgcolors theme);
* ``ink``: every number has its own glyph colour on a shared open-cell colour (classic);
* ``shape``: one glyph colour for all, so only the glyph's shape tells them apart (default);
  the shape is compared with the digit bank (``glyphs.py``), rendered from many fonts.

Whatever the method, a cell counts as a number only when its tile colour is one numbers are
drawn on and its ink is of a number's colour and digit-shaped, so an exploded mine on the same
light tile is left to the templates. Every number cell also gets the shape's opinion: when the
colour and the shape disagree, or the shape is too close a call, the cell is reported unsure
with the digits still possible, never silently guessed.

Per frame the work is one vectorised estimate of every tile's colour, plus one small crop per
number cell whose pixels were not seen before (results are cached by the crop's bytes).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

import numpy as np

from ..errors import BadInputError
from .glyphs import Bank, coverage, describe

GROUND_TOLERANCE = 10
"""Largest per-channel difference between a tile's colour and a listed colour."""

INK_CONTRAST = 14.0
"""A pixel this far (RMS over channels) from the tile colour is ink."""

INK_FIT = 0.08
"""Largest mean residual (as a fraction of the ink's contrast) for ink of the expected colour.

Text blends linearly into its tile, so a number's ink fits its colour almost exactly (under
0.01 on every fixture); icons drawn in several colours (an exploded mine) fit no single one
(0.15 and more)."""

MAX_SHAPE = 0.2
"""Bank distance above which ink is not digit-shaped (numbers: at most 0.12 on the fixtures)."""

MAX_AGREED_SHAPE = 0.3
"""Bank distance up to which ink of a number's colour still counts as digit-shaped when its
shape is nearest that very digit. The bank is rendered from fonts; a game's own bitmap digits
(xdemineur's blocky 5 is 0.22 from the bank's 5s, and nearest them) are further from it than
any font, while an icon that passed the colour test is not nearest the colour's digit."""

SURE_MARGIN = 0.035
"""Bank distance margin between the best and the second digit for a shape to be trusted."""

CANDIDATE_MARGIN = 0.06
"""Digits whose bank distance is within this of the best stay candidates of an unsure cell."""


class NumberMethod(enum.Enum):
    BACKGROUND = "background"
    INK = "ink"
    SHAPE = "shape"


def _colour(value, where: str) -> np.ndarray:
    """'#rrggbb' -> BGR float array."""
    if not (isinstance(value, str) and len(value) == 7 and value.startswith("#")):
        raise BadInputError(f"{where}: {value!r} is not a colour like '#a1b2c3'")
    try:
        r, g, b = (int(value[i:i + 2], 16) for i in (1, 3, 5))
    except ValueError:
        raise BadInputError(f"{where}: {value!r} is not a colour like '#a1b2c3'") from None
    return np.array([b, g, r], np.float32)


@dataclass(frozen=True)
class NumberLook:
    """How a theme draws its numbers (see the module docstring).

    ``colours[k]`` is number k+1's tile colour (background) or glyph colour (ink);
    ``grounds`` the tile colours numbers are drawn on (ink, shape); ``ink`` the glyph colour
    (shape, background); ``fill``: the glyphs fill their cells (xdemineur's bitmaps), so a
    tile colour that is a blend of a ground and an ink is that ground (``NumberReader.grounds``).
    """

    method: NumberMethod
    colours: np.ndarray = field(default_factory=lambda: np.empty((0, 3), np.float32))
    grounds: np.ndarray = field(default_factory=lambda: np.empty((0, 3), np.float32))
    ink: np.ndarray | None = None
    fill: bool = False

    @classmethod
    def from_meta(cls, meta: dict, where: str) -> "NumberLook | None":
        spec = meta.get("numbers")
        if spec is None:
            return None
        where = f"{where}: numbers"
        if not isinstance(spec, dict):
            raise BadInputError(f"{where}: expected an object")
        try:
            method = NumberMethod(spec.get("method"))
        except ValueError:
            raise BadInputError(f"{where}: method {spec.get('method')!r} is not one of "
                                f"{', '.join(m.value for m in NumberMethod)}") from None
        colours = [_colour(c, f"{where}.colours") for c in spec.get("colours", [])]
        grounds = [_colour(c, f"{where}.grounds") for c in spec.get("grounds", [])]
        ink = _colour(spec["ink"], f"{where}.ink") if "ink" in spec else None
        if method is not NumberMethod.SHAPE and len(colours) != 8:
            raise BadInputError(f"{where}: method {method.value} needs 8 colours, one per number")
        if method is not NumberMethod.BACKGROUND and not grounds:
            raise BadInputError(f"{where}: method {method.value} needs the 'grounds' numbers are drawn on")
        if method is not NumberMethod.INK and ink is None:
            raise BadInputError(f"{where}: method {method.value} needs the glyph colour 'ink'")
        fill = spec.get("fill", False)
        if not isinstance(fill, bool):
            raise BadInputError(f"{where}: fill {fill!r} is not true or false")
        return cls(method, np.array(colours, np.float32).reshape(-1, 3),
                   np.array(grounds, np.float32).reshape(-1, 3), ink, fill)


@dataclass(frozen=True)
class NumberRead:
    """One cell's number: ``digit`` (1-8) and the digits it may still be (``candidates``,
    more than one when unsure)."""

    digit: int
    candidates: tuple[int, ...]

    @property
    def sure(self) -> bool:
        return len(self.candidates) == 1


def tile_colours(frame: np.ndarray, x0, x1, y0, y1) -> np.ndarray:
    """(rows, cols, 3) BGR colour of every tile, from pixels near its edges.

    Numbers and icons sit in the middle of a tile; the band a few pixels inside each edge,
    away from the rounded corners, shows the tile's own colour. The median over 16 such
    pixels per tile ignores the odd anti-aliased one.
    """
    x0, x1, y0, y1 = (np.asarray(a, np.intp) for a in (x0, x1, y0, y1))
    w, h = x1 - x0, y1 - y0
    inset_x = np.maximum(1, np.round(w * 0.1)).astype(np.intp)
    inset_y = np.maximum(1, np.round(h * 0.1)).astype(np.intp)
    t = np.array([0.35, 0.45, 0.55, 0.65])
    along_x = np.round(x0[:, None] + w[:, None] * t).astype(np.intp)        # (cols, 4)
    along_y = np.round(y0[:, None] + h[:, None] * t).astype(np.intp)        # (rows, 4)
    top = frame[(y0 + inset_y)[:, None, None], along_x[None, :, :]]          # (rows, cols, 4, 3)
    bottom = frame[(y1 - 1 - inset_y)[:, None, None], along_x[None, :, :]]
    left = frame[along_y[:, None, :], (x0 + inset_x)[None, :, None]]
    right = frame[along_y[:, None, :], (x1 - 1 - inset_x)[None, :, None]]
    samples = np.concatenate([top, bottom, left, right], axis=2).astype(np.float32)
    return np.median(samples, axis=2)


class NumberReader:
    """Reads the number cells of frames in one theme; caches each distinct crop's result."""

    def __init__(self, look: NumberLook, bank: Bank | None = None) -> None:
        self.look = look
        self.bank = bank if bank is not None else Bank.load()
        self._cache: dict[bytes, NumberRead | None] = {}

    def grounds(self, colours: np.ndarray) -> np.ndarray:
        """Tile colours with those that are a number's ink replaced by the ground (ink method).

        ``tile_colours`` samples a band near each tile's edge; a glyph that fills its cell
        (xdemineur's 20 px bitmaps) covers much of that band, so the "tile colour" comes out
        as the ink or a blend of ink and ground. Where it is such a blend (at least a third
        ink), the ground it blends from is meant.
        """
        look = self.look
        if look.method is not NumberMethod.INK or not look.fill or not len(look.grounds):
            return colours
        out = colours.copy()
        for ground in look.grounds:
            v = look.colours - ground                                        # (8, 3)
            d = colours[..., None, :] - ground                              # (..., 8, 3)
            a = (d * v).sum(-1) / np.maximum((v * v).sum(-1), 1.0)           # (..., 8)
            resid = np.abs(d - a[..., None] * v).max(axis=-1)
            blend = ((a >= 0.33) & (a <= 1.1) & (resid <= GROUND_TOLERANCE)).any(axis=-1)
            out[blend] = ground
        return out

    def candidates(self, colours: np.ndarray) -> np.ndarray:
        """Boolean (rows, cols): tiles whose colour is one numbers are drawn on."""
        look = self.look
        listed = look.colours if look.method is NumberMethod.BACKGROUND else look.grounds
        diff = np.abs(colours[..., None, :] - listed).max(axis=-1)      # (rows, cols, K)
        return (diff <= GROUND_TOLERANCE).any(axis=-1)

    def read(self, frame: np.ndarray, grid, colours: np.ndarray, cells: np.ndarray) -> dict:
        """{(r, c): NumberRead} for the ``cells`` (boolean mask) that show a number."""
        out: dict[tuple[int, int], NumberRead] = {}
        for r, c in np.argwhere(cells):
            crop = frame[grid.y0[r]:grid.y1[r], grid.x0[c]:grid.x1[c]]
            key = crop.tobytes() + repr(crop.shape).encode()
            if key not in self._cache:
                if len(self._cache) > 4096:
                    self._cache.clear()
                self._cache[key] = self._read_tile(crop, colours[r, c])
            found = self._cache[key]
            if found is not None:
                out[(int(r), int(c))] = found
        return out

    def _read_tile(self, tile: np.ndarray, ground: np.ndarray) -> NumberRead | None:
        look = self.look
        h, w = tile.shape[:2]
        b = max(1, round(min(h, w) * 0.08))
        inner = tile[b:h - b, b:w - b].astype(np.float32)
        d = inner - ground
        strength = np.sqrt((d * d).mean(axis=-1))
        strong = strength > INK_CONTRAST
        if strong.sum() < 3:
            return None                              # a flat tile: a zero (or hover)
        by_colour: int | None = None
        if look.method is NumberMethod.BACKGROUND:
            by_colour = int(np.argmin(np.abs(look.colours - ground).max(axis=1))) + 1
            ink = look.ink
        elif look.method is NumberMethod.INK:
            by_colour, fit = self._ink_digit(d[strong], look.colours - ground)
            if fit > INK_FIT:
                return None                              # not a number's colour (an icon)
            ink = look.colours[by_colour - 1]
        else:
            ink = look.ink
            _, fit = self._ink_digit(d[strong], (ink - ground)[None, :])
            if fit > INK_FIT:
                return None
        glyph = describe(coverage(tile[b:h - b, b:w - b], ground, ink))
        if glyph is None:
            return None if by_colour is None else NumberRead(by_colour, (by_colour,))
        dist = self.bank.distances(glyph)
        best = int(np.argmin(dist)) + 1
        if by_colour is not None:
            # colour decides; the shape only has to be some digit (an icon is not)
            if look.method is NumberMethod.INK and dist[by_colour - 1] > MAX_SHAPE and not (
                    best == by_colour and dist[by_colour - 1] <= MAX_AGREED_SHAPE):
                return None
            return NumberRead(by_colour, (by_colour,))
        if dist.min() > MAX_SHAPE:
            return None
        order = np.sort(dist)
        if order[1] - order[0] >= SURE_MARGIN:
            return NumberRead(best, (best,))
        close = tuple(int(k) + 1 for k in np.flatnonzero(dist <= order[0] + CANDIDATE_MARGIN))
        return NumberRead(best, close)

    @staticmethod
    def _ink_digit(diffs: np.ndarray, vectors: np.ndarray) -> tuple[int, float]:
        """Which ink colour (``vectors``: ink - ground) the strong pixels are a blend of.

        A pixel is ``a * vector`` for some coverage ``a`` in 0..1; the residual of the best
        ``a``, relative to the vector's length, says how well each colour explains the pixel.
        Returns (1-based index of the best colour, its mean relative residual).
        """
        norms2 = (vectors * vectors).sum(axis=1)                               # (K,)
        a = np.clip(diffs @ vectors.T / norms2, 0.0, 1.0)                      # (P, K)
        resid = diffs[:, None, :] - a[..., None] * vectors[None, :, :]         # (P, K, 3)
        score = np.sqrt((resid * resid).sum(axis=-1)).mean(axis=0) / np.sqrt(norms2)
        k = int(np.argmin(score))
        return k + 1, float(score[k])
