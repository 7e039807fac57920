"""Force the font a program sees as "Monospace", for that program alone.

GNOME Mines draws its numbers in "Monospace" bold, so which font that name resolves to decides
how the digits look. A private fontconfig file that includes the system's configuration and
puts one family first for the ``monospace`` alias changes it for any process started with
``FONTCONFIG_FILE`` pointing at it, and for nothing else on the machine.
"""

from __future__ import annotations

from pathlib import Path
from xml.sax.saxutils import escape

_TEMPLATE = """<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>
  <match target="pattern">
    <test qual="any" name="family"><string>monospace</string></test>
    <edit name="family" mode="prepend" binding="strong"><string>{family}</string></edit>
  </match>
</fontconfig>
"""


def fontconfig_file(family: str, folder: str | Path) -> Path:
    """Write ``folder/fonts.conf`` making ``family`` the Monospace font; return its path."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "fonts.conf"
    path.write_text(_TEMPLATE.format(family=escape(family)), encoding="utf-8")
    return path
