"""benchmarks/endgame_loss.py: the exact win chances it reports are the search's own, and the
solver's endgame search gives nothing away where it decides."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parent.parent / "benchmarks"


@pytest.fixture(scope="module")
def tool():
    sys.path.insert(0, str(BENCH))
    import endgame_loss
    return endgame_loss


def test_positions_are_measured_and_the_endgame_search_loses_nothing(tool, tmp_path, capsys):
    out = tmp_path / "positions.jsonl"
    code = tool.main(["--size", "9x9", "--mines", "18", "--rules", "zero", "--games", "60", "--seed", "3",
                      "--limit", "150", "--out", str(out)])
    assert code == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert rows and {row["kind"] for row in rows} >= {"endgame"}
    for row in rows:
        assert 0.0 <= row["chosen"] <= row["best"] + 1e-12 <= 1.0 + 1e-12
        if row["kind"] in ("endgame", "forced5050"):
            # The default searches every position of up to 200 layouts to the end: its cell is a best one.
            assert row["chosen"] == pytest.approx(row["best"])
    table = capsys.readouterr().out
    assert "| endgame |" in table and "60 games" in table


def test_a_solver_that_does_not_search_gives_wins_away(tool, tmp_path, capsys):
    """Without the endgame search and look-ahead, the safest cell is often not the best one."""
    out = tmp_path / "positions.jsonl"
    assert tool.main(["--size", "9x9", "--mines", "18", "--games", "60", "--seed", "3", "--limit", "150",
                      "--solver", '{"lookahead": false}', "--out", str(out)]) == 0
    rows = [json.loads(line) for line in out.read_text().splitlines()]
    assert sum(row["best"] - row["chosen"] for row in rows) > 0.01


def test_bad_solver_is_one_line_and_exit_2(tool, capsys):
    assert tool.main(["--games", "1", "--solver", "nonsense"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "nonsense" in err[0]
