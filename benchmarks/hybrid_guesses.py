"""Where minebot's and the peer's guesses differ, from the logs of ``peer_hybrid.py``.

    python benchmarks/hybrid_guesses.py --out out/peer_hybrid --setting expert-safe

Two tables, over every chunk of the setting in ``--out``:

1. every guess of minebot's default games, grouped by phase, minebot's reason and the peer's
   kind: how many, how often the peer chose another cell, and the mean safety of the peer's cell
   minus minebot's (minebot's exact counts) where it did;
2. the ``all`` hybrid (the peer's cell at every guess), its games split by the guess where they
   first left the default game: games, won only by the default, won only by the hybrid. Each
   game's outcome is put down to its first different guess (later ones are the peer's too), so
   the rows add up to hybrid - default exactly, but a row is where the games parted, not
   necessarily where they were decided.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from peer_hybrid import phase_of, read_rows  # noqa: E402

Key = tuple[str, str, str]


def _key(guess: dict) -> Key:
    phase = phase_of(guess["unknown"], 10 ** guess["log10_layouts"], guess["minebot_kind"])
    return phase, guess["minebot_kind"], guess["peer_kind"]


def _differs(guess: dict) -> bool:
    return guess["peer_cell"] is not None and tuple(guess["peer_cell"]) != tuple(guess["minebot_cell"])


def guess_groups(default_rows: list[dict]) -> dict[Key, dict]:
    """Per (phase, minebot kind, peer kind): guesses, differing guesses, summed safety change."""
    groups: dict[Key, dict] = defaultdict(lambda: {"guesses": 0, "differ": 0, "change": 0.0})
    for row in default_rows:
        for guess in row["guesses"]:
            group = groups[_key(guess)]
            group["guesses"] += 1
            if _differs(guess):
                group["differ"] += 1
                group["change"] += guess["peer_safety"] - guess["minebot_safety"]
    return dict(groups)


def first_divergence(pairs: list[tuple[dict, dict]]) -> dict[Key, dict]:
    """Per (phase, minebot kind, peer kind) of the first guess where the peer chose another cell:
    the hybrid games that parted there, and how many only the default or only the hybrid won.
    ``pairs`` are (default row, hybrid row) of the games the ``all`` hybrid played again."""
    groups: dict[Key, dict] = defaultdict(lambda: {"games": 0, "default_only": 0, "hybrid_only": 0})
    for default, hybrid in pairs:
        first = next((g for g in default["guesses"] if _differs(g)), None)
        if first is None:
            continue
        group = groups[_key(first)]
        group["games"] += 1
        group["default_only"] += default["won"] and not hybrid["won"]
        group["hybrid_only"] += hybrid["won"] and not default["won"]
    return dict(groups)


def tables(folders: list[Path]) -> str:
    default_rows, pairs = [], []
    for folder in folders:
        default = read_rows(folder / "default.jsonl")
        default_rows += list(default.values())
        hybrid = read_rows(folder / "hybrid-all.jsonl")
        pairs += [(default[i], row) for i, row in hybrid.items() if i in default]
    lines = [f"{len(default_rows)} default games, {sum(len(r['guesses']) for r in default_rows)} guesses", "",
             "| phase | minebot | peer | guesses | peer differs | mean safety change where it differs |",
             "|---|---|---|---|---|---|"]
    for key, g in sorted(guess_groups(default_rows).items(), key=lambda kv: (kv[0][0], -kv[1]["guesses"])):
        change = f"{100 * g['change'] / g['differ']:+.2f} pp" if g["differ"] else "-"
        lines.append(f"| {' | '.join(key)} | {g['guesses']} | {g['differ']} ({100 * g['differ'] / g['guesses']:.0f}%) "
                     f"| {change} |")
    games = len(default_rows)
    lines += ["", f"the all-hybrid's {len(pairs)} replayed games by their first different guess "
                  f"(net in pp of all {games} games)", "",
              "| phase | minebot | peer | games | default only / hybrid only | net, pp |", "|---|---|---|---|---|---|"]
    for key, g in sorted(first_divergence(pairs).items(), key=lambda kv: (kv[0][0], -kv[1]["games"])):
        net = 100 * (g["hybrid_only"] - g["default_only"]) / games if games else 0.0
        lines.append(f"| {' | '.join(key)} | {g['games']} | {g['default_only']} / {g['hybrid_only']} | {net:+.2f} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--out", default="out/peer_hybrid", help="peer_hybrid.py's --out (default out/peer_hybrid)")
    ap.add_argument("--setting", default="expert-safe", help="the setting (default expert-safe)")
    args = ap.parse_args(argv)
    folders = sorted(Path(args.out).glob(f"{args.setting}-seed*-n1000"))
    if not folders:
        print(f"hybrid_guesses: no {args.setting} chunks in {args.out}", file=sys.stderr)
        return 2
    print(tables(folders))
    return 0


if __name__ == "__main__":
    sys.exit(main())
