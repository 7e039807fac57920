"""Faults and bad inputs: each gets a one-line message and a known exit code.

The table "Faults and bad inputs" in docs/architecture.md lists the same cases; every row has a test here
(or names the test elsewhere). Commands run in a subprocess when the case is about signals or
what reaches the terminal, in-process through ``minebot.cli.main`` otherwise.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from minebot.cli import main
from minebot.errors import (
    EXIT_BAD_INPUT,
    EXIT_INCONSISTENT,
    EXIT_INTERRUPTED,
    EXIT_TERMINATED,
    OutputError,
)

ROOT = Path(__file__).resolve().parents[1]


def run_cli(*args: str, timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "minebot", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=timeout)


def one_line_error(err: str, *words: str) -> None:
    """stderr is one line naming the problem, never a traceback."""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in err, err
    for word in words:
        assert word in lines[0], lines[0]


# -- bench ------------------------------------------------------------------------------------
@pytest.mark.parametrize("options, word", [
    (["--mines", "10000"], "--mines 10000"),
    (["--size", "30x16", "--mines", "480"], "--mines 480"),
    (["--size", "1x1", "--mines", "1"], "--mines 1"),
    (["--size", "8x8", "--mines", "63", "--rules", "preopened"], "--mines 63"),
    (["--size", "8x8", "--mines", "60", "--rules", "preopened"], "zero cell"),
    (["--size", "8x8", "--mines", "10", "--jobs", "0"], "--jobs 0"),
    (["--size", "8x8", "--mines", "10", "--jobs", "-3"], "--jobs -3"),
])
def test_bench_bad_options_exit_2_with_one_line(capsys, options, word):
    assert main(["bench", "--games", "1", *options]) == EXIT_BAD_INPUT
    one_line_error(capsys.readouterr().err, word)


def test_bench_stops_on_sigterm_with_a_summary_and_exit_143():
    """SIGTERM ends the run at once, even in the middle of a long move on a huge board, and
    the games finished so far are reported (the JSON line when asked)."""
    proc = subprocess.Popen([sys.executable, "-m", "minebot", "bench", "--size", "150x150",
                             "--mines", "5000", "--games", "50", "--jobs", "1", "--json"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(3)
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == EXIT_TERMINATED, err
    summary = json.loads(out.strip().splitlines()[-1])
    assert summary["games"] >= 0 and "Traceback" not in err


def test_bench_started_in_the_background_stops_on_sigint():
    """A shell's background job (``minebot bench &``) starts with SIGINT ignored; ``kill -INT``
    still stops it with the summary and exit 130, as Ctrl-C would."""
    proc = subprocess.Popen([sys.executable, "-m", "minebot", "bench", "--size", "150x150",
                             "--mines", "5000", "--games", "50", "--jobs", "1", "--json"],
                            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_IGN))
    time.sleep(3)
    proc.send_signal(signal.SIGINT)
    try:
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == EXIT_INTERRUPTED, err
    summary = json.loads(out.strip().splitlines()[-1])
    assert summary["games"] >= 0 and "Traceback" not in err


# -- play and demo: outputs checked before the first click --------------------------------------
def run_without_display(*args: str) -> subprocess.CompletedProcess:
    import os
    env = {k: v for k, v in os.environ.items() if k != "DISPLAY"}
    return subprocess.run([sys.executable, "-m", "minebot", *args], capture_output=True,
                          text=True, cwd=ROOT, timeout=60, env=env)


@pytest.mark.parametrize("args, words", [
    (["play", "--log", "/tmp"], ["--log /tmp", "folder"]),
    (["play", "--log", "/nonexistent/dir/g.jsonl"], ["--log", "does not exist"]),
    (["play", "--click-log", "/tmp"], ["--click-log /tmp"]),
    (["play", "--record", "/proc/nope"], ["--record /proc/nope", "cannot write"]),
    (["play", "--screenshots", "/proc/nope"], ["--screenshots /proc/nope", "cannot write"]),
    (["play", "--record", "/etc/hostname"], ["--record /etc/hostname", "not a folder"]),
    (["demo", "--out", "/proc/nope"], ["--out /proc/nope", "cannot write"]),
    (["demo", "--record", "/proc/nope"], ["--record /proc/nope", "cannot write"]),
])
def test_bad_output_is_refused_before_anything_starts(args, words):
    """Checked before the display, the window or a click: exit 2 and one line, no folders made."""
    done = run_without_display(*args, "--games" if args[0] == "play" else "--beginner", "3")
    assert done.returncode == EXIT_BAD_INPUT, done.stderr
    one_line_error(done.stderr, *words)
    assert not Path("/nonexistent").exists()


class ScreenGame:
    """A real engine game dressed as the live window, as far as ``play_session`` looks: it
    starts new games, saves no frames, and can be told to show a screen nobody can read."""

    rules = "zero"
    first_click = None
    frame = None
    reading = None

    def __init__(self, unreadable: set[int] = frozenset(), seed: int = 1) -> None:
        self.unreadable = set(unreadable)   # numbers of the games whose screen cannot be read
        self.number = 0
        self.seed = seed

    def _new(self):
        from minebot.game.engine import EngineGame
        self.number += 1
        self.engine = EngineGame(8, 8, 10, rules="zero", seed=self.seed + self.number)

    start = new_game = _new

    def observe(self):
        from minebot.errors import UnreadableGameError
        if self.number in self.unreadable:
            raise UnreadableGameError("cell(s) could not be read with confidence (row,col): 0,0")
        return self.engine.observe()

    def act(self, moves):
        return self.engine.act(moves)

    def save_frame(self, what):
        return None


def test_play_gives_up_after_a_few_unreadable_games_in_a_row():
    from minebot.cli.play import MAX_STOPS_IN_A_ROW, Session, play_session
    from minebot.errors import EXIT_NO_GAME, UnreadableGameError
    from minebot.solver import Solver
    session = Session(quiet=True)
    game = ScreenGame(unreadable=set(range(2, 100)))
    with pytest.raises(UnreadableGameError, match="in a row") as info:
        play_session(game, Solver(), 50, session, keep_going=True)
    assert info.value.exit_code == EXIT_NO_GAME
    assert len(session.results) == 1 and len(session.stopped) == MAX_STOPS_IN_A_ROW


def test_a_readable_game_resets_the_count_of_stops():
    from minebot.cli.play import MAX_STOPS_IN_A_ROW, Session, play_session
    from minebot.solver import Solver
    session = Session(quiet=True)
    stops = {n for n in range(1, 4 * MAX_STOPS_IN_A_ROW) if n % MAX_STOPS_IN_A_ROW}
    play_session(ScreenGame(unreadable=stops), Solver(), 4, session, keep_going=True)
    assert len(session.results) == 4


def test_wrong_board_size_and_unmatched_cells_exit_alike():
    """Both mean "could not read the game": one exit code (4)."""
    from minebot.errors import EXIT_NO_GAME, NoGameError
    from minebot.game.read_checks import ScreenMismatchError
    # A live read that fails on unmatched cells ends in NoGameError("could not read the board").
    assert ScreenMismatchError("the board is 9x9, expected 8x8").exit_code == EXIT_NO_GAME
    assert NoGameError("could not read the board").exit_code == EXIT_NO_GAME


def test_a_log_that_fails_mid_run_stops_and_keeps_the_result(tmp_path):
    """/dev/full accepts the open but not the write: the game's line is still printed, the
    run stops with an OutputError that says what is kept."""
    import io

    from minebot.cli.play import Session, play_session
    from minebot.errors import OutputError
    from minebot.solver import Solver
    out = io.StringIO()
    session = Session(log_path=Path("/dev/full"))
    with pytest.raises(OutputError, match=r"/dev/full: cannot write .*kept"):
        play_session(ScreenGame(), Solver(), 3, session, out=out)
    assert out.getvalue().startswith("game 1: ")


def test_a_recording_that_fails_mid_run_says_so(tmp_path):
    import numpy as np

    from minebot.errors import OutputError
    from minebot.game.replay import Recording
    rec = Recording(tmp_path / "rec")
    (tmp_path / "rec" / "frames").rmdir()
    (tmp_path / "rec" / "frames").write_text("not a folder")
    with pytest.raises(OutputError, match="recording frame"):
        rec.add_frame(np.zeros((10, 10, 3), np.uint8), None)
    rec.close()


LIVE = pytest.mark.skipif(
    not (Path("/usr/games/gnome-mines").exists() and __import__("shutil").which("Xvfb")),
    reason="needs xvfb and gnome-mines")


def interrupt_after_first_game(args: list[str], sig: int, env: dict | None = None):
    """Run ``minebot ARGS``, send ``sig`` once the first game is reported; (code, stdout lines,
    stderr)."""
    proc = subprocess.Popen([sys.executable, "-m", "minebot", *args], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines = []
    for line in proc.stdout:
        lines.append(line)
        if line.startswith("game 1:"):
            break
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=60)
    return proc.returncode, lines + out.splitlines(), err


SIGNALS = [(signal.SIGINT, 130), (signal.SIGTERM, 143)]


@pytest.mark.live
@LIVE
@pytest.mark.parametrize("sig, code", SIGNALS)
def test_interrupted_demo_prints_the_summary_and_the_json_line(tmp_path, sig, code):
    """Ctrl-C and SIGTERM both print the summary of the finished games, the JSON line when
    asked, and exit 130 / 143."""
    returncode, lines, err = interrupt_after_first_game(
        ["demo", "--virtual", "--beginner", "200", "--expert", "0", "--json",
         "--out", str(tmp_path / "out")], sig)
    assert returncode == code, err
    summary = json.loads(lines[-1])
    assert summary["games"] >= 1 and "Traceback" not in err
    assert (tmp_path / "out" / "summary.json").exists()


@pytest.mark.live
@LIVE
@pytest.mark.parametrize("sig, code", SIGNALS)
def test_interrupted_play_prints_the_summary_and_the_json_line(tmp_path, sig, code):
    from minebot.sandbox.mines import GnomeMines
    from minebot.sandbox.xvfb import Xvfb
    with Xvfb(1280, 1024) as xvfb, GnomeMines(xvfb, level="beginner"):
        returncode, lines, err = interrupt_after_first_game(
            ["play", "--level", "beginner", "--games", "200", "--json",
             "--log", str(tmp_path / "games.jsonl"), "--screenshots", str(tmp_path / "shots")],
            sig, env=xvfb.env())
    assert returncode == code, err
    summary = json.loads(lines[-1])
    assert summary["games"] >= 1 and "Traceback" not in err
    assert (tmp_path / "games.jsonl").read_text().count("\n") >= 1


# -- boards that break the rules ------------------------------------------------------------------
def swapped_example(tmp_path: Path) -> Path:
    """A real fixture's board with a 2 and the 1 next to it swapped: no layout fits it."""
    src = (ROOT / "fixtures" / "gnome-mines" / "default-8x8-590x460-mid.board").read_text()
    assert "---2101F" in src
    bad = tmp_path / "swapped.board"
    bad.write_text(src.replace("---2101F", "---1201F"))
    return bad


def test_solve_rejects_the_swapped_example(tmp_path, capsys):
    assert main(["solve", str(swapped_example(tmp_path))]) == EXIT_INCONSISTENT


def test_calibrate_does_not_learn_from_a_board_that_breaks_the_rules(tmp_path, capsys):
    image = str(ROOT / "fixtures" / "gnome-mines" / "default-8x8-590x460-mid.png")
    code = main(["calibrate", "wrong", "--out", str(tmp_path / "sets"),
                 "--example", image, str(swapped_example(tmp_path))])
    assert code == EXIT_INCONSISTENT
    one_line_error(capsys.readouterr().err, "swapped.board")
    assert not (tmp_path / "sets" / "wrong").exists()


@pytest.mark.parametrize("text, words", [
    ('{"mines": 7}\n1--\n---\n', ["'mines' is 7", "6 cells"]),
    ("8--\n---\n", [":1:1:", "number 8 at 0,0", "3 neighbours"]),
    ("---\n-8-\n--4\n", [":3:3:", "number 4 at 2,2"]),
])
def test_board_refuses_what_no_game_can_show(tmp_path, capsys, text, words):
    path = tmp_path / "odd.board"
    path.write_text(text)
    assert main(["board", str(path)]) == EXIT_BAD_INPUT
    one_line_error(capsys.readouterr().err, "odd.board", *words)


def test_solve_names_the_contradiction_on_a_board_with_no_covered_cell(tmp_path, capsys):
    path = tmp_path / "full.board"
    path.write_text("2*\n11\n")
    assert main(["solve", str(path)]) == EXIT_INCONSISTENT
    one_line_error(capsys.readouterr().err, "full.board", "the 2 at (0, 0)")
    path.write_text("1*\n11\n")      # consistent, nothing to solve: bad input as before
    assert main(["solve", str(path)]) == EXIT_BAD_INPUT
    assert "no covered cell" in capsys.readouterr().err


def test_solve_prints_huge_counts_instead_of_crashing(tmp_path, capsys):
    """150x150 with 5000 mines: about 10**5173 layouts, more digits than Python will print."""
    path = tmp_path / "huge.board"
    path.write_text('{"mines": 5000}\n' + "\n".join(["-" * 150] * 150) + "\n")
    assert main(["solve", str(path)]) == 0
    assert "layouts: 7.884e+5173 full layouts" in capsys.readouterr().out
    assert main(["solve", str(path), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["layouts"] == "7.884e+5173"


# -- litter ---------------------------------------------------------------------------------------
def test_no_xauthority_file_is_left_behind(tmp_path, monkeypatch):
    """Without ~/.Xauthority the X libraries get an empty one, but no run leaves a file."""
    import os
    import tempfile

    from minebot.backends.x11.window import ensure_xauthority
    monkeypatch.delenv("XAUTHORITY", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    ensure_xauthority()
    assert os.path.exists(os.environ["XAUTHORITY"])
    assert list(tmp_path.iterdir()) == []


def test_read_says_when_crops_cannot_be_saved(capsys, tmp_path):
    image = str(ROOT / "fixtures" / "gnome-mines" / "default-8x8-590x460-mid.png")
    assert main(["read", image, "--crops", "/proc/nope"]) == EXIT_BAD_INPUT
    one_line_error(capsys.readouterr().err, "--crops /proc/nope", "cannot write")
    assert main(["read", image, "--crops", str(tmp_path / "later")]) == 0
    assert not (tmp_path / "later").exists()     # made only when a crop is saved


def test_click_log_write_error_mid_run_is_a_message_not_a_traceback(tmp_path):
    """The click log is checked before the first click; a write that fails later (a full
    disk: /dev/full) stops the run with an OutputError naming the file, not an OSError."""
    from minebot.backends.pointer import Click
    from minebot.backends.x11.pointer import Pointer
    pointer = object.__new__(Pointer)      # no display needed: only the log is exercised
    pointer._log_path = "/dev/full"
    pointer._log_file = open("/dev/full", "a", encoding="utf-8")
    try:
        with pytest.raises(OutputError, match=r"/dev/full: cannot write the click log"):
            pointer._write_log([Click(1, 2, "left", 0.0, (0, 0, 10, 10))])
    finally:
        try:
            pointer._log_file.close()
        except OSError:
            pass
    good = object.__new__(Pointer)
    good._log_path = str(tmp_path / "clicks.jsonl")
    good._log_file = open(good._log_path, "a", encoding="utf-8")
    good._write_log([Click(1, 2, "left", 0.0, (0, 0, 10, 10))])
    good._log_file.close()
    assert '"x": 1' in (tmp_path / "clicks.jsonl").read_text()
