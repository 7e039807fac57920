"""Loading frames from files with clear errors (the CLI's only way in from disk)."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from ..errors import BadInputError


def load_image(path: str | Path) -> np.ndarray:
    """Read an image file as BGR uint8; a missing or non-image file is a ``BadInputError``."""
    path = Path(path)
    if not path.exists():
        raise BadInputError(f"{path}: no such file")
    if not path.is_file():
        raise BadInputError(f"{path}: not a file")
    try:
        data = np.fromfile(str(path), dtype=np.uint8)
    except OSError as exc:
        raise BadInputError(f"{path}: cannot read ({exc})") from None
    image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if image is None:
        raise BadInputError(f"{path}: not an image (or an image format opencv cannot decode)")
    return image


def as_frame(frame: np.ndarray) -> np.ndarray:
    """Accept BGR, BGRA (as mss captures) or grey arrays; return contiguous BGR uint8."""
    if not isinstance(frame, np.ndarray) or frame.dtype != np.uint8 or frame.ndim not in (2, 3):
        raise BadInputError("a frame must be a uint8 numpy image (H x W x 3 BGR)")
    if frame.ndim == 2:
        return cv2.cvtColor(frame, cv2.COLOR_GRAY2BGR)
    if frame.shape[2] == 4:
        return cv2.cvtColor(frame, cv2.COLOR_BGRA2BGR)
    if frame.shape[2] != 3:
        raise BadInputError(f"a frame must have 3 or 4 channels, got {frame.shape[2]}")
    return np.ascontiguousarray(frame)
