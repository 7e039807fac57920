"""Games: the ``Game`` interface and its implementations (engine, live window, replay)."""

from .base import Game

__all__ = ["Game"]
