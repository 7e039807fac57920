"""The command line as a user meets it: help, imports without a display, clear errors."""

import json
import os
import subprocess
import sys

import pytest

from minebot.cli import COMMANDS, main


def run_cli(*args, env_extra=None, stdin=None):
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    env.update(env_extra or {})
    return subprocess.run([sys.executable, "-m", "minebot", *args], capture_output=True,
                          text=True, env=env, input=stdin, timeout=120)


def test_every_module_imports_without_a_display_and_none_loads_pyautogui_or_mss():
    """pyautogui needs a display at import: every module must import without one.

    Importing the package and its CLI must also stay light (no GUI, vision or SAT libraries),
    so that ``minebot --help`` is quick anywhere.
    """
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    code = (
        "import importlib, json, pkgutil, sys, minebot, minebot.cli\n"
        "light = [m for m in ('pyautogui', 'Xlib', 'cv2', 'mss', 'pysat') if m in sys.modules]\n"
        "names = [m.name for m in pkgutil.walk_packages(minebot.__path__, 'minebot.')\n"
        "         if not m.name.endswith('__main__')]\n"
        "for name in names: importlib.import_module(name)\n"
        "print(json.dumps([light, len(names), [m for m in ('pyautogui', 'mss') if m in sys.modules]]))\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert out.returncode == 0, out.stderr
    light, count, display_libraries = json.loads(out.stdout)
    assert light == []
    assert count > 40 and display_libraries == []
    assert "pyautogui" not in out.stderr


def test_help_lists_commands_and_exit_codes():
    out = run_cli("--help")
    assert out.returncode == 0
    assert "COLSxROWS" in out.stdout and "exit codes" in out.stdout
    for name in ("board", "layouts"):
        assert name in out.stdout


@pytest.mark.parametrize("command", ["board", "layouts"])
def test_every_subcommand_has_help(command):
    out = run_cli(command, "--help")
    assert out.returncode == 0 and "usage: minebot" in out.stdout


def test_bench_help_reads_95_percent():
    """The text is shared by ``minebot bench --help`` (shown as written) and the command list
    of ``minebot --help`` (which argparse %-formats): both must read "95%", never "95%%"."""
    own = run_cli("bench", "--help")
    assert own.returncode == 0
    assert "95% interval" in " ".join(own.stdout.split()) and "%%" not in own.stdout
    listed = run_cli("--help")
    assert listed.returncode == 0
    assert "95% interval" in " ".join(listed.stdout.split()) and "%%" not in listed.stdout


@pytest.mark.parametrize("command", COMMANDS)
def test_no_help_text_shows_a_doubled_percent(command, capsys):
    with pytest.raises(SystemExit) as done:
        main([command, "--help"])
    assert done.value.code == 0
    assert "%%" not in capsys.readouterr().out


def test_board_command_normalises_and_reports_errors(tmp_path):
    good = tmp_path / "good.board"
    good.write_text('{"mines": 1}\n1-\n')
    out = run_cli("board", str(good), "--json")
    assert out.returncode == 0
    assert json.loads(out.stdout) == {"rows": 1, "cols": 2, "mines": 1, "board": ["1-"]}
    bad = tmp_path / "bad.board"
    bad.write_text("12\n1Z\n")
    out = run_cli("board", str(bad))
    assert out.returncode == 2
    assert f"{bad}:2:2" in out.stderr and "Traceback" not in out.stderr
    out = run_cli("board", str(tmp_path / "missing.board"))
    assert out.returncode == 2 and "no such file" in out.stderr


def test_layouts_command_writes_loadable_layouts(tmp_path, capsys):
    from minebot.game.layouts import load_layouts
    path = tmp_path / "l.jsonl"
    assert main(["layouts", "--size", "16x16", "--mines", "40", "--first", "2,2",
                 "--games", "7", "--seed", "5", "-o", str(path)]) == 0
    layouts = load_layouts(path)
    assert len(layouts) == 7 and all(len(lay.mines) == 40 and lay.first == (2, 2) for lay in layouts)
    assert main(["layouts", "--size", "16by16", "-o", str(path)]) == 2
    assert "expected COLSxROWS" in capsys.readouterr().err


def test_play_lists_and_checks_backends():
    import subprocess
    import sys
    out = subprocess.run([sys.executable, "-m", "minebot", "play", "--backend", "list"],
                         capture_output=True, text=True, env={**os.environ, "DISPLAY": ""})
    assert out.returncode == 0 and "x11" in out.stdout and "xwayland" in out.stdout
    assert "mutter" in out.stdout
    bad = subprocess.run([sys.executable, "-m", "minebot", "play", "--backend", "nope"],
                         capture_output=True, text=True)
    assert bad.returncode == 2 and "--backend nope" in bad.stderr and "Traceback" not in bad.stderr


@pytest.mark.parametrize("command", ["play", "demo"])
def test_play_and_demo_take_the_solver_presets_and_refuse_a_bad_one_before_starting(command, tmp_path, capsys):
    """``--solver`` reaches the commands that play a window; a bad value is one line and exit 2
    before any display, game or click (no display is set here)."""
    outputs = ["--log", str(tmp_path / "games.jsonl")] if command == "play" else ["--out", str(tmp_path / "out")]
    for text, word in (("strongest", "preset"), ('{"no_such": 1}', "no_such")):
        assert main([command, *outputs, "--solver", text]) == 2
        err = capsys.readouterr().err.strip()
        assert len(err.splitlines()) == 1 and word in err and "--solver" in err
    help_text = run_cli(command, "--help").stdout
    assert "--solver" in help_text and "strong" in help_text
