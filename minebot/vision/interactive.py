"""Label the looks of unlabelled screenshots with the user (``minebot calibrate --live``).

Cells are grouped by look so each look is asked once; groups an existing set recognises are
labelled without asking. Each remaining group's first cell is saved as an enlarged PNG the user
can open, and the label is typed at a prompt.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

import cv2
import numpy as np

from ..board import CELL_CHARS
from ..errors import BadInputError, Interrupted
from ..games import GameProfile
from .calibrate import Example, crops, group_looks, merge_examples, suggest_labels
from .features import grid_patches
from .grids import locate_board
from .templates import TemplateSet, available_sets

ANSWERS = "Type 0-8, - (covered), F (flag), ? (question), * (mine), X (exploded), W (wrong flag), " \
          "h (hovered covered cell), p (pressed covered cell), s (skip)"


def _existing_sets(base: list[TemplateSet]) -> list[TemplateSet]:
    sets = list(base)
    names = {s.name for s in sets}
    for name, path in available_sets().items():
        if name not in names:
            try:
                sets.append(TemplateSet.load(path))
            except BadInputError:
                pass
    return sets


def label_frames(frames: list[tuple[str, np.ndarray]], kept: list[Example], base: list[TemplateSet],
                 review: Path, ask: Callable[[str], str] | None = None,
                 progress: Callable[[str], None] = print, suggest: bool = True,
                 profile: GameProfile | None = None) -> list[Example]:
    """Add the labelled looks of ``frames`` to ``kept`` (asking the user for unknown ones).

    ``ask`` defaults to ``input`` looked up at call time, not bound when this module is first
    imported (a default bound then would keep whatever ``input`` was at that moment).
    """
    ask = ask if ask is not None else input
    sets = _existing_sets(base) if suggest else []
    review.mkdir(parents=True, exist_ok=True)
    for source, frame in frames:
        grid = locate_board(frame, profile, min_cells=4)
        patches = grid_patches(frame, grid.x0, grid.x1, grid.y0, grid.y1)
        flat = patches.reshape(-1, *patches.shape[2:])
        tiles = [t for row in crops(frame, grid) for t in row]
        group, leaders = group_looks(flat)
        guesses = suggest_labels(flat[leaders], sets) if sets else [None] * len(leaders)
        progress(f"{source}: {grid.cols}x{grid.rows} board, {len(leaders)} different looks, "
                 f"{sum(g is not None for g in guesses)} recognised")
        for k, leader in enumerate(leaders):
            members = np.flatnonzero(group == k)
            label, look = guesses[k], "normal"
            if label is None:
                r, c = divmod(int(leader), grid.cols)
                path = review / f"group-{len(kept) + k:03d}.png"
                big = cv2.resize(tiles[leader], None, fx=max(1, 96 // tiles[leader].shape[1]),
                                 fy=max(1, 96 // tiles[leader].shape[1]),
                                 interpolation=cv2.INTER_NEAREST)
                cv2.imwrite(str(path), big)
                label, look = _ask(ask, f"look {k + 1}/{len(leaders)}: {len(members)} cell(s), "
                                        f"e.g. row {r} col {c}; picture: {path}")
                if label is None:
                    continue
            new = [Example(tiles[i], label, look, flat[i]) for i in members[:8]]
            kept = merge_examples(kept, new)
    return kept


def _ask(ask: Callable[[str], str], prompt: str) -> tuple[str | None, str]:
    for _ in range(5):
        try:
            answer = ask(f"{prompt}\n  {ANSWERS}\n  label> ").strip()
        except EOFError:
            raise BadInputError("labelling stopped: no more input (end of file)") from None
        except KeyboardInterrupt:
            raise Interrupted("labelling interrupted; nothing was written") from None
        if answer.lower() == "s":
            return None, "normal"
        if answer.lower() == "h":
            return "-", "hover"
        if answer.lower() == "p":
            return "-", "pressed"
        if len(answer) == 1 and answer.upper() in CELL_CHARS:
            return answer.upper(), "normal"
    raise BadInputError("too many answers that are not a label")
