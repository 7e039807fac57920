"""benchmarks/variant_positions.py: every position it writes is one where the base solver and
the variant, asked afresh on that board, choose different cells; bad input is one line and
exit code 2."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from minebot.board import Board
from minebot.errors import EXIT_BAD_INPUT
from minebot.solver import Solver

BENCH = Path(__file__).resolve().parent.parent / "benchmarks"
NARROW = {"candidates": 1, "background_reps": 0, "endgame_layouts": 0}   # plays the safest cell


@pytest.fixture(scope="module")
def tool():
    sys.path.insert(0, str(BENCH))
    import variant_positions
    return variant_positions


def test_written_positions_are_guesses_where_the_two_solvers_differ(tool, tmp_path, capsys):
    out = tmp_path / "p.jsonl"
    assert tool.main(["--variant", json.dumps(NARROW), "--games", "10", "--seed", "11", "--out", str(out)]) == 0
    lines = [json.loads(line) for line in out.read_text().splitlines()]
    assert lines, "ten expert games and no differing guess"
    assert f"{len(lines)} of " in capsys.readouterr().out
    for line in lines:
        board = Board.parse(line["board"])
        mine, theirs = (tuple(c) for c in line["cells"])
        assert mine != theirs and board.unknown[mine] and board.unknown[theirs]
        base, narrow = Solver(), Solver(**NARROW)
        assert base.guess(base.analyse(board, board.mines)).cell == mine
        assert narrow.guess(narrow.analyse(board, board.mines)).cell == theirs


@pytest.mark.parametrize("variant", ["not json", "[1]", '{"no_such_option": 1}'])
def test_a_bad_variant_is_one_line_and_exit_code_2(tool, tmp_path, capsys, variant):
    assert tool.main(["--variant", variant, "--games", "1", "--out", str(tmp_path / "p.jsonl")]) == EXIT_BAD_INPUT
    err = capsys.readouterr().err.strip()
    assert err.startswith("variant_positions: ") and "\n" not in err
