"""Errors that end a command with a clear message and a known exit code.

Every failure a user can cause (bad file, no game on screen, inconsistent board) is a
``MinebotError``; the CLI prints its message and exits with its ``exit_code`` instead of a
traceback. Exit codes are part of the interface, so they live here, once.
"""

from __future__ import annotations

from pathlib import Path

EXIT_OK = 0
EXIT_FAILURE = 1          # generic failure (e.g. a game could not be finished)
EXIT_BAD_INPUT = 2        # malformed file, bad option value (argparse also uses 2)
EXIT_INCONSISTENT = 3     # the board contradicts the rules of Minesweeper
EXIT_NO_GAME = 4          # no game window / board found, or the game on screen could not be read
EXIT_UNSUPPORTED = 5      # the desktop does not allow it (an overlay on GNOME on Wayland)
EXIT_INTERRUPTED = 130    # Ctrl-C or the fail-safe
EXIT_TERMINATED = 143     # SIGTERM (128 + 15), e.g. from `timeout` or a CI runner


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


class OutputError(MinebotError):
    """An output (log, recording, screenshot) could not be written in the middle of a run.

    Outputs are checked before the first click (a bad path is a ``BadInputError``); this is a
    write that failed later (a full disk): the run stops, and what was written stays.
    """

    exit_code = EXIT_FAILURE


class NoGameError(MinebotError):
    """No game window or no board could be found.

    ``frame``: where the frame that showed the problem was saved, when it was (the message
    says so too); a caller that keeps frames of failures need not save another.
    """

    exit_code = EXIT_NO_GAME

    def __init__(self, message: str, frame: Path | None = None) -> None:
        self.frame = frame
        super().__init__(message)


class UnreadableGameError(NoGameError):
    """A game is on screen but could not be read safely (unmatched cells, a board of the wrong
    size, a screen that never showed what the moves should produce). Same exit code as no game
    at all: either way minebot could not read the game."""


class UnresponsiveGameError(NoGameError):
    """The game showed no change at all after several turns of clicks in a row: the clicks do
    not reach it (input blocked, a window or a shell's overlay in the way). Clicking on would
    never end a game, so play stops, with the frame saved; exit code as for no game."""


class StoppedGameError(MinebotError):
    """One game of a live run could not be played on: ``game`` (its number in the run) and
    ``cause`` (the error that stopped it, also its ``__cause__``). The message says which game
    and why; the exit code is the cause's, so stopping a run changes nothing for a script."""

    def __init__(self, game: int, cause: MinebotError, message: str) -> None:
        self.game, self.cause = game, cause
        self.exit_code = cause.exit_code
        super().__init__(message)


class UnsupportedDesktopError(MinebotError):
    """The desktop does not let a program do this (e.g. draw over another application's
    window on GNOME on Wayland); the message says what works there instead."""

    exit_code = EXIT_UNSUPPORTED


class DeclinedError(UnsupportedDesktopError):
    """The user (or the desktop's policy) declined the desktop's permission dialog, e.g. the
    xdg-desktop-portal's request to see the screen and move the pointer: nothing was seen or
    clicked. Exit code as for a desktop that does not allow it."""


class DesktopError(MinebotError):
    """The virtual display or the game could not be started or reached."""


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised by the CLI's signal handler.

    A ``KeyboardInterrupt`` so that everything that already stops cleanly on Ctrl-C (closing
    the game, printing the summary of the finished games) does the same on SIGTERM; only the
    exit code differs.
    """


class Interrupted(MinebotError):
    """The user stopped the run (Ctrl-C, SIGTERM, or the mouse in a screen corner)."""

    exit_code = EXIT_INTERRUPTED

    @classmethod
    def by(cls, signal: BaseException, message: str) -> "Interrupted":
        """The error for a run stopped by ``signal`` (a ``KeyboardInterrupt`` or ``Terminated``),
        with the exit code that tells Ctrl-C (130) from SIGTERM (143)."""
        error = cls(message)
        error.exit_code = interrupt_exit_code(signal)
        return error


def interrupt_exit_code(signal: BaseException) -> int:
    """130 for Ctrl-C, 143 for SIGTERM."""
    return EXIT_TERMINATED if isinstance(signal, Terminated) else EXIT_INTERRUPTED
