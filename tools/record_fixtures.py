"""Record real GNOME Mines screenshots for the vision tests: ``.venv/bin/python tools/record_fixtures.py``.

Why its own little board reader: the fixtures must exist before (and independently of) the
vision reader they test. The ``bgcolors`` theme paints every number on its own background
colour, so sampling one pixel patch per cell reads a bgcolors board exactly enough to play
it with the solver. Every position is then captured in all three themes by switching the
theme of the running game (the game redraws at once), so one played game yields the same
position in bgcolors, default and classic.

Each PNG (cropped to the game window, or the whole screen for ``*-fullscreen``) gets a JSON
sidecar: theme, board size and mines, window size and its rectangle on screen, the phase
(fresh, mid, lost, won), every click made so far, and ``board_hint``: what this recorder read
from the bgcolors frame plus the marks it placed. The hint is NOT checked truth; the vision
engineer writes the ``.board`` truth files by hand.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from minebot.backends.frames import FrameSource
from minebot.backends.readings import read_once
from minebot.backends.x11.capture import Screen
from minebot.backends.x11.window import Rect
from minebot.board import Board, Cell, GameState
from minebot.errors import DesktopError
from minebot.games.gnome_mines.profile import custom_mines_roundtrip
from minebot.sandbox.mines import GnomeMines, installed_version, themes_of
from minebot.sandbox.xvfb import Xvfb

# bgcolors palette (RGB) from the theme's SVGs, measured on screen.
COVERED = (0xBA, 0xBD, 0xB6)
HOVER = (0xD3, 0xD7, 0xCF)       # also the exploded mine's background
PRESSED = (0x88, 0x8A, 0x85)     # also an unflagged mine after a loss
WRONG_FLAG_BG = (0xCC, 0x00, 0x00)
NUMBER_BG = [(0xDE, 0xDE, 0xDC), (0xDD, 0xFA, 0xC3), (0xEC, 0xED, 0xBF), (0xED, 0xDA, 0xB4),
             (0xED, 0xC3, 0x8A), (0xF7, 0xA1, 0xA2), (0xFE, 0xA7, 0x85), (0xFF, 0x7D, 0x60),
             (0xFF, 0x32, 0x3C)]
_PALETTE = np.array([c[::-1] for c in NUMBER_BG + [COVERED, HOVER, PRESSED, WRONG_FLAG_BG]],
                    dtype=np.int32)  # BGR
_P_COVERED, _P_HOVER, _P_PRESSED, _P_WRONG = 9, 10, 11, 12


@dataclass
class Grid:
    """Cell rectangles in window-frame pixels, found on a fresh (all covered) board."""

    xs: list[tuple[int, int]]
    ys: list[tuple[int, int]]

    @property
    def rows(self) -> int:
        return len(self.ys)

    @property
    def cols(self) -> int:
        return len(self.xs)

    def center(self, r: int, c: int) -> tuple[float, float]:
        (x0, x1), (y0, y1) = self.xs[c], self.ys[r]
        return (x0 + x1) / 2, (y0 + y1) / 2

    @property
    def board(self) -> Rect:
        return Rect(self.xs[0][0], self.ys[0][0], self.xs[-1][1] - self.xs[0][0],
                    self.ys[-1][1] - self.ys[0][0])


def _runs(profile: np.ndarray) -> list[tuple[int, int]]:
    """Half-open ``[start, end)`` runs of True in a 1-D boolean array."""
    padded = np.concatenate([[False], profile, [False]]).astype(np.int8)
    edges = np.flatnonzero(np.diff(padded))
    return list(zip(edges[::2].tolist(), edges[1::2].tolist()))


def locate_fresh(frame: np.ndarray, rows: int, cols: int) -> Grid:
    """Find the cells of a fresh board: runs of covered-colour columns and rows."""
    mask = np.all(frame == np.array(COVERED[::-1], np.uint8), axis=2)
    xs = [r for r in _runs(mask.sum(axis=0) >= 3) if r[1] - r[0] >= 8]
    ys = [r for r in _runs(mask.sum(axis=1) >= 3) if r[1] - r[0] >= 8]
    if len(xs) != cols or len(ys) != rows:
        raise DesktopError(f"expected a fresh {cols}x{rows} board, found {len(xs)}x{len(ys)} "
                           "covered cells (board clipped? choose a larger window)")
    return Grid(xs, ys)


def sample_cells(frame: np.ndarray, grid: Grid) -> np.ndarray:
    """Palette index of each cell, from a patch near its top-left corner (off the glyph)."""
    out = np.empty((grid.rows, grid.cols), dtype=np.int16)
    for r, (y0, y1) in enumerate(grid.ys):
        dy = max(4, (y1 - y0) // 10)
        for c, (x0, x1) in enumerate(grid.xs):
            dx = max(4, (x1 - x0) // 10)
            patch = frame[y0 + dy: y0 + dy + 2, x0 + dx: x0 + dx + 2].reshape(-1, 3).astype(np.int32)
            colour = np.median(patch, axis=0)
            out[r, c] = int(np.argmin(np.abs(_PALETTE - colour).sum(axis=1)))
    return out


@dataclass
class Play:
    """One game being played by the recorder on a bgcolors window."""

    game: GnomeMines
    screen: Screen
    rows: int
    cols: int
    mines: int
    grid: Grid | None = None
    marks: dict[tuple[int, int], int] = field(default_factory=dict)  # cell -> FLAG/QUESTION
    clicks: list[dict] = field(default_factory=list)
    exploded: tuple[int, int] | None = None
    pointer: object = None
    dialog_closed: bool = False

    def __post_init__(self) -> None:
        self.frames = FrameSource(self.screen, self.game.window.rect)   # the window, on screen

    def frame(self) -> np.ndarray:
        return self.frames.grab()

    def park(self) -> None:
        """Pointer inside the window, left of the board: no cell is hovered."""
        rect = self.game.window.rect
        self.pointer.move(rect.left + 3, rect.top + rect.height // 2, _bounds(rect))

    def _area(self) -> tuple[int, int, int, int] | None:
        board = self.grid.board if self.grid else None
        return None if board is None else (board.left, board.top, board.right, board.bottom)

    def settle(self, before: np.ndarray | None, timeout: float = 1.5) -> np.ndarray:
        """Wait for the board area to change from ``before`` (if given), then stop changing
        for 80 ms."""
        area = self._area()
        changed = [area or (0, 0, before.shape[1], before.shape[0])] if before is not None else []
        return self.frames.settled(area, before=before, changed=changed, quiet=0.01, hold=0.08,
                                   timeout=timeout + 1)

    def click(self, cell: tuple[int, int], button: str) -> np.ndarray:
        before = self.frame()
        rect = self.game.window.rect
        x, y = self.grid.center(*cell)
        board = self.grid.board
        bounds = (rect.left + board.left, rect.top + board.top,
                  rect.left + board.right, rect.top + board.bottom)
        self.pointer.click(rect.left + x, rect.top + y, button, bounds)
        self.clicks.append({"cell": [int(cell[0]), int(cell[1])], "button": button,
                            "x": int(round(x)), "y": int(round(y))})
        self.park()
        return self.settle(before)

    def mark(self, cell: tuple[int, int], times: int) -> None:
        """Right-click ``times`` times: 1 = flag, 2 = question mark."""
        for _ in range(times):
            self.click(cell, "right")
        self.marks[cell] = Cell.FLAG if times == 1 else Cell.QUESTION

    def close_dialogs(self) -> bool:
        """Close a "Congratulations!" window (it appears over the board on a win)."""
        dialogs = self.game.x11.dialogs_of(self.game.window.id)
        for dialog in dialogs:
            self.game.x11.focus(dialog.id)
            self.game.key("Escape")
        if dialogs:
            deadline = time.monotonic() + 3
            while self.game.x11.dialogs_of(self.game.window.id) and time.monotonic() < deadline:
                time.sleep(0.02)
            self.game.focus()
            self.dialog_closed = True
        return bool(dialogs)

    def read(self, frame: np.ndarray | None = None) -> Board:
        """The board as this recorder sees it (bgcolors only), with its own marks overlaid."""
        if self.close_dialogs():
            frame = None   # the board under the closed dialog, once redrawn
        if frame is None:
            frame, idx = read_once(self.frames, self._sample, self._area())
        else:
            idx = self._sample(frame)
        cells = np.where(idx <= 8, idx, Cell.COVERED).astype(np.int8)
        for cell, code in list(self.marks.items()):
            if idx[cell] <= 8:
                del self.marks[cell]  # a flood of zeros opened it and removed the mark
            else:
                cells[cell] = code
        lost = self.exploded is not None
        if lost:
            cells[idx == _P_PRESSED] = Cell.MINE
            cells[idx == _P_WRONG] = Cell.WRONG_FLAG
            cells[self.exploded] = Cell.EXPLODED
        covered_or_marked = (idx >= 9).sum()
        state = GameState.LOST if lost else (
            GameState.WON if covered_or_marked == self.mines else GameState.PLAYING)
        if state is GameState.WON:
            cells[idx >= 9] = Cell.FLAG  # the game flags every mine on a win
        return Board(cells, self.mines, state)

    def _sample(self, frame: np.ndarray) -> np.ndarray:
        """This recorder's reader: the palette index of every cell (the grid found first)."""
        if self.grid is None:
            self.grid = locate_fresh(frame, self.rows, self.cols)
        return sample_cells(frame, self.grid)

    def open(self, cell: tuple[int, int]) -> Board:
        frame = self.click(cell, "left")
        idx = self._sample(frame)
        # After a loss bgcolors shows every unflagged mine on #888a85 (nothing is pressed now,
        # the button is up), and the clicked cell stays unrevealed.
        if (idx == _P_PRESSED).any() or idx[cell] > 8:
            self.exploded = cell
        return self.read(frame)


def _bounds(rect: Rect) -> tuple[int, int, int, int]:
    return rect.left, rect.top, rect.right, rect.bottom


class _Retry(Exception):
    """The game went somewhere unusable for the fixture (e.g. lost too early): play again."""


class Recorder:
    """Plays scenarios and writes PNG + JSON pairs into ``out``."""

    def __init__(self, out: Path, seed: int = 1, style: str = "light") -> None:
        self.out = out
        self.style = style
        version = installed_version() or (40, 1)
        self.version = ".".join(map(str, version))
        # 40.1's light frames keep their old names; newer versions and styles say theirs
        self.tag = "" if version < (48,) and style == "light" else f"-gm{version[0]}" + (
            "-dark" if style == "dark" else "")
        self.rng = random.Random(seed)
        self.written: list[Path] = []
        from minebot.solver import Solver
        self.solver = Solver()

    # -- saving ------------------------------------------------------------------------
    def save_all_themes(self, play: Play, name: str, phase: str, board: Board,
                        extra: dict | None = None, full_screen: bool = False) -> None:
        """Capture the current position in every theme (bgcolors last, as played)."""
        import cv2
        themes = [t for t in themes_of() if t != "bgcolors"] + ["bgcolors"]
        for theme in themes:
            before = play.frame()
            play.game.set_theme(theme)
            play.settle(before, timeout=0.7)
            play.park()
            frame = play.screen.grab() if full_screen else play.frame()
            rect = play.game.window.rect
            stem = f"{theme}{self.tag}-{name}-{phase}"
            path = self.out / f"{stem}.png"
            cv2.imwrite(str(path), frame, [cv2.IMWRITE_PNG_COMPRESSION, 9])
            meta = {
                "game": f"gnome-mines {self.version}", "theme": theme, "style": self.style, "cols": play.cols, "rows": play.rows,
                "mines": play.mines, "phase": phase,
                "window": [rect.width, rect.height],
                "window_rect_on_screen": [rect.left, rect.top, rect.width, rect.height],
                "screen": [play.screen.rect.width, play.screen.rect.height],
                "crop": "screen" if full_screen else "window",
                "board_rect_in_window": [play.grid.board.left, play.grid.board.top,
                                         play.grid.board.right, play.grid.board.bottom],
                "pointer": "parked inside the window, left of the board",
                "clicks": list(play.clicks),
                "board_hint": board.to_text().splitlines(),
                "board_hint_note": "read by the recorder from the bgcolors colours plus its own "
                                   "marks; unverified, not truth",
            }
            meta.update(extra or {})
            path.with_suffix(".json").write_text(json.dumps(meta, indent=1) + "\n")
            self.written.append(path)
            print(f"  wrote {path.name} ({path.stat().st_size // 1024} KB)", flush=True)

    # -- playing -----------------------------------------------------------------------
    def solve_step(self, play: Play, board: Board, allow_guess: bool) -> Board | None:
        """Play one batch of the solver's moves; None when only a guess is left and not allowed."""
        clean = board.replace(cells=np.where(board.cells == Cell.QUESTION, Cell.COVERED, board.cells))
        moves = self.solver.next_moves(clean, mines=play.mines, rules="zero")
        if not moves or (moves[0].p_mine > 0 and not allow_guess):
            return None
        for move in moves:
            if board.cells[move.cell] <= 8 or move.cell in play.marks:
                continue
            board = play.open(move.cell)
            if board.is_over:
                break
        return board

    def scenario(self, xvfb: Xvfb, name: str, rows: int, cols: int, mines: int,
                 window: tuple[int, int], level: str | None, full_screen_at: tuple[int, int] | None = None,
                 dense: bool = False, tries: int = 8) -> None:
        """fresh -> mid (flags and ?) -> lost, each captured in all three themes.

        ``dense``: a board with many mines, played with guesses until much of it is open, so
        that the high numbers (5-8) show up; games lost on the way are retried.
        """
        for _attempt in range(tries):
            try:
                return self._scenario(xvfb, name, rows, cols, mines, window, level,
                                      full_screen_at, dense)
            except _Retry as exc:
                print(f"  retry ({exc})", flush=True)
        raise DesktopError(f"scenario {name}: no usable game in {tries} tries")

    def _scenario(self, xvfb: Xvfb, name: str, rows: int, cols: int, mines: int,
                  window: tuple[int, int], level: str | None, full_screen_at, dense: bool) -> None:
        from minebot.backends.x11.pointer import Pointer
        print(f"scenario {name}: {cols}x{rows}/{mines} window {window[0]}x{window[1]}", flush=True)
        custom = None if level else (rows, cols, mines)
        if custom and custom_mines_roundtrip(rows, cols, mines) != mines:
            raise DesktopError(f"{mines} mines on {cols}x{rows} would become "
                               f"{custom_mines_roundtrip(rows, cols, mines)} in GNOME Mines' dialog")
        with GnomeMines(xvfb, theme="bgcolors", window=window, level=level, custom=custom,
                        style=self.style) as game, \
                Screen(xvfb.display) as screen:
            if full_screen_at:
                game.move_resize(*full_screen_at)
            game.focus()
            play = Play(game, screen, rows, cols, mines, pointer=Pointer(xvfb.display))
            play.park()
            play.settle(None)
            board = play.read()
            suffix = "-fullscreen" if full_screen_at else ""
            extra = {"level": level or "custom"}
            if not full_screen_at:
                self.save_all_themes(play, name, "fresh", board, extra)
            # Mid-game: play certain moves until a good part is open (guess only at the start).
            board = play.open((rows // 2, cols // 2))
            target = (0.45 if dense else 0.3) * rows * cols
            while not board.is_over and board.revealed.sum() < target:
                nxt = self.solve_step(play, board, allow_guess=dense or board.revealed.sum() < 12)
                if nxt is None:
                    break
                board = nxt
            if board.is_over:
                raise _Retry("the game ended while setting up mid-game")
            analysis = self.solver.analyse(board.replace(
                cells=np.where(board.cells >= Cell.FLAG, Cell.COVERED, board.cells)), mines=mines)
            sure_mines = [tuple(m) for m in analysis.mines][:3]
            covered = [tuple(map(int, rc)) for rc in np.argwhere(board.cells == Cell.COVERED)
                       if tuple(map(int, rc)) not in sure_mines]
            self.rng.shuffle(covered)
            for cell in sure_mines:
                play.mark(cell, 1)
            for cell in covered[:2]:
                play.mark(cell, 2)
            play.mark(covered[2], 1)
            board = play.read()
            self.save_all_themes(play, name, "mid" + suffix, board, extra, full_screen=bool(full_screen_at))
            if full_screen_at:
                return
            # Lost: a few more flags on random covered cells (likely wrong), then open a mine.
            for cell in covered[3:6]:
                play.mark(cell, 1)
            analysis = self.solver.analyse(board.replace(
                cells=np.where(board.cells >= Cell.FLAG, Cell.COVERED, board.cells)), mines=mines)
            board = play.read()
            order = [tuple(m) for m in analysis.mines if tuple(m) not in play.marks]
            prob = np.nan_to_num(analysis.probability, nan=-1.0)
            order += [tuple(map(int, rc)) for rc in np.dstack(np.unravel_index(
                np.argsort(-prob, axis=None), prob.shape))[0]]
            for cell in order:
                if board.cells[cell] != Cell.COVERED:
                    continue
                board = play.open(cell)
                if board.is_over:
                    break
            if board.state is not GameState.LOST:
                raise DesktopError(f"scenario {name}: could not lose on purpose")
            self.save_all_themes(play, name, "lost", board, extra)

    def won(self, xvfb: Xvfb, name: str, level: str, window: tuple[int, int], tries: int = 6) -> None:
        """Play whole games with the solver until one is won; capture it in all themes."""
        from minebot.backends.x11.pointer import Pointer
        from minebot.levels import LEVELS
        lv = LEVELS[level]
        for attempt in range(tries):
            print(f"won {name}: attempt {attempt + 1}", flush=True)
            with GnomeMines(xvfb, theme="bgcolors", window=window, level=level, style=self.style) as game, \
                    Screen(xvfb.display) as screen:
                play = Play(game, screen, lv.rows, lv.cols, lv.mines, pointer=Pointer(xvfb.display))
                play.park()
                play.settle(None)
                board = play.read()
                while not board.is_over:
                    board = self.solve_step(play, board, allow_guess=True)
                if board.state is not GameState.WON:
                    continue
                time.sleep(0.3)
                play.close_dialogs()
                extra = {"level": level, "congratulations_dialog_closed": play.dialog_closed}
                self.save_all_themes(play, name, "won", board, extra)
                return
        raise DesktopError(f"no {level} game won in {tries} tries")


SCENARIOS = [
    # name, rows, cols, mines, X window size, level
    ("8x8-590x460", 8, 8, 10, (590, 460), "beginner"),
    ("16x16-810x656", 16, 16, 40, (810, 656), "intermediate"),
    ("30x16-1290x760", 16, 30, 99, (1290, 760), "expert"),
    ("20x12-700x560", 12, 20, 48, (700, 560), None),
]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog=".venv/bin/python tools/record_fixtures.py",
        description="Play the real GNOME Mines under a private Xvfb and save window screenshots "
                    "(all three themes) with JSON sidecars for the vision tests.")
    parser.add_argument("--out", default="fixtures/gnome-mines", help="folder for PNG + JSON")
    parser.add_argument("--seed", type=int, default=1, help="seed for the recorder's random marks")
    parser.add_argument("--only", nargs="*", help="scenario names to record (default all, plus won)")
    parser.add_argument("--style", default="light", choices=("light", "dark"),
                        help="the game's colour scheme (GNOME Mines 49 and later follow it)")
    args = parser.parse_args(argv)
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    from minebot.sandbox.xvfb import exit_on_sigterm
    exit_on_sigterm()
    rec = Recorder(out, args.seed, args.style)
    wanted = set(args.only or [])
    with Xvfb(1920, 1080) as xvfb:
        for name, rows, cols, mines, window, level in SCENARIOS:
            if not wanted or name in wanted:
                rec.scenario(xvfb, name, rows, cols, mines, window, level)
        if not wanted or "fullscreen" in wanted:
            rec.scenario(xvfb, "16x16-900x700", 16, 16, 40, (900, 700), "intermediate",
                         full_screen_at=(137, 91))
        if not wanted or "dense" in wanted:
            rec.scenario(xvfb, "12x10-760x600-dense", 10, 12, 36, (760, 600), None, dense=True)
        if not wanted or "dense-small" in wanted:   # high numbers at the smallest cell size
            rec.scenario(xvfb, "30x16-1010x656-dense", 16, 30, 129, (1010, 656), None, dense=True,
                         tries=20)
        if not wanted or "won" in wanted:
            rec.won(xvfb, "8x8-810x656", "beginner", (810, 656))
        if not wanted or "won-expert" in wanted:
            rec.won(xvfb, "30x16-1010x656", "expert", (1010, 656), tries=10)
    print(f"{len(rec.written)} screenshots in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
