"""Keep minebot's per-game results of peer comparisons in the repository, and pair any two sides.

    python benchmarks/kept_results.py keep --out out/peer_compare --label def15-edge2
    python benchmarks/kept_results.py pair expert-zero def15-edge2 peer
    python benchmarks/kept_results.py pair expert-safe strong-unav-eg def15-edge2 --seeds 101-110
    python benchmarks/kept_results.py list

Why: a paired figure in benchmarks/README.md ("strong - default +0.17 pp, se 0.13") comes from
20,000 games per side, an hour or more of CPU each, and the per-game files ``peer_compare.py``
writes live in its ``--out`` folder, outside the repository. The peer's side is already kept
(``benchmarks/peer_results/``, one character per game); this keeps minebot's side the same way,
so anyone can check a paired figure, or pair a new variant with an old one, in a second and
without the peer or node.

``keep`` reads ``records.jsonl`` in ``--out`` (every ``peer_compare.py`` run's command, commit and
solver options) and adds to ``benchmarks/minebot_results/LABEL.json`` each chunk the label has
finished (every game of it played): one character per game (1 won, 0 lost) and the runs that
played it. An unfinished chunk is left out and named.

``pair SETTING A B`` pairs two kept sides (labels, or ``peer`` for the peer's kept results) game by
game over the chunks both have and prints both win rates with 95% intervals, the games won by
only one, and A - B with its paired standard error (as ``peer_compare.py`` computes it).
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

from peer_compare import figures, minebot_file, read_jsonl  # noqa: E402  (its files and its paired statistics)

from minebot.errors import EXIT_OK, BadInputError, MinebotError  # noqa: E402

PEER_KEPT = HERE / "peer_results"
MINEBOT_KEPT = HERE / "minebot_results"
CHUNK = re.compile(r"(?P<setting>[A-Za-z0-9x]+-[a-z]+)-seed(?P<seed>\d+)-n(?P<games>\d+)")
LABEL = re.compile(r"[A-Za-z0-9_.-]+")


def _load(path: Path) -> dict:
    try:
        kept = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise BadInputError(f"{path}: cannot read kept results ({exc})") from None
    won = kept.get("won") if isinstance(kept, dict) else None
    if not isinstance(won, str) or not won or set(won) - {"0", "1"}:
        raise BadInputError(f"{path}: no per-game results ('won' must be a string of 0s and 1s)")
    return kept


def _runs_by_folder(out: Path, label: str) -> dict[str, list[dict]]:
    """The runs of ``label`` in ``out/records.jsonl`` that played each chunk folder (by name)."""
    history = out / "records.jsonl"
    if not history.is_file():
        raise BadInputError(f"{history}: not found (is --out the folder peer_compare.py wrote?)")
    runs: dict[str, list[dict]] = {}
    for n, line in enumerate(history.read_text(encoding="utf-8").splitlines(), start=1):
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            raise BadInputError(f"{history}:{n}: not a JSON record") from None
        if record.get("label", "") != label:
            continue
        run = {key: record.get(key) for key in ("minebot_commit", "solver", "command", "started")}
        for setting in record.get("settings", []):
            for folder in setting.get("folders", []):
                entries = runs.setdefault(Path(folder).name, [])
                if run not in entries:
                    entries.append(run)
    return runs


def kept_file(label: str, kept: Path = MINEBOT_KEPT) -> Path:
    """The one file that keeps every chunk of a label (``default``: the default solver's)."""
    return kept / f"{label or 'default'}.json"


def keep(out: Path, label: str, target: Path = MINEBOT_KEPT) -> tuple[Path, list[str], list[str]]:
    """Keep every finished chunk of ``label`` found in ``out`` in the label's file, adding to the
    chunks it holds already: (the file, chunks kept, chunks left out and why)."""
    name = minebot_file(label)
    runs = _runs_by_folder(out, label)
    path = kept_file(label, target)
    kept = _load_label(path) if path.exists() else {"label": label or "default", "runs": [], "chunks": {}}
    added, unfinished = [], []
    for folder in sorted(p for p in out.iterdir() if p.is_dir() and CHUNK.fullmatch(p.name)):
        results = folder / name
        if not results.is_file():
            continue
        games = int(CHUNK.fullmatch(folder.name)["games"])
        rows = read_jsonl(results)
        if [row.get("i") for row in rows[:games]] != list(range(1, games + 1)):
            unfinished.append(f"{folder.name} ({len(rows)} of {games} games)")
            continue
        if folder.name not in runs:
            unfinished.append(f"{folder.name} (no run of this label in {out / 'records.jsonl'})")
            continue
        refs = []
        for run in runs[folder.name]:
            if run not in kept["runs"]:
                kept["runs"].append(run)
            refs.append(kept["runs"].index(run))
        kept["chunks"][folder.name] = {"won": "".join("1" if row["won"] else "0" for row in rows[:games]),
                                       "runs": refs}
        added.append(folder.name)
    if added:
        kept["chunks"] = dict(sorted(kept["chunks"].items()))
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(kept, indent=1) + "\n", encoding="utf-8")
    return path, added, unfinished


def _load_label(path: Path) -> dict:
    """A label's kept file, checked: every chunk's results a string of 0s and 1s of its length."""
    try:
        kept = json.loads(path.read_text(encoding="utf-8"))
        chunks = kept["chunks"]
        for chunk, entry in chunks.items():
            match = CHUNK.fullmatch(chunk)
            won = entry["won"]
            if not match or not isinstance(won, str) or set(won) - {"0", "1"} or len(won) != int(match["games"]):
                raise ValueError(f"chunk {chunk!r} is not one result (0 or 1) per game")
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, KeyError, TypeError, AttributeError,
            ValueError) as exc:
        raise BadInputError(f"{path}: not a kept results file ({exc})") from None
    return kept


def side(name: str, setting: str, peer_kept: Path = PEER_KEPT,
         minebot_kept: Path = MINEBOT_KEPT) -> dict[str, str]:
    """One side's kept results of ``setting``: chunk name -> its string of 0s and 1s."""
    if not LABEL.fullmatch(name):
        raise BadInputError(f"{name!r}: not a label (letters, digits, _ . -) or 'peer'")
    if name == "peer":
        return {path.stem: _load(path)["won"] for path in sorted(peer_kept.glob(f"{setting}-seed*-n*.json"))
                if (m := CHUNK.fullmatch(path.stem)) and m["setting"] == setting}
    path = kept_file(name, minebot_kept)
    if not path.is_file():
        known = ", ".join(sorted(p.stem for p in minebot_kept.glob("*.json"))) or "none"
        raise BadInputError(f"{path}: nothing kept for {name!r} (kept labels: {known}; or 'peer')")
    return {chunk: entry["won"] for chunk, entry in _load_label(path)["chunks"].items()
            if CHUNK.fullmatch(chunk)["setting"] == setting}


def _seeds(text: str) -> range | None:
    if not text:
        return None
    match = re.fullmatch(r"(\d+)(?:-(\d+))?", text)
    if not match:
        raise BadInputError(f"--seeds {text!r}: give SEED or FIRST-LAST")
    first = int(match[1])
    return range(first, int(match[2] or first) + 1)


def pair(setting: str, a: str, b: str, seeds: range | None = None, peer_kept: Path = PEER_KEPT,
         minebot_kept: Path = MINEBOT_KEPT) -> dict:
    """A and B game by game over the chunks both kept (within ``seeds``, if given)."""
    left, right = (side(x, setting, peer_kept, minebot_kept) for x in (a, b))
    chunks = sorted(c for c in left.keys() & right.keys()
                    if seeds is None or int(CHUNK.fullmatch(c)["seed"]) in seeds)
    # peer_compare.figures pairs "peer" with "minebot" and gives minebot - peer: B takes the
    # peer's place and A minebot's, so its difference is A - B.
    f = figures([(n, y == "1", x == "1") for c in chunks for n, (x, y) in enumerate(zip(left[c], right[c]))])
    return {"setting": setting, "a": a, "b": b, "chunks": chunks, "games": f["games"],
            "a_wins": f["minebot_wins"], "a_ci95": f["minebot_ci95"], "b_wins": f["peer_wins"],
            "b_ci95": f["peer_ci95"], "a_only": f["minebot_only"], "b_only": f["peer_only"],
            "difference": f["difference"], "stderr": f["stderr"]}


def describe(p: dict) -> str:
    """The pairing as a few lines of text."""
    n = p["games"]
    seeds = [int(CHUNK.fullmatch(c)["seed"]) for c in p["chunks"]]
    rate = lambda w, ci: f"{w} ({100 * w / n:.2f}%, 95% CI {100 * ci[0]:.2f}-{100 * ci[1]:.2f})"  # noqa: E731
    return "\n".join([
        f"{p['setting']}: {n} games, {len(seeds)} chunks (seeds {min(seeds)}-{max(seeds)})",
        f"  {p['a']}: {rate(p['a_wins'], p['a_ci95'])}",
        f"  {p['b']}: {rate(p['b_wins'], p['b_ci95'])}",
        f"  only {p['a']} won {p['a_only']}, only {p['b']} won {p['b_only']}",
        f"  {p['a']} - {p['b']}: {100 * p['difference']:+.2f} pp (se {100 * p['stderr']:.2f})"])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="command", required=True)
    k = sub.add_parser("keep", help="keep a label's finished chunks from a peer_compare.py --out folder")
    k.add_argument("--out", required=True, help="the folder peer_compare.py wrote (with records.jsonl)")
    k.add_argument("--label", default="", help="the variant's label (default: the default solver's results)")
    k.add_argument("--to", default=str(MINEBOT_KEPT), help="where to keep them (default benchmarks/minebot_results)")
    p = sub.add_parser("pair", help="pair two kept sides game by game")
    p.add_argument("setting", help="e.g. expert-zero, expert-safe, 16x16-zero, 9x9-zero, 8x8-zero")
    p.add_argument("a", help="a kept label, or 'peer'")
    p.add_argument("b", help="a kept label, or 'peer'")
    p.add_argument("--seeds", default="", help="only these chunks: SEED or FIRST-LAST (default all in common)")
    p.add_argument("--kept", default=str(MINEBOT_KEPT), help="minebot's kept results (default benchmarks/minebot_results)")
    p.add_argument("--peer-kept", default=str(PEER_KEPT), help="the peer's (default benchmarks/peer_results)")
    ls = sub.add_parser("list", help="the kept labels and the games kept per setting")
    ls.add_argument("--kept", default=str(MINEBOT_KEPT), help="minebot's kept results (default benchmarks/minebot_results)")
    args = ap.parse_args(argv)
    try:
        return _run(args)
    except MinebotError as err:
        print(f"kept_results: {err}", file=sys.stderr)
        return err.exit_code


def _run(args: argparse.Namespace) -> int:
    if args.command == "keep":
        out = Path(args.out)
        if not out.is_dir():
            raise BadInputError(f"--out {out}: not a folder")
        if args.label and not LABEL.fullmatch(args.label):
            raise BadInputError(f"--label {args.label!r}: letters, digits, _ . - only")
        path, added, unfinished = keep(out, args.label, Path(args.to))
        print(f"kept {len(added)} chunks of {args.label or 'default'} in {path}")
        for chunk in unfinished:
            print(f"  left out: {chunk}")
        return EXIT_OK
    if args.command == "list":
        for path in sorted(Path(args.kept).glob("*.json")):
            counts: dict[str, int] = {}
            for chunk, entry in _load_label(path)["chunks"].items():
                setting = CHUNK.fullmatch(chunk)["setting"]
                counts[setting] = counts.get(setting, 0) + len(entry["won"])
            print(f"{path.stem}: " + ", ".join(f"{s} {n}" for s, n in sorted(counts.items())))
        return EXIT_OK
    found = pair(args.setting, args.a, args.b, _seeds(args.seeds), Path(args.peer_kept), Path(args.kept))
    if not found["games"]:
        raise BadInputError(f"{args.setting}: {args.a} and {args.b} have no kept chunk of it in common"
                            + (f" within seeds {args.seeds}" if args.seeds else "")
                            + " (`kept_results.py list` shows what is kept)")
    print(describe(found))
    return EXIT_OK


if __name__ == "__main__":
    sys.exit(main())
