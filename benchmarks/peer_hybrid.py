"""Which of the peer's guesses beat minebot's: minebot playing the peer's guesses in one category.

    python benchmarks/peer_hybrid.py --setting expert-safe --seeds 101,102 --games 1000 \\
        --categories all,opening,middle,endgame,offedge --out out/peer_hybrid

minebot plays the cached peer boards (``benchmarks/peer_results/``, boards rebuilt by
``peer_boards.js``) through the same engine, play loop and ``Solver`` as ``peer_compare.py``.
At every guess the peer oracle (``peer_oracle.py``) is asked too, and in a *hybrid* run the
peer's cell is played instead of minebot's whenever the guess falls in the chosen category:

- ``all``: every guess;
- ``opening`` (more than 300 unknown cells), ``middle`` (the rest that is not ``endgame``),
  ``endgame`` (minebot's endgame search, or at most 200 layouts);
- ``offedge``: minebot's or the peer's cell is off the frontier; ``offedge-peer``: only the
  peer's, ``offedge-minebot``: only minebot's, ``offedge-both``: both (these three need a
  default pass logged by this version or later, which keeps them);
- ``mb:KIND``: minebot's reason (``lookahead``, ``endgame``, ``forced5050``, ``safest``,
  ``budget``, ``pseudo``, ``twoguess``); ``peer:KIND``: the peer's kind (``peer_oracle.js``:
  ``tiebreak``, ``5050-ltr``, ``5050-pe``, ``bfda``, ``isolated-edge``, ...);
- ``A+B``: guesses in both A and B (e.g. ``middle+peer:tiebreak``).

First a *default* pass: minebot's default, the peer asked at each guess and never followed;
every guess is logged (``guesses.jsonl``: unknown cells, layouts, both cells, both safeties by
minebot's exact counts, both kinds, the categories). A hybrid game makes exactly the default's
moves up to its first guess in the category where the peer chose another cell (both solvers
and, with ``--clock frozen``, the oracle are deterministic), so only those games are played
again; the others count with the default's result (``--replay-all`` plays every game, to
check that). Each category is paired game by game with the default (hybrid - default, its se
from the discordant games) and with the peer's recorded results.

Files in ``--out/<setting>-seed<S>-n1000/``: ``default.jsonl`` (a line per game with its
guesses), ``hybrid-<category>.jsonl`` (the games played again) and ``record.json``/``record.md``
in ``--out`` (command, commit, figures). The same command again resumes.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import shlex
import sys
import time
from dataclasses import asdict, dataclass
from datetime import datetime, timezone
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

from ab_solver import compare  # noqa: E402
from peer_oracle import Clock, PeerOracle, chunk_boards  # noqa: E402

from minebot.errors import EXIT_OK, BadInputError, MinebotError, interrupt_exit_code  # noqa: E402
from minebot.solver import Solver  # noqa: E402
from minebot.solver.lookahead import safety_of  # noqa: E402
from minebot.solver.strategy import Choice  # noqa: E402

Coord = tuple[int, int]
OPENING_UNKNOWN = 300          # more unknown cells than this: the opening
ENDGAME_LAYOUTS = 200          # at most this many layouts (minebot's endgame search): the endgame
PHASES = ("opening", "middle", "endgame")

def phase_of(unknown: int, layouts: int, minebot_kind: str) -> str:
    """opening (> 300 unknown cells), endgame (minebot's endgame search or <= 200 layouts), middle."""
    if minebot_kind == "endgame" or layouts <= ENDGAME_LAYOUTS:
        return "endgame"
    return "opening" if unknown > OPENING_UNKNOWN else "middle"


def categories(unknown: int, layouts: int, minebot_kind: str, peer_kind: str,
               minebot_offedge: bool, peer_offedge: bool) -> list[str]:
    """Every category a guess falls in (see the module's docstring)."""
    found = ["all", phase_of(unknown, layouts, minebot_kind)]
    if minebot_offedge or peer_offedge:
        found.append("offedge")
        found.append("offedge-both" if minebot_offedge and peer_offedge else
                     "offedge-minebot" if minebot_offedge else "offedge-peer")
    return found + [f"mb:{minebot_kind}", f"peer:{peer_kind}"]


OFFEDGE_SIDES = ("offedge-peer", "offedge-minebot", "offedge-both")


def check_category(name: str) -> str:
    """``name`` if it is a category (or an intersection A+B of them), else BadInputError naming it."""
    if all(part in ("all", "offedge", *OFFEDGE_SIDES, *PHASES) or re.fullmatch(r"(mb|peer):[A-Za-z0-9-]+", part)
           for part in name.split("+")):
        return name
    raise BadInputError(f"--categories: unknown category {name!r} (all, opening, middle, endgame, offedge, "
                        "offedge-peer, offedge-minebot, offedge-both, mb:KIND, peer:KIND, A+B)")


def in_category(guess: dict, category: str) -> bool:
    """Whether a logged guess is in ``category`` (every part of an intersection A+B)."""
    return all(part in guess["categories"] for part in category.split("+"))


def check_logged(default_rows: dict[int, dict], category: str, where: Path) -> None:
    """The offedge-* categories need guesses logged with them (earlier logs do not have them)."""
    if any(side in category.split("+") for side in OFFEDGE_SIDES):
        if any("offedge" in g["categories"] and not set(OFFEDGE_SIDES) & set(g["categories"])
               for row in default_rows.values() for g in row["guesses"]):
            raise BadInputError(f"{where}: its default games were logged before {category} existed: "
                                "use another --out for it")


@dataclass(frozen=True)
class GuessRecord:
    """One guess: the position's size, both solvers' cells, safeties (minebot's exact counts)
    and kinds, which one was played, and the categories it falls in."""

    unknown: int
    frontier: int
    log10_layouts: float
    minebot_cell: Coord
    minebot_safety: float
    minebot_kind: str
    peer_cell: Coord | None
    peer_safety: float | None
    peer_kind: str
    played: str                       # "minebot" or "peer"
    categories: tuple[str, ...]

    @property
    def differs(self) -> bool:
        return self.peer_cell is not None and tuple(self.peer_cell) != tuple(self.minebot_cell)


class HybridSolver(Solver):
    """minebot's Solver that asks the peer at every guess and plays the peer's cell when the guess
    is in ``category`` (None: never, the default solver with the peer's choices logged)."""

    def __init__(self, oracle: PeerOracle, category: str | None, **options) -> None:
        super().__init__(**options)
        self.oracle = oracle
        self.category = category
        self.game = ""
        self.guesses: list[GuessRecord] = []

    def start_game(self, game: str) -> None:
        self.game = game
        self.guesses = []

    def guess(self, result) -> Choice:
        choice = super().guess(result)
        cons, counts = result.constraints, result.counts
        board = result.board
        peer = self.oracle.ask(board, board.mines, self.game)
        unknown = int(board.unknown.sum())
        layouts = int(counts.layouts)
        mb_kind = choice.kind.value
        peer_cell = tuple(peer.cell) if peer.cell is not None else None
        mb_safety = safety_of(cons, counts, choice.cell)
        peer_safety = safety_of(cons, counts, peer_cell) if peer_cell is not None else None
        cats = categories(unknown, layouts, mb_kind, peer.kind, choice.cell not in cons.index,
                          peer_cell is not None and peer_cell not in cons.index)
        follow = (self.category is not None and all(part in cats for part in self.category.split("+"))
                  and peer_cell is not None and peer_cell != choice.cell
                  and bool(board.unknown[peer_cell]))
        self.guesses.append(GuessRecord(unknown, cons.frontier_size, round(math.log10(max(layouts, 1)), 3),
                                        choice.cell, round(mb_safety, 6), mb_kind, peer_cell,
                                        None if peer_safety is None else round(peer_safety, 6), peer.kind,
                                        "peer" if follow else "minebot", tuple(cats)))
        if follow:
            return Choice(peer_cell, 1.0 - peer_safety, peer_safety, f"peer's guess ({peer.kind})", choice.kind)
        return choice


def play(solver: HybridSolver, layout, rules: str, game: str) -> dict:
    """One game: whether it was won and its guesses."""
    from minebot.game.engine import EngineGame
    from minebot.loop import play_game
    solver.start_game(game)
    engine = EngineGame(layout.rows, layout.cols, len(layout.mines), rules=rules, layout=layout)
    result = play_game(engine, solver)
    return {"won": bool(result.won), "guesses": [asdict(g) for g in solver.guesses]}


def read_rows(path: Path) -> dict[int, dict]:
    """The complete lines of a results file by game number (a line cut short is dropped)."""
    rows: dict[int, dict] = {}
    if path.exists():
        for line in path.read_text(encoding="utf-8").splitlines():
            try:
                row = json.loads(line)
            except json.JSONDecodeError:
                break
            rows[row["i"]] = row
    return rows


def first_differing(default_row: dict, category: str) -> int | None:
    """The index of the default game's first guess in ``category`` where the peer chose another
    cell (None: there is none)."""
    for k, g in enumerate(default_row["guesses"]):
        if in_category(g, category) and g["peer_cell"] is not None \
                and tuple(g["peer_cell"]) != tuple(g["minebot_cell"]):
            return k
    return None


def to_replay(default_row: dict, category: str) -> bool:
    """Whether a hybrid game can differ from the default: some guess of the default game is in
    ``category`` and the peer chose another cell there."""
    return first_differing(default_row, category) is not None


def category_figures(category: str, chunks: list[tuple[dict[int, dict], dict[int, dict], str]]) -> dict:
    """One category over its chunks: (default rows, hybrid rows, peer's won string) each. Hybrid
    against the default and against the peer, game by game, on the games finished (a game still
    to be replayed is left out), and the guesses in the category in all the default's games: how
    many, how many the peer chose differently, and the mean safety (minebot's exact counts) of
    the peer's cell minus minebot's where they differ."""
    vs_default, vs_peer = [], []
    guesses = differ = 0
    gained = 0.0
    missing = 0
    for default, hybrid, peer_won in chunks:
        for i, row in sorted(default.items()):
            replay = to_replay(row, category)
            if replay and i not in hybrid:
                missing += 1
            else:
                won = hybrid[i]["won"] if replay else row["won"]
                vs_default.append((i, row["won"], won))
                vs_peer.append((i, peer_won[i - 1] == "1", won))
            for g in row["guesses"]:
                if in_category(g, category):
                    guesses += 1
                    if g["peer_cell"] is not None and tuple(g["peer_cell"]) != tuple(g["minebot_cell"]):
                        differ += 1
                        gained += g["peer_safety"] - g["minebot_safety"]
    d, p = compare(vs_default), compare(vs_peer)
    return {"category": category, "games": d["games"], "not_yet_replayed": missing,
            "hybrid_wins": sum(w for _, _, w in vs_default), "default_wins": sum(w for _, w, _ in vs_default),
            "peer_wins": sum(w for _, w, _ in vs_peer),
            "default_only": d["a_only"], "hybrid_only": d["b_only"], "vs_default": d["difference"],
            "vs_default_se": d["stderr"], "peer_only": p["a_only"], "hybrid_only_vs_peer": p["b_only"],
            "vs_peer": p["difference"], "vs_peer_se": p["stderr"],
            "guesses": guesses, "differ": differ,
            "mean_safety_change": gained / differ if differ else 0.0}


def table(rows: list[dict]) -> str:
    """The figures as a Markdown table."""
    lines = ["| category | games | hybrid - default, pp (se) | default only / hybrid only | hybrid - peer, pp (se) "
             "| peer only / hybrid only | guesses | peer differs | mean safety change where it differs |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['category']} | {r['games']}"
                     + (f" ({r['not_yet_replayed']} to replay)" if r["not_yet_replayed"] else "")
                     + f" | {100 * r['vs_default']:+.2f} ({100 * r['vs_default_se']:.2f}) "
                     f"| {r['default_only']} / {r['hybrid_only']} "
                     f"| {100 * r['vs_peer']:+.2f} ({100 * r['vs_peer_se']:.2f}) | {r['peer_only']} / {r['hybrid_only_vs_peer']} "
                     f"| {r['guesses']} | {r['differ']} ({100 * r['differ'] / max(r['guesses'], 1):.0f}%) "
                     f"| {100 * r['mean_safety_change']:+.2f} pp |")
    return "\n".join(lines)


def _progress(text: str) -> None:
    if sys.stderr.isatty():
        sys.stderr.write(f"\r{text}\033[K")


def run_chunk(oracle: PeerOracle, setting: str, seed: int, games: int, cats: list[str], folder: Path,
              options: dict, replay_all: bool, peer: Path, deadline: float | None) -> tuple:
    """The default pass and every category's replays of one chunk: (default rows, hybrid rows per
    category, the peer's won string, and the Ctrl-C or SIGTERM that stopped it, or None)."""
    from peer_compare import SETTINGS
    layouts, peer_won = chunk_boards(setting, seed, games, peer, folder)
    rules = SETTINGS[setting].rules
    where = folder / f"{setting}-seed{seed}-n1000"
    default_path = where / "default.jsonl"
    default = read_rows(default_path)
    for cat in cats:
        check_logged(default, cat, where)
    hybrid_rows: dict[str, dict[int, dict]] = {cat: read_rows(where / f"hybrid-{cat.replace(':', '_')}.jsonl")
                                               for cat in cats}
    try:
        _play_chunk(oracle, setting, seed, layouts, rules, cats, where, default, hybrid_rows, options,
                    replay_all, deadline)
    except KeyboardInterrupt as exc:     # what is finished still counts: the caller reports it and stops
        return default, hybrid_rows, peer_won, exc
    return default, hybrid_rows, peer_won, None


def _play_chunk(oracle: PeerOracle, setting: str, seed: int, layouts: list, rules: str, cats: list[str],
                where: Path, default: dict[int, dict], hybrid_rows: dict[str, dict[int, dict]], options: dict,
                replay_all: bool, deadline: float | None) -> None:
    """The games of one chunk not played yet: the default pass, then each category's replays."""
    def play_into(category: str | None, rows: dict[int, dict], path: Path, wanted) -> None:
        solver = HybridSolver(oracle, category, **options)
        with open(path, "a", encoding="utf-8") as out:
            for i, layout in enumerate(layouts, start=1):
                if i in rows or not wanted(i):
                    continue
                if deadline is not None and time.time() > deadline:
                    break
                rows[i] = {"i": i, **play(solver, layout, rules, f"{seed}:{i}:{category or 'default'}")}
                out.write(json.dumps(rows[i]) + "\n")
                out.flush()
                _progress(f"{setting} seed {seed}: {category or 'default'} game {i}/{len(layouts)}")

    play_into(None, default, where / "default.jsonl", lambda i: True)
    for cat in cats:
        play_into(cat, hybrid_rows[cat], where / f"hybrid-{cat.replace(':', '_')}.jsonl",
                  lambda i: i in default and (replay_all or to_replay(default[i], cat)))
    _progress("")


def _now() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def main(argv: list[str] | None = None) -> int:
    from peer_compare import DEFAULT_PEER, git_commit
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--setting", default="expert-safe", help="expert-safe or expert-zero (any cached setting)")
    ap.add_argument("--seeds", default="101", help="comma-separated cached peer seeds (default 101)")
    ap.add_argument("--games", type=int, default=1000, help="the first GAMES boards of each chunk (default 1000)")
    ap.add_argument("--categories", default="all", help="comma-separated categories (default all)")
    ap.add_argument("--solver", default="{}", metavar="JSON", help="minebot's Solver options (default {})")
    ap.add_argument("--clock", type=Clock, default=Clock.FROZEN, choices=list(Clock),
                    help="the peer's clock (default frozen: its tie-break always runs, its choices reproducible)")
    ap.add_argument("--replay-all", action="store_true",
                    help="play every game of every category, not only those that can differ from the default")
    ap.add_argument("--report", action="store_true",
                    help="play nothing: the figures of the games already in --out (those not yet replayed left out)")
    ap.add_argument("--until", default=None, metavar="HH:MM",
                    help="stop starting games after this UTC time (figures of what is finished)")
    ap.add_argument("--peer", default=str(DEFAULT_PEER), help="the peer's folder (default ../shared/peers/jsminesweeper)")
    ap.add_argument("--out", default=str(ROOT / "out" / "peer_hybrid"), help="results folder (default out/peer_hybrid)")
    args = ap.parse_args(argv)
    command = shlex.join([sys.executable, *(sys.argv if argv is None else [__file__, *argv])])
    stopped: KeyboardInterrupt | None = None
    try:
        from minebot.cli.bench import solver_options
        options = solver_options(args.solver)
        cats = [check_category(c.strip()) for c in args.categories.split(",") if c.strip()]
        try:
            seeds = [int(s) for s in args.seeds.split(",") if s.strip()]
        except ValueError:
            raise BadInputError(f"--seeds {args.seeds!r}: comma-separated whole numbers") from None
        if not 1 <= args.games <= 1000 or not seeds or not cats:
            raise BadInputError("--games must be 1-1000, --seeds and --categories not empty")
        deadline = 0.0 if args.report else None
        if args.until and not args.report:
            match = re.fullmatch(r"(\d\d):(\d\d)", args.until)
            if not match:
                raise BadInputError(f"--until {args.until!r}: HH:MM (UTC)")
            now = datetime.now(timezone.utc)
            end = now.replace(hour=int(match[1]), minute=int(match[2]), second=0, microsecond=0)
            # the next such time, unless it passed less than 12 hours ago: then no game is started
            deadline = end.timestamp() + (86400 if (now - end).total_seconds() > 43200 else 0)
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        record = {"command": command, "minebot_commit": git_commit(), "clock": args.clock.value,
                  "solver": options, "started": _now()}
        chunks = []
        with PeerOracle(Path(args.peer).resolve(), args.clock) as oracle:
            for seed in seeds:
                *chunk, stopped = run_chunk(oracle, args.setting, seed, args.games, cats, out, options,
                                                args.replay_all, Path(args.peer).resolve(), deadline)
                chunks.append(tuple(chunk))
                if stopped is not None:
                    break
    except MinebotError as err:
        print(f"peer_hybrid: {err}", file=sys.stderr)
        return err.exit_code
    rows = [category_figures(cat, [(d, h[cat], p) for d, h, p in chunks]) for cat in cats] if chunks else []
    record.update(ended=_now(), interrupted=stopped is not None, setting=args.setting, seeds=seeds, figures=rows)
    stem = f"record-{args.setting}"
    (out / f"{stem}.json").write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    text = (f"    {command}\n\nminebot {record['minebot_commit']}, peer clock {args.clock.value}, "
            f"{record['started']} - {record['ended']}\n\n{table(rows)}\n")
    (out / f"{stem}.md").write_text(text, encoding="utf-8")
    print(table(rows))
    return interrupt_exit_code(stopped) if stopped is not None else EXIT_OK


if __name__ == "__main__":
    from minebot.cli import stop_on_signals
    stop_on_signals()
    sys.exit(main())
