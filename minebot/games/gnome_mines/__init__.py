"""GNOME Mines: ``profile`` (its window, lattice, looks, rules, counter; the custom board's
mine count), ``ui`` (its level chooser, dialogs and pause, by keyboard). Its template sets are
``templates/gnome-mines-*``; the private copy the tests and ``demo`` start is
``minebot.sandbox.mines.GnomeMines``, named by its ``launcher`` (on the sandbox side: the
sandbox stays out of production code)."""

from .profile import PROFILE

__all__ = ["PROFILE"]
