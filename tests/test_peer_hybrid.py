"""benchmarks/peer_oracle.py and peer_hybrid.py: the position sent to the peer, the answer read
back, the category split and its figures, and (only where node and the peer are on this machine)
the oracle replaying the peer's own recorded games and a tiny hybrid run. minebot's tests never
depend on the peer."""

from __future__ import annotations

import json
import math
import shutil
import sys
from pathlib import Path

import pytest

from minebot.board import Board

BENCH = Path(__file__).resolve().parents[1] / "benchmarks"
PEER = BENCH.parents[1] / "shared" / "peers" / "jsminesweeper"
needs_peer = pytest.mark.skipif(shutil.which("node") is None or not (PEER / "run_js.js").is_file(),
                                reason="needs node and the peer in ../shared/peers/jsminesweeper")


@pytest.fixture(scope="module")
def tools():
    """The two benchmark modules, imported as the scripts import each other (benchmarks/ on the path)."""
    sys.path.insert(0, str(BENCH))
    import peer_hybrid
    import peer_oracle
    yield peer_oracle, peer_hybrid
    sys.path.remove(str(BENCH))


def test_position_has_every_revealed_number_and_no_flag(tools):
    oracle, _ = tools
    board = Board.parse("012-\n1F2-\n?---\n")
    pos = oracle.encode_position(board, 3, "g1")
    assert pos == {"game": "g1", "rows": 3, "cols": 4, "mines": 3,
                   "revealed": [[0, 0, 0], [0, 1, 1], [0, 2, 2], [1, 0, 1], [1, 2, 2]]}
    json.dumps(pos)                                   # plain JSON types, not numpy ones


def test_answers_are_decoded_and_errors_raise(tools):
    oracle, _ = tools
    choice = oracle.decode_answer('{"cell": [2, 5], "safety": 0.75, "kind": "tiebreak", "message": "m",'
                                  ' "actions": [[2, 5, 0.75]], "ms": 3.5}')
    assert choice.cell == (2, 5) and choice.safety == 0.75 and choice.kind == "tiebreak"
    assert choice.actions == ((2, 5, 0.75),)
    with pytest.raises(oracle.PeerOracleError, match="bad revealed cell"):
        oracle.decode_answer('{"error": "bad revealed cell [9, 9, 9]"}')
    with pytest.raises(oracle.PeerOracleError, match="not an answer"):
        oracle.decode_answer("Traceback (most recent call last):")


def test_phases_split_at_300_unknown_cells_and_200_layouts(tools):
    _, hy = tools
    assert hy.phase_of(301, 10 ** 40, "lookahead") == "opening"
    assert hy.phase_of(300, 10 ** 40, "lookahead") == "middle"
    assert hy.phase_of(150, 201, "lookahead") == "middle"
    assert hy.phase_of(150, 200, "lookahead") == "endgame"
    assert hy.phase_of(150, 10 ** 6, "endgame") == "endgame"


def test_categories_of_a_guess(tools):
    _, hy = tools
    assert hy.categories(350, 10 ** 50, "lookahead", "tiebreak", False, False) == \
        ["all", "opening", "mb:lookahead", "peer:tiebreak"]
    assert hy.categories(100, 50, "endgame", "bfda", False, True) == \
        ["all", "endgame", "offedge", "offedge-peer", "mb:endgame", "peer:bfda"]
    assert "offedge-both" in hy.categories(100, 10 ** 9, "lookahead", "tiebreak", True, True)
    assert hy.check_category("middle+peer:tiebreak") == "middle+peer:tiebreak"
    assert hy.check_category("peer:5050-ltr") == "peer:5050-ltr"
    with pytest.raises(hy.BadInputError, match="unknown category"):
        hy.check_category("late")


def test_every_kind_of_minebot_guess_is_a_category(tools):
    """Real games of the real solver: the kinds its guesses carry, each one a category the hybrid
    runner accepts as ``mb:KIND``."""
    _, hy = tools
    from minebot.game.engine import EngineGame
    from minebot.loop import play_game
    from minebot.solver import GuessKind, Solver
    kinds = []

    class Recording(Solver):
        def guess(self, result):
            choice = super().guess(result)
            kinds.append(choice.kind)
            return choice

    solver = Recording()
    for seed in range(12):
        play_game(EngineGame(9, 9, 15, rules="safe", seed=seed, first_click=(0, 0)), solver)
    assert {GuessKind.LOOKAHEAD, GuessKind.ENDGAME} <= set(kinds)
    for kind in GuessKind:
        assert hy.check_category(f"mb:{kind.value}") == f"mb:{kind.value}"


def _guess(cats, minebot, peer, ms=0.8, ps=0.7):
    return {"categories": cats, "minebot_cell": minebot, "peer_cell": peer, "minebot_safety": ms, "peer_safety": ps}


def test_only_games_with_a_different_guess_in_the_category_are_replayed(tools):
    _, hy = tools
    row = {"won": True, "guesses": [_guess(["all", "opening"], [1, 1], [1, 1]),
                                    _guess(["all", "middle"], [2, 2], [3, 3])]}
    assert hy.to_replay(row, "all") and hy.to_replay(row, "middle")
    assert not hy.to_replay(row, "opening") and not hy.to_replay(row, "endgame")
    assert hy.to_replay(row, "all+middle") and not hy.to_replay(row, "middle+opening")


def test_offedge_sides_are_refused_on_guesses_logged_without_them(tools, tmp_path):
    _, hy = tools
    old = {1: {"won": True, "guesses": [_guess(["all", "opening", "offedge"], [1, 1], [3, 3])]}}
    new = {1: {"won": True, "guesses": [_guess(["all", "opening", "offedge", "offedge-peer"], [1, 1], [3, 3])]}}
    hy.check_logged(old, "offedge", tmp_path)                       # the plain category is there
    hy.check_logged(new, "offedge-peer+opening", tmp_path)
    with pytest.raises(hy.BadInputError, match="logged before"):
        hy.check_logged(old, "opening+offedge-peer", tmp_path)


def test_category_figures_pair_hybrid_with_default_and_peer(tools):
    _, hy = tools
    differ = [_guess(["all", "middle"], [2, 2], [3, 3], 0.8, 0.75)]
    same = [_guess(["all", "middle"], [2, 2], [2, 2])]
    default = {1: {"i": 1, "won": True, "guesses": differ}, 2: {"i": 2, "won": False, "guesses": differ},
               3: {"i": 3, "won": False, "guesses": same}, 4: {"i": 4, "won": True, "guesses": []}}
    hybrid = {1: {"i": 1, "won": False}, 2: {"i": 2, "won": True}}     # 2 replayed: one lost, one won
    f = hy.category_figures("middle", [(default, hybrid, "1010")])
    assert (f["games"], f["default_only"], f["hybrid_only"]) == (4, 1, 1)
    assert f["vs_default"] == 0 and f["vs_default_se"] == pytest.approx(math.sqrt(2) / 4)
    # the peer won games 1 and 3; the hybrid won 2 and 4
    assert (f["peer_only"], f["hybrid_only_vs_peer"]) == (2, 2)
    assert (f["guesses"], f["differ"]) == (3, 2) and f["mean_safety_change"] == pytest.approx(-0.05)
    partial = hy.category_figures("middle", [(default, {1: {"i": 1, "won": False}}, "1010")])
    assert partial["games"] == 3 and partial["not_yet_replayed"] == 1 and partial["differ"] == 2
    assert "| middle | 4 | +0.00 (35.36) | 1 / 1 |" in hy.table([f])


@needs_peer
def test_the_oracle_answers_a_certain_cell_and_a_new_game(tools):
    oracle, _ = tools
    # A 1 in the corner with one covered neighbour left: that neighbour is the mine, the rest open.
    with oracle.PeerOracle(PEER, oracle.Clock.FROZEN) as peer:
        board = Board.parse("01--\n12--\n----\n----\n")
        answer = peer.ask(board, 2, "a")
        assert answer.kind == "certain" and answer.safety == 1
        assert answer.cell not in {(0, 0), (0, 1), (1, 0), (1, 1)}
        again = peer.ask(Board.parse("--\n--\n"), 1, "b")       # another game, another size
        assert again.cell is not None and 0 < again.safety < 1
    peer.close()                                                # idempotent


@needs_peer
def test_the_oracle_replays_the_peers_recorded_games(tools, tmp_path):
    oracle, _ = tools
    found = oracle.validate("expert-safe", 101, 6, PEER, oracle.Clock.REAL, tmp_path)
    assert found["games"] == 6 and found["differ"] == [] and found["oracle_wins"] == found["recorded_wins"]
    assert sum(found["guess_kinds"].values()) > 6


@needs_peer
def test_a_hybrid_run_replays_only_what_can_differ(tools, tmp_path):
    _, hy = tools
    args = ["--setting", "16x16-zero", "--seeds", "101", "--games", "8", "--categories", "all,opening,middle+all",
            "--out", str(tmp_path / "short")]
    assert hy.main(args) == 0
    short = json.loads((tmp_path / "short" / "record-16x16-zero.json").read_text())["figures"]
    assert hy.main([*args[:-1], str(tmp_path / "full"), "--replay-all"]) == 0
    full = json.loads((tmp_path / "full" / "record-16x16-zero.json").read_text())["figures"]
    assert short == full and short[0]["games"] == 8
    # "opening" (> 300 unknown cells) never happens on 16x16: nothing replayed, the default's results
    assert short[1]["guesses"] == 0 and short[1]["vs_default"] == 0
    rows = hy.read_rows(tmp_path / "short" / "16x16-zero-seed101-n1000" / "default.jsonl")
    assert len(rows) == 8 and all(g["played"] == "minebot" for r in rows.values() for g in r["guesses"])
    for name in ("hybrid-all.jsonl", "hybrid-middle+all.jsonl"):     # a replayed game follows the peer somewhere
        replayed = hy.read_rows(tmp_path / "short" / "16x16-zero-seed101-n1000" / name)
        assert replayed and all(any(g["played"] == "peer" for g in r["guesses"]) for r in replayed.values())
