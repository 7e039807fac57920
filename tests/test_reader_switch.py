"""A Reader that has read one game reads another game's frame.

``minebot play`` without ``--game`` and ``minebot hint`` keep one Reader for the whole run: it
finds which game is shown on its first frame and then keeps to that game. When that game finds
no board in a later frame (the first detection was wrong, or the user switched games), the other
games are tried once on that frame. Real recorded screenshots of each game, with proven truth
(``fixtures/CLONES.md``, ``fixtures/gnome-mines``); the Reader is the real one, nothing mocked.
"""

from __future__ import annotations

from itertools import permutations
from pathlib import Path

import cv2
import numpy as np
import pytest

from minebot.board import Board, GameState
from minebot.vision import NoBoardError, Reader

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
FRAMES = {
    "gnome-mines": FIXTURES / "gnome-mines" / "classic-16x16-810x656-mid.png",
    "xdemineur": FIXTURES / "xdemineur" / "xdemineur-12x10-15-mid.png",
    "kmines": FIXTURES / "kmines" / "classic-9x9-640x480-mid.png",
}


def _frame(game: str) -> np.ndarray:
    frame = cv2.imread(str(FRAMES[game]))
    assert frame is not None, FRAMES[game]
    return frame


def _assert_read(reader: Reader, game: str) -> None:
    """The reader reads ``game``'s frame exactly as its truth, and says which game it is."""
    reading = reader.read(_frame(game))
    truth = Board.load(FRAMES[game].with_suffix(".board"))
    assert reading.game == game
    assert reading.board.rows_text() == truth.rows_text()
    assert reader.game.name == game


@pytest.mark.parametrize("first,then", list(permutations(FRAMES, 2)),
                         ids=lambda g: g)
def test_reader_follows_another_game(first: str, then: str):
    reader = Reader()
    _assert_read(reader, first)
    _assert_read(reader, then)      # the game it knew finds no board (or reads none): others
    _assert_read(reader, first)     # ... and back


def test_the_known_game_is_kept_while_it_reads():
    """A frame of the game read so far is read as that game, whichever other games there are."""
    reader = Reader()
    _assert_read(reader, "xdemineur")
    shifted = np.pad(_frame("xdemineur"), ((7, 0), (11, 0), (0, 0)), mode="edge")
    reading = reader.read(shifted)   # moved: a fresh locate, the known game alone
    assert reading.game == "xdemineur"
    truth = Board.load(FRAMES["xdemineur"].with_suffix(".board"))
    assert reading.board.rows_text() == truth.rows_text()


@pytest.mark.parametrize("known", list(FRAMES))
def test_no_game_frame_is_still_no_board(known: str):
    """A real frame with no board of any game (GNOME Mines' side panel: counter, clock and
    buttons) ends in the "no board" error, after every game was tried."""
    reader = Reader()
    _assert_read(reader, known)
    panel = np.ascontiguousarray(_frame("gnome-mines")[:, 605:])
    with pytest.raises(NoBoardError, match="no Minesweeper board") as info:
        reader.read(panel)
    assert info.value.state is GameState.NONE
    _assert_read(reader, known)     # nothing was switched by the frame it could not read


@pytest.mark.parametrize("known", ["xdemineur", "kmines"])
def test_chooser_after_another_game_says_chooser(known: str):
    """GNOME Mines' level chooser shows no board: the clear error names it, whatever game the
    reader read before."""
    reader = Reader()
    _assert_read(reader, known)
    chooser = cv2.imread(str(FIXTURES / "gnome-mines" / "screens" / "classic-810x656-chooser.png"))
    with pytest.raises(NoBoardError) as info:
        reader.read(chooser)
    assert info.value.state is GameState.CHOOSER


def test_another_games_board_in_a_known_window_is_never_played():
    """The live game knows its window's game (recognised or named): a reading of another game
    in it, as a reader that tries every game may give, is refused (``game_problem``)."""
    from minebot.game.read_checks import game_problem
    reader = Reader()
    _assert_read(reader, "gnome-mines")
    reading = reader.read(_frame("xdemineur"))
    assert reading.game == "xdemineur"
    assert game_problem(reading, "gnome-mines") == ("read a board of xdemineur in the GNOME Mines "
                                                    "window")
    assert game_problem(reading, "xdemineur") is None
    assert game_problem(reading, None) is None      # no window known: the reading decides
