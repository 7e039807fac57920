"""The play loop: read -> solve -> act, the same for every ``Game``.

The engine (benchmarks), the live window and a recorded replay all run through
``play_game``, so what the benchmark measures is what the bot does on screen. The loop owns
the rules of engagement that do not depend on the game: a board the solver finds inconsistent
is read again a few times before giving up (on screen a misread or a half-drawn frame is the
likely cause), and the per-move solver time is measured here for the benchmarks, as is where
each game's time goes (``minebot.timing``: the game's drawing, the bot's grabbing, reading,
solving, planning and sending), whatever the game.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable, Protocol, Sequence

from .board import Board, GameState
from .errors import InconsistentBoardError, MinebotError
from .game.base import Game
from .move import Move
from .timing import Phase, Stopwatch, TurnProfile


class Strategy(Protocol):
    """What the loop needs from a solver (``minebot.solver.Solver`` implements it)."""

    def next_moves(self, board: Board, mines: int | None = None, rules: str | None = None,
                   first_click: tuple[int, int] | None = None) -> list[Move]: ...


@dataclass
class GameResult:
    won: bool
    final: Board
    seconds: float
    clicks: int = 0
    guesses: int = 0
    turns: int = 0
    move_ms: list[float] = field(default_factory=list)
    profile: TurnProfile | None = None
    """Where the game's time went (``minebot.timing``)."""

    @property
    def result(self) -> str:
        return "won" if self.won else "lost"

    def summary(self) -> dict:
        return {"result": self.result, "seconds": round(self.seconds, 4), "clicks": self.clicks,
                "guesses": self.guesses, "turns": self.turns}


StepHook = Callable[[Board, Sequence[Move]], None]


def play_game(game: Game, solver: Strategy, *, mines: int | None = None,
              rereads: int = 2, max_turns: int | None = None,
              on_step: StepHook | None = None) -> GameResult:
    """Play the current game of ``game`` to its end and report how it went.

    ``mines`` overrides the total the board reports (e.g. a counter vision could not read).
    ``on_step`` sees every board and the moves chosen for it (recording, progress, overlays).
    ``max_turns`` guards against a game that never ends (a strategy that stalls).
    """
    watch = Stopwatch()
    with watch.running():
        start = time.perf_counter()
        board = game.observe()
        limit = max_turns if max_turns is not None else 4 * board.rows * board.cols + 10
        result = GameResult(False, board, 0.0)
        while board.state is GameState.PLAYING or board.state is None:
            if result.turns >= limit:
                raise MinebotError(f"the game did not end after {limit} turns")
            total = mines if mines is not None else board.mines
            t0 = time.perf_counter()
            for attempt in range(rereads + 1):
                try:
                    with watch.phase(Phase.SOLVE):
                        moves = solver.next_moves(board, mines=total, rules=game.rules,
                                                  first_click=game.first_click)
                    break
                except InconsistentBoardError:
                    if attempt == rereads:
                        raise
                    board = game.observe()
            result.move_ms.append((time.perf_counter() - t0) * 1000.0)
            if not moves:
                raise MinebotError("the solver found no move on a board that is still in play")
            if on_step is not None:
                on_step(board, moves)
            result.turns += 1
            result.clicks += len(moves)
            result.guesses += sum(m.is_guess for m in moves)
            board = game.act(moves)
        if on_step is not None:
            on_step(board, ())
        result.won = board.state is GameState.WON
        result.final = board
        result.seconds = time.perf_counter() - start
    result.profile = watch.profile(result.seconds, result.turns)
    return result
