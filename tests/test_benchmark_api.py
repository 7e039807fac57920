"""Benchmarks that drive the live game use only its public API:
a private method may change with the library and silently break a benchmark nobody runs in CI."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "benchmarks"
LIVE_BENCHMARKS = ["desktops.py"]
"""Benchmarks that play the live game themselves (the others drive the engine or the solver)."""


def _private_uses(source: str) -> list[str]:
    """``obj._name`` accesses on anything but ``self``/``cls`` (dunders aside)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") \
                and not node.attr.startswith("__"):
            owner = node.value.id if isinstance(node.value, ast.Name) else None
            if owner not in ("self", "cls"):
                found.append(f"line {node.lineno}: {ast.unparse(node)}")
    return found


def test_private_uses_are_found():
    assert _private_uses("game._bounds()\nself._x = 1\nx.__class__\n") == ["line 1: game._bounds"]


@pytest.mark.parametrize("name", LIVE_BENCHMARKS)
def test_live_benchmark_uses_no_private_attribute(name: str):
    assert _private_uses((BENCH / name).read_text()) == []


@pytest.mark.parametrize("name", LIVE_BENCHMARKS)
def test_live_benchmark_starts(name: str):
    done = subprocess.run([sys.executable, str(BENCH / name), "--help"], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert "usage:" in done.stdout
