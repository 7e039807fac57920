"""The fonts GNOME Mines draws its digits with, as the live tests rely on them.

GNOME Mines draws each number as SVG text in the font family "Monospace", bold
(``/usr/share/gnome-mines/themes/*/[1-8]mines.svg``), so fontconfig decides the digits' shape.
minebot reads them whatever that font is (its digit bank holds many fonts), and which font a
machine resolves "Monospace" to differs between releases: Debian 12's fontconfig picks Noto
Sans Mono once fonts-noto-mono is installed, Debian 13's (2.15) keeps DejaVu Sans Mono. So
nothing may depend on the machine's default; what the live tests do depend on is checked here:
that the default is a real monospace font, that every font the font tests force is installed
(a missing one would only be skipped there), and that a private ``FONTCONFIG_FILE`` really
makes a chosen family the game's "Monospace" on this fontconfig.
"""

import os
import shutil
import subprocess

import pytest
from test_live_fonts import CASES

from minebot.sandbox.fonts import fontconfig_file

pytestmark = pytest.mark.skipif(shutil.which("fc-match") is None,
                                reason="fontconfig's fc-match is missing (bash .ci/setup)")

FORCED = sorted({font for font, *_ in CASES})


def fc_match(pattern: str, env: dict | None = None) -> tuple[str, str]:
    """(family, spacing) fontconfig resolves ``pattern`` to (spacing 100 is monospace)."""
    out = subprocess.run(["fc-match", "-f", "%{family[0]}|%{spacing}", pattern],
                         capture_output=True, text=True, check=True, env=env).stdout
    family, _, spacing = out.partition("|")
    return family, spacing


def test_the_default_monospace_is_a_monospace_font():
    family, spacing = fc_match("Monospace:bold")
    # Some monospace fonts (Noto Sans Mono) do not declare their spacing; they say so by name.
    assert family and (spacing == "100" or "mono" in family.lower()), (
        f"'Monospace' resolves to {family!r} (spacing {spacing!r}), not a monospace font: "
        "install one (bash .ci/setup installs five)")


@pytest.mark.parametrize("family", FORCED)
def test_every_font_the_live_tests_force_is_installed(family):
    out = subprocess.run(["fc-list", f":family={family}", "family"],
                         capture_output=True, text=True, check=True).stdout
    assert out.strip(), f"font {family!r} is not installed: run 'bash .ci/setup'"


@pytest.mark.parametrize("family", FORCED)
def test_a_private_fontconfig_file_makes_a_family_the_monospace(family, tmp_path):
    env = dict(os.environ, FONTCONFIG_FILE=str(fontconfig_file(family, tmp_path)))
    resolved, _ = fc_match("Monospace:bold", env)
    assert resolved == family
    # ... for that process alone: the machine's own answer is untouched.
    assert fc_match("Monospace:bold")[0] == fc_match("Monospace:bold", dict(os.environ))[0]
