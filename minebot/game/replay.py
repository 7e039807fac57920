"""Record and replay: every frame the live game read, the board read from it, the moves made.

A recording is a folder::

    steps.jsonl      one JSON object per line, flushed at once (a killed run keeps its steps)
    frames/000000.png ...

Lines are ``{"type": "frame", "i", "game", "file", "board": [...], "mines", "state",
"templates", "board_px"}`` for each frame read and ``{"type": "moves", "frame": i, "moves":
[...]}`` for the moves played on it.

``ReplayGame`` is a third ``Game``: it serves the recorded frames to the same play loop and
the same reader and solver, and notes every frame whose read or chosen move differs from what
was recorded. That turns any live run into a regression test for vision and strategy.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import numpy as np

from ..board import Board, GameState
from ..errors import BadInputError, MinebotError
from ..move import Action, Move
from ..outputs import save_png, write_failed
from ..rules import Rules
from ..timing import Phase, phase
from .base import Game


class Recording:
    """Writes a recording folder as the live game runs."""

    def __init__(self, folder: str | Path) -> None:
        self.folder = Path(folder)
        (self.folder / "frames").mkdir(parents=True, exist_ok=True)
        self._steps = open(self.folder / "steps.jsonl", "a", encoding="utf-8")
        self.count = sum(1 for _ in (self.folder / "frames").glob("*.png"))
        self.game = 0

    def _write(self, obj: dict) -> None:
        try:
            self._steps.write(json.dumps(obj) + "\n")
            self._steps.flush()
        except OSError as exc:
            raise write_failed("recording", self.folder / "steps.jsonl", exc,
                               "the steps recorded before are kept") from None

    def add_frame(self, frame: np.ndarray, reading) -> int:
        import cv2
        i = self.count
        self.count += 1
        name = f"frames/{i:06d}.png"
        save_png(self.folder / name, frame, "recording frame", "the frames recorded before are kept",
                 [cv2.IMWRITE_PNG_COMPRESSION, 3])
        board = reading.board
        self._write({"type": "frame", "i": i, "game": self.game, "file": name,
                     "board": board.rows_text(), "mines": board.mines,
                     "state": board.state.value if board.state else None,
                     "templates": reading.templates, "board_px": list(map(int, reading.board_px))})
        return i

    def add_moves(self, frame: int, moves: Sequence[Move]) -> None:
        self._write({"type": "moves", "frame": frame, "game": self.game,
                     "moves": [dict(m.to_json(), p_mine=round(float(m.p_mine), 6)) for m in moves]})

    def next_game(self) -> None:
        self.game += 1

    def close(self) -> None:
        if not self._steps.closed:
            self._steps.close()


@dataclass
class Step:
    i: int
    game: int
    file: Path
    board: Board
    moves: list[Move] | None = None


@dataclass
class Difference:
    frame: int
    file: str
    kind: str      # "read" or "move"
    detail: str

    def to_json(self) -> dict:
        return {"frame": self.frame, "file": self.file, "kind": self.kind, "detail": self.detail}


def load_recording(folder: str | Path) -> list[Step]:
    """Parse ``steps.jsonl``; errors name the file and line."""
    folder = Path(folder)
    path = folder / "steps.jsonl"
    if not path.exists():
        raise BadInputError(f"{folder}: not a recording (no steps.jsonl)")
    steps: dict[int, Step] = {}
    for lineno, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            obj = json.loads(line)
            if obj["type"] == "frame":
                text = "\n".join(obj["board"])
                board = Board.parse(text, f"{path}:{lineno}")
                board = board.replace(mines=obj.get("mines"),
                                      state=GameState(obj["state"]) if obj.get("state") else None)
                steps[obj["i"]] = Step(obj["i"], obj.get("game", 0), folder / obj["file"], board)
            elif obj["type"] == "moves":
                steps[obj["frame"]].moves = [
                    Move(Action(m["action"]), (int(m["cell"][0]), int(m["cell"][1])),
                         float(m.get("p_mine", 0.0))) for m in obj["moves"]]
            else:
                raise KeyError(f"unknown type {obj['type']!r}")
        except (ValueError, KeyError, TypeError, IndexError) as exc:
            raise BadInputError(f"{path}:{lineno}: bad recording line ({exc})") from None
    if not steps:
        raise BadInputError(f"{path}: the recording is empty")
    return [steps[i] for i in sorted(steps)]


class RecordingEndedError(MinebotError):
    """The recording stops in the middle of a game (the live run was stopped there): every
    recorded frame was replayed, there is just nothing after the last one."""


class ReplayGame(Game):
    """One recorded game served frame by frame to the play loop.

    ``observe`` re-reads the current recorded frame with ``reader``; ``act`` compares the moves
    the solver chose now with the moves recorded for that frame, then moves on to the next
    frame (the one the live game captured after acting). Differences are collected in
    ``differences``; the replay always follows the recorded frames. ``complete`` says whether
    the replay reached the last recorded frame: a replay that stopped early (a missing or
    unreadable frame, a game that ended sooner) has not checked every step.
    """

    rules = Rules.ZERO
    first_click = None

    def __init__(self, steps: Sequence[Step], reader) -> None:
        if not steps:
            raise BadInputError("a replay needs at least one recorded frame")
        self.steps = list(steps)
        self.reader = reader
        self.pos = 0
        self.differences: list[Difference] = []
        self.frames_read = 0

    def _read(self, step: Step) -> Board:
        from ..vision import load_image
        from ..vision.reader import UnmatchedCellsError
        with phase(Phase.GRAB):     # the recording's frame, as live play grabs the screen
            frame = load_image(step.file)
        self.frames_read += 1
        try:
            board = self.reader.read(frame).board
        except UnmatchedCellsError:
            # As live: a reader that guessed the look from an all-covered board picks again.
            board = self.reader.read(frame).board
        if board.mines is None and step.board.mines is not None:
            board = board.replace(mines=step.board.mines)
        if not np.array_equal(board.cells, step.board.cells) or board.state != step.board.state:
            diff = np.argwhere(board.cells != step.board.cells)
            where = ", ".join(f"{r},{c}" for r, c in diff[:8].tolist())
            self.differences.append(Difference(step.i, step.file.name, "read",
                                               f"{len(diff)} cell(s) differ ({where}); state "
                                               f"{board.state} vs recorded {step.board.state}"))
        return board

    @property
    def complete(self) -> bool:
        """Every recorded frame was served (the last one is where the replay ended)."""
        return self.pos == len(self.steps) - 1

    def observe(self) -> Board:
        # Frames read without moves before the game's last frame (the start-up read, re-reads
        # of a doubtful board) are followed by the frame that was acted on: go there.
        while self.steps[self.pos].moves is None and self.pos + 1 < len(self.steps):
            self.pos += 1
        return self._read(self.steps[self.pos])

    def act(self, moves: Sequence[Move]) -> Board:
        step = self.steps[self.pos]
        if step.moves is None and self.pos + 1 >= len(self.steps):
            # The live run was stopped after reading this frame, before choosing: nothing to compare.
            raise RecordingEndedError(f"the recording ends at frame {step.i}, read but not played")
        recorded = [(m.action, m.cell) for m in (step.moves or [])]
        chosen = [(m.action, m.cell) for m in moves]
        if recorded != chosen:
            self.differences.append(Difference(
                step.i, step.file.name, "move",
                f"chose {[(a.value, c) for a, c in chosen][:6]} but the recording has "
                f"{[(a.value, c) for a, c in recorded][:6]}"))
        if self.pos + 1 >= len(self.steps):
            raise RecordingEndedError(f"the recording ends at frame {step.i} while the game is in play")
        self.pos += 1
        return self._read(self.steps[self.pos])


def split_games(steps: Sequence[Step]) -> list[list[Step]]:
    games: dict[int, list[Step]] = {}
    for step in steps:
        games.setdefault(step.game, []).append(step)
    return [games[g] for g in sorted(games)]
