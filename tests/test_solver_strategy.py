"""next_moves: certain cells first (batched), first clicks, forced 50/50s, and guesses that are
never certain mines."""

from __future__ import annotations

import numpy as np
import pytest

from minebot.board import Board
from minebot.move import Action
from minebot.solver import GuessKind, Solver
from tests.test_solver_bruteforce import brute_force, random_position


def test_all_certain_safe_cells_in_one_batch_no_flags_by_default():
    board = Board.parse('{"mines": 3}\n1---\n1---\n11--\n----\n')
    moves = Solver().next_moves(board)
    assert [m.cell for m in moves] == [(1, 2), (2, 2), (3, 2)]
    assert all(m.action is Action.OPEN and m.p_mine == 0 for m in moves)


def test_flags_when_asked_and_wrong_flags_are_cleared_before_opening():
    board = Board.parse('{"mines": 1}\n01-\n01F\n00F\n')
    solver = Solver(flag=True)
    result = solver.analyse(board)
    # The 0 at (2,1) clears both flagged cells; the 1 at (0,1) then needs (0,2).
    assert result.wrong_flags == [(1, 2), (2, 2)] and result.mines == [(0, 2)]
    moves = solver.next_moves(board)
    assert (Action.UNFLAG, (2, 2)) in [(m.action, m.cell) for m in moves]
    assert (Action.FLAG, (0, 2)) in [(m.action, m.cell) for m in moves]
    opens = [i for i, m in enumerate(moves) if m.action is Action.OPEN and m.cell == (2, 2)]
    unflags = [i for i, m in enumerate(moves) if m.action is Action.UNFLAG and m.cell == (2, 2)]
    assert unflags and opens and unflags[0] < opens[0]


def test_first_click_follows_the_game_or_the_rules():
    board = Board.covered(16, 30, 99)
    assert Solver().next_moves(board, first_click=(5, 6))[0].cell == (5, 6)
    assert Solver().next_moves(board, rules="zero")[0].cell == (3, 3)
    assert Solver().next_moves(board, rules="safe")[0].cell == (0, 0)
    assert Solver().next_moves(Board.covered(8, 8, 10), rules="zero")[0].cell == (2, 2)


def test_forced_fifty_fifty_is_recognised():
    # (0,0)/(1,0) hold one mine; their other unknown neighbours (2,0),(2,1) are certain mines,
    # so no number can ever tell them apart.
    board = Board.parse('{"mines": 3}\n-10000\n-31000\n--1000\n221000\n000000\n')
    solver = Solver(endgame_layouts=0)     # a position this small is otherwise the endgame search's
    move = solver.next_moves(board)[0]
    assert move.cell in {(0, 0), (1, 0)} and move.p_mine == 0.5
    assert solver.last_kind is GuessKind.FORCED_FIFTY
    # With an unknown cell next to the pair that could still be opened, it is not forced.
    board = Board.parse('{"mines": 1}\n01--\n01--\n')
    solver.next_moves(board)
    assert solver.last_kind is not GuessKind.FORCED_FIFTY


@pytest.mark.parametrize("preset", ["default", "strong"])
def test_guesses_are_never_certain_mines_and_report_their_exact_risk(preset):
    from minebot.solver import PRESETS
    rng = np.random.default_rng(3)
    solver = Solver(**PRESETS.get(preset, {}))
    checked = 0
    while checked < 40:
        board, _ = random_position(rng, max_unknown=14)
        result = solver.analyse(board, board.mines)
        if result.safe or len(result.mines) == int(board.unknown.sum()):
            continue
        moves = solver.next_moves(board)
        assert len(moves) in (1, 2)
        move = moves[-1]
        assert move.action is Action.OPEN and move.cell not in result.mines
        unknown, layouts = brute_force(board, board.mines)
        k = unknown.index(move.cell)
        p = layouts[:, k].mean()
        assert abs(move.p_mine - p) < 1e-9
        checked += 1


def test_look_ahead_value_probabilities_add_up_to_the_safety():
    from fractions import Fraction

    from minebot.solver.constraints import build_constraints, with_revealed
    from minebot.solver.probability import CountCache, count_position
    rng = np.random.default_rng(12)
    for _ in range(40):
        board, _ = random_position(rng, max_unknown=14)
        cons = build_constraints(board, board.mines)
        counts = count_position(cons)
        result = Solver().analyse(board, board.mines)
        for cell in [tuple(x) for x in np.argwhere(board.unknown).tolist()][:4]:
            total = 0
            for value in range(9):
                nxt = with_revealed(cons, cell, value)
                sub = count_position(nxt, CountCache()) if nxt is not None else None
                total += sub.layouts if sub is not None else 0
            assert Fraction(total, counts.layouts) == 1 - result.fraction(cell)


def _moves_of_game(seed: int) -> list:
    from minebot.game.engine import EngineGame
    from minebot.loop import play_game
    played: list = []
    game = EngineGame(16, 30, 99, rules="zero", seed=seed, first_click=(3, 3))
    play_game(game, Solver(), on_step=lambda board, moves: played.append(
        [(m.action, m.cell) for m in moves]))
    return played


def test_guesses_do_not_depend_on_how_fast_the_machine_is(monkeypatch):
    """The look-ahead budget is counted in steps: on a machine where every clock reading is a
    second later than the last (a heavily loaded one), the same games get the same moves."""
    import itertools
    import time
    seeds = [7 * 1_000_003 + i for i in (4, 8, 9)]   # games with look-ahead guesses
    normal = [_moves_of_game(s) for s in seeds]
    ticks = itertools.count()
    monkeypatch.setattr(time, "process_time", lambda: float(next(ticks)))
    monkeypatch.setattr(time, "perf_counter", lambda: float(next(ticks)))
    assert [_moves_of_game(s) for s in seeds] == normal


def test_step_budget_must_be_positive():
    import pytest
    with pytest.raises(ValueError):
        Solver(step_budget=0)


def _look_ahead_by_enumeration(board, cell, second_weight: float,
                               blend_certain: bool = False) -> tuple[float, float]:
    """(score, progress) of opening ``cell``, from every layout listed: for each value the cell
    can show, the layouts where it shows that value; in that group the safest other unknown
    cell (1 when one is safe in every layout of the group, or when nothing but mines is left),
    blended with the second safest; weighted by the group's share of all layouts. With
    ``blend_certain`` a certain safest cell is blended with the second safest too."""
    from minebot.board import neighbours
    unknown, layouts = brute_force(board, board.mines)
    layouts = layouts.astype(bool)
    k = unknown.index(cell)
    around = [unknown.index(x) for x in neighbours(board.rows, board.cols, *cell) if x in unknown]
    alive = layouts[~layouts[:, k]]
    values = alive[:, around].sum(axis=1)
    score = progress = 0.0
    for value in np.unique(values):
        group = alive[values == value]
        safeties = sorted((1.0 - group[:, j].mean() for j in range(len(unknown))
                           if j != k and not group[:, j].all()), reverse=True)
        if safeties and safeties[0] == 1.0 or not safeties:
            progress += len(group) / len(layouts)
        if not safeties or safeties[0] == 1.0 and not blend_certain:
            blended = 1.0
        else:
            second = safeties[1] if len(safeties) > 1 else safeties[0]
            blended = safeties[0] + second_weight * (second - safeties[0])
        score += len(group) / len(layouts) * blended
    return score, progress


def test_look_ahead_survival_matches_enumeration():
    """The look-ahead's P(survive this guess and the best next move), its chance of a certain
    cell next, and the peer-style blend with the second safest cell, against brute force.

    Most tiny positions leave a certain cell after any reveal, where the blend changes
    nothing: the test goes on until it has also seen a dozen where it does, and a dozen where
    ``blend_certain`` (a certain cell next blended with the second safest too) does."""
    from minebot.solver.constraints import build_constraints
    from minebot.solver.probability import CountCache, count_position
    from minebot.solver.strategy import Guesser
    rng = np.random.default_rng(21)
    plain = Guesser(CountCache())
    blend = Guesser(CountCache(), second_weight=0.2)
    blend_certain = Guesser(CountCache(), second_weight=0.2, blend_certain=True)
    checked = blended = certain_blended = 0
    for _ in range(3000):
        if checked >= 60 and blended >= 12 and certain_blended >= 12:
            break
        board, _ = random_position(rng, max_unknown=14)
        cons = build_constraints(board, board.mines)
        counts = count_position(cons)
        analysis = Solver().analyse(board, board.mines)
        for cell in [tuple(map(int, x)) for x in np.argwhere(board.unknown)][:3]:
            if analysis.fraction(cell) == 1:
                continue
            wants = {}
            for guesser in (plain, blend, blend_certain):
                score, progress, _clears, _values = guesser.look_ahead(cons, counts, cell)
                want_score, want_progress = wants[guesser] = _look_ahead_by_enumeration(
                    board, cell, guesser.second_weight, guesser.blend_certain)
                assert abs(score - want_score) < 1e-9 and abs(progress - want_progress) < 1e-9
            checked += 1
            blended += abs(wants[plain][0] - wants[blend][0]) > 1e-6
            certain_blended += abs(wants[blend][0] - wants[blend_certain][0]) > 1e-6
    assert checked >= 60 and blended >= 12 and certain_blended >= 12, (checked, blended, certain_blended)


def test_potential_fifty_fifty_counts_pairs_nothing_can_tell_apart():
    from minebot.solver.constraints import build_constraints
    from minebot.solver.fifty_fifty import potential_fifty_fifty
    from minebot.solver.probability import count_position
    # Two cells under two 1s, nothing beyond their ends: a 50/50 in every layout.
    board = Board.parse('{"mines": 1}\n11\n--\n')
    cons = build_constraints(board, 1)
    counts = count_position(cons)
    assert counts.layouts == 2 and potential_fifty_fifty(cons, counts, (1, 0)) == 1
    # The same two cells with unknown cells beyond one end that are certainly safe: opening
    # them will tell the pair apart, so it is no potential 50/50 (though 50/50 now).
    board = Board.parse('{"mines": 1}\n11-\n---\n')
    cons = build_constraints(board, 1)
    counts = count_position(cons)
    assert counts.layouts == 2 and potential_fifty_fifty(cons, counts, (1, 0)) == 0


def test_pseudo_fifty_fifty_is_a_cell_that_is_a_mine_only_inside_such_a_pair():
    from minebot.solver.constraints import build_constraints
    from minebot.solver.fifty_fifty import pseudo_fifty_fifty
    from minebot.solver.probability import count_position
    board = Board.parse('{"mines": 1}\n11\n--\n')
    cons = build_constraints(board, 1)
    assert pseudo_fifty_fifty(cons, count_position(cons)) == (1, 0)
    board = Board.parse('{"mines": 1}\n11-\n---\n')      # the cells beyond the end will tell them apart
    cons = build_constraints(board, 1)
    assert pseudo_fifty_fifty(cons, count_position(cons)) is None


def test_edge_background_cells_are_two_steps_out_from_a_number():
    """The extra background candidates: every background cell two cells straight out from a
    number that touches unknown cells (so it touches the frontier), found here by walking the
    board; at most ``edge_background`` of them, and none without the option."""
    from minebot.board import neighbours
    from minebot.solver.constraints import build_constraints
    from minebot.solver.probability import CountCache, count_position
    from minebot.solver.strategy import Guesser
    board = Board.parse('{"mines": 12}\n0001------\n0001------\n1112------\n----------\n'
                        '----------\n----------\n----------\n')
    cons = build_constraints(board, board.mines)
    rows, cols = board.shape
    frontier = set(cons.index)
    want = set()
    for r in range(rows):
        for c in range(cols):
            if board.unknown[r, c] or not any(board.unknown[x] for x in neighbours(rows, cols, r, c)):
                continue
            for dr, dc in ((2, 0), (-2, 0), (0, 2), (0, -2)):
                x = (r + dr, c + dc)
                if 0 <= x[0] < rows and 0 <= x[1] < cols and board.unknown[x] and x not in frontier:
                    want.add(x)
    assert want and all(any(y in frontier for y in neighbours(rows, cols, *x)) for x in want)
    counts = count_position(cons)
    assert set(Guesser(CountCache(), edge_background=100)._edge_background(cons)) == want
    assert len(Guesser(CountCache(), edge_background=2)._edge_background(cons)) == 2
    assert Guesser(CountCache(), edge_background=0)._edge_background(cons) == []
    pool, _ = Guesser(CountCache(), edge_background=100, margin=1.0).candidate_pool(cons, counts)
    assert want <= set(pool)
    import pytest
    with pytest.raises(ValueError):
        Solver(edge_background=-1)



def test_dominating_finds_a_safer_cell_safe_whenever_the_choice_is():
    """``dominating`` against enumeration of layouts: for each undecided frontier cell as the
    choice and the other undecided ones in a fixed order, the first one safer by more than the
    gap and safe in every listed layout where the choice is safe (None when there is none).
    Certain cells would make the answer trivial, so they are left out; the test goes on until
    it has seen both answers often."""
    from itertools import islice

    from minebot.solver.strategy import DOMINANCE_GAP, dominating
    from tests.test_solver_bruteforce import enumerated_positions
    found = none = 0
    for board, cons, _counts, unknown, layouts in islice(enumerated_positions(31, max_unknown=14), 4000):
        if found >= 40 and none >= 40:
            break
        safety = {c: 1.0 - layouts[:, unknown.index(c)].mean() for c in cons.cells}   # from the layouts
        undecided = [c for c in cons.cells if 0 < safety[c] < 1]
        for chosen in undecided[:5]:
            others = [c for c in undecided if c != chosen]
            k = unknown.index(chosen)
            when_safe = layouts[~layouts[:, k]]
            want = next((c for c in others if safety[c] > safety[chosen] + DOMINANCE_GAP
                         and not when_safe[:, unknown.index(c)].any()), None)
            assert dominating(cons, safety, chosen, others) == want, (board.to_text(), chosen)
            found += want is not None
            none += want is None
    assert found >= 40 and none >= 40, (found, none)


def test_guessing_on_a_huge_board_keeps_its_weights_exact():
    """50x50 with 500 mines and one number: the layouts (about 10^540) overflow any float, so
    every ratio of weights must be taken integer over integer. Each preset guesses, and the
    guess is one of the unknown cells."""
    from minebot.solver import PRESETS
    rows = ["-" * 50] * 50
    rows[25] = "-" * 25 + "1" + "-" * 24
    board = Board.parse("\n".join(rows) + "\n")
    for options in [{}, {"fifty_patterns": True}, *PRESETS.values()]:
        (move, *_) = Solver(**options).next_moves(board, mines=500)
        assert move.action is Action.OPEN and board.unknown[move.cell]
