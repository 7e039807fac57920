"""Game-logic checks of hand-checked truth boards (used by the fixture tests), and their tests.

A truth board is only trusted when, besides looking right by eye, it obeys the rules: a
revealed zero has only revealed neighbours; no number exceeds its unknown neighbours; in a
lost game (every mine shown) each number equals the mines around it, where a "?" may hide a
mine; in a won game every mine is flagged and nothing else is covered.
"""

from __future__ import annotations

import numpy as np

from minebot.board import Board, Cell, GameState, neighbour_count


def logic_problems(board: Board, mines: int | None = None, all_mines_shown: bool = True) -> list[str]:
    """Every way ``board`` breaks the rules. ``all_mines_shown=False``: a lost board that shows
    only the mine hit (Simon Tatham's Mines), whose numbers cannot be checked against mines."""
    c = board.cells
    problems: list[str] = []
    num = c <= 8
    unrevealed = ~num
    around_unrevealed = neighbour_count(unrevealed)
    for r, col in np.argwhere(num & (c == 0) & (around_unrevealed > 0)):
        problems.append(f"{r},{col}: a revealed 0 next to an unrevealed cell")
    unknown = np.isin(c, (Cell.COVERED, Cell.FLAG, Cell.QUESTION, Cell.MINE, Cell.EXPLODED, Cell.WRONG_FLAG))
    for r, col in np.argwhere(num & (c > neighbour_count(unknown))):
        problems.append(f"{r},{col}: {c[r, col]} exceeds its unrevealed neighbours")
    if board.state == GameState.LOST and not all_mines_shown:
        if (c == Cell.EXPLODED).sum() != 1 or np.isin(c, (Cell.MINE, Cell.WRONG_FLAG)).any():
            problems.append("a lost game that shows only the mine hit shows other mines")
    elif board.state == GameState.LOST:
        sure = neighbour_count(np.isin(c, (Cell.MINE, Cell.EXPLODED, Cell.FLAG)))
        maybe = neighbour_count(c == Cell.QUESTION)
        for r, col in np.argwhere(num & ((c < sure) | (c > sure + maybe))):
            problems.append(f"{r},{col}: {c[r, col]} but {sure[r, col]} mines shown around "
                            f"(+{maybe[r, col]} '?')")
        if (c == Cell.EXPLODED).sum() != 1:
            problems.append(f"a lost game shows {(c == Cell.EXPLODED).sum()} exploded mines")
        if mines is not None:
            shown = int(np.isin(c, (Cell.MINE, Cell.EXPLODED, Cell.FLAG)).sum())
            q = int((c == Cell.QUESTION).sum())
            if not shown <= mines <= shown + q:
                problems.append(f"{shown} mines shown (+{q} '?') but the game has {mines}")
    if board.state == GameState.WON:
        if np.isin(c, (Cell.COVERED, Cell.QUESTION, Cell.MINE, Cell.EXPLODED, Cell.WRONG_FLAG)).any():
            problems.append("a won game still shows covered/?/mine cells")
        flags = c == Cell.FLAG
        if mines is not None and int(flags.sum()) != mines:
            problems.append(f"{int(flags.sum())} flags on a won game with {mines} mines")
        for r, col in np.argwhere(num & (c != neighbour_count(flags))):
            problems.append(f"{r},{col}: {c[r, col]} but {neighbour_count(flags)[r, col]} flags around")
    if board.state in (GameState.PLAYING, None):
        if np.isin(c, (Cell.MINE, Cell.EXPLODED, Cell.WRONG_FLAG)).any():
            problems.append("mines shown on a board that is still being played")
    return problems


# -- the checker itself must be able to fail ----------------------------------------------

def test_checker_accepts_a_consistent_lost_board():
    b = Board.parse('{"state": "lost"}\n1X1\n111\n000\n')
    assert logic_problems(b, 1) == []


def test_checker_rejects_wrong_numbers_and_counts():
    assert logic_problems(Board.parse('{"state": "lost"}\n2X1\n111\n000\n'), 1)
    assert logic_problems(Board.parse('{"state": "lost"}\n1X1\n111\n000\n'), 2)
    assert logic_problems(Board.parse('{"state": "playing"}\n0-\n--\n'))          # 0 next to covered
    assert logic_problems(Board.parse('{"state": "won"}\n1F\n1-\n'), 1)            # covered on a win
    assert logic_problems(Board.parse('{"state": "playing"}\n1*\n11\n'))           # mine while playing
    assert logic_problems(Board.parse('{"state": "lost"}\n1?\n1X\n'), 1) == []     # "?" may hide a mine
