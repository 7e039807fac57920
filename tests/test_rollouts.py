"""benchmarks/rollouts.py: on a position small enough that the default solver's endgame search
plays every later guess (so its continuation is optimal), the rollout estimate of each candidate
agrees with the exact win probability the endgame search computes; bad input is one line and
exit code 2."""

from __future__ import annotations

import json
import math
import signal
import sys
from pathlib import Path

import pytest

from minebot.board import Board
from minebot.cli.bench import solver_spec
from minebot.errors import EXIT_BAD_INPUT
from minebot.solver import analyse
from minebot.solver.endgame import Endgame

BENCH = Path(__file__).resolve().parent.parent / "benchmarks"

# 61 layouts; exact win chances (open the cell, then play best) range from 0.26 to 0.70.
POSITION = '{"rows": 3, "cols": 6, "mines": 5}\n--3-1-\n----21\n------\n'
CELLS = [(0, 5), (2, 1), (0, 3), (1, 1)]


@pytest.fixture(scope="module")
def tool():
    sys.path.insert(0, str(BENCH))
    import rollouts
    return rollouts


def test_rollout_estimates_match_the_exact_endgame_values(tool):
    board = Board.parse(POSITION)
    search = Endgame.of_position(analyse(board, board.mines).constraints, 1000, 10 ** 6)
    exact = [search.win_probability(cell) for cell in CELLS]
    assert max(exact) - min(exact) > 0.4
    cells, labels = tool.candidates(board, [*map(list, CELLS), "solver"], "test", {})
    assert cells[-1] == (0, 5) and labels[-1] == "solver 0,5"
    positions = [tool.Position("test", board, cells, labels)]
    samples = 600
    results, stopped = tool.run(positions, tool.samplers(positions), samples, 4, 2, solver_spec("native", {}))
    outcomes = results[0]
    assert not stopped and len(outcomes) == samples
    for k, p in enumerate(exact):
        wins = sum(w[k] for w in outcomes)
        assert abs(wins / samples - p) < 4 * math.sqrt(p * (1 - p) / samples), (CELLS[k], wins, p)
    # The solver's own choice plays exactly as its cell does: no variance in the difference.
    assert all(w[0] == w[-1] for w in outcomes)
    f = tool.pair_figures(outcomes, 0, 3)
    assert f["difference"] == pytest.approx(exact[0] - exact[3], abs=4 * f["stderr"])
    assert f["difference"] > 0.25


def test_the_cli_prints_a_table_and_pools_positions(tool, tmp_path, capsys):
    path = tmp_path / "pos.txt"
    path.write_text(POSITION)
    assert tool.main([str(path), "0,5", "1,1", "--samples", "40", "--seed", "2"]) == 0
    out = capsys.readouterr().out
    assert "| 0,5 |" in out and "0,5 minus 1,1:" in out and "/40 |" in out
    lines = tmp_path / "pos.jsonl"
    lines.write_text("\n".join(json.dumps({"board": POSITION, "cells": cells})
                               for cells in ([[0, 5], [1, 1]], [[0, 5], "solver", [0, 3]])) + "\n")
    assert tool.main(["--positions", str(lines), "--samples", "30", "--jobs", "2"]) == 0
    out = capsys.readouterr().out
    assert "pooled first - cell 2 over 2 positions" in out
    assert "pooled first - cell 3 over 1 positions" in out


@pytest.mark.parametrize("board, cells, problem", [
    ('{"rows": 3, "cols": 6}\n--3-1-\n----21\n------\n', ["0,5", "1,1"], "no mine total"),
    (POSITION, ["0,2", "1,1"], "cell 0,2 is not unknown"),
    (POSITION, ["0,5", "3,0"], "cell 3,0 is off the 6x3 board"),
    (POSITION, ["0,5"], "at least two candidates"),
    ('{"rows": 3, "cols": 6, "mines": 5}\n--3-1-\n----2Q\n------\n', ["0,5", "1,1"], "pos.txt:3"),
    ('{"rows": 3, "cols": 6, "mines": 5}\n--3-1-\n----21\n-X----\n', ["0,5", "1,1"], "is over"),
])
def test_bad_input_is_one_line_and_exit_2(tool, tmp_path, capsys, board, cells, problem):
    path = tmp_path / "pos.txt"
    path.write_text(board)
    assert tool.main([str(path), *cells, "--samples", "5"]) == EXIT_BAD_INPUT
    err = capsys.readouterr().err.strip()
    assert problem in err and "\n" not in err and str(path) in err


def test_bad_positions_file_names_the_line(tool, tmp_path, capsys):
    lines = tmp_path / "pos.jsonl"
    lines.write_text(json.dumps({"board": POSITION, "cells": [[0, 5], [1, 1]]}) + "\n"
                     + json.dumps({"board": POSITION, "cells": [[0, 5], [0, 4]]}) + "\n")
    assert tool.main(["--positions", str(lines)]) == EXIT_BAD_INPUT
    err = capsys.readouterr().err.strip()
    assert f"{lines}:2" in err and "cell 0,4 is not unknown" in err
    assert tool.main(["--positions", str(tmp_path / "missing.jsonl")]) == EXIT_BAD_INPUT
    assert "missing.jsonl" in capsys.readouterr().err


@pytest.mark.parametrize("sig, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)], ids=["SIGINT", "SIGTERM"])
@pytest.mark.parametrize("background", [False, True], ids=["foreground", "started-in-background"])
def test_ctrl_c_prints_the_rollouts_done(tmp_path, sig, code, background):
    """Interrupted after its first progress line, the tool prints the figures so far and exits
    130 (SIGINT) or 143 (SIGTERM), also when started as a shell's background job (``tool &``),
    which begins with SIGINT ignored."""
    import subprocess
    path = tmp_path / "pos.txt"
    path.write_text(POSITION)
    ignore_sigint = (lambda: signal.signal(signal.SIGINT, signal.SIG_IGN)) if background else None
    proc = subprocess.Popen([sys.executable, str(BENCH / "rollouts.py"), str(path), "0,5", "1,1",
                             "--samples", "2000"], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=ignore_sigint)
    try:
        first = proc.stderr.readline()
        assert "rollouts" in first
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == code
    assert "interrupted" in err
    done = int(out.split("| 0,5 |")[1].split("|")[1].split("/")[1])
    assert 200 <= done < 2000


def test_a_board_no_layout_fits_is_one_line_and_exit_3(tool, tmp_path, capsys):
    """A board that contradicts itself is refused before any rollout, with the solver's exit code."""
    from minebot.errors import EXIT_INCONSISTENT
    path = tmp_path / "pos.txt"
    path.write_text('{"rows": 3, "cols": 6, "mines": 5}\n--3-1-\n----21\n----00\n')
    assert tool.main([str(path), "0,0", "1,1", "--samples", "5"]) == EXIT_INCONSISTENT
    err = capsys.readouterr().err.strip()
    assert err.startswith("rollouts: ") and "\n" not in err
