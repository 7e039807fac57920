"""The import graph of a Python package, read from its source with ``ast``, and its cycles.

Why read the source instead of importing it: an import inside a function, or under
``if TYPE_CHECKING:``, runs late or never, so it hides a cycle from the interpreter while the
two modules still depend on each other. Every ``import`` and ``from ... import`` statement
counts here, wherever it stands in the module.

    python tools/import_graph.py            # minebot/: prints each cycle, exits 1 if any
    python tools/import_graph.py --edges    # also every module's imports

An edge goes to the deepest module of the package that the statement names: ``from .ui import
GameUI`` is an edge to ``ui``, ``from .. import games`` one to ``games`` (a submodule), not to
the package. A package's ``__init__`` that a submodule import runs on the way is not counted:
it is not what the importing module asked for.

A module that imports others by name with ``importlib`` (the games registry finds each game
folder's ``ui`` and ``launcher`` so) says which in a module-level ``IMPORTS_BY_CONVENTION``
tuple of patterns (``"minebot.games.*.ui"``, ``*`` one name part): each module of the package
that a pattern matches counts as imported by it.
"""

from __future__ import annotations

import argparse
import ast
import fnmatch
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def module_names(package: Path) -> dict[str, tuple[Path, bool]]:
    """Every module of ``package`` (a folder): dotted name -> (file, whether it is a package)."""
    found = {}
    for path in sorted(package.rglob("*.py")):
        parts = list(path.relative_to(package.parent).with_suffix("").parts)
        is_package = parts[-1] == "__init__"
        if is_package:
            parts = parts[:-1]
        found[".".join(parts)] = (path, is_package)
    return found


def imported(module: str, is_package: bool, node: ast.Import | ast.ImportFrom,
             modules: dict[str, tuple[Path, bool]]) -> set[str]:
    """The modules of the package that one import statement of ``module`` refers to, relative
    ones resolved: ``from x import y`` refers to ``x.y`` where that is a submodule, else to
    ``x``; a dotted name that is no module counts as its deepest module (``x.y.Name`` -> ``x.y``)."""
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        base = node.module or ""
        if node.level:
            parts = module.split(".") if is_package else module.split(".")[:-1]
            parts = parts[:len(parts) - (node.level - 1)]
            base = ".".join(parts + ([node.module] if node.module else []))
        names = [f"{base}.{alias.name}" for alias in node.names]
    targets = set()
    for dotted in names:
        while dotted and dotted not in modules:
            dotted = dotted.rpartition(".")[0]
        if dotted and dotted != module:
            targets.add(dotted)
    return targets


def by_convention(tree: ast.Module, modules: dict[str, tuple[Path, bool]]) -> set[str]:
    """The modules a module's ``IMPORTS_BY_CONVENTION = ("pkg.*.name", ...)`` names (a
    module-level tuple or list of string patterns; ``*`` matches one dotted part)."""
    found: set[str] = set()
    for node in tree.body:
        if isinstance(node, ast.AnnAssign):
            targets, value = [node.target], node.value
        elif isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        else:
            continue
        if not any(isinstance(t, ast.Name) and t.id == "IMPORTS_BY_CONVENTION" for t in targets):
            continue
        if not isinstance(value, (ast.Tuple, ast.List)):
            raise ValueError("IMPORTS_BY_CONVENTION must be a tuple of string literals")
        for item in value.elts:
            if not (isinstance(item, ast.Constant) and isinstance(item.value, str)):
                raise ValueError("IMPORTS_BY_CONVENTION must be a tuple of string literals")
            pattern = item.value.split(".")
            found |= {name for name in modules if len(name.split(".")) == len(pattern)
                      and all(fnmatch.fnmatchcase(part, want)
                              for part, want in zip(name.split("."), pattern))}
    return found


def import_graph(package: Path) -> dict[str, set[str]]:
    """module -> the modules of the same package it imports, anywhere in its source (and
    those its ``IMPORTS_BY_CONVENTION`` names)."""
    modules = module_names(package)
    graph: dict[str, set[str]] = {}
    for name, (path, is_package) in modules.items():
        graph[name] = set()
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                graph[name] |= imported(name, is_package, node, modules)
        graph[name] |= by_convention(tree, modules) - {name}
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm,
    iterative), each sorted: every import cycle lies inside one of them."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("package", nargs="?", default=str(ROOT / "minebot"),
                        help="the package folder (default: minebot/)")
    parser.add_argument("--edges", action="store_true", help="also print every module's imports")
    args = parser.parse_args(argv)
    graph = import_graph(Path(args.package))
    if args.edges:
        for name in sorted(graph):
            print(f"{name} -> {', '.join(sorted(graph[name])) or '-'}")
    found = cycles(graph)
    for component in found:
        print(f"cycle of {len(component)} modules: {', '.join(component)}")
    if not found:
        print(f"no import cycle among {len(graph)} modules")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
