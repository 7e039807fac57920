"""Build template sets: from screenshots with known boards, or by grouping a live window's looks.

Two ways in, one way out (``templates.write_set``):

* ``examples_from_frame(frame, board)``: every tile of a screenshot whose true board is known
  becomes a labelled example. Several screenshots (sizes, themes, phases) are merged with
  ``merge_examples``, which keeps a new example only when it looks different enough from the
  ones already kept for its label, so a set stays small while covering every cell size.
* ``group_looks(patches)``: tiles of an unlabelled frame grouped by look (leader clustering on
  the normalised patches, vectorised per group), so that a user labels each distinct look
  once; ``suggest_labels`` pre-labels groups that an existing set already knows.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..board import Board, CELL_CHARS
from ..errors import BadInputError
from .features import grid_patches, tile_patch
from .locate import Grid, locate
from .templates import TemplateSet, match

MERGE_DISTANCE = 2.5
"""RMS patch distance under which a new example adds nothing to an existing one."""

GROUP_DISTANCE = 5.0
"""RMS patch distance under which two tiles count as the same look."""


@dataclass
class Example:
    image: np.ndarray      # the tile crop, BGR
    label: str             # board text character
    look: str = "normal"
    patch: np.ndarray | None = None
    size: int = 0          # width of the tile on screen (a stored template may be shrunk)

    def __post_init__(self) -> None:
        if self.patch is None:
            self.patch = tile_patch(self.image)
        if not self.size:
            self.size = int(self.image.shape[1])


def crops(frame: np.ndarray, grid: Grid) -> list[list[np.ndarray]]:
    return [[frame[grid.y0[r]:grid.y1[r], grid.x0[c]:grid.x1[c]].copy() for c in range(grid.cols)]
            for r in range(grid.rows)]


def examples_from_frame(frame: np.ndarray, board: Board, source: str = "<frame>",
                        look: str = "normal") -> list[Example]:
    """Labelled tiles of a screenshot whose board is known; the grid must match the board."""
    grid = locate(frame, min_cells=4)
    if (grid.rows, grid.cols) != board.shape:
        raise BadInputError(f"{source}: the image shows a {grid.cols}x{grid.rows} board but the "
                            f"board file is {board.cols}x{board.rows}")
    patches = grid_patches(frame, grid.x0, grid.x1, grid.y0, grid.y1)
    tiles = crops(frame, grid)
    text = board.rows_text()
    return [Example(tiles[r][c], text[r][c], look, patches[r, c])
            for r in range(grid.rows) for c in range(grid.cols)]


def merge_examples(kept: list[Example], new: list[Example],
                   distance: float = MERGE_DISTANCE) -> list[Example]:
    """``kept`` plus those of ``new`` that differ from every kept example of their label."""
    kept = list(kept)
    for ex in new:
        same = [k.patch for k in kept if k.label == ex.label and k.look == ex.look]
        if same:
            d = np.sqrt(((np.stack(same) - ex.patch) ** 2).mean(axis=(1, 2, 3)))
            if d.min() < distance:
                continue
        kept.append(ex)
    return kept


def check_conflicts(examples: list[Example], distance: float = 1.0) -> list[tuple[int, int]]:
    """Pairs of examples that look the same but carry different labels (a labelling error)."""
    if not examples:
        return []
    p = np.stack([e.patch for e in examples]).reshape(len(examples), -1)
    d2 = (p * p).sum(1)[:, None] + (p * p).sum(1)[None, :] - 2 * p @ p.T
    d = np.sqrt(np.maximum(d2, 0) / p.shape[1])
    labels = np.array([e.label for e in examples])
    bad = np.argwhere((d < distance) & (labels[:, None] != labels[None, :]))
    return [(int(a), int(b)) for a, b in bad if a < b]


def group_looks(patches: np.ndarray, distance: float = GROUP_DISTANCE) -> tuple[np.ndarray, list[int]]:
    """Leader clustering: (group index per patch, index of each group's first member)."""
    flat = patches.reshape(len(patches), -1).astype(np.float32)
    group = np.full(len(flat), -1, dtype=np.int32)
    leaders: list[int] = []
    while (group < 0).any():
        i = int(np.flatnonzero(group < 0)[0])
        leaders.append(i)
        d = np.sqrt(((flat - flat[i]) ** 2).mean(axis=1))
        group[(group < 0) & (d < distance)] = len(leaders) - 1
    return group, leaders


def suggest_labels(patches: np.ndarray, sets: list[TemplateSet],
                   max_distance: float = 6.0) -> list[str | None]:
    """For each patch, the label an existing set gives it confidently, else None."""
    out: list[str | None] = [None] * len(patches)
    best = np.full(len(patches), np.inf)
    for tset in sets:
        m = match(tset, patches)
        ok = (m.distance < max_distance) & (m.distance < best) & (m.runner_up > 2 * m.distance + 2)
        for i in np.flatnonzero(ok):
            out[i] = CELL_CHARS[int(m.code[i])]
            best[i] = m.distance[i]
    return out
