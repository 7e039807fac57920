"""``minebot play`` / ``demo`` argument and environment errors: one clear line, right exit code.

These need no display; the runs against a real display are in test_live.py.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def run(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items() if k != "DISPLAY"}
    base["PYTHONPATH"] = str(ROOT)
    return subprocess.run([sys.executable, "-m", "minebot", *args], env=dict(base, **(env or {})),
                          capture_output=True, text=True, cwd=ROOT, timeout=60)


@pytest.mark.parametrize("args, message", [
    (["play", "--size", "20x12"], "needs both --size COLSxROWS and --mines"),
    (["play", "--level", "expert", "--size", "20x12", "--mines", "40"], "either --level or --size"),
    (["play", "--size", "200x12", "--mines", "40"], "4 to 100 rows and columns"),
    (["play", "--size", "8x8", "--mines", "60"], "between 1 and 54"),
    (["play", "--games", "0"], "--games must be at least 1"),
    (["demo", "--window", "100x100"], "between 590x460"),
    (["demo", "--beginner", "0", "--expert", "0"], "not both 0"),
])
def test_bad_arguments(args, message):
    out = run(*args)
    assert out.returncode == 2, out.stderr
    assert message in out.stderr and "Traceback" not in out.stderr


def test_play_without_a_display():
    out = run("play")
    assert out.returncode == 1
    assert "no X display" in out.stderr and "Traceback" not in out.stderr


def test_help_explains_play_and_demo():
    for cmd in ("play", "demo", "replay"):
        out = run(cmd, "--help")
        assert out.returncode == 0
    assert "--json" in run("play", "--help").stdout
    assert "games.jsonl" in run("demo", "--help").stdout


@pytest.mark.live
@pytest.mark.skipif(shutil.which("Xvfb") is None, reason="needs xvfb")
def test_play_on_a_display_without_a_game():
    from minebot.sandbox.xvfb import Xvfb
    with Xvfb(640, 480) as xvfb:
        out = run("play", env=xvfb.env())
    assert out.returncode == 4, out.stderr
    assert "no GNOME Mines window" in out.stderr and "Traceback" not in out.stderr
