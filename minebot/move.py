"""A move: what a strategy asks a game to do."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum


class Action(str, Enum):
    OPEN = "open"      # reveal a covered cell (on a revealed number: chord, as GNOME Mines does)
    FLAG = "flag"      # put a flag on a covered cell
    UNFLAG = "unflag"  # remove a flag or question mark
    CHORD = "chord"    # open every unflagged neighbour of a satisfied number


@dataclass(frozen=True)
class Move:
    """One action on one ``(row, col)`` cell.

    ``p_mine`` is the solver's probability that the cell is a mine when the move was chosen:
    0 for a certain move, above 0 for a guess. Games ignore it; logs and reports use it.
    """

    action: Action
    cell: tuple[int, int]
    p_mine: float = 0.0

    @property
    def is_guess(self) -> bool:
        return self.action is Action.OPEN and self.p_mine > 0.0

    def to_json(self) -> dict:
        return {"action": self.action.value, "cell": [int(self.cell[0]), int(self.cell[1])]}
