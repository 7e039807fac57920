"""benchmarks/peer_compare.py: the paired statistics, the missing-peer message, and (only where
node and the peer are on this machine) a tiny real comparison. Nothing here needs the peer
unless it is there: minebot's tests never depend on it."""

from __future__ import annotations

import importlib.util
import json
import math
import shutil
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "benchmarks"


@pytest.fixture(scope="module")
def pc():
    spec = importlib.util.spec_from_file_location("peer_compare", BENCH / "peer_compare.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["peer_compare"] = module          # its dataclass looks its module up there
    spec.loader.exec_module(module)
    yield module
    sys.modules.pop("peer_compare", None)


def _games(peer: list[bool], minebot: list[bool]) -> list[tuple[int, bool, bool]]:
    return [(i, p, m) for i, (p, m) in enumerate(zip(peer, minebot), start=1)]


def test_known_discordant_counts_give_known_difference_and_se(pc):
    # 100 games: 50 both won, 30 both lost, 8 only the peer won, 12 only minebot won.
    peer = [True] * 50 + [False] * 30 + [True] * 8 + [False] * 12
    minebot = [True] * 50 + [False] * 30 + [False] * 8 + [True] * 12
    f = pc.figures(_games(peer, minebot))
    assert (f["games"], f["peer_wins"], f["minebot_wins"]) == (100, 58, 62)
    assert (f["peer_only"], f["minebot_only"]) == (8, 12)
    assert f["difference"] == pytest.approx(0.04)              # (12 - 8) / 100, minebot - peer
    assert f["stderr"] == pytest.approx(math.sqrt(20) / 100)
    lo, hi = f["peer_ci95"]
    assert lo < 0.58 < hi and hi - lo == pytest.approx(0.19, abs=0.01)


def test_identical_outcomes_differ_by_zero_with_zero_se(pc):
    same = [True, False, True, True, False] * 20
    f = pc.figures(_games(same, same))
    assert f["peer_only"] == f["minebot_only"] == 0
    assert f["difference"] == 0 and f["stderr"] == 0
    assert f["peer_ci95"] == f["minebot_ci95"]


def test_pairing_uses_only_games_both_sides_finished(pc):
    peer = [{"i": 1, "status": "won"}, {"i": 2, "status": "lost"}, {"i": 3, "status": "won"}]
    minebot = [{"i": 1, "won": False}, {"i": 2, "won": True}]          # interrupted after game 2
    assert pc.pair(peer, minebot) == [(1, True, False), (2, False, True)]


def test_a_line_cut_short_is_dropped_on_resume(pc, tmp_path):
    path = tmp_path / "minebot.jsonl"
    path.write_text('{"i": 1, "won": true}\n{"i": 2, "won": fa', encoding="utf-8")
    assert pc.read_jsonl(path) == [{"i": 1, "won": True}]


def test_table_shows_rates_discordance_and_difference(pc):
    row = {"setting": "9x9-zero", **pc.figures(_games([True, True, False, False], [True, False, True, True])),
           "peer_ms_per_game": 3.0, "minebot_ms_per_game": 4.0}
    text = pc.table([row])
    assert "| 9x9-zero | 4 | 2 | 50.00 (" in text and "| 1 / 2 | +25.00 (43.30) | 3 / 4 |" in text


def test_missing_peer_says_where_to_get_it_and_exits_2(pc, tmp_path, capsys):
    assert pc.main(["--peer", str(tmp_path / "nowhere"), "--games", "1", "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "JSMinesweeper" in err and "--peer" in err
    assert not (tmp_path / "o").exists()


def test_missing_node_is_named_and_exits_2(pc, tmp_path, capsys, monkeypatch):
    peer = tmp_path / "peer"
    (peer / "src" / "Minesweeper").mkdir(parents=True)
    (peer / "run_js.js").write_text("// driver\n")
    monkeypatch.setattr(pc.shutil, "which", lambda name: None)
    assert pc.main(["--peer", str(peer), "--games", "1", "--out", str(tmp_path / "o")]) == 2
    assert "node not found" in capsys.readouterr().err


def test_bad_settings_and_counts_exit_2(pc, tmp_path, capsys):
    assert pc.main(["--settings", "expert-zero,huge", "--out", str(tmp_path)]) == 2
    assert "choose from" in capsys.readouterr().err
    assert pc.main(["--games", "0", "--out", str(tmp_path)]) == 2


def test_peer_commit_is_read_from_its_readme(pc, tmp_path):
    (tmp_path / "README.md").write_text("scripts of X (MIT; commit d8ff392) unchanged\n")
    assert pc.peer_commit(tmp_path) == "d8ff392"
    assert pc.peer_commit(tmp_path / "absent") == "unknown"


@pytest.mark.skipif(shutil.which("node") is None or not (BENCH.parents[1] / "shared" / "peers" / "jsminesweeper"
                                                            / "run_js.js").is_file(),
                    reason="needs node and the peer in ../shared/peers/jsminesweeper")
def test_tiny_real_comparison_pairs_every_game_and_resumes(pc, tmp_path, capsys):
    args = ["--settings", "9x9-zero", "--games", "5", "--seed", "3", "--out", str(tmp_path),
            "--cache", str(tmp_path / "cache")]
    assert pc.main(args) == 0
    record = json.loads((tmp_path / "record.json").read_text())
    assert record["settings"][0]["games"] == 5 and len(record["minebot_commit"]) >= 40
    assert record["peer_commit"] != "unknown" and "--games 5" in record["command"]
    played = (tmp_path / "9x9-zero-seed3-n5" / "minebot.jsonl").read_text()
    assert pc.main(args) == 0                                   # a rerun plays nothing again
    assert (tmp_path / "9x9-zero-seed3-n5" / "minebot.jsonl").read_text() == played
    assert "| 9x9-zero | 5 |" in capsys.readouterr().out


def _chunk(folder: Path, peer: list[bool], minebot: list[bool], name: str = "minebot.jsonl") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "peer.jsonl").write_text("".join(
        json.dumps({"i": i, "status": "won" if w else "lost", "ms": 10.0}) + "\n"
        for i, w in enumerate(peer, start=1)))
    (folder / name).write_text("".join(
        json.dumps({"i": i, "won": w, "ms": 20.0}) + "\n" for i, w in enumerate(minebot, start=1)))
    return folder


def test_chunks_are_pooled_game_by_game(pc, tmp_path):
    # Chunk 1: peer only 1, minebot only 2; chunk 2 (minebot cut short after 2 games): minebot only 1.
    a = _chunk(tmp_path / "a", [True, False, False, True], [False, True, True, True])
    b = _chunk(tmp_path / "b", [False, True, True], [True, True])
    f = pc.setting_figures("expert-zero", [a, b])
    assert (f["games"], f["peer_only"], f["minebot_only"]) == (6, 1, 3)
    assert (f["peer_wins"], f["minebot_wins"]) == (3, 5)
    assert f["difference"] == pytest.approx(2 / 6) and f["stderr"] == pytest.approx(2 / 6)


def test_a_variant_is_paired_with_the_same_peer_results(pc, tmp_path):
    folder = _chunk(tmp_path / "c", [True, False, True], [True, False, True])
    _chunk(folder, [True, False, True], [False, True, True], name=pc.minebot_file("wide"))
    assert pc.minebot_file("") == "minebot.jsonl"
    assert pc.setting_figures("9x9-zero", [folder])["difference"] == 0
    f = pc.setting_figures("9x9-zero", [folder], "wide")
    assert (f["peer_only"], f["minebot_only"]) == (1, 1)


def test_a_variant_needs_a_label_and_valid_options(pc, tmp_path, capsys):
    assert pc.main(["--solver", '{"margin": 0.1}', "--cached-peer", "--out", str(tmp_path)]) == 2
    assert "--label" in capsys.readouterr().err
    assert pc.main(["--solver", '{"no_such_option": 1}', "--label", "x", "--cached-peer",
                    "--out", str(tmp_path)]) == 2
    assert "no_such_option" in capsys.readouterr().err


def test_cached_peer_uses_only_finished_chunks_and_never_runs_it(pc, tmp_path, capsys):
    done = _chunk(tmp_path / "9x9-zero-seed4-n3", [True, True, False], [True, False, False])
    board = json.dumps({"cols": 9, "rows": 9, "mines": [[8, c] for c in range(9)] + [[7, 8]], "first": [2, 2]})
    (done / "boards.jsonl").write_text((board + "\n") * 3)     # minebot has played all three already
    (done / "peer_summary.json").write_text("{}\n")
    (tmp_path / "9x9-zero-seed5-n3").mkdir()            # the peer never finished this one
    assert pc.main(["--settings", "9x9-zero", "--games", "3", "--seed", "4", "--chunks", "2", "--cached-peer",
                    "--peer", str(tmp_path / "nowhere"), "--out", str(tmp_path), "--cache", str(tmp_path / "c")]) == 0
    record = json.loads((tmp_path / "record.json").read_text())
    assert record["settings"][0]["games"] == 3 and record["settings"][0]["peer_only"] == 1
    assert record["settings"][0]["folders"] == [str(done)]


def test_a_variant_is_also_compared_with_the_default_game_by_game(pc, tmp_path):
    folder = _chunk(tmp_path / "d", [True, True, False, False], [True, False, False, True])
    _chunk(folder, [True, True, False, False], [False, True, True, True], name=pc.minebot_file("v"))
    v = pc.setting_figures("8x8-zero", [folder], "v")["vs_default"]
    assert (v["games"], v["default_only"], v["variant_only"]) == (4, 1, 2)
    assert v["difference"] == pytest.approx(0.25) and v["stderr"] == pytest.approx(math.sqrt(3) / 4)
    assert "variant - default +25.00 pp" in pc.variant_lines([{"setting": "8x8-zero", "vs_default": v}])


def test_a_variant_without_the_defaults_games_says_so_instead_of_a_tie(pc, tmp_path):
    folder = _chunk(tmp_path / "d", [True, False], [True, True], name=pc.minebot_file("v"))
    row = {"setting": "8x8-zero", **pc.setting_figures("8x8-zero", [folder], "v")}
    assert row["vs_default"]["games"] == 0
    line = pc.variant_lines([row])
    assert "not known" in line and "pp" not in line


@pytest.mark.skipif(shutil.which("node") is None or not (BENCH.parents[1] / "shared" / "peers" / "jsminesweeper"
                                                            / "run_js.js").is_file(),
                    reason="needs node and the peer in ../shared/peers/jsminesweeper")
def test_chunks_played_by_two_peer_processes_pool_into_one_setting(pc, tmp_path):
    args = ["--settings", "9x9-zero", "--games", "3", "--seed", "7", "--chunks", "2", "--peer-jobs", "2",
            "--out", str(tmp_path), "--cache", str(tmp_path / "cache")]
    assert pc.main(args) == 0
    row = json.loads((tmp_path / "record.json").read_text())["settings"][0]
    assert row["games"] == 6 and len(row["folders"]) == 2
    for seed in (7, 8):
        folder = tmp_path / f"9x9-zero-seed{seed}-n3"
        assert json.loads((folder / "peer_summary.json").read_text())["played"] == 3
        assert len(pc.read_jsonl(folder / "minebot.jsonl")) == 3
    # the peer's results alone are enough for a variant: it never runs the peer again
    before = (tmp_path / "9x9-zero-seed7-n3" / "peer.jsonl").stat().st_mtime_ns
    assert pc.main([*args, "--cached-peer", "--solver", '{"margin": 0.1}', "--label", "wide"]) == 0
    assert (tmp_path / "9x9-zero-seed7-n3" / "peer.jsonl").stat().st_mtime_ns == before
    assert json.loads((tmp_path / "record-wide.json").read_text())["settings"][0]["vs_default"]["games"] == 6
    # every run's record is kept, in order: the default's first, then the variant's
    history = [json.loads(line) for line in (tmp_path / "records.jsonl").read_text().splitlines()]
    assert [r["label"] for r in history][-2:] == ["", "wide"]


@pytest.mark.skipif(shutil.which("node") is None or not (BENCH.parents[1] / "shared" / "peers" / "jsminesweeper"
                                                            / "run_js.js").is_file(),
                    reason="needs node and the peer in ../shared/peers/jsminesweeper")
def test_kept_peer_results_rebuild_the_same_chunk_without_the_peer_playing(pc, tmp_path):
    """A chunk the peer played is kept in the cache (a few bytes per game); in a fresh folder
    the chunk comes back from it: the same boards (rebuilt by peer_boards.js from the peer's
    generator), the same per-game results, and minebot's figures the same."""
    first = tmp_path / "first"
    args = ["--settings", "8x8-zero", "--games", "4", "--seed", "11", "--cache", str(tmp_path / "cache")]
    assert pc.main([*args, "--out", str(first)]) == 0
    kept = json.loads((tmp_path / "cache" / "8x8-zero-seed11-n4.json").read_text())
    assert len(kept["won"]) == 4 and kept["seed"] == 11
    again = tmp_path / "again"
    assert pc.main([*args, "--out", str(again), "--peer-only"]) == 0
    chunk = "8x8-zero-seed11-n4"
    assert not (again / chunk / "peer_stdout.txt").exists()           # the peer did not play
    assert (again / chunk / "boards.jsonl").read_text() == (first / chunk / "boards.jsonl").read_text()
    status = [row["status"] for row in pc.read_jsonl(first / chunk / "peer.jsonl")]
    assert [row["status"] for row in pc.read_jsonl(again / chunk / "peer.jsonl")] == status
