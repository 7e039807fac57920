"""Live speed against an earlier commit, in the same run on the same machine.

    flock /work/live.lock python benchmarks/live_speed.py --games 20            # HEAD~1 against this tree
    flock /work/live.lock python benchmarks/live_speed.py --base main --levels expert --games 30

Why: a live game's time depends on the machine's load as much as on the code (the same commit
has measured 2.4 to 3.7 s a won expert game on the shared machine), so a figure measured at
another time says little about a change. This plays the earlier commit (``--base``, checked out
in a temporary worktree) and this tree in alternating rounds, each round ``live_play.py``'s
own games of GNOME Mines under a private Xvfb, and prints for each side and level:

- won / finished games, the median and 90th percentile of a won game's seconds;
- the bot's share of the won games' time (everything but waiting for the game to draw,
  ``minebot.timing``), and the milliseconds per turn of each phase;
- clicks per second over the won games, and the milliseconds of a turn (each side plays its
  own random boards: a side that drew longer games has slower games but not slower turns);
- this tree's figure over the base's, as a ratio (below 1: faster).

Both sides run with this tree's Python environment; the base side with its own code
(``live_play.py`` and ``minebot`` of that commit). Per-game logs stay in ``--out``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from minebot.sandbox.versions import environment  # noqa: E402

WINDOWS = {"expert": "1290x760", "intermediate": "900x700", "beginner": "810x656"}
"""The window each level is played in (those of ``benchmarks/live_results``)."""

PHASES = ("draw", "settle", "grab", "read", "solve", "plan", "send", "other")


def percentile(values: list[float], q: float) -> float | None:
    """The ``q`` quantile (0-1) by linear interpolation; None for no values."""
    if not values:
        return None
    xs = sorted(values)
    pos = q * (len(xs) - 1)
    lo = int(pos)
    hi = min(lo + 1, len(xs) - 1)
    return xs[lo] + (xs[hi] - xs[lo]) * (pos - lo)


def figures(records: list[dict]) -> dict:
    """The speed figures of one side's games on one level (``live_play.py``'s log lines)."""
    done = [r for r in records if r["result"] in ("won", "lost")]
    won = [r for r in done if r["result"] == "won"]
    secs = [r["seconds"] for r in won]
    out: dict = {"finished": len(done), "won": len(won),
                 "stopped": sum(r["result"] == "stopped" for r in records),
                 "median_s": percentile(secs, 0.5), "p90_s": percentile(secs, 0.9)}
    total = sum(secs)
    out["clicks_per_s"] = sum(r.get("clicks", 0) for r in won) / total if total else None
    profiles = [r["profile"] for r in won if r.get("profile")]
    ms = sum(p["ms"] for p in profiles)
    turns = sum(p["turns"] for p in profiles)
    out["share"] = 1 - sum(p["draw_ms"] for p in profiles) / ms if ms else None
    out["turns_per_game"] = turns / len(profiles) if profiles else None
    out["ms_per_turn"] = {ph: sum(p.get(ph + "_ms", 0.0) for p in profiles) / turns
                          for ph in PHASES} if turns else {}
    # per turn, all of it: the games are each side's own random boards, so a side may have
    # drawn longer games; a turn's time compares the code more closely than a game's
    out["ms_per_turn"]["all"] = ms / turns if turns else None
    return out


def load_average() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:3])
    except OSError:
        return "?"


def play(tree: Path, level: str, games: int, out: Path, resume: bool) -> None:
    """``games`` more games of ``level`` by the code in ``tree``, logged in ``out``."""
    cmd = [sys.executable, str(tree / "benchmarks" / "live_play.py"), "--level", level,
           "--games", str(games), "--window", WINDOWS[level], "--out", str(out)]
    if resume:
        cmd.append("--resume")
    env = dict(os.environ, PYTHONPATH=str(tree))
    subprocess.run(cmd, cwd=tree, env=env, check=True, stdout=subprocess.DEVNULL)


def records(out: Path) -> list[dict]:
    log = out / "games.jsonl"
    if not log.exists():
        return []
    return [json.loads(line) for line in log.read_text().splitlines() if line]


def fmt(v: float | None, spec: str) -> str:
    return "-" if v is None else format(v, spec)


def ratio(a: float | None, b: float | None) -> str:
    return "-" if a is None or not b else f"{a / b:.2f}"


def report(level: str, base: dict, this: dict, base_label: str, this_label: str) -> str:
    """A small table for one level: each side's figures and this side's over the base's."""
    rows = [("won / finished", lambda f: f"{f['won']}/{f['finished']}" + (
                f" ({f['stopped']} stopped)" if f["stopped"] else ""), False),
            ("median won s", lambda f: fmt(f["median_s"], ".3f"), "median_s"),
            ("p90 won s", lambda f: fmt(f["p90_s"], ".3f"), "p90_s"),
            ("bot's share", lambda f: fmt(f["share"], ".0%"), "share"),
            ("clicks/s", lambda f: fmt(f["clicks_per_s"], ".1f"), "clicks_per_s"),
            ("turns per won game", lambda f: fmt(f["turns_per_game"], ".1f"), "turns_per_game")]
    rows += [(f"{ph} ms/turn", (lambda f, ph=ph: fmt(f["ms_per_turn"].get(ph), ".1f")),
              ("ms_per_turn", ph)) for ph in ("all", *PHASES)]
    lines = [f"{level}: | {base_label} | {this_label} | ratio", "|---|---|---|---|"]
    for name, show, key in rows:
        if key is False:
            r = ""
        elif isinstance(key, tuple):
            r = ratio(this[key[0]].get(key[1]), base[key[0]].get(key[1]))
        else:
            r = ratio(this[key], base[key])
        lines.append(f"| {name} | {show(base)} | {show(this)} | {r} |")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--base", default="HEAD~1", help="the commit to compare with (default HEAD~1)")
    ap.add_argument("--this", default=None,
                    help="play this commit instead of the working tree (checked out like --base, "
                         "so that edits during the run do not leak into it)")
    ap.add_argument("--levels", default="expert,beginner", help="GNOME Mines levels, comma-separated")
    ap.add_argument("--games", type=int, default=20, help="games per level and side")
    ap.add_argument("--rounds", type=int, default=2,
                    help="alternating rounds the games are split into (load drifts: both sides "
                         "see it alike)")
    ap.add_argument("--out", default=None, help="folder for the per-game logs (default: a temporary one)")
    args = ap.parse_args(argv)
    levels = [lv for lv in args.levels.split(",") if lv]
    for lv in levels:
        if lv not in WINDOWS:
            print(f"live_speed: unknown level {lv!r} (expected {', '.join(WINDOWS)})", file=sys.stderr)
            return 2
    base_rev = subprocess.run(["git", "rev-parse", "--short", args.base], cwd=ROOT, text=True,
                              capture_output=True)
    if base_rev.returncode:
        print(f"live_speed: no commit {args.base!r}: {base_rev.stderr.strip()}", file=sys.stderr)
        return 2
    base_label = base_rev.stdout.strip()
    if args.this is not None:
        this_label = subprocess.run(["git", "rev-parse", "--short", args.this], cwd=ROOT, text=True,
                                    capture_output=True).stdout.strip() or args.this
    else:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, text=True,
                              capture_output=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=ROOT,
                               text=True, capture_output=True).stdout.strip()
        this_label = head + ("+dirty" if dirty else "")
    out = Path(args.out) if args.out else Path(tempfile.mkdtemp(prefix="live-speed-"))
    out.mkdir(parents=True, exist_ok=True)
    trees: list[Path] = []

    def checkout(rev: str) -> Path:
        tree = Path(tempfile.mkdtemp(prefix="live-speed-tree-")) / "tree"
        subprocess.run(["git", "worktree", "add", "--detach", "--quiet", str(tree), rev], cwd=ROOT,
                       check=True)
        trees.append(tree)
        return tree
    tree = checkout(args.base)
    here = ROOT if args.this is None else checkout(args.this)
    print(f"base {base_label} against {this_label}; {args.games} games per level and side in "
          f"{args.rounds} rounds; load {load_average()}; logs in {out}", flush=True)
    try:
        per_round = [args.games // args.rounds + (i < args.games % args.rounds)
                     for i in range(args.rounds)]
        for n, games in enumerate(per_round):
            for level in levels:
                # the order alternates too, so neither side always follows the other
                sides = (("base", tree), ("this", here)) if n % 2 == 0 else (("this", here), ("base", tree))
                for side, code in sides:
                    if games:
                        play(code, level, games, out / f"{side}-{level}", resume=n > 0)
                print(f"round {n + 1}/{len(per_round)} {level} done; load {load_average()}", flush=True)
    finally:
        for t in trees:
            subprocess.run(["git", "worktree", "remove", "--force", str(t)], cwd=ROOT)
    summary = {}
    for level in levels:
        base, this = figures(records(out / f"base-{level}")), figures(records(out / f"this-{level}"))
        summary[level] = {"base": base, "this": this}
        print()
        print(report(level, base, this, base_label, this_label))
    print(f"\nload at the end {load_average()}")
    (out / "speed.json").write_text(json.dumps({"base": base_label, "this": this_label,
                                                "levels": summary,
                                                "environment": environment()}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
