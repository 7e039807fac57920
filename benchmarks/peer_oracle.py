"""The peer (JSMinesweeper) as an oracle for minebot's benchmarks, and a check that it is faithful.

    python benchmarks/peer_oracle.py --setting expert-safe --seed 101 --games 1000 [--clock frozen]

``PeerOracle`` keeps one node process (``peer_oracle.js``) for a whole run and asks it, for a
board, which cell the peer's solver would open, its safety and the kind of decision it made
(``peer_oracle.js`` lists the kinds). ``benchmarks/peer_hybrid.py`` uses it to play the peer's
guesses inside minebot's games.

Run as a script it checks the oracle: the peer plays the cached peer boards of a chunk (the
boards rebuilt by ``peer_boards.js``, its results kept in ``benchmarks/peer_results/``) through
minebot's own play loop and engine, choosing every move through the oracle with the loop of its
own bulk runner (every certain clear it returns, then its first clear, one solver call after
another), and the games it wins are compared, game by game, with the peer's recorded results.
Agreement in every game means the oracle reproduces the peer's decisions and state, reveals
and all. The peer skips its tie-break when its probability engine took 50 ms or more, so under
load a few games may differ with ``--clock real``; ``--clock frozen`` never skips it.

Neither minebot's runtime nor its tests need the peer; without it this says how to get it.
"""

from __future__ import annotations

import argparse
import enum
import json
import shlex
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

from minebot.board import Board  # noqa: E402
from minebot.errors import EXIT_OK, BadInputError, MinebotError  # noqa: E402
from minebot.move import Action, Move  # noqa: E402

Coord = tuple[int, int]
ORACLE_JS = HERE / "peer_oracle.js"


class Clock(str, enum.Enum):
    """How the peer's solver sees time (it skips its tie-break when its engine took >= 50 ms)."""

    REAL = "real"          # as in its own runs: a loaded machine changes some choices
    FROZEN = "frozen"      # every timing reads 0: the tie-break always runs, choices reproducible


class PeerOracleError(MinebotError):
    """The oracle process failed or answered something that is not an answer."""


@dataclass(frozen=True)
class PeerChoice:
    """The peer's move on a position: its first clear, that clear's safety (1 = certain), the kind
    of decision (``peer_oracle.js``), its status message, all its clears in order, and its time."""

    cell: Coord | None
    safety: float | None
    kind: str
    message: str
    actions: tuple[tuple[int, int, float], ...]
    ms: float


def encode_position(board: Board, mines: int, game: str) -> dict:
    """One oracle request: the board's size, the mine total and every revealed cell with its
    number, row-major; flags and question marks are sent as covered (the peer plays without
    flags), and ``game`` tells the oracle when a new game (a new peer Board) starts."""
    rows, cols = board.shape
    revealed = board.revealed
    cells = [[int(r), int(c), int(board.cells[r, c])] for r, c in zip(*revealed.nonzero())]
    return {"game": game, "rows": rows, "cols": cols, "mines": int(mines), "revealed": cells}


def decode_answer(line: str) -> PeerChoice:
    """A ``PeerChoice`` from one line of the oracle, or PeerOracleError naming what is wrong."""
    try:
        data = json.loads(line)
    except json.JSONDecodeError:
        raise PeerOracleError(f"peer oracle: not an answer: {line.strip()[:200]!r}") from None
    if not isinstance(data, dict) or "error" in data:
        raise PeerOracleError(f"peer oracle: {data.get('error') if isinstance(data, dict) else data!r}")
    cell = tuple(data["cell"]) if data.get("cell") is not None else None
    return PeerChoice(cell, data.get("safety"), str(data.get("kind", "")), str(data.get("message", "")),
                      tuple((int(r), int(c), float(p)) for r, c, p in data.get("actions", [])),
                      float(data.get("ms", 0.0)))


class PeerOracle:
    """One long-lived ``peer_oracle.js`` process; ``ask`` sends a position and waits for its answer.

    A context manager; ``close`` is idempotent and ends only the process it started."""

    def __init__(self, peer: Path, clock: Clock = Clock.REAL) -> None:
        from peer_compare import check_peer
        node = check_peer(peer)
        self.command = [node, str(ORACLE_JS), "--peer", str(peer), "--clock", clock.value]
        self.clock = clock
        self._proc: subprocess.Popen | None = subprocess.Popen(
            self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)

    def ask(self, board: Board, mines: int, game: str) -> PeerChoice:
        """The peer's move on ``board`` (``game`` names the game it belongs to)."""
        proc = self._proc
        if proc is None or proc.stdin is None or proc.stdout is None:
            raise PeerOracleError("peer oracle: asked after close()")
        try:
            proc.stdin.write(json.dumps(encode_position(board, mines, game)) + "\n")
            proc.stdin.flush()
        except BrokenPipeError:
            raise PeerOracleError(f"peer oracle stopped (exit {proc.poll()}): {shlex.join(self.command)}") from None
        line = proc.stdout.readline()
        if not line:
            raise PeerOracleError(f"peer oracle stopped (exit {proc.wait()}): {shlex.join(self.command)}")
        return decode_answer(line)

    def close(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        try:
            if proc.stdin is not None:
                proc.stdin.close()            # end of input: the oracle exits by itself
            proc.wait(timeout=5)
        except (subprocess.TimeoutExpired, BrokenPipeError):
            proc.terminate()
            proc.wait()

    def __enter__(self) -> "PeerOracle":
        return self

    def __exit__(self, *exc) -> None:
        self.close()


class PeerStrategy:
    """The peer choosing every move of a minebot game, with the loop of its own bulk runner: the
    first click where the game says, then per solver call every certain clear and its first clear,
    stopping after the first clear that is not certain. A ``minebot.loop.Strategy``."""

    def __init__(self, oracle: PeerOracle, game: str) -> None:
        self.oracle, self.game = oracle, game
        self.kinds: list[str] = []            # the kind of each of its guesses

    def next_moves(self, board: Board, mines: int | None = None, rules: str | None = None,
                   first_click: Coord | None = None) -> list[Move]:
        if not board.revealed.any():
            return [Move(Action.OPEN, first_click or (0, 0), 0.0)]
        if mines is None:
            raise BadInputError("the peer needs the mine total")
        choice = self.oracle.ask(board, mines, self.game)
        moves = []
        for i, (r, c, safety) in enumerate(choice.actions):
            if i == 0 or safety == 1:
                moves.append(Move(Action.OPEN, (r, c), 1.0 - safety))
            if safety != 1:
                self.kinds.append(choice.kind)
                break
        if not moves:
            raise PeerOracleError(f"the peer found no move ({choice.message!r})")
        return moves


def chunk_boards(setting: str, seed: int, games: int, peer: Path, folder: Path) -> tuple[list, str]:
    """The first ``games`` boards of a cached peer chunk and the peer's won/lost string for them,
    the boards rebuilt into ``folder`` (``peer_compare.restore_peer_results``)."""
    from peer_compare import DEFAULT_CACHE, SETTINGS, cache_file, check_peer, restore_peer_results

    from minebot.game.layouts import load_layouts
    if setting not in SETTINGS:
        raise BadInputError(f"--setting {setting}: choose from {', '.join(SETTINGS)}")
    name = f"{setting}-seed{seed}-n1000"
    kept = cache_file(DEFAULT_CACHE, Path(name))
    if not kept.exists():
        raise BadInputError(f"no cached peer results {kept}: the chunks cached are "
                            + ", ".join(p.stem for p in sorted(DEFAULT_CACHE.glob(f'{setting}-*'))))
    target = folder / name
    if not (target / "boards.jsonl").exists():
        restore_peer_results(check_peer(peer), peer, DEFAULT_CACHE, target, SETTINGS[setting], seed, 1000)
    won = json.loads(kept.read_text(encoding="utf-8"))["won"]
    return load_layouts(target / "boards.jsonl")[:games], won[:games]


def validate(setting: str, seed: int, games: int, peer: Path, clock: Clock, folder: Path) -> dict:
    """The peer plays a chunk's boards through the oracle; per game whether it won as recorded."""
    from peer_compare import SETTINGS

    from minebot.game.engine import EngineGame
    from minebot.loop import play_game
    layouts, recorded = chunk_boards(setting, seed, games, peer, folder)
    rules = SETTINGS[setting].rules
    differ: list[int] = []
    kinds: dict[str, int] = {}
    won = 0
    start = time.perf_counter()
    with PeerOracle(peer, clock) as oracle:
        for i, layout in enumerate(layouts):
            strategy = PeerStrategy(oracle, f"{seed}:{i}")
            game = EngineGame(layout.rows, layout.cols, len(layout.mines), rules=rules, layout=layout)
            result = play_game(game, strategy)
            won += result.won
            for kind in strategy.kinds:
                kinds[kind] = kinds.get(kind, 0) + 1
            if result.won != (recorded[i] == "1"):
                differ.append(i + 1)
            if sys.stderr.isatty():
                sys.stderr.write(f"\r  {i + 1}/{len(layouts)} games, {len(differ)} differ")
    if sys.stderr.isatty():
        sys.stderr.write("\n")
    return {"setting": setting, "seed": seed, "games": len(layouts), "clock": clock.value,
            "agree": len(layouts) - len(differ), "differ": differ, "oracle_wins": won,
            "recorded_wins": recorded.count("1"), "guess_kinds": kinds,
            "wall_s": round(time.perf_counter() - start, 1)}


def main(argv: list[str] | None = None) -> int:
    from peer_compare import DEFAULT_PEER
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--setting", default="expert-safe", help="a setting of peer_compare.py (default expert-safe)")
    ap.add_argument("--seed", type=int, default=101, help="the cached chunk's peer seed (default 101)")
    ap.add_argument("--games", type=int, default=1000, help="its first GAMES boards (default 1000)")
    ap.add_argument("--clock", type=Clock, default=Clock.REAL, choices=list(Clock),
                    help="the peer's clock: real (as its own runs) or frozen (never skips its tie-break)")
    ap.add_argument("--peer", default=str(DEFAULT_PEER), help="the peer's folder (default ../shared/peers/jsminesweeper)")
    ap.add_argument("--out", default=None, help="folder for the rebuilt boards (default a temporary one)")
    args = ap.parse_args(argv)
    try:
        if not 1 <= args.games <= 1000:
            raise BadInputError(f"--games {args.games}: between 1 and 1000 (one cached chunk)")
        with tempfile.TemporaryDirectory() as tmp:
            found = validate(args.setting, args.seed, args.games, Path(args.peer).resolve(), args.clock,
                             Path(args.out) if args.out else Path(tmp))
    except MinebotError as err:
        print(f"peer_oracle: {err}", file=sys.stderr)
        return err.exit_code
    print(json.dumps(found))
    print(f"{found['agree']} of {found['games']} games as the peer's recorded results "
          f"({found['oracle_wins']} won through the oracle, {found['recorded_wins']} recorded)")
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
