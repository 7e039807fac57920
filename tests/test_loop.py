"""The shared play loop, driven over the engine with strategies whose outcome is known."""

import numpy as np
import pytest

from minebot.board import GameState
from minebot.errors import InconsistentBoardError, MinebotError
from minebot.game.engine import EngineGame
from minebot.loop import play_game
from minebot.move import Action, Move


class Oracle:
    """Knows the hidden layout: opens every safe covered cell in one batch. Must always win."""

    def __init__(self, game):
        self.game = game

    def next_moves(self, board, mines=None, rules=None, first_click=None):
        if self.game.mine_mask is None:
            return [Move(Action.OPEN, first_click or (0, 0), p_mine=0.1)]
        todo = board.unknown & ~self.game.mine_mask
        return [Move(Action.OPEN, (int(r), int(c))) for r, c in zip(*np.nonzero(todo))]


class MineFinder(Oracle):
    def next_moves(self, board, mines=None, rules=None, first_click=None):
        if self.game.mine_mask is None:
            return super().next_moves(board, mines, rules, first_click)
        r, c = np.argwhere(self.game.mine_mask)[0]
        return [Move(Action.OPEN, (int(r), int(c)), p_mine=0.5)]


def test_oracle_wins_every_game_and_counts_clicks():
    for seed in range(20):
        game = EngineGame(16, 30, 99, rules="zero", seed=seed, first_click=(3, 3))
        result = play_game(game, Oracle(game))
        assert result.won and result.final.state is GameState.WON
        assert result.guesses == 1 and result.turns == 2
        opened_by_click = int((~game.mine_mask).sum())
        assert 1 < result.clicks <= opened_by_click
        assert len(result.move_ms) == result.turns


def test_opening_a_mine_loses_and_the_loop_stops():
    game = EngineGame(8, 8, 10, seed=1, first_click=(2, 2))
    seen = []
    result = play_game(game, MineFinder(game), on_step=lambda b, m: seen.append(len(m)))
    assert not result.won and result.final.state is GameState.LOST
    assert seen[-1] == 0 and result.turns == 2


def test_inconsistent_board_is_reread_then_reported():
    class Confused:
        calls = 0

        def next_moves(self, board, mines=None, rules=None, first_click=None):
            Confused.calls += 1
            raise InconsistentBoardError("no layout fits", [(0, 0)])

    game = EngineGame(8, 8, 10, seed=1)
    with pytest.raises(InconsistentBoardError):
        play_game(game, Confused(), rereads=2)
    assert Confused.calls == 3


def test_a_strategy_that_stalls_is_stopped():
    class Stall:
        def next_moves(self, board, mines=None, rules=None, first_click=None):
            return [Move(Action.FLAG, (0, 0))]

    with pytest.raises(MinebotError, match="did not end"):
        play_game(EngineGame(8, 8, 10, seed=1), Stall(), max_turns=5)
