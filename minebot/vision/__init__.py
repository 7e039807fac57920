"""Vision: read a Minesweeper board from pixels (any GNOME Mines theme, any window size).

``Reader(templates=None).read(frame) -> Reading`` locates the grid from the real tile edges,
averages every tile onto a normalised colour patch and matches all cells against a template
set at once. ``read_image`` reads a file or array in one call; ``load_image`` loads a file
with clear errors.
"""

from .image import load_image
from .reader import (
                     AmbiguousGameError,
                     ImplausibleBoardError,
                     NoBoardError,
                     Reader,
                     Reading,
                     UnmatchedCellsError,
                     read_image,
)

__all__ = ["Reader", "Reading", "read_image", "load_image", "NoBoardError", "UnmatchedCellsError",
           "ImplausibleBoardError", "AmbiguousGameError"]
