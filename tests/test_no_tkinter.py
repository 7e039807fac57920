"""minebot on a Python without tkinter, as Debian's own python3 is (python3-tk is separate).

A dependency that needs tkinter can end the whole process at import: pyautogui imports
mouseinfo, which calls ``sys.exit`` when tkinter is missing, and that is how README's first
command once stopped on stock Debian. These tests hide tkinter from a fresh interpreter (an
import hook, the same effect as the missing package) and then import everything minebot can
import: every module of minebot, and every module its installed dependencies declare, direct
and transitive. A library with such a trap anywhere in that set makes them fail; so does
putting pyautogui back (checked by hand: with it installed and required, the first test fails
with mouseinfo's message).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap

import pytest

HIDE_TKINTER = textwrap.dedent("""
    import importlib.abc, sys

    class NoTkinter(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in ("tkinter", "_tkinter", "Tkinter"):
                raise ModuleNotFoundError(f"No module named {name!r}", name=name)
            return None

    sys.meta_path.insert(0, NoTkinter())
    for loaded in [m for m in sys.modules if m.split(".")[0] in ("tkinter", "_tkinter")]:
        del sys.modules[loaded]
""")

IMPORT_EVERYTHING = textwrap.dedent("""
    import importlib, importlib.metadata as md, json, pkgutil, re
    import minebot

    def requirement_names(dist):
        out = []
        for req in dist.requires or []:
            if "extra ==" in req:      # optional extras (tests, docs) are not run-time
                continue
            out.append(re.split(r"[ ;<>=!~\\[(]", req, maxsplit=1)[0])
        return out

    top_levels = md.packages_distributions()   # module -> [distribution, ...]
    by_dist = {}
    for module, dists in top_levels.items():
        for d in dists:
            by_dist.setdefault(d.lower().replace("_", "-"), []).append(module)

    seen, todo, modules = set(), requirement_names(md.distribution("minebot")), []
    while todo:
        name = todo.pop().lower().replace("_", "-")
        if name in seen:
            continue
        seen.add(name)
        try:
            dist = md.distribution(name)
        except md.PackageNotFoundError:
            continue
        todo.extend(requirement_names(dist))
        modules += [m for m in by_dist.get(name, []) if m.isidentifier() and not m.startswith("_")]

    failed = {}
    for module in sorted(set(modules)):
        try:
            importlib.import_module(module)
        except ImportError as exc:
            failed[module] = repr(exc)
    names = [m.name for m in pkgutil.walk_packages(minebot.__path__, "minebot.")
             if not m.name.endswith("__main__")]
    for name in names:
        importlib.import_module(name)
    print(json.dumps({"dependencies": sorted(seen), "modules": sorted(set(modules)),
                      "failed": failed, "minebot_modules": len(names)}))
""")


def run_without_tkinter(code: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", HIDE_TKINTER + code], capture_output=True,
                          text=True, env=env, timeout=300)


def test_the_hook_really_hides_tkinter():
    """The premise of the other tests: under the hook, ``import tkinter`` fails."""
    out = run_without_tkinter("import tkinter\n")
    assert out.returncode != 0 and "No module named 'tkinter'" in out.stderr


def test_every_module_and_dependency_imports_without_tkinter():
    """Every minebot module and every module of every run-time dependency imports, and none
    ends the process (a ``sys.exit`` at import shows as a non-zero exit with no JSON)."""
    import json
    out = run_without_tkinter(IMPORT_EVERYTHING)
    assert out.returncode == 0, out.stderr[-2000:]
    report = json.loads(out.stdout.strip().splitlines()[-1])
    assert "tkinter" not in out.stderr.lower()
    assert {"numpy", "mss", "python-xlib", "python-sat"} <= set(report["dependencies"])
    assert report["minebot_modules"] > 40
    # A dependency's module that fails to import for a reason other than tkinter (an optional
    # backend of its own) is allowed; one that needs tkinter is not.
    assert not [m for m, why in report["failed"].items() if "tkinter" in why.lower()], report


@pytest.mark.live
@pytest.mark.skipif(shutil.which("Xvfb") is None, reason="needs Xvfb")
def test_clicks_go_out_without_tkinter():
    """The X11 input route (imported lazily, only when a pointer is made) works without
    tkinter: a click inside the bounds reaches a private X server, one outside is refused."""
    code = textwrap.dedent("""
        from minebot.sandbox.xvfb import Xvfb
        from minebot.backends.pointer import UnsafeClickError
        from minebot.backends.x11.pointer import Pointer
        from Xlib import display as xdisplay
        with Xvfb(320, 240) as x:
            pointer = Pointer(x.display)
            try:
                pointer.click(40, 30, "left", (0, 0, 100, 100))
                try:
                    pointer.click(150, 30, "left", (0, 0, 100, 100))
                    raise SystemExit("a click outside the bounds went out")
                except UnsafeClickError:
                    pass
                d = xdisplay.Display(x.display)
                where = d.screen().root.query_pointer()
                d.close()
                print(where.root_x, where.root_y, len(pointer.log))
            finally:
                pointer.close()
                pointer.close()   # idempotent
    """)
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    out = run_without_tkinter(code, env)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip().splitlines()[-1].split() == ["40", "30", "1"]
