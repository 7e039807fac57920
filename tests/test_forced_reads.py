"""A read forced to the wrong game or look never acts on a reading in doubt.

Every fixture with a proven truth board (``fixtures/<game>/*.board``) is read with every
other game named (``--game``) and with other games' template sets named (``--templates``).
Such a read must either refuse, with one of the reader's errors (no board, cells that match
no look, a board no game can show, two games alike), or give exactly that fixture's truth:
where two games draw the very same tiles (a fresh GNOME Mines classic board is all KMines
Classic covered tiles) the board read is still the right one.

The real case this guards (before ``minebot.vision.plausible``): a fresh GNOME Mines board
forced to KMines read as 240 cells of 8 and "won", forced to Simon Tatham's Mines as 7s, and
read with KMines' default look as all 0s; 28 forced pairs gave such a confident wrong board.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from minebot import games
from minebot.board import Board
from minebot.cli import main
from minebot.errors import EXIT_BAD_INPUT, MinebotError
from minebot.vision import (
    AmbiguousGameError,
    ImplausibleBoardError,
    NoBoardError,
    Reader,
    UnmatchedCellsError,
    load_image,
)
from minebot.vision.plausible import implausible

ROOT = Path(__file__).resolve().parents[1]
FIXTURES = ROOT / "fixtures"
TEMPLATES = ROOT / "templates"

REFUSALS = (NoBoardError, UnmatchedCellsError, AmbiguousGameError)
"""What a read that does not trust the frame raises (``ImplausibleBoardError`` is an
``UnmatchedCellsError``); any other error, or a board that is not the truth, fails."""


def _shots() -> list[tuple[str, Path]]:
    """(game, png) of every fixture with a truth board, the game being its folder's."""
    return [(game, png) for game in games.NAMES
            for png in sorted((FIXTURES / game).glob("*.png")) if png.with_suffix(".board").exists()]


SHOTS = _shots()


def _other_sets(game: str) -> list[str]:
    """The shipped template sets made for games other than ``game``."""
    out = []
    for folder in sorted(p for p in TEMPLATES.iterdir() if (p / "templates.json").exists()):
        owner = games.for_template_set(folder.name)
        if owner is not None and owner.name != game:
            out.append(folder.name)
    return out


def _wrong_read(reader: Reader, png: Path) -> str | None:
    """None when ``reader`` refuses ``png`` or reads exactly its truth, else what went wrong."""
    truth = Board.load(png.with_suffix(".board"))
    try:
        got = reader.read(load_image(png)).board
    except REFUSALS:
        return None
    except MinebotError as exc:        # an error, but not one that says the read is in doubt
        return f"{type(exc).__name__}: {exc}"
    if got.shape != truth.shape:
        return f"read a {got.cols}x{got.rows} board, the truth is {truth.cols}x{truth.rows}"
    wrong = int((got.cells != truth.cells).sum())
    if wrong or got.state != truth.state or got.mines not in (None, truth.mines):
        return (f"{wrong} cells differ, state {got.state} vs {truth.state}, mines {got.mines} "
                f"vs {truth.mines}: {got.rows_text()[0]}")
    return None


def test_the_fixtures_cover_every_game():
    assert {game for game, _ in SHOTS} == set(games.NAMES)
    assert len(SHOTS) >= 200


# Fresh boards (all covered tiles, the plainest frame) were where wrong looks fitted: every one
# is read; of the other frames every third (every game, theme and size still among them), to
# keep the suite's time (each frame is read once per other game).
FORCED_SHOTS = [(g, p) for i, (g, p) in enumerate(SHOTS) if "fresh" in p.stem or i % 3 == 0]


@pytest.mark.parametrize("game,png", FORCED_SHOTS, ids=[f"{g}/{p.stem}" for g, p in FORCED_SHOTS])
def test_forced_to_another_game_refuses_or_reads_the_truth(game: str, png: Path):
    problems = []
    for other in games.NAMES:
        if other != game:
            why = _wrong_read(Reader(game=other), png)
            if why:
                problems.append(f"--game {other}: {why}")
    assert problems == []


# The same with other games' template sets (several per game): fresh boards, and every eighth
# other frame.
TEMPLATE_SHOTS = [(g, p) for i, (g, p) in enumerate(SHOTS) if "fresh" in p.stem or i % 8 == 0]


@pytest.mark.parametrize("game,png", TEMPLATE_SHOTS, ids=[f"{g}/{p.stem}" for g, p in TEMPLATE_SHOTS])
def test_another_games_looks_refuse_or_read_the_truth(game: str, png: Path):
    problems = []
    for name in _other_sets(game):
        why = _wrong_read(Reader(name), png)
        if why:
            problems.append(f"--templates {name}: {why}")
    assert problems == []


def test_the_reported_frame_is_refused_with_a_one_line_message(capsys):
    """The issue's frame: GNOME Mines classic read as KMines gave 240 eights and "won"."""
    png = FIXTURES / "gnome-mines" / "classic-20x12-700x560-fresh.png"
    assert main(["read", str(png), "--game", "kmines"]) == EXIT_BAD_INPUT
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1 and "impossible" in lines[0] and str(png) in lines[0]
    with pytest.raises(ImplausibleBoardError):
        Reader(game="kmines").read(load_image(png))
    with pytest.raises(ImplausibleBoardError):
        Reader(game="sgt-mines").read(load_image(png))


# -- the rules themselves --------------------------------------------------------------------

@pytest.mark.parametrize("game,png", SHOTS, ids=[f"{g}/{p.stem}" for g, p in SHOTS])
def test_no_proven_truth_board_is_called_impossible(game: str, png: Path):
    """The check refuses no real frame read right: every truth board passes it."""
    assert implausible(Board.load(png.with_suffix(".board")).cells) is None


def test_boards_no_game_shows_are_caught():
    def cells(text: str) -> np.ndarray:
        return Board.parse(text).cells

    eights = implausible(np.full((4, 5), 8, np.int8))      # (Board.parse refuses corner 8s)
    assert eights is not None
    zeros = implausible(cells("000\n000\n000\n"))
    assert zeros is not None and zeros.cells == []
    two = implausible(cells("-10\n020\n000\n"))          # a 2 with one covered cell around it
    assert two is not None and two.cells == [(1, 1)]
    assert implausible(cells("-1-\n121\n000\n")) is None
    assert implausible(cells("F1\n11\n")) is None            # a won board: the mine is flagged
    assert implausible(cells("--\n--\n")) is None            # a fresh board
    # an unsure number is held to its smallest candidate
    board = cells("-1-\n030\n000\n")
    assert implausible(board, {(1, 1): (3, 8)}) is not None
    assert implausible(board, {(1, 1): (2, 3)}) is None
