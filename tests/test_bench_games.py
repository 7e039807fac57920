"""tools/bench_games.py: every game of a bench run as a JSON line, the same on a second run."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str) -> list[dict]:
    out = subprocess.run([sys.executable, str(ROOT / "tools" / "bench_games.py"), *args],
                         capture_output=True, text=True, timeout=120, cwd=ROOT)
    assert out.returncode == 0, out.stderr
    return [json.loads(line) for line in out.stdout.splitlines()]


def test_each_game_is_a_line_with_its_moves_and_a_run_repeats_exactly():
    first = run("--size", "9x9", "--mines", "10", "--games", "3", "--seed", "5")
    assert [g["game"] for g in first] == [0, 1, 2]
    for game in first:
        assert game["moves"] and game["clicks"] == sum(len(batch) for batch in game["moves"])
        assert all(action in ("open", "flag", "unflag", "chord") for batch in game["moves"]
                   for action, _r, _c in batch)
    assert run("--size", "9x9", "--mines", "10", "--games", "3", "--seed", "5") == first
