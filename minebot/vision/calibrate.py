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

from .. import games
from ..board import CELL_CHARS, Board
from ..errors import BadInputError, NoGameError
from ..games import GameProfile
from .bylooks import fit_known
from .features import grid_patches, tile_patch
from .grids import align, locate_board, touching
from .locate import Grid
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


def board_grid(frame: np.ndarray, board: Board, profile: GameProfile | None = None,
               source: str = "<frame>") -> tuple[Grid, bool]:
    """The grid of a screenshot whose board is known, and whether it was found by the looks.

    Located as ``profile``'s game draws it (any game's way when None); it must have the
    board's size. A look whose cells draw no lines (a seamless picture) is found from the
    board itself (``bylooks.fit_known``): the lattice where same labels look alike.
    """
    found: list[Grid] = []
    for each in ([profile] if profile is not None else list(games.PROFILES.values())):
        try:
            grid = locate_board(frame, each, min_cells=4)
        except NoGameError:
            continue
        if (grid.rows, grid.cols) == board.shape:
            return grid, False
        found.append(grid)
    if found:
        grid = found[0]
        raise BadInputError(f"{source}: the image shows a {grid.cols}x{grid.rows} board but the "
                            f"board file is {board.cols}x{board.rows}")
    try:
        return fit_known(frame, board), True
    except NoGameError as exc:
        raise NoGameError(f"{source}: {exc}") from None


def examples_from_frame(frame: np.ndarray, board: Board, source: str = "<frame>",
                        look: str = "normal", profile: GameProfile | None = None,
                        kept: list[Example] | None = None) -> tuple[list[Example], bool]:
    """Labelled tiles of a screenshot whose board is known; the grid must match the board.

    Touching cells have no one true boundary (which edge of a bevel?), so a lattice is moved
    by a pixel or two to fit the looks already ``kept`` from earlier screenshots: every
    example of a set is then cut the same way. Also returns whether the board was found by its
    looks alone (no lines: see ``board_grid``).
    """
    grid, by_looks = board_grid(frame, board, profile, source)
    text = board.rows_text()
    if kept and (touching(grid) or by_looks):
        grid = align(frame, grid, lambda g: _label_cost(frame, g, text, kept))
    patches = grid_patches(frame, grid.x0, grid.x1, grid.y0, grid.y1)
    tiles = crops(frame, grid)
    return [Example(tiles[r][c], text[r][c], look, patches[r, c])
            for r in range(grid.rows) for c in range(grid.cols)], by_looks


def _label_cost(frame: np.ndarray, grid: Grid, text: list[str], kept: list[Example]) -> float:
    """Mean distance of every cell to the nearest kept example of its label (cells whose label
    has no example yet left out)."""
    patches = grid_patches(frame, grid.x0, grid.x1, grid.y0, grid.y1)
    flat = patches.reshape(grid.rows * grid.cols, -1)
    labels = np.array([ch for row in text for ch in row])
    total, count = 0.0, 0
    for label in set(labels.tolist()):
        ref = [e.patch.reshape(-1) for e in kept if e.label == label]
        if not ref:
            continue
        mine = flat[labels == label]
        refs = np.stack(ref)
        d = np.sqrt(((mine[:, None, :] - refs[None]) ** 2).mean(axis=2)).min(axis=1)
        total += float(d.sum())
        count += d.size
    return total / count if count else 0.0


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
