"""The layout's promises: no import cycle in ``minebot/`` (imports inside functions and under
``TYPE_CHECKING`` included), no production module that needs the test sandbox, and no private
name (``_name``) imported from another module.

The cycle check reads the source with ``tools/import_graph.py``; it fails on a cycle, which
``test_a_cycle_hidden_in_a_function_is_found`` shows on a small package made for it (and run
on the tree before the backends and the sandbox were split apart, the tool named the two
cycles of that time: ``desktop`` with ``game``, and ``solver.strategy`` with
``solver.two_guess``).
"""

from __future__ import annotations

import ast
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SANDBOX = "minebot.sandbox"
SANDBOX_USERS = ("minebot.cli.demo",)
"""The production modules allowed to use the sandbox: ``minebot demo`` starts a private game."""


def _import_graph_tool():
    spec = importlib.util.spec_from_file_location("import_graph", ROOT / "tools" / "import_graph.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_minebot_has_no_import_cycle():
    tool = _import_graph_tool()
    graph = tool.import_graph(ROOT / "minebot")
    assert len(graph) > 80
    assert tool.cycles(graph) == []


def test_a_cycle_hidden_in_a_function_is_found(tmp_path):
    """The check can fail: one edge at module level, the other inside a function (and a
    third module joined only under ``TYPE_CHECKING``)."""
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from .sub import b\n")
    (pkg / "sub" / "b.py").write_text("def late():\n    from .. import a\n    return a\n")
    (pkg / "sub" / "c.py").write_text("from typing import TYPE_CHECKING\n"
                                      "if TYPE_CHECKING:\n    from ..a import thing\n")
    (pkg / "d.py").write_text("from .sub.c import x\nfrom . import a\n")
    (pkg / "e.py").write_text("import pkg.d\n")
    tool = _import_graph_tool()
    graph = tool.import_graph(pkg)
    assert graph["pkg.sub.b"] == {"pkg.a"} and graph["pkg.sub.c"] == {"pkg.a"}
    assert graph["pkg.e"] == {"pkg.d"}
    assert tool.cycles(graph) == [["pkg.a", "pkg.sub.b"]]
    (pkg / "a.py").write_text("from .sub import b\nfrom .d import y\n")
    (pkg / "sub" / "b.py").write_text("")
    (pkg / "sub" / "c.py").write_text("from typing import TYPE_CHECKING\n"
                                      "if TYPE_CHECKING:\n    from ..a import thing\n")
    (pkg / "d.py").write_text("from .sub.c import x\n")
    assert tool.cycles(tool.import_graph(pkg)) == [["pkg.a", "pkg.d", "pkg.sub.c"]]


def test_no_production_module_names_the_sandbox_anywhere():
    """Read from the source, so an import inside a function counts too."""
    graph = _import_graph_tool().import_graph(ROOT / "minebot")
    users = sorted(name for name, targets in graph.items()
                   if not (name == SANDBOX or name.startswith(SANDBOX + "."))
                   and any(t == SANDBOX or t.startswith(SANDBOX + ".") for t in targets))
    assert users == list(SANDBOX_USERS)


def test_every_production_module_imports_with_the_sandbox_absent():
    """A finder ahead of all others refuses ``minebot.sandbox``: every other module of minebot
    (but ``demo``, which starts private games) must still import, and the command line, which
    imports every command to list it, must still be built (``demo`` takes the sandbox only
    when it runs)."""
    code = (
        "import importlib, importlib.abc, pkgutil, sys\n"
        f"SANDBOX = {SANDBOX!r}\n"
        "class NoSandbox(importlib.abc.MetaPathFinder):\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name == SANDBOX or name.startswith(SANDBOX + '.'):\n"
        "            raise ImportError(f'{name}: the sandbox is not for production code')\n"
        "        return None\n"
        "sys.meta_path.insert(0, NoSandbox())\n"
        "import minebot\n"
        "names = [m.name for m in pkgutil.walk_packages(minebot.__path__, 'minebot.')\n"
        "         if not (m.name == SANDBOX or m.name.startswith(SANDBOX + '.'))\n"
        f"         and m.name not in {SANDBOX_USERS!r} and not m.name.endswith('__main__')]\n"
        "for name in names:\n"
        "    importlib.import_module(name)\n"
        "import minebot.cli\n"
        "minebot.cli.build_parser()   # every command, demo included, registers\n"
        "assert not any(m.startswith(SANDBOX) for m in sys.modules)\n"
        "try:\n"
        "    importlib.import_module(SANDBOX)\n"
        "except ImportError:\n"
        "    print(len(names))\n")
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env,
                         cwd=ROOT, timeout=120)
    assert out.returncode == 0, out.stderr
    assert int(out.stdout) > 80


def test_no_private_name_is_imported_from_another_module():
    """A ``_name`` is its module's own: another module that needs it gets a public name with a
    docstring instead (anywhere in the source, inside functions too)."""
    found = []
    for path in sorted((ROOT / "minebot").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.ImportFrom):
                found += [f"{path.relative_to(ROOT)}:{node.lineno}: {alias.name}"
                          for alias in node.names
                          if alias.name.startswith("_") and not alias.name.startswith("__")]
    assert found == []


def test_every_game_folder_is_in_both_registries():
    """A game is a folder of ``minebot/games/`` with its ``profile`` and its ``ui``: its profile
    is in ``games.PROFILES`` and its ``GameUI`` in ``games.interfaces.UIS``, and nothing else
    is listed there."""
    from minebot import games
    from minebot.game.ui import GameUI
    from minebot.games.interfaces import UIS
    folders = sorted(p.name for p in (ROOT / "minebot" / "games").iterdir()
                     if (p / "__init__.py").is_file())
    profiles, uis = [], []
    for folder in folders:
        profiles.append(importlib.import_module(f"minebot.games.{folder}.profile").PROFILE)
        module = importlib.import_module(f"minebot.games.{folder}.ui")
        uis += [cls for cls in vars(module).values() if isinstance(cls, type)
                and issubclass(cls, GameUI) and cls is not GameUI and cls.__module__ == module.__name__]
    assert sorted(p.name for p in profiles) == sorted(games.PROFILES)
    assert all(games.PROFILES[p.name] is p for p in profiles)
    assert sorted(uis, key=lambda c: c.game) == sorted(UIS.values(), key=lambda c: c.game)
