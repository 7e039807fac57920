"""The Reader: frame in, ``Reading`` (Board, geometry, suspects) out.

The live player calls ``Reader.read`` on every capture, so the expensive part (locating the
grid) is cached per frame size and re-validated by sampling a few hundred pixels; a moved or
resized window fails that check and triggers a fresh locate. Matching is one matrix product
over all cells, so a cached read costs a few milliseconds.

A cell that matches no template is never guessed: the read fails with ``UnmatchedCellsError``
naming the cells and saving their crops, because one misread cell can lose a game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np

from .. import games
from ..board import CELL_CHARS, Board, Cell, GameState, neighbour_count
from ..errors import BadInputError, NoGameError
from ..games import CounterKind, GameProfile
from ..timing import Phase, timed
from .bylooks import locate_by_looks
from .changes import CellDelta, CellMemo
from .counter import find_counter, find_status_counter
from .features import grid_patches
from .grids import align, locate_board, touching
from .image import as_frame, load_image
from .locate import Grid
from .numbers import NumberReader, tile_colours
from .plausible import implausible
from .screens import screen_state
from .sevenseg import read_seven_segment
from .templates import Match, TemplateSet, available_sets, match

MAX_DISTANCE = 14.0
"""RMS colour distance (0-255 scale) above which a cell matches no template."""

LEARNED_CLOSE = 3.0
"""RMS distance under which a look learned from play settles an unsure number."""

STATUS_BELOW = 160
"""Pixels under the board searched for a status bar's counter (KMines)."""

UNREAD_SHARE = 4
"""A game whose looks leave fewer than 1 in this many cells unmatched reads the board; among
those, the closest fit is the game shown (``_evidence``)."""

SURE_FIT = 5.0
"""Mean distance under which a game whose looks read every cell is taken at once, the other
games not tried: only a game's own looks fit that closely (others' read 13 and more)."""

SAME_FIT = 4.0
"""Mean distances (RMS, 0-255) within which two games whose looks read the same cells fit a
frame about equally: a game's own looks read its frames at 0-5, another game's at 13 and more,
except where two games draw the very same tiles (a fresh board of GNOME Mines' classic theme
reads as KMines Classic's at 0.0; xdemineur's covered tiles as KMines' at 0.3). Then the game
whose mine counter shows next to the board is the one shown (``_counter_shown``), and when the
counters cannot tell either, the read says so (``AmbiguousGameError``) rather than guess."""

MIN_GAP = 2.0
MIN_RATIO = 1.25
"""A cell whose runner-up label is within MIN_GAP (RMS) or MIN_RATIO x of its best is suspect."""


class UnmatchedCellsError(BadInputError):
    """Some cells look like no template of the set; ``cells`` lists them, crops are saved."""

    def __init__(self, message: str, cells: list[tuple[int, int]], crops_dir: Path | None) -> None:
        self.cells = cells
        self.crops_dir = crops_dir
        super().__init__(message)


class ImplausibleBoardError(UnmatchedCellsError):
    """Every cell matched a look, but together they make a board no game can show
    (``plausible``): the looks are not this frame's (another game's or theme's, forced by
    ``--game`` or ``--templates``), so the read is refused rather than trusted. A subclass of
    ``UnmatchedCellsError``: a live read retries it like cells it could not match."""


class NoBoardError(NoGameError):
    """No board in the frame; ``state`` tells what is shown instead (chooser, paused, none)."""

    def __init__(self, message: str, state: GameState) -> None:
        self.state = state
        super().__init__(message)


class AmbiguousGameError(NoGameError):
    """Two or more games fit the frame about equally (``SAME_FIT``) and none of their mine
    counters tells them apart: the frame is not read, rather than taken for one of them at
    random. ``games`` names them (``minebot.games`` names), the best fit first; naming the game
    (``--game``, or a reader made for one game) reads the frame."""

    def __init__(self, message: str, games: tuple[str, ...]) -> None:
        self.games = games
        super().__init__(message)


@dataclass
class Reading:
    """What one frame shows.

    ``cell_rects[r, c]`` is the tile's x0, y0, x1, y1 in frame pixels (x1/y1 exclusive, the
    2 px borders excluded); ``board_px`` the bounding box of all tiles. ``suspect`` lists cells
    that looked hovered, pressed or ambiguous: re-capture before acting on them.
    """

    board: Board
    board_px: tuple[int, int, int, int]
    cell_rects: np.ndarray
    templates: str
    suspect: list[tuple[int, int]] = field(default_factory=list)
    distance: np.ndarray | None = None       # (rows, cols) RMS distance to the matched template
    counter: tuple[int, int] | None = None   # (flags, total) as shown, when readable
    unsure: dict = field(default_factory=dict)  # (r, c) -> numbers a revealed cell may show
    """Numbers whose shape was a close call: ``board`` holds the likeliest digit, which must not
    be acted on; ``minebot.solver.doubts.settle`` turns them into ``#`` or proven numbers."""
    game: str = games.DEFAULT
    """The game the frame shows (a ``minebot.games`` name): whose lattice and looks fit it."""

    def to_json(self) -> dict:
        b = self.board
        return {"rows": b.rows, "cols": b.cols, "mines": b.mines,
                "state": b.state.value if b.state else None, "board": b.rows_text(),
                "board_px": list(self.board_px), "game": self.game, "templates": self.templates,
                "suspect": [list(c) for c in self.suspect]}


def infer_state(cells: np.ndarray, mines: int | None) -> GameState:
    """Playing, lost or won, from the cells alone.

    Lost: an exploded mine (or shown mines / wrong flags) is visible. Won: GNOME Mines flags
    every mine on a win, so nothing is covered or "?" any more (and, when the total is known,
    the flags equal it).
    """
    if np.isin(cells, (Cell.EXPLODED, Cell.MINE, Cell.WRONG_FLAG)).any():
        return GameState.LOST
    open_ = np.isin(cells, (Cell.COVERED, Cell.QUESTION)).any()
    if not open_ and (mines is None or int((cells == Cell.FLAG).sum()) == mines):
        return GameState.WON
    return GameState.PLAYING


@dataclass(frozen=True)
class _Found:
    """A board one game finds in a frame: its grid and, once the game's sets were fitted to
    it, the set that reads it best, that read's score (unmatched cells, mean distance) and the
    read itself (the match and the unsure numbers)."""

    game: GameProfile
    grid: Grid
    tset: TemplateSet | None = None
    score: tuple[int, float] | None = None
    read: tuple[Match, dict] | None = None


class Reader:
    """Reads boards from frames with one template set (named) or the best-fitting one."""

    def __init__(self, templates: str | None = None, mines: int | None = None,
                 crops_dir: str | Path | None = None, max_distance: float = MAX_DISTANCE,
                 game: str | GameProfile | None = None) -> None:
        self.mines_override = mines
        self.crops_dir = Path(crops_dir) if crops_dir else None
        self.max_distance = max_distance
        self._sets: dict[str, TemplateSet] = {}
        self._fixed = templates is not None
        self._games: tuple[GameProfile, ...] = (
            (games.get(game) if isinstance(game, str) else game,) if game is not None
            else tuple(games.PROFILES.values()))
        if templates is not None:
            tset = TemplateSet.load(templates)
            self._sets[tset.name] = tset
            self._current: TemplateSet | None = tset
            own = games.PROFILES.get(str(tset.meta.get("game", "")))
            if game is None and own is not None:
                self._games = (own,)
        else:
            self._current = None
        self._grid: Grid | None = None
        self._game: GameProfile = self._games[0]
        self._known: GameProfile | None = self._games[0] if len(self._games) == 1 else None
        self._number_readers: dict[str, NumberReader] = {}
        self._counter_cache: tuple | None = None
        # per set: the set, the tile size, the last cells' patches and their match
        self._last_match: dict[str, tuple[TemplateSet, int, np.ndarray, Match]] = {}
        # the cells at the last read on the cached grid: only the changed ones are read again
        self._memo: CellMemo | None = None
        # the frame ``fits`` found the cached grid valid on, until the next locate
        self._fitted: np.ndarray | None = None

    @property
    def game(self) -> GameProfile:
        """The game of the board read last (or the first one this reader may read)."""
        return self._game

    # -- template sets --------------------------------------------------------------
    def _candidates(self, game: GameProfile | None = None) -> list[TemplateSet]:
        """The sets that may show ``game`` (all with None): its own, and sets made for no
        known game (a user's 'custom' calibration), its shipped default first."""
        if self._fixed:
            return list(self._sets.values())
        if not self._sets:
            for name, path in available_sets().items():
                self._sets[name] = TemplateSet.load(path)
            if not self._sets:
                raise BadInputError("no template sets found (set MINEBOT_TEMPLATES or run "
                                    "'minebot calibrate')")
        if game is None:
            return list(self._sets.values())
        order = {name: i for i, name in enumerate(game.templates)}
        mine = [t for t in self._sets.values()
                if t.meta.get("game") == game.name or t.name in order
                or str(t.meta.get("game", "")) not in games.PROFILES]
        return sorted(mine, key=lambda t: order.get(t.name, len(order)))

    def _limit(self, tset: TemplateSet) -> float:
        """The distance above which a cell matches none of ``tset``'s looks: the reader's, or
        the set's own when it says its looks vary more (``max_distance`` in templates.json:
        KMines draws its scaled pictures a little differently at every cell size)."""
        return max(self.max_distance, tset.max_distance or 0.0)

    def _score(self, m: Match, tset: TemplateSet) -> tuple[int, float]:
        finite = m.distance[np.isfinite(m.distance)]
        return (int((m.distance > self._limit(tset)).sum()),
                float(np.mean(finite)) if finite.size else 0.0)

    def _pick(self, frame: np.ndarray, grid: Grid, flat: np.ndarray, tile: int
              ) -> tuple[TemplateSet, Match, dict]:
        """The set whose looks fit the cells best (fewest unmatched, then lowest error)."""
        best = None
        for tset in self._candidates(self._game):
            m, unsure = self._classify(tset, frame, grid, flat, tile)
            score = self._score(m, tset)
            if best is None or score < best[0]:
                best = (score, tset, m, unsure)
        if best is None:
            raise BadInputError(f"no template set for {self._game.title} found (run 'minebot "
                                f"calibrate NAME --game {self._game.name}')")
        return best[1], best[2], best[3]

    def _fit(self, frame: np.ndarray, grid: Grid, game: GameProfile) -> "_Found":
        """The grid (a lattice moved to fit the looks) and the set of ``game`` that reads it
        best, with its score and that read."""
        best: _Found | None = None
        cut: tuple | None = None    # (grid, its cells' pixels): one cut while the lattice stays
        for tset in self._candidates(game):
            fitted = grid
            if touching(grid):
                def cost(g: Grid, t: TemplateSet = tset) -> float:
                    return _template_cost(frame, g, t)
                fitted = align(frame, grid, cost)
            if cut is None or cut[0] is not fitted:
                patches = grid_patches(frame, fitted.x0, fitted.x1, fitted.y0, fitted.y1)
                cut = (fitted, patches.reshape(fitted.rows * fitted.cols, *patches.shape[2:]))
            flat = cut[1]
            m, unsure = self._classify(tset, frame, fitted, flat,
                                       int(np.median(fitted.x1 - fitted.x0)))
            score = self._score(m, tset)
            if best is None or score < best.score:
                best = _Found(game, fitted, tset, score, (m, unsure))
        if best is None:
            return _Found(game, grid, None, (grid.rows * grid.cols, np.inf))
        return best

    def _classify(self, tset: TemplateSet, frame: np.ndarray, grid: Grid, flat: np.ndarray,
                  tile: int, delta: CellDelta | None = None) -> tuple[Match, dict]:
        """Every cell's code: numbers from the theme's number look, the rest from templates.
        With ``delta`` (the cells changed since the last read on this grid), the numbers of
        unchanged cells are those read then (``changes``).

        Returns the match (a number cell has distance 0; a template that says "number" on a
        cell the number look does not confirm has distance inf, i.e. unmatched: it was cut
        from another font or size) and the unsure number cells with their candidates.
        """
        m = self._match(tset, flat, tile)
        if tset.numbers is None:
            return m, {}
        reader = self._number_readers.get(tset.name)
        if reader is None or reader.look is not tset.numbers:
            reader = self._number_readers[tset.name] = NumberReader(tset.numbers)
        raw = (delta.colours(frame, tset.name, reader) if delta is not None
               else tile_colours(frame, grid.x0, grid.x1, grid.y0, grid.y1))
        colours = reader.grounds(raw)
        candidates = reader.candidates(colours)
        kept = delta.unchanged_numbers(tset.name, reader) if delta is not None else None
        if kept is None:
            found = reader.read(frame, grid, colours, candidates)
        else:
            found, changed = kept
            found.update(reader.read(frame, grid, colours, candidates & changed))
        if delta is not None:
            delta.keep_numbers(tset.name, reader, raw, found)
        numbered = np.zeros(len(m.code), bool)
        unsure: dict[tuple[int, int], tuple[int, ...]] = {}
        for (r, c), number in found.items():
            i = r * grid.cols + c
            numbered[i] = True
            m.code[i] = number.digit
            if not number.sure:
                unsure[(r, c)] = number.candidates
        if unsure and tset.learned is not None and tset.learned.any():
            self._settle_by_learned(tset, flat, grid.cols, m, unsure)
        m.distance[numbered] = 0.0
        m.runner_up[numbered] = np.inf
        m.distance[(m.code >= 1) & (m.code <= 8) & ~numbered] = np.inf
        m.numbered = numbered
        return m, unsure

    def _match(self, tset: TemplateSet, flat: np.ndarray, tile: int) -> Match:
        """``templates.match`` of every cell, matching again only the cells whose patch differs
        from the last call's with this set (same tile size, same number of cells).

        Why: in live play a turn changes a few cells of the board (the clicked ones and what
        a zero opens), and matching every cell against every look is most of a read. A cell's
        match depends on its patch alone, so an identical patch has the same match: the
        result is the one a full match gives (its distances up to the float rounding of a
        matrix product of another size, hundredths), only the work is not done twice."""
        last = self._last_match.get(tset.name)
        if last is not None and last[0] is tset and last[1] == tile and last[2].shape == flat.shape:
            changed = np.flatnonzero((flat != last[2]).reshape(len(flat), -1).any(axis=1))
            m = Match(*(getattr(last[3], name).copy()
                        for name in ("template", "code", "distance", "runner_up")))
            if len(changed):
                fresh = match(tset, flat[changed], tile)
                for name in ("template", "code", "distance", "runner_up"):
                    getattr(m, name)[changed] = getattr(fresh, name)
        else:
            m = match(tset, flat, tile)
        # kept apart from ``m``, which the caller overwrites with the numbers read
        self._last_match[tset.name] = (tset, tile, flat, Match(m.template.copy(), m.code.copy(),
                                                            m.distance.copy(), m.runner_up.copy()))
        return m

    @staticmethod
    def _settle_by_learned(tset: TemplateSet, flat: np.ndarray, cols: int, m: Match,
                           unsure: dict) -> None:
        """Unsure numbers that a look learned from play on this machine matches closely (the
        same font at the same size), among their candidates, become sure."""
        learned = np.flatnonzero(tset.learned & (tset.codes >= 1) & (tset.codes <= 8))
        if learned.size == 0:
            return
        cells = list(unsure)
        d = tset.distances(flat[[r * cols + c for r, c in cells]], learned)
        codes = tset.codes[learned]
        for row, cell in zip(d, cells):
            best = int(np.argmin(row))
            code = int(codes[best])
            others = row[codes != code]
            if (row[best] <= LEARNED_CLOSE and code in unsure[cell]
                    and (others.size == 0 or others.min() > row[best] + MIN_GAP)):
                m.code[cell[0] * cols + cell[1]] = code
                del unsure[cell]

    def reload_templates(self) -> None:
        """Load the template sets again (after looks were learned from a finished game)."""
        if self._fixed:
            tset = TemplateSet.load(next(iter(self._sets.values())).path)
            self._sets = {tset.name: tset}
            self._current = tset
        else:
            self._sets.clear()
            self._current = None

    def _covered_colours(self) -> np.ndarray:
        """Centre colours of the normal covered templates of every candidate set (BGR)."""
        try:
            sets = self._candidates(None)     # every game's: which one is shown is unknown
        except BadInputError:
            return np.empty((0, 3))
        out = [t.patches[i, 6:10, 6:10].reshape(-1, 3).mean(axis=0)
               for t in sets for i in np.flatnonzero((t.codes == Cell.COVERED) & ~t.transient)]
        return np.array(out) if out else np.empty((0, 3))

    # -- reading ----------------------------------------------------------------------
    def forget(self) -> None:
        """Drop the cached grid so the next read locates the board afresh.

        The cache is re-validated only by sampling; a caller that doubts a reading (the live
        game after a surprise) calls this to force a full locate.
        """
        self._grid = None
        self._counter_cache = None
        self._memo = None
        self._fitted = None

    def fits(self, frame: np.ndarray) -> bool:
        """Whether the board read last is still where it was, as ``frame`` shows it (the
        cached grid's sampling check; False with none). Why a caller asks: a frame where it
        does not fit is found afresh, every game's looks tried (tens of ms); when a dialog
        covers the board, closing it first lets the board read again as it was."""
        self._fitted = frame if self._grid is not None and self._grid.still_valid(frame) else None
        return self._fitted is not None

    def locate(self, frame: np.ndarray) -> Grid:
        """The grid of ``frame`` (``_locate``)."""
        return self._locate(frame)[0]

    def _locate(self, frame: np.ndarray) -> tuple[Grid, tuple[Match, dict] | None]:
        """The grid of ``frame`` (cached while it still fits), and with it the game shown.

        Each game this reader may read is tried in turn, its board found as that game draws
        it; the first whose looks read every cell as closely as only its own do wins at once
        (GNOME Mines first, so its frames cost one locate), else the one with the best
        evidence (``_evidence``: reads nearly every cell, then the closest). Once a frame was read,
        the game read is tried first and alone while its looks read every cell; when it
        finds no board, or one with cells its looks do not read, the other games are tried
        once on this frame and the best read wins (a first detection can be wrong, and the
        user can switch games). A frame no game reads still ends in ``NoBoardError``.

        Also returns the read of every cell that chose the set (match, unsure numbers), when
        there was one on this frame: the read needs no second one.
        """
        fitted, self._fitted = self._fitted, None
        if self._grid is not None and (frame is fitted or self._grid.still_valid(frame)):
            return self._grid, None   # (``fits`` checked this very frame just before)
        self._grid = None
        shared: dict = {}
        known = self._known
        if len(self._games) == 1:      # the game was named: its lattice is trusted as found
            best = self._detect(frame, self._games, shared, fit=False)
        elif known is None:
            best = self._detect(frame, self._games, shared)
        else:
            best = self._detect(frame, (known,), shared)
            if best is None or best.score[0] > 0:
                others = self._detect(frame, tuple(p for p in self._games if p is not known),
                                      shared)
                if others is not None and (best is None or _evidence(others) < _evidence(best)):
                    best = others
        if best is None:
            state = screen_state(frame, self._covered_colours())
            what = {GameState.CHOOSER: "the level chooser is shown (no board)",
                    GameState.PAUSED: "the game is paused (\"Paused\" covers the board)"}.get(
                        state, "no Minesweeper board found in the image")
            raise NoBoardError(what, state) from None
        if best.tset is None and touching(best.grid):
            best = self._fit(frame, best.grid, best.game)
        self._game = best.game
        self._grid = best.grid
        if not self._fixed:
            # a new window may have a new look: the set picked here, or again at the read
            self._current = best.tset
        return best.grid, best.read if best.tset is self._current else None

    def _detect(self, frame: np.ndarray, profiles: tuple[GameProfile, ...], shared: dict,
                fit: bool = True) -> "_Found | None":
        """The best board ``profiles`` find on ``frame``, or None when none of them finds one.
        Without ``fit`` the first board found is taken as it is (no set, no score): the game
        is known, its looks are matched at the read.

        Every game is weighed (``_evidence``) before one is taken; when another fits about as
        well (``_rivals``), the mine counter decides, else ``AmbiguousGameError``. A game whose
        looks read every cell as closely as only a game's own do (``SURE_FIT``) makes the
        other games tried only for a lattice of the same size: a game that finds a board of
        another size reads other cells, so it cannot fit the same board equally."""
        best: _Found | None = None
        found_all: list[_Found] = []
        for profile in profiles:
            try:
                grid = locate_board(frame, profile, min_cells=4, cache=shared)
            except NoGameError:
                located = self._by_looks(frame, profile)
                if located is None:
                    continue
                grid = located
            if not fit:
                return _Found(profile, grid)
            if (best is not None and best.score is not None and best.score[0] == 0
                    and best.score[1] <= SURE_FIT
                    and (grid.rows, grid.cols) != (best.grid.rows, best.grid.cols)):
                continue
            try:
                found = self._fit(frame, grid, profile)
            except BadInputError:
                continue
            found_all.append(found)
            if best is None or _evidence(found) < _evidence(best):
                best = found
        if best is None:
            return None
        rivals = _rivals(best, found_all)
        if not rivals:
            return best
        tied = [best, *rivals]
        counted = [f for f in tied if _counter_shown(frame, f)]
        if len(counted) == 1:
            return counted[0]
        names = tuple(f.game.name for f in tied)
        why = "both show a mine counter" if counted else "neither shows its mine counter"
        if len(tied) > 2:
            why = "their counters do not tell them apart"
        raise AmbiguousGameError(
            f"this board fits {' and '.join(f.game.title + ' (' + f.game.name + ')' for f in tied)} "
            f"about equally (mean look distance {', '.join(f'{f.score[1]:.1f}' for f in tied if f.score)}) "
            f"and {why}: name the game (--game {' or --game '.join(names)})", names)

    def _by_looks(self, frame: np.ndarray, profile: GameProfile) -> Grid | None:
        """The board found by the looks of a set taught on a picture with no lines between its
        cells (``bylooks``); only such sets are tried (it takes a second or more)."""
        try:
            sets = self._candidates(profile)
        except BadInputError:
            return None
        for tset in sets:
            if tset.meta.get("lattice") != "looks":
                continue
            try:
                return locate_by_looks(frame, tset).with_ring(frame)
            except NoGameError:
                continue
        return None

    @timed(Phase.READ)
    def read(self, frame: np.ndarray) -> Reading:
        frame = as_frame(frame)
        grid, matched = self._locate(frame)
        if matched is not None:
            m, unsure = matched     # read with every set when one was chosen, on this frame
        else:
            delta = (self._memo.next(frame, grid) if self._memo is not None
                     else CellMemo.start(frame, grid))
            self._memo = delta.memo
            patches = delta.patches
            tile = int(np.median(grid.x1 - grid.x0))
            flat = patches.reshape(grid.rows * grid.cols, *patches.shape[2:])
            m = None
            if self._current is not None:
                m, unsure = self._classify(self._current, frame, grid, flat, tile, delta)
                if not self._fixed and (m.distance > self._limit(self._current)).any():
                    m = None    # the set picked on an earlier (e.g. all covered) frame may
                                # not be this theme's
            if m is None:
                self._current, m, unsure = self._pick(frame, grid, flat, tile)
        bad = m.distance > self._limit(self._current)
        tset = self._current
        if bad.any():
            cells = [divmod(int(i), grid.cols) for i in np.flatnonzero(bad)]
            if not self._fixed:
                self._current = None
            saved = self._save_crops(frame, grid, cells)
            shown = ", ".join(f"{r},{c}" for r, c in cells[:12]) + (" ..." if len(cells) > 12 else "")
            where = f"; crops saved in {saved}" if saved else ""
            raise UnmatchedCellsError(
                f"{len(cells)} cell(s) match no template of set {tset.name!r} (row,col: {shown})"
                f"{where}. Use another set (--templates) or teach this look with "
                f"'minebot calibrate'.", cells, saved)
        codes = m.code.reshape(grid.rows, grid.cols)
        counter = self._counter(frame, grid, tset, codes)
        if counter is not None and counter[1] >= grid.rows * grid.cols:
            self.forget()
            raise NoBoardError(f"the counter says {counter[1]} mines but the {grid.cols}x{grid.rows} "
                               "lattice found has no room for them: part of a board, not read",
                               GameState.NONE)
        marked = codes == Cell.QUESTION
        if (counter is not None and counter[0] == counter[1] and marked.any()
                and not (codes == Cell.COVERED).any()
                and counter[0] == int(np.isin(codes, (Cell.FLAG, Cell.WRONG_FLAG)).sum() + marked.sum())):
            # The game was won and flagged every mine, its counter says so, but draws a mine a
            # player had marked "?" as the "?" (GNOME Mines: classic draws the same tile, default
            # its "?", a flag with a small "?", on the flagged tile's grey): those are flags.
            codes = np.where(marked, np.int8(Cell.FLAG), codes)
        wrong = implausible(codes, unsure)
        if wrong is not None:
            if not self._fixed:
                self._current = None
            self.forget()
            shown = ", ".join(f"{r},{c}" for r, c in wrong.cells[:12]) + (
                " ..." if len(wrong.cells) > 12 else "")
            raise ImplausibleBoardError(
                f"the {grid.cols}x{grid.rows} board read as {self._game.title} with set "
                f"{tset.name!r} is impossible: {wrong.reason}" + (f" (row,col: {shown})" if shown else "")
                + ". The looks do not fit this frame: name the right game (--game) or set "
                "(--templates), or teach this look with 'minebot calibrate'.", wrong.cells, None)
        if counter is not None and counter[0] != int(np.isin(codes, (Cell.FLAG, Cell.WRONG_FLAG)).sum()):
            counter = None      # its flag count disagrees with the flags on the board: a misread
        mines = self.mines_override if self.mines_override is not None else (
            counter[1] if counter else None)
        state = infer_state(codes, mines)
        transient = tset.transient[m.template] & ~m.numbered
        ambiguous = (m.runner_up < m.distance + MIN_GAP) | (m.runner_up < MIN_RATIO * m.distance)
        # A revealed 0 has every unmarked neighbour revealed (the game floods them open). A "0"
        # next to a covered cell is a hovered/pressed covered cell in a flat colour that
        # happens to look like an open one (e.g. the hover grey equals the lost-game zero).
        # Next to a flag or a "?" a 0 is real: xdemineur's flood never opens a marked cell, so
        # a "?" a player left where the flood came stays, with a 0 beside it (seen live).
        odd_zero = ((codes == 0) & (neighbour_count(codes == Cell.COVERED) > 0)).ravel()
        suspect_mask = (transient & (state == GameState.PLAYING)) | ambiguous | odd_zero
        suspect = [divmod(int(i), grid.cols) for i in np.flatnonzero(suspect_mask)]
        board = Board(codes, mines, state)
        self._known = self._game
        return Reading(board, grid.board_px, grid.cell_rects(), tset.name, suspect,
                       m.distance.reshape(grid.rows, grid.cols), counter, unsure, self._game.name)

    def _counter(self, frame: np.ndarray, grid: Grid, tset: TemplateSet, codes: np.ndarray
                 ) -> tuple[int, int] | None:
        """The counter as (flags, total), re-read only when the pixels around the last one
        found changed. A display of mines minus flags (xdemineur) gives the total with the
        flags on the board."""
        if self._game.counter is CounterKind.SEVEN_SEGMENT_LEFT:
            left = read_seven_segment(frame, grid.board_px)
            if left is None:
                return None
            flags = int(np.isin(codes, (Cell.FLAG, Cell.WRONG_FLAG)).sum())
            return flags, left + flags
        if self._game.counter is CounterKind.STATUS_BAR:
            return self._status_counter(frame, grid)
        if self._game.counter is CounterKind.FIXED_TOTALS:
            total = next((m for r, c, m in self._game.totals if (r, c) == (grid.rows, grid.cols)), None)
            if total is None:
                return None
            return int(np.isin(codes, (Cell.FLAG, Cell.WRONG_FLAG)).sum()), total
        if self._game.counter is not CounterKind.FLAGS_OF_TOTAL:
            return None
        cache = self._counter_cache
        if cache is not None and cache[0] is grid and cache[1] is tset:
            left, top, right, bottom = cache[2]
            if np.array_equal(frame[top:bottom, left:right], cache[3]):
                return cache[4]
        found = find_counter(frame, grid, tset)
        if found is None:
            self._counter_cache = None
            return None
        value, (x0, y0, x1, y1) = found
        box = (max(0, x0 - 16), max(0, y0 - 2), min(frame.shape[1], x1 + 16), min(frame.shape[0], y1 + 2))
        self._counter_cache = (grid, tset, box, frame[box[1]:box[3], box[0]:box[2]].copy(), value)
        return value

    def _status_counter(self, frame: np.ndarray, grid: Grid) -> tuple[int, int] | None:
        """The status bar's "F/T" under the board (KMines' "Mines: F/T", Simon Tatham's Mines'
        "Marked: F / T"), re-read only when the strip under the board changed."""
        left, top, right, bottom = grid.board_px
        # the bar sits under a border that grows with the cells (1.5 cells in Simon Tatham's Mines)
        below = max(STATUS_BELOW, 2 * int(np.median(grid.x1 - grid.x0)) + STATUS_BELOW // 2)
        strip = frame[bottom:min(frame.shape[0], bottom + below)]
        cache = self._counter_cache
        if cache is not None and cache[0] is grid and cache[1] == "status" and \
                np.array_equal(strip, cache[2]):
            return cache[3]
        value = find_status_counter(frame, grid.board_px, below)
        self._counter_cache = (grid, "status", strip.copy(), value)
        return value

    def _save_crops(self, frame: np.ndarray, grid: Grid, cells: list[tuple[int, int]]) -> Path | None:
        """Save the unmatched cells' crops in ``crops_dir`` (one folder per run, chosen by the
        caller); without one nothing is written: a read leaves no litter of its own."""
        if self.crops_dir is None:
            return None
        try:
            folder = self.crops_dir
            folder.mkdir(parents=True, exist_ok=True)
            for r, c in cells:
                crop = frame[grid.y0[r]:grid.y1[r], grid.x0[c]:grid.x1[c]]
                cv2.imwrite(str(folder / f"cell-{r}-{c}.png"), crop)
            return folder
        except OSError:
            return None


def _evidence(found: "_Found") -> tuple[bool, float, int]:
    """How well a game's board fits a frame, lower is better, to choose between games: first
    whether its looks read nearly every cell (all but one in ``UNREAD_SHARE``: a hovered or
    changing cell is that game's business), then how closely (the mean distance: another game's
    looks can read every cell of a plain board, GNOME Mines' or Simon Tatham's covered tiles
    as KMines' at 15-17, where the game's own read them at 0-2), then the cells left unread."""
    assert found.score is not None
    unread, mean = found.score
    return (unread * UNREAD_SHARE > found.grid.rows * found.grid.cols, mean, unread)


def _rivals(best: "_Found", found: list["_Found"]) -> list["_Found"]:
    """The other games' fits that are about as good as ``best``: the same number of cells left
    unread, a mean distance within ``SAME_FIT``. A fit by the very same set, one made for no
    known game (a user's set calibrated without ``--game``), is no rival: that look belongs to
    no game, so it cannot tell games apart, and the first game found keeps it."""
    assert best.score is not None
    out = []
    for f in found:
        if f.game is best.game or f.score is None or f.tset is None:
            continue
        if f.tset is best.tset and str(f.tset.meta.get("game", "")) not in games.PROFILES:
            continue
        if f.score[0] == best.score[0] and abs(f.score[1] - best.score[1]) <= SAME_FIT:
            out.append(f)
    return out


def _counter_shown(frame: np.ndarray, found: "_Found") -> bool:
    """Whether ``found``'s game shows its mine counter where that game draws it, next to the
    board found: GNOME Mines' "F/T" label beside it, xdemineur's 7-segment display above it,
    a status bar's "F/T" under it (KMines, Simon Tatham's Mines). A total of more mines than
    the board has cells is no counter of this board."""
    kind, grid = found.game.counter, found.grid
    cells = grid.rows * grid.cols
    if kind is CounterKind.SEVEN_SEGMENT_LEFT:
        left = read_seven_segment(frame, grid.board_px)
        return left is not None and left < cells
    if kind is CounterKind.STATUS_BAR:
        below = max(STATUS_BELOW, 2 * int(np.median(grid.x1 - grid.x0)) + STATUS_BELOW // 2)
        value = find_status_counter(frame, grid.board_px, below)
        return value is not None and value[1] < cells
    if kind is CounterKind.FLAGS_OF_TOTAL and found.tset is not None:
        shown = find_counter(frame, grid, found.tset)
        return shown is not None and shown[0][1] < cells
    return False


def _template_cost(frame: np.ndarray, grid: Grid, tset: TemplateSet) -> float:
    """Mean distance of every cell to its best template: how well a lattice is placed."""
    patches = grid_patches(frame, grid.x0, grid.x1, grid.y0, grid.y1)
    flat = patches.reshape(grid.rows * grid.cols, *patches.shape[2:])
    return float(match(tset, flat, int(np.median(grid.x1 - grid.x0))).distance.mean())


def read_image(frame_or_path, templates: str | None = None, mines: int | None = None) -> Reading:
    """Read one frame (array) or image file with a fresh ``Reader``."""
    if isinstance(frame_or_path, (str, Path)):
        frame = load_image(frame_or_path)
    else:
        frame = frame_or_path
    return Reader(templates, mines=mines).read(frame)


__all__ = ["Reader", "Reading", "read_image", "load_image", "infer_state", "CELL_CHARS",
           "UnmatchedCellsError", "ImplausibleBoardError", "NoBoardError", "AmbiguousGameError"]
