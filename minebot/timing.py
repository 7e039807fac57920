"""Where a game's time goes: the game's own drawing, and the bot's grabbing, reading, solving,
planning and sending.

Why: a live game is slower than the game can draw, and only a split of each game's time says
whether the bot or the game is the slow one (issue 37: the bot's own share should be at most a
third of a won expert game). The split is measured in the product, by the one play loop
(``minebot.loop.play_game``), so every game (the live window, the headless engine, a replay)
reports the same figures and a benchmark is what ``minebot play --profile`` prints.

The parts mark their work with ``phase`` (or ``timed``) wherever it happens (a grab inside
the frame source, a read inside the reader), and the loop runs a ``Stopwatch`` around each
game. With no stopwatch running a mark costs one context-variable lookup. A phase inside
another counts for itself only (a grab while settling is grabbing), except inside ``DRAW``:
the grabs that watch for the game's change are part of the wait, which lasts until the game
has drawn however often it is looked at. Time in no phase (window checks, the pointer parked,
the learner, the recorder) is ``other``.
"""

from __future__ import annotations

import functools
import time
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from enum import Enum
from typing import Callable, Iterable, Iterator, Mapping, TypeVar


class Phase(Enum):
    """What a game's time is spent on. ``DRAW`` is the game's (the only phase not the bot's)."""

    DRAW = "draw"       # waiting for the game to show the result of the clicks (the engine: its reveal)
    SETTLE = "settle"   # making sure it stopped drawing: the pauses between agreeing grabs
    GRAB = "grab"       # capturing frames (the replay: loading them)
    READ = "read"       # locating the grid and classifying its cells
    SOLVE = "solve"     # the solver's next moves
    PLAN = "plan"       # where the clicks go and what the board must show after them
    SEND = "send"       # the pointer's moves and clicks, with the checks before each


@dataclass(frozen=True)
class TurnProfile:
    """One game's time: ``seconds`` in all (wall clock, from the first look to the end),
    ``turns`` (boards the solver was asked about) and the seconds of each phase."""

    seconds: float
    turns: int
    phases: Mapping[Phase, float]

    @property
    def other(self) -> float:
        """Seconds in no phase: the loop, window checks, parking the pointer, learning, recording."""
        return max(0.0, self.seconds - sum(self.phases.values()))

    @property
    def own_share(self) -> float:
        """The bot's share of the game: everything but the game's drawing, as a fraction."""
        if self.seconds <= 0:
            return 0.0
        return max(0.0, 1.0 - self.phases.get(Phase.DRAW, 0.0) / self.seconds)

    def to_json(self) -> dict:
        """Milliseconds per phase, the turns and the bot's share, for logs and summaries."""
        out: dict = {"turns": self.turns, "ms": round(1000 * self.seconds, 1)}
        out.update({p.value + "_ms": round(1000 * self.phases.get(p, 0.0), 1) for p in Phase})
        out["other_ms"] = round(1000 * self.other, 1)
        out["own_share"] = round(self.own_share, 3)
        return out

    @classmethod
    def from_json(cls, data: Mapping) -> "TurnProfile":
        """A profile back from ``to_json`` (a game log's line), to add up with others."""
        phases = {p: data.get(p.value + "_ms", 0.0) / 1000 for p in Phase}
        return cls(data["ms"] / 1000, data["turns"], phases)

    def line(self) -> str:
        """One line for people: milliseconds per phase, then the bot's share."""
        parts = [f"{p.value} {1000 * self.phases.get(p, 0.0):.0f}" for p in Phase]
        return (f"{self.turns} turns, {1000 * self.seconds:.0f} ms: " + ", ".join(parts)
                + f", other {1000 * self.other:.0f} ms; bot's share {self.own_share:.0%}")

    @staticmethod
    def total(profiles: Iterable["TurnProfile"]) -> "TurnProfile":
        """The profiles of several games added up (the bot's share of all their time)."""
        seconds, turns = 0.0, 0
        phases = dict.fromkeys(Phase, 0.0)
        for profile in profiles:
            seconds += profile.seconds
            turns += profile.turns
            for p, s in profile.phases.items():
                phases[p] += s
        return TurnProfile(seconds, turns, phases)


ABSORBING = frozenset({Phase.DRAW})
"""Phases whose time includes the phases marked inside them (see the module's docstring)."""


class Stopwatch:
    """The seconds of each phase while it runs (``running``); ``clock`` is for tests."""

    def __init__(self, clock: Callable[[], float] = time.perf_counter) -> None:
        self.clock = clock
        self.seconds = dict.fromkeys(Phase, 0.0)
        self._inner: list[float] = []      # per open phase: seconds of the phases inside it
        self._absorbed = 0                 # open phases that count what happens inside them

    @contextmanager
    def running(self) -> Iterator["Stopwatch"]:
        """Count the phases marked in this context (the play loop wraps a game in it)."""
        token = _RUNNING.set(self)
        try:
            yield self
        finally:
            _RUNNING.reset(token)

    @contextmanager
    def phase(self, which: Phase) -> Iterator[None]:
        """Count the time inside as ``which``, less the phases nested inside it (none inside
        an ``ABSORBING`` phase: there it is all the outer phase's)."""
        if self._absorbed:
            yield
            return
        absorbing = which in ABSORBING
        self._absorbed += absorbing
        self._inner.append(0.0)
        start = self.clock()
        try:
            yield
        finally:
            elapsed = self.clock() - start
            self._absorbed -= absorbing
            inner = self._inner.pop()
            self.seconds[which] += elapsed - inner
            if self._inner:
                self._inner[-1] += elapsed

    def profile(self, seconds: float, turns: int) -> TurnProfile:
        return TurnProfile(seconds, turns, dict(self.seconds))


_RUNNING: ContextVar[Stopwatch | None] = ContextVar("minebot_stopwatch", default=None)


@contextmanager
def phase(which: Phase) -> Iterator[None]:
    """Mark the time inside as ``which`` for the stopwatch running, if any."""
    watch = _RUNNING.get()
    if watch is None:
        yield
        return
    with watch.phase(which):
        yield


F = TypeVar("F", bound=Callable)


def timed(which: Phase) -> Callable[[F], F]:
    """A function's every call marked as ``which`` (see ``phase``)."""
    def wrap(fn: F) -> F:
        @functools.wraps(fn)
        def inner(*args, **kwargs):
            watch = _RUNNING.get()
            if watch is None:
                return fn(*args, **kwargs)
            with watch.phase(which):
                return fn(*args, **kwargs)
        return inner  # type: ignore[return-value]
    return wrap


__all__ = ["Phase", "Stopwatch", "TurnProfile", "phase", "timed"]
