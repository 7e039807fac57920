"""The versions of the programs a live figure was measured against, for its record.

Why: a time or a win rate measured on GNOME Mines 50 under mutter 50 says nothing about 40.1
under Xvfb, and a result file that does not say which it was cannot be compared later. The
versions come from the package manager (``dpkg-query``), which knows what is installed
whether or not a program can print its own version; a system without dpkg records none.
"""

from __future__ import annotations

import platform
import shutil
import subprocess

DESKTOP_PACKAGES = ("mutter", "gnome-shell", "sway", "kwin-wayland", "weston", "xvfb", "xwayland",
                    "openbox", "metacity", "pipewire", "xdg-desktop-portal")
"""The compositors, window managers and servers minebot is measured with."""


def game_packages() -> tuple[str, ...]:
    """Every registered game's package, as its launcher (``PrivateGame.package``) names it."""
    from .. import games
    from .launchers import launcher
    from .private_game import PrivateGame
    found: list[str] = []
    for name in games.NAMES:
        for value in vars(launcher(name)).values():
            if isinstance(value, type) and issubclass(value, PrivateGame) and value.package \
                    and value.package not in found:
                found.append(value.package)
    return tuple(found)


def package_versions(names: tuple[str, ...] | None = None) -> dict[str, str]:
    """Installed package -> version, for those of ``names`` (default: the games' and the
    desktops') that are installed."""
    if names is None:
        names = game_packages() + DESKTOP_PACKAGES
    exe = shutil.which("dpkg-query")
    if exe is None:
        return {}
    # dpkg-query exits 1 when some name is unknown, and still lists the installed ones
    out = subprocess.run([exe, "-W", "-f", "${Package}\t${Version}\t${db:Status-Abbrev}\n",
                          *names], capture_output=True, text=True, check=False).stdout
    found = {}
    for line in out.splitlines():
        parts = line.split("\t")
        if len(parts) == 3 and parts[1] and parts[2].startswith("ii"):
            found[parts[0]] = parts[1]
    return found


def environment() -> dict[str, object]:
    """What a benchmark's result records about where it ran."""
    return {"python": platform.python_version(), "os": _os_name(),
            "packages": package_versions()}


def _os_name() -> str:
    try:
        return platform.freedesktop_os_release().get("PRETTY_NAME", "")
    except OSError:
        return ""
