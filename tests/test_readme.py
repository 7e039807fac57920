"""Every ``minebot`` command the README (and the maintainers' docs) show exists as shown.

The command lines are taken from the fenced blocks of README.md and docs/*.md (lines that start
with ``minebot `` or ``.venv/bin/minebot ``, also after ``&&``) and from their inline code
spans that start with ``minebot ``. Each one's subcommand must be one of minebot's, and each
``--option`` (or ``-o``) it shows must be an option of that subcommand, as the parser that
``minebot --help`` prints is built (``minebot.cli.build_parser``): no command is run.
"""

from __future__ import annotations

import argparse
import re
import shlex
from pathlib import Path

import pytest

from minebot.cli import build_parser

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
PREFIXES = ("minebot ", ".venv/bin/minebot ")


def command_lines(text: str) -> list[str]:
    """The minebot command lines of one Markdown text, without the ``minebot`` word."""
    found = []
    fenced = False
    for line in text.splitlines():
        if line.startswith("```"):
            fenced = not fenced
            continue
        if fenced:
            for part in line.split("&&"):
                part = part.strip()
                for prefix in PREFIXES:
                    if part.startswith(prefix):
                        found.append(part[len(prefix):])
        else:
            for span in re.findall(r"`([^`]+)`", line):
                if span.startswith("minebot "):
                    found.append(span[len("minebot "):])
    return found


def words(line: str) -> list[str]:
    """The shell words of a command line, up to a ``#`` comment or a ``...`` continuation."""
    lexer = shlex.shlex(line, posix=True, punctuation_chars=False)
    lexer.whitespace_split = True
    lexer.commenters = "#"
    out = []
    for word in lexer:
        if word.startswith("..."):
            break
        out.append(word)
    return out


def subparsers(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def options(parser: argparse.ArgumentParser) -> set[str]:
    return {name for action in parser._actions for name in action.option_strings}


def problems(line: str, parser: argparse.ArgumentParser) -> list[str]:
    """What in one command line (without ``minebot``) the parser does not know."""
    argv = words(line)
    if not argv:
        return []
    commands = subparsers(parser)
    first = argv[0]
    if first.startswith("-"):
        target, rest = parser, argv
    elif first.isupper():
        return []   # a placeholder such as COMMAND
    elif first not in commands:
        return [f"minebot {line}: no command {first!r} (commands: {', '.join(commands)})"]
    else:
        target, rest = commands[first], argv[1:]
    known = options(target)
    bad = []
    for word in rest:
        if word.startswith("-") and len(word) > 1 and not re.fullmatch(r"-\d[\d.,]*", word):
            name = word.split("=", 1)[0]
            if name not in known:
                bad.append(f"minebot {line}: {first} has no option {name}")
    return bad


def shown_commands() -> list[tuple[str, str]]:
    return [(page.relative_to(ROOT).as_posix(), line)
            for page in PAGES for line in command_lines(page.read_text(encoding="utf-8"))]


def test_readme_shows_commands():
    readme = [line for page, line in shown_commands() if page == "README.md"]
    assert len(readme) >= 10
    assert any(line.startswith("play") for line in readme)


@pytest.mark.parametrize("page, line", shown_commands(), ids=lambda value: value[:60])
def test_every_command_and_option_shown_exists(page, line):
    bad = problems(line, build_parser())
    assert not bad, f"{page}: " + "; ".join(bad)


def test_a_made_up_option_or_command_is_caught():
    parser = build_parser()
    assert problems("play --level expert --games 3", parser) == []
    assert problems("play --made-up 3", parser) == ["minebot play --made-up 3: play has no option --made-up"]
    assert problems("fly --games 3", parser)[0].startswith("minebot fly --games 3: no command 'fly'")
    assert problems("hint -p --explain 3,4", parser) == []
    assert problems("solve x.board --rules=zero", parser) == []
    assert command_lines("```\nbash .ci/setup && .venv/bin/minebot demo --x\n```\n") == ["demo --x"]


TOP_LEVEL = ("minebot/", "tests/", "benchmarks/", "tools/", "fixtures/", "templates/", ".ci/", "docs/")


def named_paths(page: Path) -> list[str]:
    """The repository paths a page names: code spans that start with a top-level folder or
    name a module (``minebot.x.y``), and the targets of its relative links (resolved from the
    page's folder). Spans with a
    placeholder (``<game>``, ``NAME``, ``DIR``) are left out; ``*`` is a glob."""
    text = page.read_text(encoding="utf-8")
    found = []
    for span in re.findall(r"`([^`\s]+)`", text):
        span = span.rstrip(".,:;")
        if span.startswith(TOP_LEVEL) and "<" not in span and not re.search(r"[A-Z]{3,}", span):
            found.append(span)
    for span in re.findall(r"`(minebot(?:\.[A-Za-z_]+)+)`", text):
        parts = span.split(".")
        while parts[-1][:1].isupper():   # a class or constant of the module before it
            parts.pop()
        module = "/".join(parts)
        found.append(module + ".py" if (ROOT / f"{module}.py").exists() else module + "/__init__.py")
    for target in re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", text):
        if "://" not in target:
            rel = (page.parent / target).resolve().relative_to(ROOT)
            found.append(rel.as_posix())
    return found


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_every_path_a_page_names_exists(page):
    missing = [p for p in named_paths(page) if not list(ROOT.glob(p.rstrip("/")))]
    assert not missing, f"{page.relative_to(ROOT)} names paths that do not exist: {missing}"
