"""Statistics shared by the benchmarks (engine and real window) so both report alike."""

from __future__ import annotations

import math


def wilson(wins: int, games: int, z: float = 1.959964) -> tuple[float, float]:
    """95% Wilson score interval for a win rate (sound also near 0% and 100%, unlike p +- 2 sd)."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    denom = 1 + z * z / games
    centre = (p + z * z / (2 * games)) / denom
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)
