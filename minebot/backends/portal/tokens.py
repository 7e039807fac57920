"""The portal's restore token, kept in the user's state folder so that the desktop asks for
permission once.

Why a file of our own: with ``persist_mode`` 2 the portal answers ``Start`` with a
``restore_token`` (a UUID) that stands for the user's choice; passed to the next session's
``SelectDevices`` it restores that choice with no dialog. The portal forgets a token once
used and hands out the one to use next time in the new ``Start``'s answer, so the file is
rewritten after every session that returned one.
"""

from __future__ import annotations

import os
import uuid
from collections.abc import Mapping
from pathlib import Path

from ...errors import OutputError

TOKEN_FILE = "portal-restore-token"


def state_dir(env: Mapping[str, str] | None = None) -> Path:
    """``$XDG_STATE_HOME/minebot`` (default ``~/.local/state/minebot``), per the XDG base
    directory specification: state worth keeping between runs, not worth backing up."""
    env = os.environ if env is None else env
    base = env.get("XDG_STATE_HOME") or os.path.join(
        env.get("HOME") or os.path.expanduser("~"), ".local", "state")
    return Path(base) / "minebot"


class TokenStore:
    """One restore token in ``folder/portal-restore-token`` (``load``, ``save``, ``forget``)."""

    def __init__(self, folder: Path) -> None:
        self.path = Path(folder) / TOKEN_FILE

    @classmethod
    def for_env(cls, env: Mapping[str, str] | None = None) -> "TokenStore":
        return cls(state_dir(env))

    def load(self) -> str | None:
        """The saved token, or None (no file, or not a UUID: the portal would refuse the
        whole request for a malformed token, so such a file counts as none)."""
        try:
            text = self.path.read_text(encoding="ascii").strip()
        except (OSError, UnicodeDecodeError):
            return None
        try:
            uuid.UUID(text)
        except ValueError:
            return None
        return text

    def save(self, token: str) -> None:
        """Keep ``token`` (readable by the user only: it stands for a permission)."""
        uuid.UUID(token)   # the portal's tokens are UUIDs; anything else is a bug here
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            tmp = self.path.with_suffix(".new")
            fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            with os.fdopen(fd, "w", encoding="ascii") as out:
                out.write(token + "\n")
            os.replace(tmp, self.path)
        except OSError as exc:
            raise OutputError(f"{self.path}: cannot keep the portal's restore token "
                              f"({exc.strerror}); the desktop will ask again next time") from None

    def forget(self) -> None:
        try:
            self.path.unlink()
        except FileNotFoundError:
            pass
