"""Which game a frame shows, never a guess: every game's fit is weighed, and when two fit about
equally (``minebot.vision.reader.SAME_FIT``) the mine counter next to the board decides; when
it cannot, the read says so (``AmbiguousGameError``, exit 4 in ``minebot read``) and names both.

The real case: GNOME Mines' classic theme draws covered tiles that KMines Classic's looks read
at a distance of 0.0 (GNOME Mines' own at 0.2), so a fresh classic board is either game by its
looks. The issue's report (a classic 20x12 board taken for KMines) is this frame; with its
window, GNOME Mines' "flags/total" label beside the board tells it; cut to the board alone,
nothing does.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import pytest

from minebot.board import Board
from minebot.cli import main
from minebot.errors import EXIT_NO_GAME
from minebot.vision import AmbiguousGameError, Reader

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
CLASSIC = FIXTURES / "gnome-mines" / "classic-20x12-700x560-fresh"


def _image(stem: Path):
    return cv2.imread(str(stem.with_suffix(".png")))


def _board_only(stem: Path):
    """The frame cut to its board and a 20 px margin: no counter, no window around it."""
    frame = _image(stem)
    x0, y0, x1, y1 = Reader(game="gnome-mines").read(frame).board_px
    return frame[max(0, y0 - 20):y1 + 20, max(0, x0 - 20):x1 + 20]


@pytest.mark.parametrize("phase", ["fresh", "mid", "lost"])
def test_gnome_mines_classic_20x12_is_gnome_mines(phase):
    """The issue's frame and its game's other phases: GNOME Mines, read exactly."""
    stem = FIXTURES / "gnome-mines" / f"classic-20x12-700x560-{phase}"
    reading = Reader().read(_image(stem))
    assert reading.game == "gnome-mines"
    assert reading.board.rows_text() == Board.load(stem.with_suffix(".board")).rows_text()


def test_a_board_two_games_fit_without_a_counter_is_not_guessed():
    with pytest.raises(AmbiguousGameError) as err:
        Reader().read(_board_only(CLASSIC))
    # Simon Tatham's covered tile fits it too once its lattice is moved a few pixels
    assert {"gnome-mines", "kmines"} <= set(err.value.games)
    assert "GNOME Mines" in str(err.value) and "KMines" in str(err.value)
    assert "--game" in str(err.value)


def test_naming_the_game_reads_that_board(tmp_path):
    reading = Reader(game="gnome-mines").read(_board_only(CLASSIC))
    assert reading.board.rows_text() == Board.load(CLASSIC.with_suffix(".board")).rows_text()


def test_read_says_both_games_and_exits_4(tmp_path, capsys):
    shot = tmp_path / "board.png"
    cv2.imwrite(str(shot), _board_only(CLASSIC))
    assert main(["read", str(shot)]) == EXIT_NO_GAME
    err = capsys.readouterr().err
    assert str(shot) in err and "gnome-mines" in err and "kmines" in err
    assert main(["read", str(shot), "--game", "gnome-mines", "--quiet"]) == 0


KMINES_CLASSIC = sorted((FIXTURES / "kmines").glob("classic-*.board"))[::2]


@pytest.mark.parametrize("board_path", KMINES_CLASSIC, ids=lambda p: p.stem)
def test_kmines_classic_is_never_taken_for_gnome_mines(board_path):
    reading = Reader().read(_image(board_path))
    assert reading.game == "kmines"


def test_every_gnome_mines_classic_frame_is_gnome_mines():
    shots = sorted((FIXTURES / "gnome-mines").glob("classic-*.board"))
    assert len(shots) >= 20
    for path in shots:
        assert Reader().read(_image(path)).game == "gnome-mines", path.name
