"""The one interface every game implements: the live window, the headless engine, a replay.

A strategy only ever sees ``observe()`` and ``act()``: that is what lets the same play loop
drive a real GNOME Mines window, the engine used for benchmarks, and recorded frames.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import Sequence

from ..board import Board
from ..move import Action, Move
from ..rules import Rules


class Game(ABC):
    """One game of Minesweeper that can be looked at and acted on.

    ``first_click`` is where the rules (or a fixed layout) say the first move should go, or
    None to let the strategy choose. ``rules`` names the rule set (``zero``, ``safe``,
    ``preopened``) when known, so a strategy can pick its opening.
    """

    rules: Rules | None = None
    first_click: tuple[int, int] | None = None

    @abstractmethod
    def observe(self) -> Board:
        """The board as it is now, with ``state`` set (playing, won, lost...)."""

    @abstractmethod
    def act(self, moves: Sequence[Move]) -> Board:
        """Play ``moves`` in order and return the board afterwards.

        Implementations stop early when the game ends. Playing several certain moves in one
        call lets the live game click them all before a single capture.
        """

    def new_game(self) -> Board:
        """Start the next game of the same size; returns its first board."""
        raise NotImplementedError(f"{type(self).__name__} cannot start a new game")

    def close(self) -> None:  # noqa: B027 - a hook: most games hold nothing to release
        """Release what the game holds (windows, files). Safe to call twice."""

    # Conveniences over ``act``.
    def open(self, cell: tuple[int, int]) -> Board:
        return self.act([Move(Action.OPEN, cell)])

    def flag(self, cell: tuple[int, int]) -> Board:
        return self.act([Move(Action.FLAG, cell)])

    def unflag(self, cell: tuple[int, int]) -> Board:
        return self.act([Move(Action.UNFLAG, cell)])

    def chord(self, cell: tuple[int, int]) -> Board:
        return self.act([Move(Action.CHORD, cell)])

    def __enter__(self) -> "Game":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
