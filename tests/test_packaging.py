"""What ``pip install .`` ships: every template file, so an installed minebot can read screens."""

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_every_template_file_is_installed_as_data():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    data_files = config["tool"]["setuptools"]["data-files"]
    shipped = set()
    for target, patterns in data_files.items():
        assert target.startswith("share/minebot/templates")
        for pattern in patterns:
            for path in ROOT.glob(pattern):
                relative = path.relative_to(ROOT / "templates")
                # Installed under the same relative folder the search path expects.
                assert f"share/minebot/templates/{relative.parent}".rstrip("/.") == target.rstrip("/")
                shipped.add(path)
    files = {p for p in (ROOT / "templates").rglob("*") if p.is_file()}
    assert files, "no templates in the repository"
    assert files - shipped == set(), "add these folders to [tool.setuptools.data-files]"


def test_installed_prefix_is_searched():
    import sys

    from minebot.vision.templates import search_dirs
    assert Path(sys.prefix) / "share" / "minebot" / "templates" in search_dirs()
