"""Where a game's time goes (``minebot.timing``): the stopwatch's arithmetic on a scripted
clock, and the split the one play loop reports for the engine, a replay, the frame source's
wait for a click's result and ``minebot play --profile``'s output.

Time is asserted only from below, on sleeps the test itself makes (a sleep lasts at least
that long): no figure depends on how fast the machine is.
"""

from __future__ import annotations

import io
import json
import time
from pathlib import Path

import numpy as np
import pytest

from minebot.game.engine import EngineGame
from minebot.loop import play_game
from minebot.solver import Solver
from minebot.timing import Phase, Stopwatch, TurnProfile, phase, timed

ROOT = Path(__file__).resolve().parents[1]


class Ticks:
    """A clock that moves only when told to."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _nested(outer: Phase) -> Stopwatch:
    """``outer`` for 3.75 s holding a grab of 0.75 s that holds a read of 0.5 s, then a grab
    of 0.125 s, on a scripted clock."""
    ticks = Ticks()
    watch = Stopwatch(ticks)
    with watch.running():
        with phase(outer):
            ticks.now += 1.0
            with phase(Phase.GRAB):
                ticks.now += 0.25
                with phase(Phase.READ):
                    ticks.now += 0.5
            ticks.now += 2.0
        with phase(Phase.GRAB):
            ticks.now += 0.125
    assert sum(watch.seconds.values()) == ticks.now == 3.875
    return watch


def test_a_phase_inside_another_counts_for_itself_only():
    watch = _nested(Phase.SETTLE)
    assert watch.seconds[Phase.SETTLE] == 3.0
    assert watch.seconds[Phase.GRAB] == 0.375
    assert watch.seconds[Phase.READ] == 0.5


def test_the_looks_while_waiting_for_the_game_to_draw_are_the_wait():
    """The grabs that watch for a click's result last until the game has drawn, however
    often they look: they count as the game's drawing, and only there."""
    watch = _nested(Phase.DRAW)
    assert watch.seconds[Phase.DRAW] == 3.75
    assert watch.seconds[Phase.GRAB] == 0.125
    assert watch.seconds[Phase.READ] == 0.0


def test_marks_outside_a_running_stopwatch_count_nowhere():
    ticks = Ticks()
    watch = Stopwatch(ticks)

    @timed(Phase.SEND)
    def send(seconds: float) -> str:
        ticks.now += seconds
        return "sent"

    assert send(1.0) == "sent"            # no stopwatch running: nothing counted
    with watch.running():
        assert send(0.5) == "sent"
    send(4.0)
    assert watch.seconds[Phase.SEND] == 0.5 and sum(watch.seconds.values()) == 0.5


def test_profile_share_totals_and_its_log_form():
    a = TurnProfile(2.0, 10, {Phase.DRAW: 1.5, Phase.SOLVE: 0.25})
    b = TurnProfile(1.0, 5, {Phase.DRAW: 0.5, Phase.READ: 0.25})
    assert a.own_share == 0.25 and a.other == 0.25
    both = TurnProfile.total([a, b])
    assert both.seconds == 3.0 and both.turns == 15
    assert both.phases[Phase.DRAW] == 2.0 and both.own_share == pytest.approx(1 / 3)
    back = TurnProfile.from_json(json.loads(json.dumps(a.to_json())))
    assert back.seconds == a.seconds and back.turns == a.turns
    assert back.phases[Phase.DRAW] == 1.5 and back.phases[Phase.SOLVE] == 0.25
    assert "bot's share 25%" in a.line() and "draw 1500" in a.line()


class SlowEngine(EngineGame):
    """The engine, taking 10 ms to reveal each cell clicked (as a window takes to draw it)."""

    def _open(self, cell):
        time.sleep(0.01)
        super()._open(cell)


class SlowSolver(Solver):
    """The default solver, 5 ms slower a turn."""

    def next_moves(self, *args, **kwargs):
        time.sleep(0.005)
        return super().next_moves(*args, **kwargs)


def test_the_loop_splits_an_engine_game_between_the_game_and_the_solver():
    game = SlowEngine(16, 30, 99, rules="zero", seed=5, first_click=(3, 3))
    result = play_game(game, SlowSolver())
    profile = result.profile
    assert profile is not None and profile.turns == result.turns > 1
    assert profile.seconds == result.seconds
    assert profile.phases[Phase.DRAW] >= 0.01 * game.clicks      # the engine's act is the game's
    assert profile.phases[Phase.SOLVE] >= 0.005 * result.turns
    assert profile.phases[Phase.GRAB] == profile.phases[Phase.READ] == 0.0
    assert sum(profile.phases.values()) <= profile.seconds
    assert profile.own_share == pytest.approx(1 - profile.phases[Phase.DRAW] / profile.seconds)
    assert 0 < profile.own_share < 1


def test_a_replay_is_grabbing_reading_and_solving_with_no_drawing():
    from minebot.game.replay import ReplayGame, load_recording, split_games
    from minebot.vision import Reader
    folder = sorted((ROOT / "fixtures" / "recordings").glob("*/steps.jsonl"))[0].parent
    recorded = split_games(load_recording(folder))[0]
    game = ReplayGame(recorded, Reader())
    result = play_game(game, Solver())
    profile = result.profile
    assert game.frames_read > 1 and profile.turns == result.turns
    assert profile.phases[Phase.GRAB] > 0 and profile.phases[Phase.READ] > 0
    assert profile.phases[Phase.SOLVE] > 0 and profile.phases[Phase.DRAW] == 0
    assert profile.own_share == 1.0
    # reading a frame costs more than loading it, and the reads are most of a replay
    assert profile.phases[Phase.READ] > profile.phases[Phase.GRAB]


def test_waiting_for_a_click_to_show_is_drawing_and_the_grabs_are_grabbing():
    from minebot.backends.capture import GrabbedCapture
    from minebot.backends.frames import FrameSource
    from minebot.backends.x11.window import Rect

    base = np.zeros((40, 60, 3), np.uint8)
    opened = base.copy()
    opened[10:14, 12:16] = 255

    class LateDraw(GrabbedCapture):
        """Shows the clicked cell changed only 30 ms after the first grab (the region asked
        for, as every capture: the wait grabs just the clicked cell)."""

        def __init__(self) -> None:
            self.first: float | None = None
            self.grabs = 0

        def grab(self, region: Rect) -> np.ndarray:
            self.grabs += 1
            self.first = self.first or time.monotonic()
            shown = opened if time.monotonic() - self.first >= 0.03 else base
            return shown[region.top:region.bottom, region.left:region.right].copy()

    capture = LateDraw()
    frames = FrameSource(capture, Rect(0, 0, 60, 40))
    watch = Stopwatch()
    with watch.running():
        frame = frames.settled((0, 0, 60, 40), before=base, changed=[(12, 10, 16, 14)], quiet=0.01)
    assert (frame[10:14, 12:16] == 255).all() and capture.grabs > 2
    assert watch.seconds[Phase.DRAW] >= 0.025
    assert watch.seconds[Phase.SETTLE] >= 0.01         # one quiet pause before the agreeing grab
    assert watch.seconds[Phase.GRAB] > 0
    assert watch.seconds[Phase.READ] == watch.seconds[Phase.SOLVE] == 0.0


class EngineScreen:
    """Engine games as far as ``play_session`` looks at a game (new games, no frames)."""

    rules = "zero"
    first_click = None
    frame = None
    reading = None

    def __init__(self) -> None:
        self.number = 0

    def _new(self):
        self.number += 1
        self.engine = EngineGame(8, 8, 10, rules="zero", seed=40 + self.number)

    start = new_game = _new

    def observe(self):
        return self.engine.observe()

    def act(self, moves):
        return self.engine.act(moves)

    def save_frame(self, what):
        return None


def test_play_profile_prints_each_game_and_all_and_logs_the_split(tmp_path):
    from minebot.cli.play import Session, play_session
    out = io.StringIO()
    log = tmp_path / "games.jsonl"
    session = Session(log_path=log, profile=True)
    play_session(EngineScreen(), Solver(), 3, session, out=out)
    session.report(as_json=True, out=out)
    lines = out.getvalue().splitlines()
    for n in (1, 2, 3):
        game_line = next(i for i, line in enumerate(lines) if line.startswith(f"game {n}: "))
        assert lines[game_line + 1].startswith(f"game {n} time: ")
        assert "bot's share" in lines[game_line + 1]
    assert any(line.startswith("time of all games: ") for line in lines)
    summary = json.loads(lines[-1])
    logged = [json.loads(line) for line in log.read_text().splitlines()]
    assert summary["profile"]["turns"] == sum(g["turns"] for g in logged) == sum(g["profile"]["turns"] for g in logged)
    assert summary["profile"]["ms"] == pytest.approx(sum(g["profile"]["ms"] for g in logged), abs=0.2)
    assert all(g["profile"]["solve_ms"] > 0 for g in logged)


def test_without_profile_the_output_is_as_before():
    from minebot.cli.play import SUMMARY_KEYS, Session, play_session
    out = io.StringIO()
    session = Session()
    play_session(EngineScreen(), Solver(), 1, session, out=out)
    session.report(as_json=True, out=out)
    lines = out.getvalue().splitlines()
    assert not any(" time: " in line or line.startswith("time of") for line in lines)
    assert tuple(json.loads(lines[-1])) == SUMMARY_KEYS
