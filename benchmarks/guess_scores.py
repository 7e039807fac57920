"""minebot's own score of the peer's guesses, where the two differ.

    python benchmarks/guess_scores.py out/peer_hybrid/expert-zero-seed101-n1000 --games 150

Reads a chunk folder of ``peer_hybrid.py`` (its ``boards.jsonl`` and the default pass's
``default.jsonl``, which logs, per guess, minebot's cell and the peer's). minebot's default games
are deterministic, so each is replayed to every guess where the peer chose another cell, and
there both cells are scored by minebot's one-step look-ahead (P(survive this guess and the next
move), no step budget, no pruning), along with whether the peer's cell was among minebot's
candidates and whether minebot with no step budget finds a cell at least as good as the peer's.
It tells a search problem (the peer's cell scores higher by minebot's own measure: minebot did
not look at it, or ran out of budget) from a scoring problem (the peer's cell scores lower, and
the peer still wins more). Guesses where minebot used its look-ahead (``lookahead``, ``budget``)
only; a table by phase and the peer's kind.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from peer_hybrid import OPENING_UNKNOWN, read_rows  # noqa: E402

from minebot.errors import EXIT_BAD_INPUT, EXIT_OK  # noqa: E402
from minebot.game.engine import EngineGame  # noqa: E402
from minebot.game.layouts import load_layouts  # noqa: E402
from minebot.loop import play_game  # noqa: E402
from minebot.solver import DEFAULT_GUESSING, Solver  # noqa: E402
from minebot.solver.strategy import Guesser  # noqa: E402

EPS = 1e-9


class Probe(Solver):
    """The default Solver, which at each logged guess where the peer differed scores both cells."""

    def __init__(self, guesses: list[dict], rows: list[dict]) -> None:
        super().__init__()
        self.logged = guesses
        self.rows = rows
        self.k = 0

    def guess(self, result):
        choice = super().guess(result)
        q = self.logged[self.k]
        self.k += 1
        if tuple(q["minebot_cell"]) != tuple(choice.cell):
            raise SystemExit(f"game replay left the logged game at guess {self.k}: not the default's moves")
        peer = tuple(q["peer_cell"]) if q["peer_cell"] else None
        if peer is None or peer == tuple(choice.cell) or q["minebot_kind"] not in ("lookahead", "budget"):
            return choice
        g = self.guesser
        cons, counts = result.constraints, result.counts
        pool, _ = g.candidate_pool(cons, counts)
        mine = g.look_ahead(cons, counts, choice.cell).survive
        theirs = g.look_ahead(cons, counts, peer).survive
        # The default's own scoring, with no budget: the cell it would pick given all the time.
        unlimited = Guesser(g.cache, **{**DEFAULT_GUESSING, "step_budget": 10**9}).choose(cons, counts).cell
        best = g.look_ahead(cons, counts, unlimited).survive
        self.rows.append({"phase": "opening" if q["unknown"] > OPENING_UNKNOWN else "middle",
                          "kind": q["peer_kind"], "in_pool": peer in pool, "off": peer not in cons.index,
                          "minebot": mine, "peer": theirs, "unlimited": best})
        return choice


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("chunk", help="a chunk folder of peer_hybrid.py (boards.jsonl, default.jsonl)")
    ap.add_argument("--games", type=int, default=150, help="the first N games (default 150)")
    args = ap.parse_args(argv)
    folder = Path(args.chunk)
    if not (folder / "boards.jsonl").exists() or not (folder / "default.jsonl").exists():
        print(f"guess_scores: {folder}: no boards.jsonl and default.jsonl (run peer_hybrid.py first)", file=sys.stderr)
        return EXIT_BAD_INPUT
    rules = "safe" if "safe" in folder.name else "zero"
    layouts = load_layouts(folder / "boards.jsonl")
    logged = read_rows(folder / "default.jsonl")
    rows: list[dict] = []
    for i in range(1, min(args.games, len(layouts)) + 1):
        if i not in logged:
            break
        lay = layouts[i - 1]
        play_game(EngineGame(lay.rows, lay.cols, len(lay.mines), rules=rules, layout=lay),
                  Probe(logged[i]["guesses"], rows))
    groups: dict[tuple, list[dict]] = defaultdict(list)
    for r in rows:
        groups[(r["phase"], r["kind"])].append(r)
    print("| phase | peer's kind | differing | peer's cell among minebot's candidates | off the frontier "
          "| peer's cell scores higher / equal / lower (minebot's measure) | of the higher: no-budget minebot as good |")
    print("|---|---|---|---|---|---|---|")
    for (phase, kind), rs in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        hi = [r for r in rs if r["peer"] > r["minebot"] + EPS]
        eq = sum(abs(r["peer"] - r["minebot"]) <= EPS for r in rs)
        print(f"| {phase} | {kind} | {len(rs)} | {sum(r['in_pool'] for r in rs)} | {sum(r['off'] for r in rs)} "
              f"| {len(hi)} / {eq} / {len(rs) - len(hi) - eq} | {sum(r['unlimited'] >= r['peer'] - EPS for r in hi)} |")
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
