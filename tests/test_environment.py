"""The machine renders GNOME Mines the way the shipped templates were recorded.

GNOME Mines 40.1 draws each number as SVG text in the font family "Monospace", bold
(``/usr/share/gnome-mines/themes/*/[1-8]mines.svg``), so fontconfig decides the digits' shape.
The templates in ``templates/`` were cut from games rendered with Noto Sans Mono (Debian's
``fonts-noto-mono``, installed by ``.ci/setup``). Without it Monospace falls back to DejaVu Sans
Mono, the digits look different, and the reader refuses them: this test says why up front.
"""

import shutil
import subprocess

import pytest


def test_monospace_resolves_to_the_font_the_templates_were_recorded_with():
    if shutil.which("fc-match") is None:
        pytest.fail("fc-match (fontconfig) is missing: run 'bash .ci/setup'")
    family = subprocess.run(["fc-match", "-f", "%{family}", "Monospace:bold"],
                            capture_output=True, text=True, check=True).stdout
    assert "Noto Sans Mono" in family, (
        f"'Monospace' resolves to {family!r}: install fonts-noto-mono ('bash .ci/setup') or "
        "calibrate templates for this font ('minebot calibrate')")
