"""``minebot bench``: the statistics and the JSON summary of a short real run."""

from __future__ import annotations

import json

import pytest

from minebot.cli import main
from minebot.cli.bench import summarise
from minebot.stats import wilson


def test_wilson_interval_known_values():
    lo, hi = wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4) and hi == pytest.approx(0.5962, abs=1e-4)
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.2775, abs=1e-4)
    lo, hi = wilson(10, 10)
    assert hi == pytest.approx(1.0) and lo == pytest.approx(0.7225, abs=1e-4)


def test_summary_percentiles():
    s = summarise([(True, 10.0, [1.0, 2.0]), (False, 30.0, [3.0]), (True, 20.0, [])])
    assert s["games"] == 3 and s["wins"] == 2 and s["win_rate"] == pytest.approx(2 / 3)
    assert s["ms_per_game_mean"] == pytest.approx(20.0) and s["ms_per_game_median"] == 20.0
    assert s["ms_per_move_p50"] == 2.0


def test_short_run_json(capsys):
    assert main(["bench", "--size", "8x8", "--mines", "10", "--first", "2,2", "--games", "6",
                 "--seed", "5", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"games", "wins", "win_rate", "ci95", "ms_per_game_mean", "ms_per_game_median",
                        "ms_per_move_p50", "ms_per_move_p99", "cpu_ms_per_game_mean"}
    assert out["games"] == 6 and 0 <= out["wins"] <= 6
    assert out["ci95"][0] <= out["win_rate"] <= out["ci95"][1]
    # Same seed, same games, same result.
    assert main(["bench", "--size", "8x8", "--mines", "10", "--first", "2,2", "--games", "6",
                 "--seed", "5", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["wins"] == out["wins"]


def test_no_guess_boards_are_all_won(capsys, tmp_path):
    boards = tmp_path / "ng.jsonl"
    assert main(["bench", "--size", "9x9", "--mines", "10", "--rules", "safe", "--games", "8",
                 "--no-guess", "--save-boards", str(boards), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["wins"] == out["games"] == 8
    assert main(["bench", "--size", "9x9", "--mines", "10", "--rules", "safe", "--boards", str(boards),
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["wins"] == 8


def test_sgt_mines_deals_only_no_guess_boards_and_they_are_all_won(capsys, tmp_path):
    """``bench --game sgt-mines`` plays by Simon Tatham's Mines' rules: zero-rule boards that
    logic solves from the first opening, every one won. The boards it saved are no-guess ones
    (each solved by certain moves alone), and the same size by the plain zero rule is not
    always won: the game's rules, not the size, make the 100 %."""
    from minebot.game.layouts import load_layouts
    from minebot.solver.noguess import solvable_without_guessing
    boards = tmp_path / "sgt.jsonl"
    assert main(["bench", "--game", "sgt-mines", "--size", "30x16", "--mines", "99", "--games", "12",
                 "--seed", "4", "--save-boards", str(boards), "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["wins"] == out["games"] == 12
    layouts = load_layouts(boards)
    assert len(layouts) == 12
    assert all(solvable_without_guessing(lay, "zero", lay.first) for lay in layouts)
    assert main(["bench", "--game", "kmines", "--size", "30x16", "--mines", "99", "--games", "12",
                 "--seed", "4", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["wins"] < 12


def test_help_works(capsys):
    with pytest.raises(SystemExit) as info:
        main(["bench", "--help"])
    assert info.value.code == 0
    assert "--no-guess" in capsys.readouterr().out


def test_bad_options_exit_2(capsys):
    assert main(["bench", "--size", "8x8", "--first", "9,9", "--games", "1"]) == 2
    assert "outside" in capsys.readouterr().err


def test_bad_solver_options_are_named_and_exit_2(capsys):
    for text, word in (('{"no_such": 1}', "no_such"), ("[1]", "JSON object"), ("{oops", "--solver"),
                       ('{"step_budget": 0}', "step_budget"), ('{"encoding": "native"}', "--encoding")):
        assert main(["bench", "--size", "8x8", "--mines", "10", "--games", "1", "--solver", text]) == 2
        err = capsys.readouterr().err.strip()
        assert len(err.splitlines()) == 1 and word in err


def test_solver_options_reach_the_solver_that_plays():
    """The game of a task is played by a Solver built from ``--solver``: after playing one, the
    solver the worker used has the requested budget (and the default one the default)."""
    import argparse

    from minebot.cli import bench
    from minebot.solver import DEFAULT_GUESSING
    args = argparse.Namespace(size="9x9", mines=10, rules="zero", first=None, games=1, seed=5, jobs=1, boards=None,
                              no_guess=False, save_boards=None, encoding="native", solver=None)
    for solver, budget in (('{"step_budget": 7, "margin": 0.2}', 7), (None, DEFAULT_GUESSING["step_budget"])):
        (task,) = bench._tasks(argparse.Namespace(**{**vars(args), "solver": solver}))
        bench.play_task(task)
        assert bench._SOLVERS[task[-1]].guesser.step_budget == budget


def test_a_preset_name_reaches_the_solver_that_plays():
    """``--solver strong`` plays with the preset's settings (every preset builds a Solver), and a
    name that is no preset and no JSON is one line naming it, exit 2."""
    import argparse

    from minebot.cli import bench
    from minebot.solver import PRESETS, Solver
    for options in PRESETS.values():
        Solver(**options)
    args = argparse.Namespace(size="9x9", mines=10, rules="zero", first=None, games=1, seed=5, jobs=1, boards=None,
                              no_guess=False, save_boards=None, encoding="native", solver="strong")
    (task,) = bench._tasks(args)
    bench.play_task(task)
    guesser = bench._SOLVERS[task[-1]].guesser
    assert (guesser.candidates, guesser.edge_background, guesser.endgame_layouts) == (
        PRESETS["strong"]["candidates"], PRESETS["strong"]["edge_background"], PRESETS["strong"]["endgame_layouts"])
    assert main(["bench", "--size", "8x8", "--mines", "10", "--games", "1", "--solver", "strongest"]) == 2


def _ab_main():
    import importlib.util
    from pathlib import Path
    path = Path(__file__).resolve().parents[1] / "benchmarks" / "ab_solver.py"
    spec = importlib.util.spec_from_file_location("ab_solver", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.main


def test_ab_same_configuration_has_no_discordant_games(capsys):
    """The A/B script pairs games by seed: one configuration against itself must agree on
    every game, and its win rate must be the one ``minebot bench`` reports for those seeds."""
    ab = _ab_main()
    assert ab(["--size", "8x8", "--mines", "10", "--games", "12", "--seed", "3", "--json",
                 "--a", "{}", "--b", "{}"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["games"] == 12 and figures["a_only"] == figures["b_only"] == 0
    assert figures["a_win_rate"] == figures["b_win_rate"]
    assert main(["bench", "--size", "8x8", "--mines", "10", "--games", "12", "--seed", "3",
                     "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["win_rate"] == figures["a_win_rate"]


def test_ab_different_configurations_differ_somewhere(capsys):
    ab = _ab_main()
    assert ab(["--size", "8x8", "--mines", "12", "--games", "60", "--seed", "7", "--json",
                 "--a", '{"lookahead": false}', "--b", "{}"]) == 0
    figures = json.loads(capsys.readouterr().out)
    assert figures["a_only"] + figures["b_only"] > 0
    assert abs(figures["difference"] - (figures["b_win_rate"] - figures["a_win_rate"])) < 1e-12


def test_ab_bad_options_are_named(capsys):
    ab = _ab_main()
    with pytest.raises(SystemExit) as err:
        ab(["--a", '{"no_such_option": 1}', "--games", "1"])
    assert "--a" in str(err.value) and "no_such_option" in str(err.value)


def test_game_rules_come_from_the_game_and_flagging_to_win_changes_no_outcome():
    """``bench --game xdemineur`` plays preopened boards that are won only once every mine is
    flagged; the solver flags the last mines itself, so every seed ends as it does without."""
    from minebot.cli.bench import GameRules, game_rules, play_task, solver_spec
    assert game_rules("xdemineur") == GameRules("preopened", True)
    assert game_rules("kmines") == GameRules("zero", False)
    assert game_rules("sgt-mines") == GameRules("zero", False, no_guess=True)
    for seed in range(15):
        task = (9, 12, 14, "preopened", None, seed, None, solver_spec())
        assert play_task(task + (True,))[0] == play_task(task)[0]
