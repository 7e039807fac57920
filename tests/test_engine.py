"""The headless engine against hand-made layouts, and each rule set's first-click guarantee."""

import json

import numpy as np
import pytest

from minebot.board import Cell, GameState, neighbour_count
from minebot.errors import BadInputError
from minebot.game.engine import EngineGame
from minebot.game.layouts import Layout, generate_layouts, load_layouts, save_layouts
from minebot.move import Action, Move


def layout_from(picture: str, first=None) -> Layout:
    """A layout from a picture: '*' is a mine, anything else is safe."""
    rows = picture.strip().splitlines()
    mask = np.array([[ch == "*" for ch in row] for row in rows])
    return Layout.from_mask(mask, first)


def game_from(picture: str, **kw) -> EngineGame:
    layout = layout_from(picture)
    return EngineGame(layout.rows, layout.cols, len(layout.mines), layout=layout, **kw)


PICTURE = """
.....
.....
...*.
.....
*....
"""


def test_flood_fill_opens_the_connected_zero_area_and_its_border():
    game = game_from(PICTURE)
    board = game.open((0, 0))
    # The flood stops at numbers: (2,4) and row 4 touch no opened zero.
    assert str(board) == "00000\n00111\n001--\n111--\n-----\n"
    assert board.state is GameState.PLAYING


def test_numbers_equal_mine_counts():
    game = game_from(PICTURE)
    board = game.open((0, 0))
    counts = neighbour_count(game.mine_mask)
    shown = board.revealed
    assert (board.cells[shown] == counts[shown]).all()


def test_flood_opens_safe_flagged_and_question_cells():
    game = game_from(PICTURE)
    game.act([Move(Action.FLAG, (0, 4)), Move(Action.FLAG, (1, 1))])
    board = game.open((0, 0))
    assert board[0, 4] == 0 and board[1, 1] == 0


def test_flag_blocks_open_and_unflag_restores():
    game = game_from(PICTURE)
    assert game.flag((0, 0))[0, 0] is Cell.FLAG
    assert game.open((0, 0))[0, 0] is Cell.FLAG
    assert game.unflag((0, 0))[0, 0] is Cell.COVERED


def test_win_flags_every_mine():
    game = game_from(PICTURE)
    game.open((0, 0))
    board = game.open((4, 2))  # a second zero area: opens (3,1)-(3,4) and (4,1)-(4,4)
    assert str(board) == "00000\n00111\n001--\n11111\n-1000\n"
    assert board.state is GameState.PLAYING
    board = game.open((2, 4))
    assert board.state is GameState.WON
    assert board[2, 3] is Cell.FLAG and board[4, 0] is Cell.FLAG
    assert int(board.revealed.sum()) == 23


def test_loss_shows_mines_exploded_and_wrong_flags():
    game = game_from(PICTURE)
    game.open((0, 0))
    game.act([Move(Action.FLAG, (4, 0)), Move(Action.FLAG, (4, 1))])  # right, wrong
    board = game.open((2, 3))
    assert board.state is GameState.LOST
    assert board[2, 3] is Cell.EXPLODED
    assert board[4, 0] is Cell.FLAG
    assert board[4, 1] is Cell.WRONG_FLAG
    # No move is played after the end.
    assert game.open((4, 4))[4, 4] == Cell.COVERED


def test_chord_opens_unflagged_neighbours_of_a_satisfied_number():
    game = game_from("""
*..
...
..*
""")
    game.open((1, 0))
    game.flag((0, 0))
    board = game.chord((1, 0))
    assert board[0, 1] == 1 and board[2, 0] == 0 and board[2, 1] == 1
    assert game.open((1, 1)) == game.observe()  # the 2 sees one flag: not satisfied
    game.flag((2, 2))
    # Opening a satisfied revealed number chords (GNOME Mines' left click): (0,2) is a zero.
    board = game.open((1, 1))
    assert board[1, 2] == 1 and board[0, 2] == 0
    assert board.state is GameState.WON


def test_chord_on_unsatisfied_number_does_nothing_and_wrong_flag_explodes():
    game = game_from("""
*..
...
..*
""")
    game.open((1, 1))
    before = game.observe()
    assert game.chord((1, 1)) == before  # no flags around yet
    game.flag((0, 1))
    game.flag((2, 1))  # two flags equal the 2 shown, but both are wrong
    board = game.chord((1, 1))
    assert board.state is GameState.LOST
    assert {board[0, 0], board[2, 2]} & {Cell.EXPLODED}


def _first_area(rules, seed, first=(3, 3)):
    game = EngineGame(8, 8, 10, rules=rules, seed=seed)
    game.open(first)
    r, c = first
    return game.mine_mask[max(r - 1, 0):r + 2, max(c - 1, 0):c + 2]


def test_zero_rule_never_has_a_mine_around_the_first_click():
    for seed in range(400):
        area = _first_area("zero", seed)
        assert not area.any(), seed


def test_safe_rule_protects_only_the_clicked_cell():
    neighbours_hit = 0
    for seed in range(400):
        area = _first_area("safe", seed)
        assert not area[1, 1]
        neighbours_hit += int(area.any())
    # 8 neighbours out of 63 cells, 10 mines: about 80% of games have one; never is impossible.
    assert neighbours_hit > 200


def test_placement_is_uniform_over_allowed_cells():
    hits = np.zeros((8, 8))
    for seed in range(3000):
        game = EngineGame(8, 8, 10, rules="zero", seed=seed)
        game.open((0, 0))
        hits += game.mine_mask
    allowed = hits[hits > 0]
    assert hits[0:2, 0:2].sum() == 0 and allowed.size == 60
    expected = 3000 * 10 / 60
    # Each cell's count is Binomial(3000, 1/6): sd ~20; a 5-sd band is a fair, robust check.
    assert np.abs(allowed - expected).max() < 5 * np.sqrt(expected * (1 - 1 / 6))


def test_unprotected_first_click_loses_as_often_as_any_cell_is_a_mine():
    """Ace of Penguins' rule: nothing opened, no cell spared. The first click at the solver's
    corner is a mine in about mines/cells of the games (10/64 here: 468 of 3000 expected, sd
    ~20), where zero and safe never lose it."""
    from minebot.solver.solver import default_first_click
    first = default_first_click(8, 8, "unprotected")
    assert first is not None
    lost = 0
    for seed in range(3000):
        game = EngineGame(8, 8, 10, rules="unprotected", seed=seed)
        assert (game.observe().cells == Cell.COVERED).all()
        lost += game.open(first).state is GameState.LOST
    assert abs(lost - 3000 * 10 / 64) < 5 * np.sqrt(3000 * 10 / 64 * (1 - 10 / 64))
    for rules in ("zero", "safe"):
        assert all(EngineGame(8, 8, 10, rules=rules, seed=s).open(first).state is not GameState.LOST
                   for s in range(300))


def test_preopened_starts_with_an_open_zero_area_and_no_protection():
    for seed in range(30):
        game = EngineGame(16, 30, 99, rules="preopened", seed=seed)
        board = game.observe()
        assert board.state is GameState.PLAYING
        assert (board.cells == 0).any()
        assert not (game.mine_mask & board.revealed).any()


def test_flags_to_win_wins_only_once_every_mine_is_flagged():
    """xdemineur: all safe cells open is not yet a win; flagging the last mine is."""
    picture = """
....*
.....
*....
"""
    game = game_from(picture, flags_to_win=True)
    board = game.open((1, 2))
    assert (board.cells[~game.mine_mask] <= 8).all()          # every safe cell is open...
    assert board.state is GameState.PLAYING                    # ...but no win yet
    assert game.flag((0, 4)).state is GameState.PLAYING        # one of two mines flagged
    board = game.flag((2, 0))
    assert board.state is GameState.WON
    assert ((board.cells == Cell.FLAG) == game.mine_mask).all()
    # without the rule the same opening wins at once and the game flags the mines itself
    plain = game_from(picture)
    board = plain.open((1, 2))
    assert board.state is GameState.WON and ((board.cells == Cell.FLAG) == plain.mine_mask).all()


def test_flags_before_the_last_safe_cell_count_towards_the_win():
    game = game_from("""
*...
....
""", flags_to_win=True)
    game.flag((0, 0))
    assert game.open((1, 3)).state is GameState.PLAYING   # (1,0) is still covered
    assert game.open((1, 0)).state is GameState.WON


def test_the_play_loop_finishes_games_that_need_every_mine_flagged():
    """The solver flags the mines left at the end (xdemineur's rules: preopened, flags to win)."""
    from minebot.loop import play_game
    from minebot.solver import Solver
    solver, won = Solver(), 0
    for seed in range(12):
        game = EngineGame(9, 12, 10, rules="preopened", seed=seed, flags_to_win=True)
        result = play_game(game, solver)
        assert result.final.state in (GameState.WON, GameState.LOST)
        if result.won:
            won += 1
            assert ((result.final.cells == Cell.FLAG) == game.mine_mask).all()
    assert won > 0


def test_same_seed_same_games():
    def play(seed):
        game = EngineGame(16, 16, 40, seed=seed)
        boards = [game.open((2, 2)).to_text()]
        game.new_game()
        boards.append(game.open((5, 5)).to_text())
        return boards
    assert play(11) == play(11)
    assert play(11) != play(12)


def test_layouts_round_trip_and_play_identically(tmp_path):
    path = tmp_path / "boards.jsonl"
    layouts = list(generate_layouts(16, 30, 99, "zero", (3, 3), 5, seed=3))
    assert save_layouts(path, layouts) == 5
    again = load_layouts(path)
    assert again == layouts
    for layout in again:
        game = EngineGame(16, 30, 99, layout=layout)
        assert game.first_click == (3, 3)
        assert (game.mine_mask == layout.mask()).all()
        board = game.open((3, 3))
        assert board[3, 3] == 0 and len(layout.mines) == 99


@pytest.mark.parametrize("line, words", [
    ("not json", "not JSON"),
    ('{"rows": 2, "cols": 2}', "'mines' must be a list"),
    ('{"rows": 2, "cols": 2, "mines": [[5, 0]]}', "off the 2x2 board"),
    ('{"rows": 2, "cols": 2, "mines": [[0, 0], [0, 0]]}', "listed twice"),
    ('{"rows": 2, "cols": 2, "mines": [[0, 0]], "first": [0, 0]}', "on a mine"),
    ('{"rows": 0, "cols": 2, "mines": []}', "'rows' must be"),
    ('{"rows": 2, "cols": 2, "mines": [[0]]}', "expected [row, col]"),
])
def test_layout_file_errors_name_file_and_line(tmp_path, line, words):
    path = tmp_path / "bad.jsonl"
    path.write_text(json.dumps({"rows": 2, "cols": 2, "mines": []}) + "\n" + line + "\n")
    with pytest.raises(BadInputError) as info:
        load_layouts(path)
    assert str(info.value).startswith(f"{path}:2:") and words in str(info.value)
