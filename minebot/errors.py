"""Errors that end a command with a clear message and a known exit code.

Every failure a user can cause (bad file, no game on screen, inconsistent board) is a
``MinebotError``; the CLI prints its message and exits with its ``exit_code`` instead of a
traceback. Exit codes are part of the interface, so they live here, once.
"""

from __future__ import annotations

EXIT_OK = 0
EXIT_FAILURE = 1          # generic failure (e.g. a game could not be finished)
EXIT_BAD_INPUT = 2        # malformed file, bad option value (argparse also uses 2)
EXIT_INCONSISTENT = 3     # the board contradicts the rules of Minesweeper
EXIT_NO_GAME = 4          # no game window / no board found in an image
EXIT_INTERRUPTED = 130    # Ctrl-C or the pyautogui fail-safe


class MinebotError(Exception):
    """Base class: a problem to report to the user in one message."""

    exit_code = EXIT_FAILURE


class BadInputError(MinebotError, ValueError):
    """A file or value given by the user cannot be used."""

    exit_code = EXIT_BAD_INPUT


class BoardFormatError(BadInputError):
    """A board text could not be parsed; names the source, line and column (1-based)."""

    def __init__(self, source: str, line: int, column: int | None, problem: str) -> None:
        self.source, self.line, self.column, self.problem = source, line, column, problem
        where = f"{source}:{line}" + (f":{column}" if column is not None else "")
        super().__init__(f"{where}: {problem}")


class InconsistentBoardError(MinebotError):
    """No mine layout agrees with the board. ``cells`` lists the contradicting numbers."""

    exit_code = EXIT_INCONSISTENT

    def __init__(self, message: str, cells: list[tuple[int, int]] | None = None) -> None:
        self.cells = list(cells or [])
        super().__init__(message)


class NoGameError(MinebotError):
    """No game window or no board could be found."""

    exit_code = EXIT_NO_GAME


class Interrupted(MinebotError):
    """The user stopped the run (Ctrl-C, or the mouse in a screen corner)."""

    exit_code = EXIT_INTERRUPTED
