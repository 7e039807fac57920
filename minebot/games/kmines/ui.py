"""KMines 22.12 through its own interface: Ctrl+N, its popups and its High Scores box.

Why: KMines starts a new game on Ctrl+N (it needs keyboard focus; F2 does nothing), draws
"You have lost." / "Congratulations! You have won!" over the board for 4 s, translucent, so
cells under it may read as other numbers (reads that fail or contradict the moves are retried
for ``end_popup_seconds``), and after a win that makes the table opens a modal
"High Scores" window, closed with Escape like any other dialog of the game. Its "Reset the
Game?" box is kept away by the settings (``kmines_reset=false``, see its ``launcher``).
Facts in ``fixtures/CLONES.md``.
"""

from __future__ import annotations

from ...board import Board
from ...game.ui import GameHost, GameUI
from .profile import LEVELS as KMINES_LEVELS


class KMinesUI(GameUI):
    """KMines: Ctrl+N for a new game; the first click and its neighbours are safe."""

    game = "kmines"
    end_message_seconds = 5.0
    end_popup_seconds = 10.0   # shown 4 s, with its fades and our settling ~10 s measured
    paced = True   # measured: a click of a fast batch sometimes never reveals its cell
    levels = KMINES_LEVELS   # chosen when it starts (kminesrc), not switched by minebot

    def request_new_game(self, live: GameHost, board: Board | None) -> None:
        live.key("ctrl+n")
