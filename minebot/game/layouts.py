"""Fixed mine layouts in JSONL, so two solvers (or two runs) can play identical boards.

One JSON object per line: ``{"cols": 30, "rows": 16, "mines": [[r, c], ...], "first": [r, c]}``
(``first`` optional: where the player's first click goes). Blank lines are allowed.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

import numpy as np

from ..errors import BadInputError
from ..rules import place_mines


@dataclass(frozen=True)
class Layout:
    rows: int
    cols: int
    mines: tuple[tuple[int, int], ...]
    first: tuple[int, int] | None = None

    def mask(self) -> np.ndarray:
        mask = np.zeros((self.rows, self.cols), dtype=bool)
        if self.mines:
            rr, cc = zip(*self.mines)
            mask[list(rr), list(cc)] = True
        return mask

    @classmethod
    def from_mask(cls, mask: np.ndarray, first: tuple[int, int] | None = None) -> "Layout":
        cells = tuple((int(r), int(c)) for r, c in zip(*np.nonzero(mask)))
        return cls(int(mask.shape[0]), int(mask.shape[1]), cells, first)

    def to_json(self) -> dict:
        obj: dict = {"cols": self.cols, "rows": self.rows, "mines": [list(m) for m in self.mines]}
        if self.first is not None:
            obj["first"] = list(self.first)
        return obj


def _cell(value, where: str) -> tuple[int, int]:
    if (not isinstance(value, list) or len(value) != 2
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)):
        raise BadInputError(f"{where}: expected [row, col], got {value!r}")
    return value[0], value[1]


def parse_layout(obj: object, where: str) -> Layout:
    """Validate one decoded JSON object; errors say ``where`` (file:line) and what is wrong."""
    if not isinstance(obj, dict):
        raise BadInputError(f"{where}: expected a JSON object")
    for key in ("rows", "cols"):
        if not isinstance(obj.get(key), int) or obj[key] < 1:
            raise BadInputError(f"{where}: '{key}' must be a whole number >= 1")
    rows, cols = obj["rows"], obj["cols"]
    if not isinstance(obj.get("mines"), list):
        raise BadInputError(f"{where}: 'mines' must be a list of [row, col]")
    mines = tuple(_cell(m, where) for m in obj["mines"])
    first = _cell(obj["first"], where) if obj.get("first") is not None else None
    for r, c in mines + ((first,) if first else ()):
        if not (0 <= r < rows and 0 <= c < cols):
            raise BadInputError(f"{where}: cell [{r}, {c}] is off the {cols}x{rows} board")
    if len(set(mines)) != len(mines):
        raise BadInputError(f"{where}: a mine is listed twice")
    if first is not None and first in set(mines):
        raise BadInputError(f"{where}: the first click {list(first)} is on a mine")
    return Layout(rows, cols, mines, first)


def read_json_lines(path: str | Path, what: str) -> list[tuple[str, object]]:
    """The decoded objects of a JSONL file with where each came from (``file:line``), blank
    lines skipped; a missing or unreadable file or a line that is not JSON is a
    ``BadInputError`` naming it (``what`` says what the file should hold)."""
    path = Path(path)
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        raise BadInputError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise BadInputError(f"{path}: cannot read {what} ({exc})") from None
    out = []
    for lineno, line in enumerate(lines, 1):
        if not line.strip():
            continue
        where = f"{path}:{lineno}"
        try:
            out.append((where, json.loads(line)))
        except json.JSONDecodeError as exc:
            raise BadInputError(f"{where}: not JSON ({exc.msg} at column {exc.colno})") from None
    if not out:
        raise BadInputError(f"{path}: no {what} in the file")
    return out


def load_layouts(path: str | Path) -> list[Layout]:
    return [parse_layout(obj, where) for where, obj in read_json_lines(path, "layouts")]


def save_layouts(path: str | Path, layouts: Iterable[Layout]) -> int:
    count = 0
    with open(path, "w", encoding="utf-8") as out:
        for layout in layouts:
            out.write(json.dumps(layout.to_json()) + "\n")
            count += 1
    return count


def generate_layouts(rows: int, cols: int, mines: int, rules: str, first: tuple[int, int],
                     count: int, seed: int | None) -> Iterable[Layout]:
    """Random layouts as the engine would draw them for a first click at ``first``."""
    rng = np.random.default_rng(seed)
    for _ in range(count):
        yield Layout.from_mask(place_mines(rng, rows, cols, mines, rules, first), first)
