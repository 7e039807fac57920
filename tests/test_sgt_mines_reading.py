"""Simon Tatham's Mines read from real screenshots (``fixtures/sgt-mines``, truth proven by
each game's frame after Solve: ``tests/test_clone_fixtures.py``).

What is particular to it: its tile size follows the window, so the three usual boards are read
at the game's own size and at larger windows, and at sizes the shipped looks were never taught
(``tools/make_clone_templates.py`` leaves the ``--more`` series out); a loss shows only the mine
hit, which is already a lost board; its status bar's "Marked: F / T" gives the mine total while
a game is played; and its plain boards are told apart from KMines' and GNOME Mines', whose looks
read them too, only less closely.
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np
import pytest

from minebot.board import Board, Cell, GameState
from minebot.vision import Reader

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures"
SGT = FIXTURES / "sgt-mines"

UNSEEN = ("sgt-16x16-40-400x470", "sgt-30x16-99-1200x700", "sgt-9x9-10-360x420")
"""Games at tile sizes (21, 33, 30 px) the shipped set was not taught."""


def _meta(stem: str) -> dict:
    return json.loads((SGT / f"{stem}.json").read_text())


def _read(stem: str, game: str | None = None):
    return Reader(game=game).read(cv2.imread(str(SGT / f"{stem}.png")))


@pytest.mark.parametrize("stem", [
    "sgt-9x9-10-240x302-mid", "sgt-9x9-10-500x560-mid",            # beginner, 20 and 41 px
    "sgt-16x16-40-560x620-mid", "sgt-16x16-40-400x470-mid",        # intermediate, 29 and 21 px
    "sgt-30x16-99-900x640-mid", "sgt-30x16-99-1200x700-mid",       # expert, 27 and 33 px
])
def test_the_three_boards_at_two_window_sizes(stem):
    """Every cell and the mine total from "Marked: 2 / N", at two tile sizes per board (one of
    them never taught)."""
    truth = Board.load(SGT / f"{stem}.board")
    reading = _read(stem)
    assert reading.game == "sgt-mines"
    assert reading.board.rows_text() == truth.rows_text()
    assert reading.board.state is GameState.PLAYING
    assert reading.counter == (2, truth.mines)
    assert reading.board.mines == truth.mines
    # where the game's own press lights a tile, within the pixel a bevel's edge leaves open
    x0, y0 = _meta(stem)["first_cell_origin"]
    left, top, right, bottom = reading.board_px
    pitch = _meta(stem)["cell_pitch"]
    assert abs(left - x0) <= 1 and abs(top - y0) <= 1
    assert (right - left, bottom - top) == (truth.cols * pitch, truth.rows * pitch)


@pytest.mark.parametrize("stem", UNSEEN)
def test_sizes_never_taught_read_exactly_in_every_phase(stem):
    for phase in ("fresh", "mid", "dead", "lost"):
        truth = Board.load(SGT / f"{stem}-{phase}.board")
        reading = _read(f"{stem}-{phase}")
        assert (reading.game, reading.board.rows_text(), reading.board.state) == \
            ("sgt-mines", truth.rows_text(), truth.state), phase


def test_a_won_board_is_read_won_at_every_size():
    """Boards drawn as a win (every mine flagged, every other cell open: Game > Solve after the
    first click), which the shipped look was not taught from, at 9 tile sizes."""
    paths = sorted(SGT.glob("*-solved-won.board"))
    assert len(paths) >= 9
    for path in paths:
        truth = Board.load(path)
        reading = _read(path.stem)
        assert (reading.game, reading.board.rows_text()) == ("sgt-mines", truth.rows_text()), path.stem
        assert reading.board.state is GameState.WON


def test_numbers_with_too_many_flags_around_are_read_on_pink():
    """A number with more flags around it than it says is drawn on pink: still read, from its
    ink, in games the shipped look was not taught from (the flags crowd an open number)."""
    paths = sorted(SGT.glob("*-crowded-mid.board"))
    assert len(paths) >= 3
    for path in paths:
        image = cv2.imread(str(path.with_suffix(".png")))
        pink = (image[..., 2] == 255) & (image[..., 1] == 153) & (image[..., 0] == 153)
        assert pink.sum() > 100, path.stem            # the picture shows a pink number
        truth = Board.load(path)
        reading = _read(path.stem)
        assert (reading.game, reading.board.rows_text()) == ("sgt-mines", truth.rows_text()), path.stem


def test_a_death_is_a_loss_showing_only_the_mine_hit():
    """The frame right after the mine was hit: lost, one exploded mine, no other mine shown,
    and the status bar ("DEAD!") gives no counter."""
    for path in sorted(SGT.glob("*-dead.board")):
        reading = _read(path.stem)
        cells = reading.board.cells
        assert reading.board.state is GameState.LOST, path.stem
        assert int((cells == Cell.EXPLODED).sum()) == 1
        assert not np.isin(cells, (Cell.MINE, Cell.WRONG_FLAG)).any()
        assert reading.counter is None


def test_the_status_bar_counter_is_flags_of_total():
    """"Marked: F / T" on every playing frame: F the flags the truth shows, T its mines."""
    from minebot.vision.counter import find_status_counter
    frames = [p for p in sorted(SGT.glob("*.board")) if p.stem.endswith(("-fresh", "-mid"))]
    assert len(frames) >= 30
    for path in frames:
        truth = Board.load(path)
        found = find_status_counter(cv2.imread(str(path.with_suffix(".png"))),
                                    tuple(_meta(path.stem)["board_rect_in_image"]),
                                    below=10_000)
        assert found == (int((truth.cells == Cell.FLAG).sum()), truth.mines), path.stem


FRESH_OF_EACH_GAME = [
    ("sgt-mines", SGT / "sgt-16x16-40-560x620-fresh"),
    ("sgt-mines", SGT / "sgt-30x16-99-900x640-fresh"),
    ("sgt-mines", SGT / "sgt-9x9-10-360x420-fresh"),
    ("kmines", FIXTURES / "kmines" / "classic-9x9-640x480-fresh"),
    ("kmines", FIXTURES / "kmines" / "classic-16x16-1000x800-fresh"),
    ("xdemineur", FIXTURES / "xdemineur" / "xdemineur-30x16-100-fresh"),
]
"""Boards with nothing open (or only the game's own opening): every cell a covered tile, which
the looks of more than one game read."""


@pytest.mark.parametrize("game, stem", FRESH_OF_EACH_GAME, ids=lambda v: getattr(v, "stem", v))
def test_a_plain_board_is_named_as_its_own_game(game, stem):
    """A board of covered tiles is named as the game it is, never as another whose looks also
    read it (before: Simon Tatham's plain boards were taken for KMines')."""
    reading = Reader().read(cv2.imread(str(stem.with_suffix(".png"))))
    assert reading.game == game
    assert reading.board.rows_text() == Board.load(stem.with_suffix(".board")).rows_text()


def test_gnome_mines_boards_are_never_taken_for_another_game():
    """GNOME Mines' screenshots of every theme, fresh ones included, are named GNOME Mines by a
    reader that may read any game."""
    shots = sorted(p for p in (FIXTURES / "gnome-mines").glob("*.png")
                   if p.with_suffix(".board").exists())[::6]
    assert len(shots) >= 10
    for png in shots:
        assert Reader().read(cv2.imread(str(png))).game == "gnome-mines", png.name


def test_another_games_reader_refuses_a_sgt_board():
    """Told the game is KMines, a Simon Tatham's board with open cells is not read as one."""
    from minebot.errors import MinebotError
    with pytest.raises(MinebotError):
        _read("sgt-30x16-99-900x640-mid", game="kmines")
