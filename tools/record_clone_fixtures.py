"""Record screenshots of real Minesweeper clones (xdemineur, KMines) with proven truth boards.

    .venv/bin/python tools/record_clone_fixtures.py [--out fixtures] [--only xdemineur|kmines]

Each game runs privately: its own Xvfb (``minebot.sandbox.Xvfb``), KMines also its own
``dbus-run-session`` and a private ``XDG_CONFIG_HOME`` holding a ``kminesrc``. Both are ended by
their process group (the one this tool started), never by name. The pointer is driven with
``xdotool`` at cell centres computed from the geometry measured on the window.

How truth is proven, without reading a single digit:

* A covered cell looks exactly like every other covered cell (no hover effects in either game,
  the pointer is parked off the window), so "revealed" is "differs from the covered tile and
  carries no mark of ours" (we know every flag and "?" we placed).
* A click that loses changes, at once, the clicked cell and every other mine (unflagged mines
  are shown, wrong flags are crossed out) and nothing else; a safe click changes only a
  connected area around the clicked cell. So the frames before and after the losing click give
  the full mine layout: changed covered/"?" cells, unchanged flags (right flags stay), and the
  clicked cell; changed flags are wrong flags.
* Revealed cells never change, so every revealed number in every frame of the game is the count
  of mines around it in that layout. As a check, every revealed cell that gets the same number
  must look pixel-identical, and different numbers must look different (``check_looks``).
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from minebot.backends.frames import FrameSource  # noqa: E402
from minebot.backends.x11.capture import Screen  # noqa: E402
from minebot.board import CELL_CHARS, Board, Cell, neighbour_count  # noqa: E402
from minebot.errors import DesktopError  # noqa: E402
from minebot.games.ace_minesweeper.launcher import AceMinesweeper  # noqa: E402
from minebot.games.ace_minesweeper.profile import BOARDS as ACE_BOARDS  # noqa: E402
from minebot.games.kmines.launcher import KMines  # noqa: E402
from minebot.games.kmines.profile import LEVELS as KMINES_LEVELS  # noqa: E402
from minebot.games.sgt_mines.launcher import SgtMines  # noqa: E402
from minebot.games.xdemineur.launcher import Xdemineur  # noqa: E402
from minebot.sandbox.xvfb import Xvfb  # noqa: E402

SCREEN = (1280, 1024)
PARK = (SCREEN[0] - 4, SCREEN[1] - 4)        # pointer parked off every window
LOOK_TOLERANCE = 2.0                          # mean |diff| below which two cell crops are "the same"


def version_of(package: str) -> str:
    out = subprocess.run(["dpkg-query", "-W", "-f=${Version}", package], capture_output=True, text=True)
    return out.stdout.strip() or "unknown"


# -- a game on its own display -----------------------------------------------------------------

@dataclass
class Geometry:
    """Where the cells are, in window coordinates: cell (r, c) spans
    x0 + c*pitch .. x0 + c*pitch + pitch - 1 (likewise y)."""
    x0: int
    y0: int
    pitch: int
    rows: int
    cols: int
    inset: int | None = None         # pixels left out of every cell crop (None: pitch // 8)

    def centre(self, r: int, c: int) -> tuple[int, int]:
        return self.x0 + c * self.pitch + self.pitch // 2, self.y0 + r * self.pitch + self.pitch // 2

    def crop(self, img: np.ndarray, r: int, c: int, inset: int | None = None) -> np.ndarray:
        """The cell's pixels less an inset (KMines' tile edges let the background through)."""
        x, y, p = self.x0 + c * self.pitch, self.y0 + r * self.pitch, self.pitch
        inset = inset if inset is not None else self.inset if self.inset is not None else max(1, p // 8)
        return img[y + inset: y + p - inset, x + inset: x + p - inset].astype(np.int16)

    def board_rect(self) -> list[int]:
        return [self.x0, self.y0, self.x0 + self.cols * self.pitch, self.y0 + self.rows * self.pitch]


def same(a: np.ndarray, b: np.ndarray) -> bool:
    return a.shape == b.shape and float(np.abs(a - b).mean()) < LOOK_TOLERANCE


class Session:
    """One game (a game folder's ``launcher``, made by ``make(display)``) on its own
    Xvfb; the pointer is parked off the window."""

    def __init__(self, make) -> None:
        self.make = make
        self.xvfb = Xvfb(*SCREEN)
        self.game = self.frames = None

    def __enter__(self) -> "Session":
        self.xvfb.start()
        try:
            self.env = self.xvfb.env()
            self.game = self.make(self.xvfb).start()
            self.x = self.game.x11
            self.window = self.game.refresh()
            self.frames = FrameSource(Screen(self.xvfb.display), self.window.rect)
            self.xdo("mousemove", *map(str, PARK))
            time.sleep(0.8)
        except BaseException:
            self.__exit__()
            raise
        return self

    def __exit__(self, *exc) -> None:
        frames, self.frames = self.frames, None
        if frames is not None:
            frames.close()
        game, self.game = self.game, None
        if game is not None:
            game.stop()
        self.xvfb.stop()

    def xdo(self, *args: str) -> None:
        subprocess.run(["xdotool", *args], env=self.env, check=True, capture_output=True)

    def grab(self, settle: float = 0.35) -> np.ndarray:
        time.sleep(settle)
        return self.frames.grab()

    def click(self, geo: Geometry, r: int, c: int, button: int = 1) -> None:
        x, y = geo.centre(r, c)
        self.xdo("mousemove", str(self.window.rect.left + x), str(self.window.rect.top + y),
                 "click", str(button), "mousemove", *map(str, PARK))

    def where(self) -> dict:
        """The metadata every fixture of this session carries about its window and screen."""
        rect = self.window.rect
        return {"window_id": self.xprop(), "screen": list(SCREEN),
                "window_rect_on_screen": [rect.left, rect.top, rect.width, rect.height]}

    def xprop(self) -> str:
        out = subprocess.run(["xprop", "-id", str(self.window.id), "WM_NAME", "_NET_WM_NAME", "WM_CLASS",
                              "_NET_WM_PID"], env=self.env, capture_output=True)
        return out.stdout.decode("latin-1").strip()


# -- one game, from fresh to lost ---------------------------------------------------------------

@dataclass
class Frame:
    name: str
    img: np.ndarray
    marks: dict                      # (r, c) -> Cell.FLAG / Cell.QUESTION at the time
    state: str = "playing"
    all_shown: bool = True           # a lost frame shows every mine (Simon Tatham's Mines: only
                                     # the one hit, until Solve shows the rest)


@dataclass
class Game:
    geo: Geometry
    mines_total: int
    covered: np.ndarray              # the covered-tile look
    frames: list = field(default_factory=list)
    clicks: list = field(default_factory=list)
    mines: np.ndarray | None = None
    exploded: tuple | None = None

    def looks_covered(self, img: np.ndarray) -> np.ndarray:
        g = self.geo
        return np.array([[same(g.crop(img, r, c), self.covered) for c in range(g.cols)]
                         for r in range(g.rows)])

    def changed(self, a: np.ndarray, b: np.ndarray) -> np.ndarray:
        g = self.geo
        return np.array([[not same(g.crop(a, r, c), g.crop(b, r, c)) for c in range(g.cols)]
                         for r in range(g.rows)])


def connected_from(mask: np.ndarray, start: tuple[int, int]) -> np.ndarray:
    seen = np.zeros_like(mask)
    if not mask[start]:
        return seen
    stack = [start]
    seen[start] = True
    while stack:
        r, c = stack.pop()
        for dr in (-1, 0, 1):
            for dc in (-1, 0, 1):
                rr, cc = r + dr, c + dc
                if 0 <= rr < mask.shape[0] and 0 <= cc < mask.shape[1] and mask[rr, cc] and not seen[rr, cc]:
                    seen[rr, cc] = True
                    stack.append((rr, cc))
    return seen


def play_to_loss(s: Session, game: Game, rng: random.Random, first: np.ndarray, *,
                 mid_after: float, n_flags: int = 2, n_question: int = 1, lost_settle: float = 0.5,
                 mid_clicks: int | None = None, hit: Callable[[np.ndarray], bool] | None = None,
                 reveal: Callable[[], None] | None = None, crowd: bool = False,
                 near: bool = False) -> None:
    """Click random covered cells until the game is lost; keep fresh/mid/lost frames.

    The mid-game marks go on covered cells away from everything open, or with ``near`` on
    covered cells next to an open one (where a player puts a "?": the frontier).

    With ``crowd``, the mid-game marks also flag every covered neighbour of the open number
    that has most of them, so that it sees more flags than it says (unless they are all
    mines): Simon Tatham's Mines then draws that number on pink.

    A game that shows only the mine hit (Simon Tatham's Mines) is told lost by ``hit`` (the
    clicked cell's crop shows the exploded mine); its frame then is the "dead" one, and
    ``reveal`` (its Solve) shows every mine for the "lost" frame, whose changes give the layout
    as for the other games."""
    g = game.geo
    marks: dict = {}
    game.frames.append(Frame("fresh", first, dict(marks)))
    prev = first
    mid_done = False
    safe_clicks = 0
    for _ in range(400):
        cov = game.looks_covered(prev)
        free = [(r, c) for r in range(g.rows) for c in range(g.cols) if cov[r, c] and (r, c) not in marks]
        if not free:
            raise DesktopError("no covered cell left to click")
        cell = rng.choice(free)
        s.click(g, *cell)
        game.clicks.append({"cell": list(cell), "button": "left"})
        now = s.grab()
        ch = game.changed(prev, now)
        if not ch[cell]:
            raise DesktopError(f"click on {cell} changed nothing")
        if (ch & ~connected_from(ch, cell)).any() or (hit is not None and hit(g.crop(now, *cell, inset=0))):
            if not mid_done:
                raise DesktopError("lost before the mid-game frame")
            # cells changed away from the click: the game was lost, all mines are shown
            time.sleep(lost_settle)                   # KMines' "You have lost." popup fades in 4 s
            if reveal is not None:
                game.frames.append(Frame("dead", s.grab(), dict(marks), "lost", all_shown=False))
                reveal()
            final = s.grab()
            again = s.grab(0.5)
            if not same(final.astype(np.int16), again.astype(np.int16)):
                raise DesktopError("the lost frame is still changing")
            ch = game.changed(prev, final)
            mines = np.zeros((g.rows, g.cols), bool)
            for r in range(g.rows):
                for c in range(g.cols):
                    m = marks.get((r, c))
                    if m == Cell.FLAG:
                        mines[r, c] = not ch[r, c]              # right flags stay, wrong ones change
                    elif cov[r, c] or m == Cell.QUESTION:
                        mines[r, c] = ch[r, c]
                    elif ch[r, c] and not (reveal is not None and over_flagged(g.crop(prev, r, c, inset=0))):
                        # (a number drawn on pink for too many flags around it turns back to
                        # its grey when Solve crosses the wrong flags out)
                        raise DesktopError(f"revealed cell {(r, c)} changed at the loss")
            mines[cell] = True
            if int(mines.sum()) != game.mines_total:
                raise DesktopError(f"loss shows {int(mines.sum())} mines, the game has {game.mines_total}")
            game.mines, game.exploded = mines, cell
            game.frames.append(Frame("lost", final, dict(marks), "lost"))
            return
        prev = now
        revealed = (~game.looks_covered(now)).sum() - len(marks)
        safe_clicks += 1
        if not mid_done and (revealed >= mid_after * g.rows * g.cols
                             or (mid_clicks is not None and safe_clicks >= mid_clicks)):
            # a few marks on cells away from everything open, then the mid-game frame
            cov = game.looks_covered(now)
            far = [(r, c) for r in range(g.rows) for c in range(g.cols)
                   if cov[r, c] and (neighbour_count(~cov)[r, c] > 0) == near and (r, c) not in marks]
            rng.shuffle(far)
            for i, m in enumerate(far[: n_flags + n_question]):
                presses = 1 if i < n_flags else 2      # flag, or flag -> "?"
                for _ in range(presses):
                    s.click(g, *m, button=3)
                    game.clicks.append({"cell": list(m), "button": "right"})
                marks[m] = Cell.FLAG if i < n_flags else Cell.QUESTION
            if crowd:
                for m in crowded(cov, marks):
                    s.click(g, *m, button=3)
                    game.clicks.append({"cell": list(m), "button": "right"})
                    marks[m] = Cell.FLAG
            prev = s.grab()
            game.frames.append(Frame("mid", prev, dict(marks)))
            mid_done = True
    raise DesktopError("no loss after 400 clicks")


def crowded(cov: np.ndarray, marks: dict) -> list[tuple[int, int]]:
    """The unmarked covered neighbours of the open cell that has most of them (at least 2)."""
    rows, cols = cov.shape
    free = cov.copy()
    for m in marks:
        free[m] = False
    around = neighbour_count(free)
    around[cov] = 0
    r, c = np.unravel_index(int(np.argmax(around)), around.shape)
    if around[r, c] < 2:
        return []
    return [(rr, cc) for rr in range(max(r - 1, 0), min(r + 2, rows))
            for cc in range(max(c - 1, 0), min(c + 2, cols)) if free[rr, cc]]


def truth_boards(game: Game) -> dict[str, Board]:
    g, mines = game.geo, game.mines
    counts = neighbour_count(mines)
    out = {}
    for fr in game.frames:
        cov = game.looks_covered(fr.img)
        rows = []
        for r in range(g.rows):
            line = ""
            for c in range(g.cols):
                m = fr.marks.get((r, c))
                if fr.state == "lost" and not fr.all_shown:
                    if (r, c) == game.exploded:
                        line += "X"
                    elif m is not None:
                        line += "F" if m == Cell.FLAG else "?"
                    elif cov[r, c]:
                        line += "-"
                    else:
                        line += str(int(counts[r, c]))
                elif fr.state == "lost":
                    if (r, c) == game.exploded:
                        line += "X"
                    elif m == Cell.FLAG:
                        line += "F" if mines[r, c] else "W"
                    elif mines[r, c]:
                        line += "*"
                    elif m == Cell.QUESTION:
                        line += "?"
                    elif cov[r, c]:
                        line += "-"
                    else:
                        line += str(int(counts[r, c]))
                else:
                    if m is not None:
                        line += "F" if m == Cell.FLAG else "?"
                    elif cov[r, c]:
                        line += "-"
                    else:
                        if mines[r, c]:
                            raise DesktopError(f"{fr.name}: revealed cell {(r, c)} is a mine")
                        line += str(int(counts[r, c]))
            rows.append(line)
        header = {"rows": g.rows, "cols": g.cols, "mines": game.mines_total, "state": fr.state}
        out[fr.name] = Board.parse(json.dumps(header) + "\n" + "\n".join(rows) + "\n")
    return out


def check_looks(game: Game, boards: dict[str, Board]) -> list[str]:
    """The truth must agree with the pixels: each cell's most similar other cell (by mean
    absolute difference, other positions only) must carry the same code. Checked on every cell
    of the lost frame (it holds every revealed cell of the game) and on the marks of the other
    frames. Nearest-neighbour rather than exact equality because KMines draws its tiles partly
    transparent over a background gradient, so one code looks slightly different by position."""
    g = game.geo
    samples = []
    for fr in game.frames:
        b = boards[fr.name]
        for r in range(g.rows):
            for c in range(g.cols):
                if fr.state == "lost" or (r, c) in fr.marks:
                    samples.append((int(b.cells[r, c]), (r, c), fr.name, g.crop(fr.img, r, c).ravel()))
    codes = np.array([s[0] for s in samples])
    pos = [s[1] for s in samples]
    x = np.stack([s[3] for s in samples]).astype(np.float32)
    problems = []
    for i in range(len(samples)):
        if (codes == codes[i]).sum() - sum(1 for j, p in enumerate(pos) if p == pos[i] and codes[j] == codes[i]) == 0:
            continue                                    # the only cell with this code: nothing to compare
        d = np.abs(x - x[i]).mean(axis=1)
        for j, p in enumerate(pos):
            if p == pos[i]:
                d[j] = np.inf
        j = int(np.argmin(d))
        if codes[j] != codes[i]:
            problems.append(f"{samples[i][2]} {pos[i]}: truth {CELL_CHARS[codes[i]]} but it looks most "
                            f"like {pos[j]} ({CELL_CHARS[codes[j]]})")
    return problems


# -- writing -----------------------------------------------------------------------------------

def write_game(out: Path, stem: str, game: Game, meta: dict, only: tuple[str, ...] | None = None) -> list[str]:
    sys.path.insert(0, str(ROOT / "tests"))
    from test_vision_truth import logic_problems
    boards = truth_boards(game)
    problems = check_looks(game, boards)
    shown = {fr.name: fr.all_shown for fr in game.frames}
    for name, b in boards.items():
        problems += [f"{name}: {p}" for p in logic_problems(b, game.mines_total, shown[name])]
    if problems:
        raise DesktopError("truth check failed: " + "; ".join(problems[:8]))
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for fr in game.frames:
        if only and fr.name not in only:
            continue
        name = f"{stem}-{fr.name}"
        cv2.imwrite(str(out / f"{name}.png"), fr.img, [cv2.IMWRITE_PNG_COMPRESSION, 9])
        boards[fr.name].save(out / f"{name}.board")
        m = dict(meta, phase=fr.name, state=fr.state, window=[int(fr.img.shape[1]), int(fr.img.shape[0])],
                 crop="window", board_rect_in_image=game.geo.board_rect(),
                 first_cell_origin=[game.geo.x0, game.geo.y0], cell_pitch=game.geo.pitch,
                 rows=game.geo.rows, cols=game.geo.cols, mines=game.mines_total,
                 marks={f"{r},{c}": ("F" if v == Cell.FLAG else "?") for (r, c), v in sorted(fr.marks.items())},
                 mines_shown="all" if fr.all_shown or fr.state != "lost" else "the mine hit only",
                 truth=("lost game: the frame shows every mine; numbers are mine counts of that layout"
                        if fr.state == "lost" and fr.all_shown else
                        "lost game showing only the mine hit: the same game's frame after Solve "
                        "shows every mine; numbers are the mine counts of that layout"
                        if fr.state == "lost" else
                        "the same game's lost frame shows every mine; revealed cells never change, so each "
                        "number here is the mine count around it in that layout"),
                 truth_checks=["logic_problems", "each cell's most similar other cell (mean absolute "
                                "difference) carries the same truth code"],
                 pointer="parked off the window")
        (out / f"{name}.json").write_text(json.dumps(m, indent=1) + "\n")
        written.append(name)
        print(f"wrote {out / name}.png", flush=True)
    return written


# -- xdemineur ---------------------------------------------------------------------------------

XD_ORIGIN, XD_PITCH = (16, 81), 21
"""Cell (r, c) is x 16+21c..35+21c, y 81+21r..100+21r inside the window; 1 px black lines at
x = 15+21c and y = 80+21r (measured on the screenshots)."""


def record_xdemineur(out: Path, rng: random.Random, cols: int = 30, rows: int = 16, mines: int = 100,
                     stem: str | None = None, mid_after: float = 0.25, mid_clicks: int | None = 2,
                     only: tuple[str, ...] | None = None, **marks) -> list[str]:
    """One xdemineur game to its loss; ``marks`` (``n_flags``, ``n_question``, ``near``) go
    to ``play_to_loss``."""
    for attempt in range(8):
        with Session(lambda d: Xdemineur(d, cols=cols, rows=rows, mines=mines)) as s:
            geo = Geometry(XD_ORIGIN[0], XD_ORIGIN[1], XD_PITCH, rows, cols)
            first = s.grab(0.5)
            # the covered look: the most common cell crop of the fresh board
            crops = [geo.crop(first, r, c) for r in range(rows) for c in range(cols)]
            counts = [sum(same(a, b) for b in crops[::7]) for a in crops[::7]]
            covered = crops[::7][int(np.argmax(counts))]
            game = Game(geo, mines, covered)
            try:
                play_to_loss(s, game, rng, first, mid_after=mid_after, mid_clicks=mid_clicks, **marks)
                meta = {"game": f"xdemineur {version_of('xdemineur')}", "theme": "built-in",
                        "argv": s.game.argv()[1:], **s.where(), "clicks": game.clicks}
                return write_game(out, stem or f"xdemineur-{cols}x{rows}-{mines}", game, meta, only)
            except DesktopError as exc:
                print(f"xdemineur attempt {attempt + 1}: {exc}", flush=True)
    raise DesktopError("xdemineur: no good game in 8 attempts")


def record_xdemineur_won(out: Path, cols: int = 12, rows: int = 8, mines: int = 4,
                         attempts: int = 15) -> list[str]:
    """A won xdemineur game without guessing: with few mines the opening xdemineur makes by
    itself often leaves exactly ``mines`` cells covered; those are the mines (proof: every
    other cell is open), and flagging them wins (xdemineur declares a win only when every
    mine is flagged and every other cell open)."""
    geo = Geometry(XD_ORIGIN[0], XD_ORIGIN[1], XD_PITCH, rows, cols)
    for attempt in range(attempts):
        with Session(lambda d: Xdemineur(d, cols=cols, rows=rows, mines=mines)) as s:
            first = s.grab(0.5)
            # a covered cell is a raised tile: white bevel at its top-left, grey (#7f7f7f) at its
            # bottom-right; an open cell is flat grey
            def raised(r, c):
                x, y = geo.x0 + c * geo.pitch, geo.y0 + r * geo.pitch
                return (first[y + 1, x + 1] == 255).all() and (first[y + 18, x + 18] == 127).all()
            cells = [(r, c) for r in range(rows) for c in range(cols) if raised(r, c)]
            if len(cells) != mines:
                continue
            game = Game(geo, mines, geo.crop(first, *cells[0]))
            game.mines = np.zeros((rows, cols), bool)
            for rc in cells:
                game.mines[rc] = True
            for rc in cells:
                s.click(geo, *rc, button=3)
                game.clicks.append({"cell": list(rc), "button": "right"})
            won = s.grab(0.5)
            if not all(game.changed(first, won)[rc] for rc in cells):
                raise DesktopError("a right-click on a covered cell did not flag it")
            marks = {rc: Cell.FLAG for rc in cells}
            game.frames = [Frame("won", won, marks, "won")]
            name = f"xdemineur-{cols}x{rows}-{mines}-won"
            save_won(game, won, mines, out, name, s, geo, {
                "game": f"xdemineur {version_of('xdemineur')}", "theme": "built-in", "argv": s.game.argv()[1:],
                "marks": {f"{r},{c}": "F" for r, c in cells},
                "truth": f"xdemineur's own opening left exactly {mines} cells covered, all others open, "
                         f"so those {mines} are the mines; flagging them won the game; numbers are the "
                         "mine counts of that layout",
                "truth_checks": ["logic_problems", "each of those cells changed when right-clicked (flagged)"]})
            print(f"wrote {out / name}.png (attempt {attempt + 1})", flush=True)
            return [name]
    raise DesktopError(f"xdemineur: no opening left exactly {mines} cells covered in {attempts} games")


def set_won(game: Game, image: np.ndarray, flags: np.ndarray) -> None:
    """The game's one frame is ``image``, won, and its mines are the ``flags`` it shows."""
    game.mines = flags
    game.frames = [Frame("won", image, {tuple(x): Cell.FLAG for x in np.argwhere(flags)}, "won")]


def won_board(game: Game) -> Board:
    g, mines = game.geo, game.mines
    counts = neighbour_count(mines)
    rows = ["".join("F" if mines[r, c] else str(int(counts[r, c])) for c in range(g.cols)) for r in range(g.rows)]
    header = {"rows": g.rows, "cols": g.cols, "mines": game.mines_total, "state": "won"}
    return Board.parse(json.dumps(header) + "\n" + "\n".join(rows) + "\n")


# -- KMines ------------------------------------------------------------------------------------

KM_CUSTOM = {"Dense": (10, 10, 40)}
"""Custom levels recorded besides KMines' own: (rows, cols, mines); many mines, so the numbers
5-8 show up."""



def save_won(game, image: np.ndarray, mines: int, out: Path, name: str, session, geo,
             meta: dict) -> Board:
    """The won frame's truth board, checked against the rules, saved with its PNG and the
    metadata every won fixture carries (plus the game's own ``meta``)."""
    board = won_board(game)
    sys.path.insert(0, str(ROOT / "tests"))
    from test_vision_truth import logic_problems
    problems = logic_problems(board, mines)
    if problems:
        raise DesktopError("won board: " + "; ".join(problems))
    out.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(out / f"{name}.png"), image, [cv2.IMWRITE_PNG_COMPRESSION, 9])
    board.save(out / f"{name}.board")
    meta = {**meta, **session.where(), "phase": "won", "state": "won", "window": [int(image.shape[1]), int(image.shape[0])],
            "crop": "window", "board_rect_in_image": geo.board_rect(),
            "first_cell_origin": [geo.x0, geo.y0], "cell_pitch": geo.pitch,
            "rows": board.rows, "cols": board.cols, "mines": mines, "clicks": game.clicks,
            "pointer": "parked off the window"}
    (out / f"{name}.json").write_text(json.dumps(meta, indent=1) + "\n")
    return board

MEASURED: dict[tuple[int, int, int, int], Geometry] = {}
"""KMines geometry measured per (rows, cols, window width, window height)."""


def measure_by_press(s: Session, rows: int, cols: int, inset: int | None = None) -> tuple[Geometry, np.ndarray]:
    """(KMines, Simon Tatham's Mines) Press the left button at the window centre (the board is centred in the view): the
    pressed look fills exactly one cell, which gives the pitch; covered tiles repeat at that
    pitch to the board's edges. Release off the board, which undoes the press."""
    before = s.grab(0.3)
    w = s.window.rect
    cx, cy = w.width // 2, w.height // 2
    s.xdo("mousemove", str(w.left + cx), str(w.top + cy), "mousedown", "1")
    pressed = s.grab(0.3)
    s.xdo("mousemove", *map(str, PARK), "mouseup", "1")
    diff = np.abs(before.astype(np.int16) - pressed.astype(np.int16)).sum(axis=2) > 0
    ys, xs = np.nonzero(diff)
    if not len(xs):
        raise DesktopError("pressing the window centre changed nothing")
    x1, x2, y1, y2 = xs.min(), xs.max(), ys.min(), ys.max()
    key = (rows, cols, w.width, w.height)
    geo = None
    if abs((x2 - x1) - (y2 - y1)) <= 1 and x2 - x1 >= 8:
        pitch = int(max(x2 - x1, y2 - y1)) + 1
        k = max(1, pitch // 8) if inset is None else inset
        tile = before[y1 + k: y1 + pitch - k, x1 + k: x1 + pitch - k].astype(np.int16)

        def is_tile(x, y):
            return x >= 0 and y >= 0 and same(before[y + k: y + pitch - k, x + k: x + pitch - k].astype(np.int16), tile)

        left, top = x1, y1
        while is_tile(left - pitch, y1):
            left -= pitch
        while is_tile(x1, top - pitch):
            top -= pitch
        geo = Geometry(int(left), int(top), pitch, rows, cols, inset)
        n_c = sum(is_tile(left + k_ * pitch, top) for k_ in range(cols + 1))
        n_r = sum(is_tile(left, top + k_ * pitch) for k_ in range(rows + 1))
        if (n_c, n_r) == (cols, rows):
            MEASURED[key] = geo
        else:
            geo = None
    if geo is not None:
        pass
    elif key in MEASURED:
        # A theme whose pressed look does not fill the cell (green: a small signpost on grass):
        # the layout does not depend on the theme (minefielditem.cpp resizeToFitInRect), so use
        # the one measured at this window size and level, and check the press fell mid-cell.
        geo = MEASURED[key]
        px, py = (x1 + x2) / 2, (y1 + y2) / 2
        c, r = int((px - geo.x0) // geo.pitch), int((py - geo.y0) // geo.pitch)
        ex, ey = geo.centre(r, c)
        if abs(ex - px) > 3 or abs(ey - py) > 3:
            raise DesktopError(f"pressed look centred at {px},{py}, expected cell centre {ex},{ey}")
    else:
        raise DesktopError("the pressed look does not fill a cell and no geometry was measured "
                           "at this size with another theme")
    time.sleep(0.3)
    return geo, geo.crop(before, 0, 0)


def record_kmines(out: Path, rng: random.Random, theme: str, level: str, window: tuple[int, int] | None,
                  only: tuple[str, ...] | None = None, mid_after: float = 0.3,
                  mid_clicks: int | None = 3, suffix: str = "", **marks) -> list[str]:
    """One KMines game to its loss at ``window`` (None: KMines' own size); ``marks``
    (``n_flags``, ``n_question``, ``near``) go to ``play_to_loss``."""
    rows, cols, mines = KM_CUSTOM.get(level) or KMINES_LEVELS[level.lower()]
    for attempt in range(6):
        options = {"custom": KM_CUSTOM[level]} if level in KM_CUSTOM else {"level": level.lower()}
        with Session(lambda d: KMines(d, theme=theme, window=window, **options)) as s:
            kminesrc = s.game.kminesrc().splitlines()
            time.sleep(1.0)
            geo, covered = measure_by_press(s, rows, cols)
            first = s.grab(0.3)
            game = Game(geo, mines, covered)
            if not game.looks_covered(first).all():
                raise DesktopError("the fresh board is not all covered tiles at the measured geometry")
            try:
                play_to_loss(s, game, rng, first, mid_after=mid_after, mid_clicks=mid_clicks,
                             lost_settle=6.0, **marks)
                # no "Reset the Game?" box may be open
                others = [i for i in s.x.windows() if i.viewable and i.id != s.window.id]
                if others:
                    raise DesktopError(f"other windows open after the loss: {[o.title for o in others]}")
                meta = {"game": f"kmines {version_of('kmines')}", "theme": theme, "level": level,
                        "kminesrc": kminesrc, **s.where(), "clicks": game.clicks}
                w = s.window.rect
                return write_game(out, f"{theme}-{cols}x{rows}-{w.width}x{w.height}{suffix}", game, meta, only)
            except DesktopError as exc:
                print(f"kmines {theme} attempt {attempt + 1}: {exc}", flush=True)
    raise DesktopError(f"kmines {theme}: no good game in 6 attempts")


def record_kmines_won(out: Path, theme: str = "classic", window: tuple[int, int] = (640, 480),
                      size: tuple[int, int, int] = (12, 12, 4), attempts: int = 8) -> list[str]:
    """A won KMines game without guessing: a custom board with few mines, first click in the
    middle (KMines keeps it and its neighbours mine-free); when that opening leaves only mines
    covered KMines declares the win at once and flags them all. Truth: the flagged cells are
    the mines (the flag look is learnt first by flagging and unflagging a cell), their number is
    the mine total, every other cell is open."""
    rows, cols, mines = size
    for attempt in range(attempts):
        with Session(lambda d: KMines(d, theme=theme, window=window, custom=size)) as s:
            kminesrc = s.game.kminesrc().splitlines()
            time.sleep(1.0)
            geo, covered = measure_by_press(s, rows, cols)
            game = Game(geo, mines, covered)
            s.click(geo, 0, 0, button=3)
            flagged = s.grab()
            flag_look = geo.crop(flagged, 0, 0)
            s.click(geo, 0, 0, button=3)
            s.click(geo, 0, 0, button=3)
            first = s.grab()
            if not game.looks_covered(first).all():
                raise DesktopError("unflagging did not give a fresh board")
            mid = (rows // 2, cols // 2)
            s.click(geo, *mid)
            game.clicks.append({"cell": list(mid), "button": "left"})
            time.sleep(6.0)                     # "Congratulations! You have won!" fades in 4 s
            dialogs = [i for i in s.x.windows() if i.viewable and i.id != s.window.id]
            for d in dialogs:                   # the high-score name box
                s.xdo("windowfocus", str(d.id))
                s.xdo("key", "Escape")
            time.sleep(0.8)
            left = [i.title for i in s.x.windows() if i.viewable and i.id != s.window.id]
            if left:
                raise DesktopError(f"windows still open over the board: {left}")
            won = s.grab(0.5)
            is_flag = np.array([[same(geo.crop(won, r, c), flag_look) for c in range(cols)]
                                for r in range(rows)])
            if int(is_flag.sum()) != mines or game.looks_covered(won).any():
                print(f"kmines won attempt {attempt + 1}: not won by the first click ({int(is_flag.sum())} flag looks, "
                      f"{int(game.looks_covered(won).sum())} covered)", flush=True)
                continue
            set_won(game, won, is_flag)
            name = f"{theme}-{cols}x{rows}-{window[0]}x{window[1]}-{mines}-won"
            save_won(game, won, mines, out, name, s, geo, {
                "game": f"kmines {version_of('kmines')}", "theme": theme, "level": "Custom",
                "kminesrc": kminesrc, "high_score_dialog_closed": [d.title for d in dialogs],
                "truth": "won by the first click: KMines flagged the remaining cells, which look exactly "
                         "like the flag placed (and removed) before the game, and there are as many as "
                         "mines; numbers are the mine counts of that layout",
                "truth_checks": ["logic_problems", "flag look learnt on the same board"]})
            print(f"wrote {out / name}.png (attempt {attempt + 1})", flush=True)
            return [name]
    raise DesktopError(f"kmines: the first click did not win in {attempts} games")


# -- Simon Tatham's Mines -----------------------------------------------------------------------

SGT_MENU = (25, 12)
"""Window coordinates of the "Game" menu's title (GTK 3 menu bar at the window's top left)."""


def exploded(crop: np.ndarray) -> bool:
    """Simon Tatham's Mines draws the mine hit on pure red (mines.c COL_BANG): most of the
    cell's pixels are #ff0000."""
    red = (crop[..., 2] == 255) & (crop[..., 1] == 0) & (crop[..., 0] == 0)
    return bool(red.mean() > 0.3)


def over_flagged(crop: np.ndarray) -> bool:
    """Simon Tatham's Mines draws a number with more flags around it than it says on pink
    (mines.c COL_WRONGNUMBER, #ff9999): most of the cell's pixels are that colour."""
    pink = (crop[..., 2] == 255) & (crop[..., 1] == 153) & (crop[..., 0] == 153)
    return bool(pink.mean() > 0.3)


def sgt_solve(s: Session) -> None:
    """Game > Solve (no key does it): after a death it shows every mine, crosses out wrong
    flags and keeps the mine hit (mines.c execute_move "S"). The menu is opened with a click
    on its title; Up twice from nothing selected reaches Solve over Exit."""
    w = s.window.rect
    s.xdo("mousemove", str(w.left + SGT_MENU[0]), str(w.top + SGT_MENU[1]), "click", "1")
    time.sleep(0.4)
    s.xdo("key", "Up", "Up", "Return")
    s.xdo("mousemove", *map(str, PARK))
    time.sleep(0.5)


def record_sgt(out: Path, rng: random.Random, cols: int, rows: int, mines: int,
               window: tuple[int, int], only: tuple[str, ...] | None = None,
               mid_clicks: int | None = 3, crowd: bool = False) -> list[str]:
    """One game of Simon Tatham's Mines at ``window`` (its tiles follow the window), played
    with random clicks until it is lost; the "dead" frame shows only the mine hit, "lost" is the
    same board after Solve (every mine)."""
    for attempt in range(8):
        with Session(lambda d: SgtMines(d, cols=cols, rows=rows, mines=mines, window=window)) as s:
            # whole tiles: inside its 1/10-tile bevel a covered tile is the window's own grey
            geo, covered = measure_by_press(s, rows, cols, inset=0)
            first = s.grab(0.3)
            game = Game(geo, mines, covered)
            if not game.looks_covered(first).all():
                raise DesktopError("the fresh board is not all covered tiles at the measured geometry")
            try:
                play_to_loss(s, game, rng, first, mid_after=0.3, mid_clicks=mid_clicks, n_question=0,
                             lost_settle=0.8, hit=exploded, reveal=lambda: sgt_solve(s), crowd=crowd)
                meta = {"game": f"sgt-mines {version_of('sgt-puzzles')}", "theme": "built-in",
                        "argv": s.game.argv()[1:], **s.where(), "clicks": game.clicks}
                w = s.window.rect
                stem = f"sgt-{cols}x{rows}-{mines}-{w.width}x{w.height}" + ("-crowded" if crowd else "")
                return write_game(out, stem, game, meta, only)
            except DesktopError as exc:
                print(f"sgt-mines attempt {attempt + 1}: {exc}", flush=True)
    raise DesktopError("sgt-mines: no good game in 8 attempts")


def record_sgt_solved(out: Path, cols: int, rows: int, mines: int, window: tuple[int, int]) -> list[str]:
    """A won-looking Simon Tatham's board: the first click in the middle, then Game > Solve,
    which, while the player is alive, opens every safe cell and flags every mine (mines.c
    execute_move "S"; the status bar says "Auto-solved." instead of "COMPLETED!", the board is
    drawn as a win's). Truth: the flagged cells (the flag look is learnt first, by flagging and
    unflagging a cell) are the mines, as many as the game has; every other cell is open."""
    with Session(lambda d: SgtMines(d, cols=cols, rows=rows, mines=mines, window=window)) as s:
        geo, covered = measure_by_press(s, rows, cols, inset=0)
        game = Game(geo, mines, covered)
        s.click(geo, 0, 0, button=3)
        flag_look = geo.crop(s.grab(), 0, 0)
        s.click(geo, 0, 0, button=3)
        if not game.looks_covered(s.grab()).all():
            raise DesktopError("unflagging did not give a fresh board")
        mid = (rows // 2, cols // 2)
        s.click(geo, *mid)
        game.clicks.append({"cell": list(mid), "button": "left"})
        sgt_solve(s)
        solved = s.grab(0.5)
        is_flag = np.array([[same(geo.crop(solved, r, c), flag_look) for c in range(cols)]
                            for r in range(rows)])
        if int(is_flag.sum()) != mines or game.looks_covered(solved).any():
            raise DesktopError(f"Solve left {int(is_flag.sum())} flags and "
                               f"{int(game.looks_covered(solved).sum())} covered cells")
        set_won(game, solved, is_flag)
        w = s.window.rect
        name = f"sgt-{cols}x{rows}-{mines}-{w.width}x{w.height}-solved-won"
        save_won(game, solved, mines, out, name, s, geo, {
            "game": f"sgt-mines {version_of('sgt-puzzles')}", "theme": "built-in",
            "argv": s.game.argv()[1:],
            "truth": "first click, then Game > Solve: every mine flagged (the flag look learnt on the "
                     "same board), as many as the game has, every other cell open; numbers are the "
                     "mine counts of that layout",
            "truth_checks": ["logic_problems", "flag look learnt on the same board"]})
        print(f"wrote {out / name}.png", flush=True)
        return [name]


SGT_SERIES = [(9, 9, 10, (240, 302)), (16, 16, 40, (560, 620)), (30, 16, 99, (900, 640)),
              (9, 9, 10, (500, 560))]
"""Simon Tatham's Mines, taught (``--only sgt``): the three usual boards, at the game's own size
(20 px tiles) and larger windows."""

# -- Ace of Penguins' minesweeper -----------------------------------------------------------------

ACE_ORIGINS = {"1": (10, 36), "2": (4, 30), "3": (9, 35), "4": (9, 35)}
"""Window coordinates of the first cell per board key, measured: the covered sprite cut from
the game's own sprite sheet (``tools/ace_sprites.py``) matches the screen pixel for pixel at
exactly these origins plus multiples of the cell size."""


def record_ace(out: Path, rng: random.Random, key: str, stem_suffix: str = "",
               only: tuple[str, ...] | None = None, n_question: int = 1) -> list[str]:
    """One game of Ace of Penguins' minesweeper on the board of key ``key``, played with random
    clicks until it is lost (fresh, mid and lost frames).

    The mines are armed before the first click, so a game lost before the mid-game frame is
    thrown away and another one played. A mine under a "?" stays a "?" at a loss, so the "?"
    cell's truth comes from the count: the loss must show as many mines (changed covered cells,
    flags left standing, the mine hit) as the game has, which holds only when the "?" is not a
    mine; a game where it is is thrown away too."""
    n, mines, size = ACE_BOARDS[key]
    for attempt in range(12):
        with Session(lambda d: AceMinesweeper(d, key=key)) as s:
            x0, y0 = ACE_ORIGINS[key]
            geo = Geometry(x0, y0, size, n, n)
            first = s.grab(0.3)
            covered = geo.crop(first, 0, 0)
            game = Game(geo, mines, covered)
            if not game.looks_covered(first).all():
                raise DesktopError("the fresh board is not all covered tiles at the measured geometry")
            try:
                play_to_loss(s, game, rng, first, mid_after=0.3, mid_clicks=2, n_flags=2,
                             n_question=n_question, near=True)
                meta = {"game": f"ace-minesweeper {version_of('ace-of-penguins')}", "theme": "built-in",
                        "board_key": key, **s.where(), "clicks": game.clicks}
                w = s.window.rect
                return write_game(out, f"ace-{n}x{n}-{mines}-{w.width}x{w.height}{stem_suffix}", game, meta, only)
            except DesktopError as exc:
                print(f"ace-minesweeper {key} attempt {attempt + 1}: {exc}", flush=True)
    raise DesktopError(f"ace-minesweeper {key}: no good game in 12 attempts")


SGT_MORE = [(16, 16, 40, (400, 470)), (30, 16, 99, (1200, 700)), (9, 9, 10, (360, 420))]
"""Simon Tatham's Mines never taught (``--only sgt --more``): other tile sizes."""


def sgt_window(cols: int, rows: int, tile: int) -> tuple[int, int]:
    """The window that gives ``tile`` px tiles: the drawing area is the board and a border of
    1.5 tiles all round (mines.c BORDER), under a menu bar and over a status bar that take 62 px
    with Debian's default GTK 3 theme (measured: 240x302 for 9x9 at the game's own 20 px)."""
    return (cols + 3) * tile, (rows + 3) * tile + 62


SGT_SIZES = ([(9, 9, 10, sgt_window(9, 9, t)) for t in (16, 18, 23, 25, 31, 36, 45, 50)]
             + [(9, 9, 30, sgt_window(9, 9, t)) for t in (24, 38)])
"""Simon Tatham's Mines, taught too (``--only sgt --sizes``): its mines, flags and bevels are
drawn in whole pixels, so their looks change with the tile size; 9x9/30 shows 5-8."""


MORE_SERIES = [("classic", "Hard", (1200, 700)), ("classic", "Easy", (480, 400)),
               ("default", "Medium", (900, 760)),
               # green's pressed look does not show a cell: its geometry is measured with
               # Classic at the same size first
               ("classic", "Easy", (640, 520)), ("green", "Easy", (640, 520))]
"""The second series (``--more``, with xdemineur 16x16/40): sizes the shipped sets never see."""

SIZES_SERIES = [("classic", "Easy", (420, 360)), ("classic", "Easy", (560, 440)),
                ("default", "Easy", (600, 480)), ("default", "Easy", (1000, 760))]
"""The third series (``--sizes``, recorded with ``--seed 7``): KMines' looks at more cell sizes."""


MARKS_SERIES = [("classic", "Medium", None), ("classic", "Medium", (820, 700)),
                ("default", "Medium", None), ("classic", "Hard", None)]
"""The marks series (``--marks``, with xdemineur 30x16/99 and 12x10/15): one "?" and one flag on
covered cells next to open ones, KMines at its own window size (0.4 x the screen) and others;
never taught."""


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=ROOT / "fixtures")
    ap.add_argument("--only", choices=("xdemineur", "kmines", "sgt", "ace"))
    ap.add_argument("--seed", type=int, default=13)
    ap.add_argument("--more", action="store_true",
                    help="record the second series instead: other board and window sizes (the "
                         "shipped looks must read them with no calibration)")
    ap.add_argument("--sizes", action="store_true",
                    help="record the third series: KMines at more window sizes (its looks change "
                         "with the cell size; the shipped sets are taught from these too)")
    ap.add_argument("--marks", action="store_true",
                    help="record the marks series: a \"?\" and a flag next to open cells, "
                         "sizes never taught")
    args = ap.parse_args(argv)
    rng = random.Random(args.seed)
    if args.marks:
        marks = {"n_flags": 1, "n_question": 1, "near": True}
        if args.only in (None, "xdemineur"):
            for cols, rows, mines in ((30, 16, 99), (12, 10, 15)):
                record_xdemineur(args.out / "xdemineur", rng, cols=cols, rows=rows, mines=mines,
                                 stem=f"xdemineur-{cols}x{rows}-{mines}-marks", only=("mid", "lost"),
                                 **marks)
        if args.only in (None, "kmines"):
            for theme, level, window in MARKS_SERIES:
                record_kmines(args.out / "kmines", rng, theme, level, window, only=("mid", "lost"),
                              suffix="-marks", **marks)
        return 0
    if args.only == "ace":
        for key in ("1", "2", "3", "4"):
            record_ace(args.out / "ace-minesweeper", rng, key)
            if args.more:
                record_ace(args.out / "ace-minesweeper", rng, key, stem_suffix="-b", only=("mid", "lost"))
        return 0
    if args.only == "sgt":
        series = SGT_MORE if args.more else SGT_SIZES if args.sizes else SGT_SERIES
        for cols, rows, mines, window in series[:3]:
            record_sgt_solved(args.out / "sgt-mines", cols, rows, mines, window)
        for cols, rows, mines, window in series:
            record_sgt(args.out / "sgt-mines", rng, cols, rows, mines, window,
                       mid_clicks=1 if mines * 4 > cols * rows else 3)
        return 0
    if args.sizes or args.more:
        if args.more and args.only in (None, "xdemineur"):
            record_xdemineur(args.out / "xdemineur", rng, cols=16, rows=16, mines=40)
        if args.only in (None, "kmines"):
            for theme, level, window in (SIZES_SERIES if args.sizes else MORE_SERIES):
                record_kmines(args.out / "kmines", rng, theme, level, window, only=("mid", "lost"))
        return 0
    if args.only in (None, "xdemineur"):
        record_xdemineur(args.out / "xdemineur", rng)
        record_xdemineur(args.out / "xdemineur", rng, cols=12, rows=10, mines=15)
        record_xdemineur_won(args.out / "xdemineur")
    if args.only in (None, "kmines"):
        km = args.out / "kmines"
        record_kmines(km, rng, "classic", "Easy", (640, 480))
        record_kmines(km, rng, "classic", "Medium", (1000, 800))
        record_kmines(km, rng, "default", "Easy", (800, 600), only=("mid", "lost"))
        record_kmines(km, rng, "green", "Easy", (800, 600), only=("mid", "lost"))
        record_kmines_won(km)
    return 0


if __name__ == "__main__":
    sys.exit(main())
