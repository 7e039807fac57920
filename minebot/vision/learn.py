"""Learn from play: the looks a game was unsure of, labelled with the truth its end proves.

During a game the reader may be unsure of a number (two digit shapes too close to call in a
font it never saw) or of a look (at 19 px a flag and a "?" differ by a few pixels). A finished
game proves what those cells were (``minebot.truth``: a loss shows every mine, a win flags
them all), so each doubtful crop is labelled and added to the looks learned for the set that
read it (``<user templates>/<set>.learned/``, loaded with the set): the next game reads that
look for sure. Nothing is ever written into a shipped set, and ``learn=False`` (``--no-learn``)
turns it off.
"""

from __future__ import annotations

import json

import cv2
import numpy as np

from ..board import CELL_CHARS, Board, Cell
from ..truth import true_numbers
from .calibrate import Example, merge_examples
from .templates import META, TemplateSet, learned_dir, write_set

Coord = tuple[int, int]


class Learner:
    """Collects a game's doubtful crops (``observe`` every accepted reading) and labels and
    saves them when the game is over (``finish``)."""

    def __init__(self) -> None:
        # crop bytes -> (crop, [(cell, code read) showing it], set name)
        self._pending: dict[bytes, tuple[np.ndarray, list[tuple[Coord, int]], str]] = {}

    def observe(self, frame: np.ndarray, reading) -> None:
        """Keep the crops of the cells ``reading`` was unsure of, with the code it chose."""
        for cell in set(reading.unsure) | set(reading.suspect):
            x0, y0, x1, y1 = (int(v) for v in reading.cell_rects[cell])
            crop = frame[y0:y1, x0:x1]
            key = crop.tobytes() + repr(crop.shape).encode() + reading.templates.encode()
            if key not in self._pending:
                self._pending[key] = (crop.copy(), [], reading.templates)
            self._pending[key][1].append((cell, int(reading.board.cells[cell])))

    def forget(self) -> None:
        self._pending.clear()

    def finish(self, final: Board) -> dict[str, int]:
        """Label the kept crops by ``final`` and add them to the learned looks; returns how
        many looks each set learned (nothing when the game is not over)."""
        truth = true_numbers(final)
        if truth is None:
            return {}
        by_set: dict[str, list[Example]] = {}
        for crop, cells, name in self._pending.values():
            # the same pixels anywhere on the board are the same look: any cell that the end
            # proves labels it
            label = next((found for cell, read_as in cells
                          if (found := _label(final, truth, cell, read_as)) is not None), None)
            if label is not None:
                by_set.setdefault(name, []).append(Example(crop, label, "normal"))
        self._pending.clear()
        return {name: _add(name, examples) for name, examples in by_set.items()}


def _label(final: Board, truth: np.ndarray, cell: Coord, read_as: int) -> str | None:
    """The proven label of a doubtful cell, or None when the end does not prove it.

    A revealed cell never changes, so its true number is its label. Other looks change with
    play (a covered cell gets flagged), so a flag is learned only where the reading chose a
    flag and the finished game shows a right flag there."""
    if 0 <= truth[cell] <= 8 and (read_as <= 8 or read_as == Cell.OPEN):
        return str(int(truth[cell]))
    if read_as == Cell.FLAG and final.cells[cell] == Cell.FLAG:
        return CELL_CHARS[Cell.FLAG]
    return None


def _add(name: str, examples: list[Example]) -> int:
    """Merge ``examples`` into set ``name``'s learned looks; the number of new looks."""
    folder = learned_dir(name)
    kept: list[Example] = []
    if (folder / META).is_file():
        old = TemplateSet.load_folder(folder, folder / META)
        kept = [Example(cv2.imread(str(folder / f)), CELL_CHARS[int(code)], look, None, int(size))
                for f, code, look, size in zip(old.files, old.codes, old.looks, old.sizes)]
    merged = merge_examples(kept, examples)
    added = len(merged) - len(kept)
    if added:
        base = json.loads((TemplateSet.load(name).path / META).read_text(encoding="utf-8"))
        write_set(folder, f"{name}.learned", base.get("game", ""), base.get("theme", ""),
                  [(e.image, e.label, e.look, e.size) for e in merged],
                  extra={"extends": name})
    return added


__all__ = ["Learner"]
