"""benchmarks/kept_results.py: minebot's per-game results kept from peer_compare.py's files, and
two kept sides paired game by game (the same statistics as peer_compare.py, checked by hand)."""

from __future__ import annotations

import importlib.util
import json
import math
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "benchmarks"


@pytest.fixture(scope="module")
def kr():
    spec = importlib.util.spec_from_file_location("kept_results", BENCH / "kept_results.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["kept_results"] = module
    spec.loader.exec_module(module)
    yield module
    sys.modules.pop("kept_results", None)


def _played(out: Path, chunk: str, wins: list[bool], label: str = "v") -> None:
    """A chunk folder as peer_compare.py leaves it for one label."""
    folder = out / chunk
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"minebot-{label}.jsonl").write_text("".join(
        json.dumps({"i": i, "won": w, "ms": 5.0}) + "\n" for i, w in enumerate(wins, start=1)))


def _record(out: Path, label: str, folders: list[str], commit: str = "abc", solver: dict | None = None) -> None:
    record = {"label": label, "minebot_commit": commit, "solver": solver or {}, "command": f"run {label}",
              "started": "2026-11-24T00:00:00Z",
              "settings": [{"setting": "expert-zero", "folders": [str(out / f) for f in folders]}]}
    with open(out / "records.jsonl", "a", encoding="utf-8") as history:
        history.write(json.dumps(record) + "\n")


def test_keep_takes_finished_chunks_with_the_runs_that_played_them(kr, tmp_path):
    out, kept = tmp_path / "out", tmp_path / "kept"
    _played(out, "expert-zero-seed1-n3", [True, False, True])
    _played(out, "expert-zero-seed2-n3", [False, True])               # one game short
    _played(out, "expert-zero-seed3-n3", [True, True, False])
    _played(out, "expert-zero-seed3-n3", [False, False, False], label="other")
    _record(out, "v", ["expert-zero-seed1-n3", "expert-zero-seed2-n3"], commit="c1", solver={"margin": 0.1})
    _record(out, "other", ["expert-zero-seed3-n3"])
    path, added, left_out = kr.keep(out, "v", kept)
    assert path == kept / "v.json" and added == ["expert-zero-seed1-n3"]
    assert any("seed2" in x and "2 of 3" in x for x in left_out)
    assert any("seed3" in x and "no run" in x for x in left_out)      # played, but no record of label v
    data = json.loads(path.read_text())
    assert data["chunks"]["expert-zero-seed1-n3"]["won"] == "101"
    run = data["runs"][data["chunks"]["expert-zero-seed1-n3"]["runs"][0]]
    assert run["minebot_commit"] == "c1" and run["solver"] == {"margin": 0.1}
    # a later run of the label finishes seed 3: added, seed 1 still there
    _record(out, "v", ["expert-zero-seed3-n3"], commit="c2")
    _, added, _ = kr.keep(out, "v", kept)
    chunks = json.loads(path.read_text())["chunks"]
    assert added == ["expert-zero-seed1-n3", "expert-zero-seed3-n3"] and chunks["expert-zero-seed3-n3"]["won"] == "110"


def _kept(kept: Path, label: str, chunks: dict[str, str]) -> None:
    kept.mkdir(parents=True, exist_ok=True)
    (kept / f"{label}.json").write_text(json.dumps(
        {"label": label, "runs": [], "chunks": {c: {"won": w, "runs": []} for c, w in chunks.items()}}))


def _peer(peer: Path, chunks: dict[str, str]) -> None:
    peer.mkdir(parents=True, exist_ok=True)
    for chunk, won in chunks.items():
        (peer / f"{chunk}.json").write_text(json.dumps({"won": won, "seed": 0}))


def test_pair_counts_discordant_games_over_common_chunks(kr, tmp_path):
    kept, peer = tmp_path / "kept", tmp_path / "peer"
    # seed 1: A only wins game 1, B only games 3 and 4; seed 2: A only game 2; seed 9 only A has
    _kept(kept, "a", {"expert-zero-seed1-n4": "1100", "expert-zero-seed2-n2": "11", "expert-zero-seed9-n2": "11",
                      "expert-safe-seed1-n2": "00"})
    _peer(peer, {"expert-zero-seed1-n4": "0111", "expert-zero-seed2-n2": "10", "expert-safe-seed1-n2": "11"})
    p = kr.pair("expert-zero", "a", "peer", peer_kept=peer, minebot_kept=kept)
    assert p["chunks"] == ["expert-zero-seed1-n4", "expert-zero-seed2-n2"] and p["games"] == 6
    assert (p["a_wins"], p["b_wins"], p["a_only"], p["b_only"]) == (4, 4, 2, 2)
    assert p["difference"] == 0 and p["stderr"] == pytest.approx(2 / 6)
    only_seed2 = kr.pair("expert-zero", "a", "peer", range(2, 3), peer_kept=peer, minebot_kept=kept)
    assert only_seed2["games"] == 2 and only_seed2["difference"] == pytest.approx(1 / 2)
    swapped = kr.pair("expert-zero", "peer", "a", range(2, 3), peer_kept=peer, minebot_kept=kept)
    assert swapped["difference"] == pytest.approx(-1 / 2) and swapped["stderr"] == pytest.approx(1 / 2)
    same = kr.pair("expert-zero", "a", "a", peer_kept=peer, minebot_kept=kept)
    assert (same["difference"], same["stderr"], same["games"]) == (0, 0, 8)
    text = kr.describe(p)
    assert "6 games, 2 chunks (seeds 1-2)" in text and "a - peer: +0.00 pp (se 33.33)" in text


def test_unknown_label_and_broken_file_exit_2_with_one_line_naming_the_file(kr, tmp_path, capsys):
    kept = tmp_path / "kept"
    _kept(kept, "good", {"expert-zero-seed1-n2": "10"})
    assert kr.main(["pair", "expert-zero", "nosuch", "good", "--kept", str(kept)]) == 2
    err = capsys.readouterr().err
    assert "nosuch" in err and "good" in err and len(err.strip().splitlines()) == 1
    (kept / "bad.json").write_text(json.dumps({"chunks": {"expert-zero-seed1-n3": {"won": "10"}}}))
    assert kr.main(["pair", "expert-zero", "bad", "good", "--kept", str(kept)]) == 2
    assert "bad.json" in capsys.readouterr().err
    assert kr.main(["keep", "--out", str(tmp_path / "none")]) == 2
    assert kr.main(["pair", "expert-zero", "good", "good", "--kept", str(kept), "--seeds", "x"]) == 2
    assert kr.main(["pair", "16x16-zero", "good", "good", "--kept", str(kept)]) == 2
    assert "no kept chunk" in capsys.readouterr().err


def test_every_kept_file_in_the_repository_reads_and_pairs_with_the_peer(kr):
    """The kept results that benchmarks/README.md's figures come from: each file well formed
    (one 0 or 1 per game of every chunk), and each of its settings pairs with the peer's kept
    chunks over at least one chunk in common."""
    files = sorted(kr.MINEBOT_KEPT.glob("*.json"))
    for path in files:
        chunks = kr._load_label(path)["chunks"]
        for setting in {kr.CHUNK.fullmatch(c)["setting"] for c in chunks}:
            p = kr.pair(setting, path.stem, "peer")
            assert p["games"] > 0 and p["stderr"] == pytest.approx(math.sqrt(p["a_only"] + p["b_only"]) / p["games"])
