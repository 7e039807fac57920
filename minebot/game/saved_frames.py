"""Frames kept for the user when play stops: the picture of what minebot saw, next to the error.

Why: a stop ("cells match no template", "the screen never showed what the moves should
produce") is only understood with the frame it was decided on; every such message names the
PNG written here.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np


def save_frame(frame: np.ndarray, folder: Path, what: str) -> Path:
    """Write ``frame`` as ``minebot-WHAT-TIME.png`` in ``folder`` (made if missing)."""
    import cv2
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"minebot-{what}-{time.strftime('%Y%m%d-%H%M%S')}.png"
    cv2.imwrite(str(path), frame)
    return path
