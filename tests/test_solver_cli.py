"""``minebot solve``: output agrees with the analysis; bad boards give clear errors and exit codes."""

from __future__ import annotations

import json

from minebot.board import Board
from minebot.cli import main
from minebot.solver import Solver

BOARD = '{"mines": 3}\n1---\n1---\n11--\n----\n'


def test_json_output_matches_the_analysis(tmp_path, capsys):
    path = tmp_path / "b.txt"
    path.write_text(BOARD)
    assert main(["solve", str(path), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    result = Solver().analyse(Board.parse(BOARD))
    assert out["safe"] == [list(c) for c in result.safe] == [[1, 2], [2, 2], [3, 2]]
    assert out["mines"] == []
    assert out["move"]["action"] == "open" and out["move"]["cell"] in out["safe"]
    assert out["probability"][0][0] is None
    assert out["probability"][3][3] == 0.3
    assert len(out["probability"]) == 4 and all(len(r) == 4 for r in out["probability"])


def test_mines_option_and_text_output(tmp_path, capsys):
    path = tmp_path / "b.txt"
    path.write_text("1---\n1---\n11--\n----\n")
    assert main(["solve", str(path), "--mines", "3"]) == 0
    text = capsys.readouterr().out
    assert "safe (3): 1,2 2,2 3,2" in text and "by the numbers at 2,0 2,1" in text
    assert "move: open" in text


def test_inconsistent_board_exits_3_naming_the_numbers(tmp_path, capsys):
    path = tmp_path / "bad.txt"
    # The 1 at (0,0) and the 2 at (1,0) cannot both hold with (1,1) open.
    path.write_text("1-\n2-\n10\n")
    code = main(["solve", str(path)])
    err = capsys.readouterr().err
    assert code == 3
    assert "(0, 0)" in err or "(1, 0)" in err or "(2, 0)" in err


def test_malformed_board_file_is_a_clear_error(tmp_path, capsys):
    path = tmp_path / "bad.txt"
    path.write_text("1-\nxyz\n")
    assert main(["solve", str(path)]) == 2
    assert str(path) in capsys.readouterr().err
