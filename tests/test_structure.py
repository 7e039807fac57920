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
LAUNCHER = "launcher"
"""A game folder's ``launcher`` module (``minebot.games.NAME.launcher``) is the sandbox's."""


def on_sandbox_side(name: str) -> bool:
    """The sandbox package, or a game folder's launcher (which the sandbox finds by name)."""
    parts = name.split(".")
    return (name == SANDBOX or name.startswith(SANDBOX + ".")
            or (len(parts) == 4 and parts[:2] == ["minebot", "games"] and parts[3] == LAUNCHER))


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
                   if not on_sandbox_side(name) and any(on_sandbox_side(t) for t in targets))
    assert users == list(SANDBOX_USERS)
    launchers = [name for name in graph if on_sandbox_side(name) and name.endswith("." + LAUNCHER)]
    assert len(launchers) == len(_game_folders())


def test_every_production_module_imports_with_the_sandbox_absent():
    """A finder ahead of all others refuses ``minebot.sandbox`` and the game folders'
    launchers: every other module of minebot (but ``demo``, which starts private games) must
    still import, and the command line, which imports every command to list it, must still be
    built (``demo`` takes the sandbox only when it runs)."""
    code = (
        "import importlib, importlib.abc, pkgutil, sys\n"
        f"SANDBOX = {SANDBOX!r}\n"
        "def sandbox_side(name):\n"
        "    parts = name.split('.')\n"
        "    return (name == SANDBOX or name.startswith(SANDBOX + '.') or (len(parts) == 4\n"
        f"            and parts[:2] == ['minebot', 'games'] and parts[3] == {LAUNCHER!r}))\n"
        "class NoSandbox(importlib.abc.MetaPathFinder):\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if sandbox_side(name):\n"
        "            raise ImportError(f'{name}: the sandbox is not for production code')\n"
        "        return None\n"
        "sys.meta_path.insert(0, NoSandbox())\n"
        "import minebot\n"
        "names = [m.name for m in pkgutil.walk_packages(minebot.__path__, 'minebot.')\n"
        "         if not sandbox_side(m.name)\n"
        f"         and m.name not in {SANDBOX_USERS!r} and not m.name.endswith('__main__')]\n"
        "for name in names:\n"
        "    importlib.import_module(name)\n"
        "import minebot.cli\n"
        "minebot.cli.build_parser()   # every command, demo included, registers\n"
        "assert not any(sandbox_side(m) for m in sys.modules)\n"
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


def _game_folders() -> list[str]:
    return sorted(p.name for p in (ROOT / "minebot" / "games").iterdir()
                  if (p / "__init__.py").is_file())


def test_every_game_folder_is_registered_once_and_holds_its_parts():
    """A game is a folder of ``minebot/games/`` with its ``profile``, its ``ui`` and its
    ``launcher``; the registry (``games.FOLDERS``) lists every folder once, and the profiles,
    the ``GameUI`` classes and the demo launchers are all found from it, nothing else listed."""
    from minebot import games
    from minebot.game.ui import GameUI
    from minebot.games.interfaces import UIS
    from minebot.sandbox import launchers
    from minebot.sandbox.private_game import Demo, PrivateGame
    folders = _game_folders()
    assert sorted(f.__name__.rsplit(".", 1)[1] for f in games.FOLDERS) == folders
    profiles, uis = [], []
    for folder in folders:
        profiles.append(importlib.import_module(f"minebot.games.{folder}.profile").PROFILE)
        module = importlib.import_module(f"minebot.games.{folder}.ui")
        uis += [cls for cls in vars(module).values() if isinstance(cls, type)
                and issubclass(cls, GameUI) and cls is not GameUI and cls.__module__ == module.__name__]
        launcher = importlib.import_module(f"minebot.games.{folder}.launcher")
        assert isinstance(launcher.DEMO, Demo), folder
        assert any(isinstance(cls, type) and issubclass(cls, PrivateGame)
                   and cls.profile == profiles[-1].name for cls in vars(launcher).values()), folder
    assert sorted(p.name for p in profiles) == sorted(games.PROFILES)
    assert all(games.PROFILES[p.name] is p for p in profiles)
    assert sorted(uis, key=lambda c: c.game) == sorted(UIS.values(), key=lambda c: c.game)
    assert list(UIS) == list(games.NAMES)
    assert [launchers.demo(name) for name in games.NAMES] == [
        importlib.import_module(f"{f.__name__}.launcher").DEMO for f in games.FOLDERS]
    assert launchers.native_wayland() == ("gnome-mines",)


def test_imports_by_convention_count_in_the_graph(tmp_path):
    """``IMPORTS_BY_CONVENTION`` (a registry that imports its folders' modules by name) is
    counted: a folder module that imports the registry back is a cycle."""
    pkg = tmp_path / "pkg"
    (pkg / "one").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "one" / "__init__.py").write_text("")
    (pkg / "one" / "ui.py").write_text("")
    (pkg / "registry.py").write_text('IMPORTS_BY_CONVENTION = ("pkg.*.ui",)\n')
    tool = _import_graph_tool()
    graph = tool.import_graph(pkg)
    assert graph["pkg.registry"] == {"pkg.one.ui"}
    assert tool.cycles(graph) == []
    (pkg / "one" / "ui.py").write_text("def late():\n    from .. import registry\n")
    assert tool.cycles(tool.import_graph(pkg)) == [["pkg.one.ui", "pkg.registry"]]


REGISTRY_READERS = {"minebot.games", "minebot.games.interfaces", "minebot.sandbox.launchers"}
"""The registry and the two modules that find each registered folder's ``ui`` and ``launcher``
by name (``IMPORTS_BY_CONVENTION``): they name no game themselves."""

DEFAULT_GAME_USERS = {"minebot.backends.x11.window", "minebot.sandbox.mines", "minebot.cli.demo"}
"""Modules outside its folder that may name the default game (GNOME Mines): the window
``find_window`` looks for when none is named, the sandbox's private GNOME Mines (its desktops
are built on it) and ``demo``'s GNOME Mines options (``--theme``, ``--style``)."""


def test_no_module_outside_a_game_folder_names_the_game():
    """Adding a game touches its folder and the registry line only: no other module of minebot
    imports from a game's folder or names the game in a string (docstrings and comments
    aside), so help texts, choices, rules and launchers all come from the registry."""
    from minebot import games
    graph = _import_graph_tool().import_graph(ROOT / "minebot")
    modules = _import_graph_tool().module_names(ROOT / "minebot")
    found = []
    for folder in games.FOLDERS:
        package, name = folder.__name__, folder.PROFILE.name
        allowed = REGISTRY_READERS | (DEFAULT_GAME_USERS if name == games.DEFAULT else set())
        for module, targets in graph.items():
            if module == package or module.startswith(package + ".") or module in allowed:
                continue
            found += [f"{module} imports {t}" for t in targets
                      if t == package or t.startswith(package + ".")]
            tree = ast.parse(modules[module][0].read_text())
            docstrings = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Expr)}
            found += [f"{module}:{n.lineno} says {n.value!r}" for n in ast.walk(tree)
                      if isinstance(n, ast.Constant) and isinstance(n.value, str)
                      and id(n) not in docstrings and name in n.value]
    assert found == []
