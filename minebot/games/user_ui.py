"""Live play of a game a user described in a profile file (``minebot.games.user``).

Why a generic UI is enough to play one game: everything on the board (cells, the counter, a
win or a loss) is read through the profile and the user's template set; what only the game's
own interface knows is how to start a new game, which the file may give as a key
(``[play] new_game_key``). Without one minebot plays the game the window shows and says why it
cannot start another. A game that opens an area by itself (rules ``preopened``) shows a fresh
board that is not all covered: any board in play with no mark on it that differs from the one
shown before the new game was asked for is fresh, as for xdemineur.
"""

from __future__ import annotations

import numpy as np

from ..board import Board, Cell
from ..errors import BadInputError
from ..game.ui import GameHost, GameUI, all_covered
from ..rules import Rules
from .profile import GameProfile
from .user import PlayOptions, play_options


class UserGameUI(GameUI):
    """The ``GameUI`` of a user's game: its profile and its ``PlayOptions``."""

    def __init__(self, profile: GameProfile, options: PlayOptions | None = None) -> None:
        super().__init__(profile)
        self.game = profile.name
        self.options = options if options is not None else play_options(profile.name)
        self.flags_to_win = self.options.flags_to_win

    def is_fresh(self, board: Board, before: Board | None = None) -> bool:
        if all_covered(board):
            return True
        if self.rules is not Rules.PREOPENED or board.is_over or before is None:
            return False
        marked = np.isin(board.cells, (Cell.FLAG, Cell.QUESTION)).any()
        return not marked and board.shape == before.shape and not np.array_equal(
            board.cells, before.cells)

    def request_new_game(self, live: GameHost, board: Board | None) -> None:
        key = self.options.new_game_key
        if key is None:
            raise BadInputError(f"{self.name}: minebot does not know how to start a new game "
                                f"(give [play] new_game_key in its profile file); it plays the "
                                f"game the window shows, one a run")
        live.key(key)
