"""Record and replay: recordings of real games (fixtures/recordings) replayed without a display.

A replay reads every recorded frame again and lets the same loop and solver choose again;
the recordings were made by the bot on the real GNOME Mines, so zero differences means vision
and strategy still do exactly what they did live. Tampered copies must be caught.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from minebot.errors import BadInputError

ROOT = Path(__file__).resolve().parents[1]
RECORDINGS = sorted((ROOT / "fixtures" / "recordings").glob("*/steps.jsonl"))


def replay(folder: Path):
    from minebot.game.replay import ReplayGame, load_recording, split_games
    from minebot.loop import play_game
    from minebot.solver import Solver
    from minebot.vision import Reader
    out = []
    for recorded in split_games(load_recording(folder)):
        game = ReplayGame(recorded, Reader())
        result = play_game(game, Solver())
        out.append((recorded, game, result))
    return out


def test_there_are_recordings():
    assert len(RECORDINGS) >= 2


@pytest.mark.parametrize("steps", RECORDINGS, ids=lambda p: p.parent.name)
def test_recording_replays_without_differences(steps):
    for recorded, game, result in replay(steps.parent):
        assert game.differences == []
        assert result.final.state == recorded[-1].board.state
        assert result.clicks == sum(len(s.moves or []) for s in recorded)


def _copy(tmp_path: Path) -> Path:
    src = RECORDINGS[0].parent
    dst = tmp_path / src.name
    shutil.copytree(src, dst)
    return dst


def test_changed_move_is_reported(tmp_path):
    folder = _copy(tmp_path)
    lines = (folder / "steps.jsonl").read_text().splitlines()
    i = next(i for i, line in enumerate(lines) if json.loads(line)["type"] == "moves")
    obj = json.loads(lines[i])
    r, c = obj["moves"][0]["cell"]
    obj["moves"][0]["cell"] = [(r + 3) % 8, (c + 5) % 8]
    lines[i] = json.dumps(obj)
    (folder / "steps.jsonl").write_text("\n".join(lines) + "\n")
    diffs = [d for _, game, _ in replay(folder) for d in game.differences]
    assert [d.kind for d in diffs] == ["move"]
    assert diffs[0].frame == obj["frame"]


def test_changed_read_is_reported(tmp_path):
    folder = _copy(tmp_path)
    lines = (folder / "steps.jsonl").read_text().splitlines()
    frames = [json.loads(line) for line in lines if json.loads(line)["type"] == "frame"]
    last = frames[-1]
    row = last["board"][0]
    last["board"][0] = ("1" if row[0] != "1" else "2") + row[1:]
    lines = [json.dumps(last) if json.loads(line).get("i") == last["i"] and
             json.loads(line)["type"] == "frame" else line for line in lines]
    (folder / "steps.jsonl").write_text("\n".join(lines) + "\n")
    diffs = [d for _, game, _ in replay(folder) for d in game.differences]
    assert any(d.kind == "read" and d.frame == last["i"] for d in diffs)


def test_malformed_recording_names_file_and_line(tmp_path):
    from minebot.game.replay import load_recording
    folder = _copy(tmp_path)
    with open(folder / "steps.jsonl", "a") as f:
        f.write("{not json\n")
    with pytest.raises(BadInputError, match=r"steps.jsonl:\d+: bad recording line"):
        load_recording(folder)
    with pytest.raises(BadInputError, match="not a recording"):
        load_recording(tmp_path / "nothing-here")


def test_cli_replay_exit_codes(tmp_path):
    env_cmd = [sys.executable, "-m", "minebot", "replay"]
    ok = subprocess.run(env_cmd + [str(RECORDINGS[0].parent), "--json"], capture_output=True,
                        text=True, cwd=ROOT, timeout=120)
    assert ok.returncode == 0, ok.stderr
    report = json.loads(ok.stdout.strip().splitlines()[-1])
    assert report["differences"] == 0 and report["games"] >= 1
    missing = subprocess.run(env_cmd + [str(tmp_path / "none")], capture_output=True, text=True,
                             cwd=ROOT, timeout=60)
    assert missing.returncode == 2
    assert "not a recording" in missing.stderr and "Traceback" not in missing.stderr


def _cli_replay(folder: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "minebot", "replay", str(folder), "--json"],
                          capture_output=True, text=True, cwd=ROOT, timeout=120)


@pytest.mark.parametrize("damage", ["missing", "truncated", "noise", "frame-after-the-end"])
def test_replay_that_cannot_replay_every_step_fails(tmp_path, damage):
    """A frame the replay cannot read means steps that were never checked: exit 1, not 0."""
    import numpy as np
    folder = _copy(tmp_path)
    lines = (folder / "steps.jsonl").read_text().splitlines()
    frames = [json.loads(line) for line in lines if json.loads(line)["type"] == "frame"]
    victim = folder / frames[len(frames) // 2]["file"]
    if damage == "missing":
        victim.unlink()
    elif damage == "truncated":
        victim.write_bytes(victim.read_bytes()[:200])
    elif damage == "noise":
        import cv2
        noise = np.random.default_rng(1).integers(0, 256, (300, 400, 3), dtype=np.uint8)
        cv2.imwrite(str(victim), noise)
    else:   # the recording goes on after the game ended: that frame is never replayed
        extra = dict(frames[-1], i=frames[-1]["i"] + 1)
        (folder / "steps.jsonl").write_text("\n".join(lines + [json.dumps(extra)]) + "\n")
    done = _cli_replay(folder)
    assert done.returncode == 1, done.stdout + done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["incomplete"] >= 1
    assert "Traceback" not in done.stderr


def test_the_same_recording_replays_the_same_twice():
    """Decisions are reproducible: two replays of one recording choose the same moves."""
    def moves(folder: Path) -> list:
        return [(g.differences, r.clicks, r.guesses, r.final.cells.tolist())
                for _, g, r in replay(folder)]
    for steps in RECORDINGS:
        assert moves(steps.parent) == moves(steps.parent)


def test_a_recording_cut_in_the_middle_of_a_game_still_passes(tmp_path):
    """A live run stopped mid-game leaves a recording that ends in play: every frame in it
    can still be replayed and checked, so that is not a failure."""
    folder = _copy(tmp_path)
    lines = (folder / "steps.jsonl").read_text().splitlines()
    moves = [i for i, line in enumerate(lines) if json.loads(line)["type"] == "moves"]
    cut = moves[-2]      # keep the next frame (still in play), drop its moves and the rest
    (folder / "steps.jsonl").write_text("\n".join(lines[:cut + 2]) + "\n")
    assert json.loads(lines[cut + 1])["state"] == "playing"
    done = _cli_replay(folder)
    assert done.returncode == 0, done.stdout + done.stderr
    report = json.loads(done.stdout.strip().splitlines()[-1])
    assert report["incomplete"] == 0
    assert "ends in the middle of the game" in report["per_game"][-1]["result"]
