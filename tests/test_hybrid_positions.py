"""benchmarks/hybrid_positions.py: the position it writes for a game is the board minebot's own
games reach at that game's first differing guess (checked against the layout and by asking the
solver afresh), and a log the replay cannot meet is one line and exit code 2."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from minebot.board import Board
from minebot.errors import EXIT_BAD_INPUT
from minebot.game.engine import EngineGame
from minebot.game.layouts import generate_layouts, load_layouts, save_layouts
from minebot.loop import play_game
from minebot.solver import Solver

BENCH = Path(__file__).resolve().parent.parent / "benchmarks"
GAMES = 12


@pytest.fixture(scope="module")
def tool():
    sys.path.insert(0, str(BENCH))
    import hybrid_positions
    return hybrid_positions


class _Logging(Solver):
    """The default solver, logging its guesses as peer_hybrid's default pass does, with a stand-in
    for the peer: the same cell at a game's first guess, another unknown cell after that."""

    def __init__(self) -> None:
        super().__init__()
        self.guesses: list[dict] = []

    def guess(self, result):
        choice = super().guess(result)
        board = result.board
        other = next((r, c) for r, c in zip(*board.unknown.nonzero()) if (r, c) != choice.cell)
        peer = choice.cell if not self.guesses else other
        self.guesses.append({"minebot_cell": list(choice.cell), "peer_cell": [int(x) for x in peer],
                             "minebot_kind": choice.kind.value, "peer_kind": "stand-in",
                             "categories": ["all"]})
        return choice


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """A chunk folder as peer_hybrid writes it: the boards and the default pass's guesses."""
    folder = tmp_path_factory.mktemp("hyb") / f"expert-zero-seed7-n{GAMES}"
    folder.mkdir()
    save_layouts(folder / "boards.jsonl", generate_layouts(16, 30, 99, "zero", (3, 3), GAMES, 7))
    with open(folder / "default.jsonl", "w", encoding="utf-8") as out:
        for i, layout in enumerate(load_layouts(folder / "boards.jsonl"), 1):
            solver = _Logging()
            game = EngineGame(layout.rows, layout.cols, len(layout.mines), rules="zero", layout=layout)
            won = play_game(game, solver).won
            out.write(json.dumps({"i": i, "won": bool(won), "guesses": solver.guesses}) + "\n")
    return folder


def test_each_position_is_the_board_at_the_first_differing_guess(tool, run, tmp_path):
    out = tmp_path / "p.jsonl"
    assert tool.main([str(run), "--category", "all", "--out", str(out)]) == 0
    logged = [json.loads(line) for line in (run / "default.jsonl").read_text().splitlines()]
    wanted = [row for row in logged if len(row["guesses"]) >= 2]
    assert wanted, "twelve expert games and none with two guesses"
    written = [json.loads(line) for line in out.read_text().splitlines()]
    assert [p["game"] for p in written] == [row["i"] for row in wanted]
    layouts = load_layouts(run / "boards.jsonl")
    for pos, row in zip(written, wanted):
        board = Board.parse(pos["board"])
        mines = set(layouts[row["i"] - 1].mines)
        assert not any((r, c) in mines for r, c in zip(*(~board.unknown).nonzero()))   # the layout's board
        assert pos["cells"] == [row["guesses"][1]["minebot_cell"], row["guesses"][1]["peer_cell"]]
        assert all(board.unknown[tuple(cell)] for cell in pos["cells"])
        fresh = Solver()
        assert list(fresh.guess(fresh.analyse(board, board.mines)).cell) == pos["cells"][0]


def test_a_log_the_replay_cannot_meet_is_one_line_and_exit_2(tool, run, tmp_path, capsys):
    """Another cell logged for minebot (as from other solver options) stops the tool, naming the game."""
    folder = tmp_path / run.name
    folder.mkdir()
    (folder / "boards.jsonl").write_text((run / "boards.jsonl").read_text())
    rows = [json.loads(line) for line in (run / "default.jsonl").read_text().splitlines()]
    row = next(r for r in rows if len(r["guesses"]) >= 2)
    guess = row["guesses"][1]
    guess["minebot_cell"] = guess["peer_cell"]
    guess["peer_cell"] = [0, 0] if guess["peer_cell"] != [0, 0] else [0, 1]
    (folder / "default.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert tool.main([str(folder), "--category", "all", "--out", str(tmp_path / "p.jsonl")]) == EXIT_BAD_INPUT
    err = capsys.readouterr().err.strip()
    assert err.startswith("hybrid_positions: ") and "\n" not in err and f"game {row['i']}," in err


@pytest.mark.parametrize("name", ["not-a-chunk", "expert-zero-seed7-n0"])
def test_a_folder_that_is_not_a_hybrid_chunk_is_one_line_and_exit_2(tool, tmp_path, capsys, name):
    folder = tmp_path / name
    folder.mkdir()
    assert tool.main([str(folder), "--out", str(tmp_path / "p.jsonl")]) == EXIT_BAD_INPUT
    err = capsys.readouterr().err.strip()
    assert err.startswith("hybrid_positions: ") and "\n" not in err and name in err
