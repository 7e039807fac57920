"""No-guess boards: layouts that logic alone solves from the first click.

Candidates are drawn exactly as the engine draws a game (same rule set and first click); each
is played with certain moves only (the SAT backbone with the mine total, as the solver plays)
and kept only if that wins. The solver therefore never needs to guess on them, so its strategy
must win every one: a test of the strategy and of the certainty analysis together.
"""

from __future__ import annotations

from typing import Iterator

import numpy as np

from ..board import GameState
from ..errors import MinebotError
from ..game.engine import EngineGame
from ..game.layouts import Layout
from ..move import Action, Move
from ..rules import place_mines
from .analysis import analyse


def solvable_without_guessing(layout: Layout, rules: str, first: tuple[int, int]) -> bool:
    """Play ``layout`` from ``first`` opening only proved-safe cells; True if that wins."""
    game = EngineGame(layout.rows, layout.cols, len(layout.mines), rules=rules, layout=layout,
                      first_click=first)
    board = game.act([Move(Action.OPEN, first)])
    while board.state is GameState.PLAYING:
        result = analyse(board, board.mines)
        if not result.safe:
            return False
        board = game.act([Move(Action.OPEN, cell) for cell in result.safe])
    return board.state is GameState.WON


def no_guess_layouts(rows: int, cols: int, mines: int, rules: str, first: tuple[int, int],
                     count: int, seed: int | None = None, max_tries: int = 100_000) -> Iterator[Layout]:
    """Yield ``count`` layouts solvable without guessing (seeded; stops after ``max_tries``)."""
    rng = np.random.default_rng(seed)
    made = 0
    for _ in range(max_tries):
        if made >= count:
            return
        layout = Layout.from_mask(place_mines(rng, rows, cols, mines, rules, first), first)
        if solvable_without_guessing(layout, rules, first):
            made += 1
            yield layout
    raise MinebotError(f"only {made} of {count} no-guess boards found in {max_tries} tries")
