"""Faults and bad inputs (issue #15): each gets a one-line message and a known exit code.

The table "Faults and bad inputs" in README.md lists the same cases; every row has a test here
(or names the test elsewhere). Commands run in a subprocess when the case is about signals or
what reaches the terminal, in-process through ``minebot.cli.main`` otherwise.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from minebot.cli import main
from minebot.errors import EXIT_BAD_INPUT, EXIT_INCONSISTENT, EXIT_TERMINATED

ROOT = Path(__file__).resolve().parents[1]


def run_cli(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "minebot", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=timeout)


def one_line_error(err: str, *words: str) -> None:
    """stderr is one line naming the problem, never a traceback."""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    for word in words:
        assert word in lines[0], lines[0]


# -- bench ------------------------------------------------------------------------------------
@pytest.mark.parametrize("options, word", [
    (["--mines", "10000"], "--mines 10000"),
    (["--size", "30x16", "--mines", "480"], "--mines 480"),
    (["--size", "1x1", "--mines", "1"], "--mines 1"),
    (["--size", "8x8", "--mines", "63", "--rules", "preopened"], "--mines 63"),
    (["--size", "8x8", "--mines", "60", "--rules", "preopened"], "zero cell"),
    (["--size", "8x8", "--mines", "10", "--jobs", "0"], "--jobs 0"),
    (["--size", "8x8", "--mines", "10", "--jobs", "-3"], "--jobs -3"),
])
def test_bench_bad_options_exit_2_with_one_line(capsys, options, word):
    assert main(["bench", "--games", "1", *options]) == EXIT_BAD_INPUT
    one_line_error(capsys.readouterr().err, word)


def test_bench_stops_on_sigterm_with_a_summary_and_exit_143():
    """SIGTERM ends the run at once, even in the middle of a long move on a huge board, and
    the games finished so far are reported (the JSON line when asked)."""
    proc = subprocess.Popen([sys.executable, "-m", "minebot", "bench", "--size", "150x150",
                             "--mines", "5000", "--games", "50", "--jobs", "1", "--json"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(3)
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == EXIT_TERMINATED, err
    summary = json.loads(out.strip().splitlines()[-1])
    assert summary["games"] >= 0 and "Traceback" not in err
