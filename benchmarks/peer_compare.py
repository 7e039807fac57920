"""Paired comparison with the peer solver (JSMinesweeper) on the peer's own seeded boards.

    python benchmarks/peer_compare.py --settings 9x9-zero,8x8-zero --games 300 --seed 1

For each setting the peer (node, ``run_js.js`` in ``--peer``) plays ``--games`` games from its
own generator and exports their mine layouts; minebot then plays exactly those layouts through
the ``minebot bench --boards`` machinery. Both solvers see the same boards, so only the games
one wins and the other loses (the discordant ones) carry the difference: minebot - peer is
(minebot-only - peer-only) / n with standard error sqrt(discordant) / n, several times smaller
than the spread of two independent runs.

Each setting keeps its files in ``--out/<setting>-seed<S>-n<N>/`` (peer results and boards as
the peer writes them, minebot results one line per game as they arrive). Running the same
command again resumes: a finished peer run is not repeated and minebot goes on from its last
game. Ctrl-C prints the table of the games both sides have finished. ``record.json`` and
``record.md`` in ``--out`` name the exact command, both commits and the times of the last run;
``records.jsonl`` keeps every run's record, one line each, so a later run of the same label on
another setting or other seeds does not lose an earlier one's.

The peer's results are computed once and reused: a minebot variant (``--solver JSON --label
NAME``) plays the same boards into its own ``minebot-NAME.jsonl`` and is paired with the
peer's results already there (``--cached-peer`` never starts the peer, ``--peer-only`` runs
only the peer). ``--chunks K`` splits a long run into seeds SEED .. SEED+K-1 and pools them,
so an interrupted run loses at most one chunk of the peer's work.

The peer is not part of minebot: neither its tests nor its runtime need it. Get it as
described in the message printed when it is missing.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(HERE))

from ab_solver import compare  # noqa: E402  (the paired statistics, shared with the A/B tool)

from minebot.errors import EXIT_OK, BadInputError, MinebotError, interrupt_exit_code  # noqa: E402
from minebot.stats import wilson  # noqa: E402

DEFAULT_PEER = ROOT.parent / "shared" / "peers" / "jsminesweeper"
PEER_SOURCE = "https://github.com/DavidNHill/JSMinesweeper"


@dataclass(frozen=True)
class Setting:
    """A board size, mine count, first click and rule that both solvers play."""

    cols: int
    rows: int
    mines: int
    first: tuple[int, int]
    rules: str            # "zero": the first cell and its neighbours are free; "safe": the first cell

    def peer_args(self) -> list[str]:
        """The peer's options for this setting (its first click is an index row * width + col)."""
        start = self.first[0] * self.cols + self.first[1]
        return ["--w", str(self.cols), "--h", str(self.rows), "--m", str(self.mines),
                "--start", str(start), "--type", self.rules]


SETTINGS: dict[str, Setting] = {
    "expert-zero": Setting(30, 16, 99, (3, 3), "zero"),
    "expert-safe": Setting(30, 16, 99, (0, 0), "safe"),
    "16x16-zero": Setting(16, 16, 40, (2, 2), "zero"),
    "9x9-zero": Setting(9, 9, 10, (2, 2), "zero"),
    "8x8-zero": Setting(8, 8, 10, (2, 2), "zero"),
}


class PeerMissingError(BadInputError):
    """The peer (or node to run it) is not there: the message says how to get it."""


def check_peer(peer: Path) -> str:
    """The path of ``node``, after checking the peer's driver and scripts are in ``peer``.

    Fails with one line that says what is missing and where to get it, rather than a node
    stack trace halfway through a run."""
    if not (peer / "run_js.js").is_file() or not (peer / "src" / "Minesweeper").is_dir():
        raise PeerMissingError(
            f"no peer at {peer}: put JSMinesweeper's solver scripts (D. Hill, MIT, {PEER_SOURCE}) "
            f"under {peer}/src/Minesweeper and a node driver in {peer}/run_js.js "
            "(benchmarks/README.md, \"Paired comparison with the peer\"), or pass --peer DIR")
    node = shutil.which("node")
    if node is None:
        raise PeerMissingError("node not found on PATH: the peer needs Node.js (v20 tested), no npm packages")
    return node


def peer_commit(peer: Path) -> str:
    """The peer's source commit, as its README names it ("commit abc1234"); "unknown" if not."""
    try:
        match = re.search(r"commit ([0-9a-f]{7,40})", (peer / "README.md").read_text(encoding="utf-8"))
    except OSError:
        return "unknown"
    return match.group(1) if match else "unknown"


def git_commit() -> str:
    """minebot's commit, with "+dirty" when the work tree has changes the figures may reflect."""
    def git(*args: str) -> str:
        return subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True).stdout.strip()
    head = git("rev-parse", "HEAD") or "unknown"
    return head + ("+dirty" if git("status", "--porcelain", "--untracked-files=no") else "")


def read_jsonl(path: Path) -> list[dict]:
    """The complete lines of a results file; a last line cut short by an interruption is dropped."""
    if not path.exists():
        return []
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            rows.append(json.loads(line))
        except json.JSONDecodeError:
            break
    return rows


def peer_finished(folder: Path, games: int) -> bool:
    """Whether the peer's run in ``folder`` is complete (its summary written, every game there)."""
    return (folder / "peer_summary.json").exists() and len(read_jsonl(folder / "peer.jsonl")) >= games


DEFAULT_CACHE = HERE / "peer_results"


def cache_file(cache: Path, folder: Path) -> Path:
    """The kept results of the peer's chunk ``folder`` (same name: setting, seed, games)."""
    return cache / f"{folder.name}.json"


def keep_peer_results(cache: Path, folder: Path, setting: Setting, seed: int, peer_version: str) -> None:
    """Keep a finished chunk's peer results in ``cache``: its summary and one character per
    game (1 won, 0 lost) plus its time. A few kB per 1000 games, against the hours the peer
    takes to play them; the boards are not kept, ``peer_boards.js`` rebuilds them in seconds."""
    target = cache_file(cache, folder)
    if target.exists():
        return
    rows = read_jsonl(folder / "peer.jsonl")
    cache.mkdir(parents=True, exist_ok=True)
    target.write_text(json.dumps({
        "setting": setting.peer_args(), "seed": seed, "games": len(rows), "peer_commit": peer_version,
        "summary": json.loads((folder / "peer_summary.json").read_text(encoding="utf-8")),
        "won": "".join("1" if row["status"] == "won" else "0" for row in rows),
        "ms": [round(row["ms"]) for row in rows]}) + "\n", encoding="utf-8")


def restore_peer_results(node: str, peer: Path, cache: Path, folder: Path, setting: Setting, seed: int,
                         games: int) -> bool:
    """Rebuild a chunk from the kept results: the peer's per-game results from ``cache`` and its
    boards from its generator (``peer_boards.js``, seconds). False when nothing is kept for it."""
    source = cache_file(cache, folder)
    if not source.exists():
        return False
    kept = json.loads(source.read_text(encoding="utf-8"))
    if kept["setting"] != setting.peer_args() or kept["seed"] != seed or kept["games"] < games:
        raise BadInputError(f"{source}: kept for other games ({kept['setting']}, seed {kept['seed']})")
    folder.mkdir(parents=True, exist_ok=True)
    command = [node, str(HERE / "peer_boards.js"), "--peer", str(peer), *setting.peer_args(),
               "--seed", str(seed), "--n", str(games)]
    with open(folder / "boards.jsonl", "w", encoding="utf-8") as boards:
        try:
            code = subprocess.run(command, stdout=boards).returncode
        except OSError as exc:
            raise PeerMissingError(f"cannot rebuild the peer's boards: {node}: {exc.strerror}") from None
        if code != 0:
            raise MinebotError(f"rebuilding the peer's boards failed: {shlex.join(command)}")
    (folder / "peer.jsonl").write_text("".join(
        json.dumps({"i": i, "status": "won" if won == "1" else "lost", "ms": ms}) + "\n"
        for i, (won, ms) in enumerate(zip(kept["won"][:games], kept["ms"]), start=1)), encoding="utf-8")
    (folder / "peer_summary.json").write_text(json.dumps(kept["summary"]) + "\n", encoding="utf-8")
    return True


class PeerRuns:
    """The peer's chunks of one setting, up to ``jobs`` node processes at once.

    The peer plays in one node process per run, so a long run split into chunks (one seed
    each) can use several cores: chunks ahead of the one minebot is playing are started early.
    A finished chunk is never played again; an unfinished one is played again from the start
    (the peer cannot start in the middle of its game sequence; its games depend only on the seed)."""

    def __init__(self, node: str, peer: Path, setting: Setting, games: int, jobs: int, cache: Path) -> None:
        self.node, self.peer, self.setting, self.games, self.jobs = node, peer, setting, games, jobs
        self.cache = cache
        self.running: dict[Path, tuple[subprocess.Popen, list[str], int]] = {}

    def start(self, folder: Path, seed: int) -> None:
        """Start the peer on chunk ``folder`` (seed ``seed``) unless it is finished or running,
        or its results are kept in the cache (then only its boards are rebuilt)."""
        if folder in self.running or peer_finished(folder, self.games):
            return
        if restore_peer_results(self.node, self.peer, self.cache, folder, self.setting, seed, self.games):
            return
        folder.mkdir(parents=True, exist_ok=True)
        command = [self.node, str(self.peer / "run_js.js"), *self.setting.peer_args(), "--seed", str(seed),
                   "--n", str(self.games), "--out", str(folder / "peer.jsonl"),
                   "--export-boards", str(folder / "boards.jsonl")]
        with open(folder / "peer_stdout.txt", "w", encoding="utf-8") as stdout:
            self.running[folder] = (subprocess.Popen(command, stdout=stdout), command, seed)

    def wait(self, folder: Path) -> None:
        """Wait for chunk ``folder`` and write its summary (nothing to do if it was finished)."""
        if folder not in self.running:
            return
        proc, command, seed = self.running[folder]
        code = proc.wait()
        del self.running[folder]         # only now: a run stopped while waiting is ended by close()
        if code != 0:
            if code < 0 or code == 130:     # Ctrl-C reached node too, or it was stopped
                raise KeyboardInterrupt
            raise MinebotError(f"the peer failed (exit {code}): {shlex.join(command)}")
        lines = (folder / "peer_stdout.txt").read_text(encoding="utf-8").strip().splitlines()
        (folder / "peer_summary.json").write_text(lines[-1] + "\n", encoding="utf-8")
        keep_peer_results(self.cache, folder, self.setting, seed, peer_commit(self.peer))

    def close(self) -> None:
        """Stop the peer runs still going (after Ctrl-C or an error); idempotent."""
        for proc, *_ in self.running.values():
            proc.terminate()
        for proc, *_ in self.running.values():
            proc.wait()
        self.running.clear()


def minebot_file(label: str) -> str:
    """The results file of a minebot variant: ``minebot.jsonl`` for the default solver, else
    ``minebot-<label>.jsonl``, next to the peer's results, which every variant shares."""
    return "minebot.jsonl" if not label else f"minebot-{label}.jsonl"


def run_minebot(setting: Setting, folder: Path, jobs: int, options: dict | None = None, label: str = "") -> None:
    """Play the peer's boards with minebot (``options``: ``Solver`` keyword arguments of a
    variant), appending each game's result as it finishes; games already in its results file
    are not played again."""
    from minebot.cli.bench import layout_tasks, play_tasks
    from minebot.game.layouts import load_layouts
    results = folder / minebot_file(label)
    done = read_jsonl(results)
    with open(results, "w", encoding="utf-8") as out:      # rewritten without a cut-short line
        out.writelines(json.dumps(row) + "\n" for row in done)
    tasks = layout_tasks(load_layouts(folder / "boards.jsonl"), setting.rules, options=options)[len(done):]
    games = play_tasks(tasks, jobs)
    try:
        with open(results, "a", encoding="utf-8") as out:
            for i, (won, ms, _moves, cpu_ms) in enumerate(games, start=len(done) + 1):
                out.write(json.dumps({"i": i, "won": bool(won), "ms": round(ms, 2), "cpu_ms": round(cpu_ms, 2)}) + "\n")
                out.flush()
                if sys.stderr.isatty():
                    sys.stderr.write(f"\r  minebot {i}/{len(done) + len(tasks)}")
    finally:
        games.close()
        if sys.stderr.isatty():
            sys.stderr.write("\n")


def pair(peer_rows: list[dict], minebot_rows: list[dict]) -> list[tuple[int, bool, bool]]:
    """(game, peer won, minebot won) for the games both sides finished (both number them from 1)."""
    minebot = {row["i"]: bool(row["won"]) for row in minebot_rows}
    return [(row["i"], row["status"] == "won", minebot[row["i"]]) for row in peer_rows if row["i"] in minebot]


def figures(paired: list[tuple[int, bool, bool]]) -> dict:
    """Both win rates with 95% intervals, the discordant counts and minebot - peer with its se."""
    f = compare(paired)               # A is the peer, B is minebot: B - A = minebot - peer
    n = f["games"]
    peer_wins = sum(p for _, p, _ in paired)
    minebot_wins = sum(m for _, _, m in paired)
    return {"games": n, "peer_wins": peer_wins, "peer_ci95": list(wilson(peer_wins, n)),
            "minebot_wins": minebot_wins, "minebot_ci95": list(wilson(minebot_wins, n)),
            "peer_only": f["a_only"], "minebot_only": f["b_only"],
            "difference": f["difference"], "stderr": f["stderr"]}


def _mean_ms(rows: list[dict]) -> float:
    return sum(row["ms"] for row in rows) / len(rows) if rows else 0.0


def setting_figures(name: str, folders: list[Path], label: str = "") -> dict:
    """The figures of one setting pooled over its chunks' files (games paired within each
    chunk), plus both sides' mean wall time per game. For a variant (``label``) also the
    variant against the default solver on the games both have played (``vs_default``)."""
    paired: list[tuple[int, bool, bool]] = []
    against_default: list[tuple[int, bool, bool]] = []
    peer_ms: list[dict] = []
    minebot_ms: list[dict] = []
    for folder in folders:
        peer_rows, minebot_rows = read_jsonl(folder / "peer.jsonl"), read_jsonl(folder / minebot_file(label))
        chunk = pair(peer_rows, minebot_rows)
        both = {i for i, _, _ in chunk}            # times of the same games on both sides
        paired += chunk
        peer_ms += [row for row in peer_rows if row["i"] in both]
        minebot_ms += [row for row in minebot_rows if row["i"] in both]
        if label:
            default = [{"i": row["i"], "status": "won" if row["won"] else "lost"}
                       for row in read_jsonl(folder / minebot_file(""))]
            against_default += pair(default, minebot_rows)
    found = {"setting": name, **figures(paired),
             "peer_ms_per_game": _mean_ms(peer_ms), "minebot_ms_per_game": _mean_ms(minebot_ms)}
    if label:
        f = compare(against_default)             # A is the default solver, B the variant
        found["vs_default"] = {"games": f["games"], "default_only": f["a_only"], "variant_only": f["b_only"],
                               "difference": f["difference"], "stderr": f["stderr"]}
    return found


def variant_lines(rows: list[dict]) -> str:
    """One line per setting: the variant against the default solver on the same boards."""
    return "\n".join(_variant_line(r["setting"], v) for r in rows if (v := r.get("vs_default")) is not None)


def _variant_line(setting: str, v: dict) -> str:
    """A figure over 0 games would read as a tie: say instead that the default has not played."""
    if not v["games"]:
        return (f"{setting}: variant - default not known: the default solver has not played these boards "
                f"({minebot_file('')} in the chunk folders)")
    return (f"{setting}: variant - default {100 * v['difference']:+.2f} pp (se {100 * v['stderr']:.2f}) "
            f"over {v['games']} games; only the default won {v['default_only']}, only the variant {v['variant_only']}")


def _rate(wins: int, games: int, ci: list[float]) -> str:
    return f"{100 * wins / games:.2f} ({100 * ci[0]:.1f}-{100 * ci[1]:.1f})" if games else "-"


def table(rows: list[dict]) -> str:
    """A Markdown table of the settings' figures (what the terminal and record.md show)."""
    lines = ["| setting | games | peer wins | peer % (95% CI) | minebot wins | minebot % (95% CI) "
             "| peer only / minebot only | minebot - peer, pp (se) | ms/game peer / minebot |",
             "|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        n = r["games"]
        lines.append(f"| {r['setting']} | {n} | {r['peer_wins']} | {_rate(r['peer_wins'], n, r['peer_ci95'])} "
                     f"| {r['minebot_wins']} | {_rate(r['minebot_wins'], n, r['minebot_ci95'])} "
                     f"| {r['peer_only']} / {r['minebot_only']} "
                     f"| {100 * r['difference']:+.2f} ({100 * r['stderr']:.2f}) "
                     f"| {r['peer_ms_per_game']:.0f} / {r['minebot_ms_per_game']:.0f} |")
    return "\n".join(lines)


def write_record(out: Path, record: dict) -> None:
    """record.json (everything) and record.md (command, commits, times and the table);
    record-LABEL.* for a variant; and the record appended to records.jsonl, the history of runs."""
    stem = "record" + (f"-{record['label']}" if record.get("label") else "")    # one record per variant
    (out / f"{stem}.json").write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    with open(out / "records.jsonl", "a", encoding="utf-8") as history:
        history.write(json.dumps(record) + "\n")
    md = [f"    {record['command']}", "",
          f"minebot {record['minebot_commit']} (solver options {json.dumps(record.get('solver', {}))}), "
          f"peer JSMinesweeper {record['peer_commit']} "
          f"({record['node']}), started {record['started']}, ended {record['ended']}"
          + (" (interrupted)" if record["interrupted"] else ""), "", table(record["settings"]), "",
          variant_lines(record["settings"]), ""]
    (out / f"{stem}.md").write_text("\n".join(md), encoding="utf-8")


def _settings(text: str) -> list[str]:
    names = [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in names if name not in SETTINGS]
    if unknown or not names:
        raise BadInputError(f"--settings {text!r}: choose from {', '.join(SETTINGS)}")
    return names


def _now() -> str:
    return datetime.now(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--settings", default=",".join(SETTINGS),
                    help=f"comma-separated, from {', '.join(SETTINGS)} (default all)")
    ap.add_argument("--games", type=int, default=300, help="games per setting (default 300)")
    ap.add_argument("--seed", type=int, default=1, help="the peer's run seed (default 1)")
    ap.add_argument("--chunks", type=int, default=1,
                    help="play seeds SEED .. SEED+CHUNKS-1, GAMES each, and pool them: a long run resumes "
                         "chunk by chunk, since the peer cannot start in the middle of a seed (default 1)")
    ap.add_argument("--jobs", type=int, default=1, help="minebot worker processes (default 1)")
    ap.add_argument("--peer-jobs", type=int, default=1,
                    help="peer chunks played at once, one node process each (default 1)")
    ap.add_argument("--solver", default="{}", metavar="JSON",
                    help="minebot variant: Solver keyword arguments as a JSON object (default {}, the default "
                         "solver); needs --label")
    ap.add_argument("--label", default="", help="name of the variant's results file, minebot-LABEL.jsonl; "
                                                "the peer's results are shared by every variant")
    ap.add_argument("--cache", default=str(DEFAULT_CACHE),
                    help="the peer's kept per-game results, one file per chunk: a chunk found there is not "
                         "played by the peer again, only its boards are rebuilt (default benchmarks/peer_results)")
    side = ap.add_mutually_exclusive_group()
    side.add_argument("--peer-only", action="store_true", help="only let the peer play (to compute its results once)")
    side.add_argument("--cached-peer", action="store_true",
                      help="use only chunks the peer has finished already (in --out or kept in --cache); "
                           "never start the peer")
    ap.add_argument("--out", default=str(ROOT / "out" / "peer_compare"),
                    help="folder of the per-game files and the record (default out/peer_compare)")
    ap.add_argument("--peer", default=str(DEFAULT_PEER),
                    help="the peer's folder: run_js.js and src/ (default ../shared/peers/jsminesweeper)")
    args = ap.parse_args(argv)
    try:
        command = [sys.executable, sys.argv[0], *sys.argv[1:]] if argv is None else [__file__, *argv]
        return _run(args, shlex.join(command))
    except MinebotError as err:
        print(f"peer_compare: {err}", file=sys.stderr)
        return err.exit_code


def _solver_options(text: str, label: str) -> dict:
    """The variant's Solver options (checked as ``minebot bench --solver`` checks them) and its label."""
    from minebot.cli.bench import solver_options
    options = solver_options(text)
    if options and not re.fullmatch(r"[A-Za-z0-9_.-]+", label):
        raise BadInputError("--solver needs --label NAME (letters, digits, _ . -) for its results file")
    return options


def _run(args: argparse.Namespace, command: str) -> int:
    """Both sides of every chosen setting, then the table and the record (also after Ctrl-C)."""
    names = _settings(args.settings)
    if min(args.games, args.jobs, args.chunks, args.peer_jobs) < 1:
        raise BadInputError("--games, --jobs, --peer-jobs and --chunks must be at least 1")
    options = _solver_options(args.solver, args.label)
    peer = Path(args.peer).resolve()
    node = check_peer(peer) if not args.cached_peer else "node"
    cache = Path(args.cache)
    out = Path(args.out)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise BadInputError(f"--out {args.out}: cannot create ({exc.strerror})") from None
    record = {"command": command,
              "cwd": os.getcwd(), "minebot_commit": git_commit(), "solver": options, "label": args.label,
              "peer": str(peer), "peer_commit": peer_commit(peer),
              "node": subprocess.run([node, "--version"], capture_output=True, text=True).stdout.strip()
              if shutil.which(node) else "not run",
              "started": _now(), "ended": None, "interrupted": False, "settings": []}
    stopped: KeyboardInterrupt | None = None
    for name in names:
        folders = []
        t0 = time.perf_counter()
        chunks = [(seed, out / f"{name}-seed{seed}-n{args.games}")
                  for seed in range(args.seed, args.seed + args.chunks)]
        if args.cached_peer:
            chunks = [(seed, folder) for seed, folder in chunks
                      if peer_finished(folder, args.games) or cache_file(cache, folder).exists()]
        runs = PeerRuns(node, peer, SETTINGS[name], args.games, args.peer_jobs, cache)
        try:
            for j, (seed, folder) in enumerate(chunks):
                for ahead_seed, ahead in chunks[j:j + args.peer_jobs]:     # this chunk and the next ones
                    runs.start(ahead, ahead_seed)
                print(f"{name} seed {seed}: peer...", file=sys.stderr)
                runs.wait(folder)
                folders.append(folder)
                if not args.peer_only:
                    print(f"{name} seed {seed}: minebot...", file=sys.stderr)
                    run_minebot(SETTINGS[name], folder, args.jobs, options, args.label)
        except KeyboardInterrupt as exc:      # what both sides finished of this setting still counts
            stopped = exc
        finally:
            runs.close()
        record["settings"].append({**setting_figures(name, folders, args.label),
                                   "folders": [str(f) for f in folders],
                                   "wall_s": round(time.perf_counter() - t0, 1)})
        if stopped is not None:
            record["interrupted"] = True
            break
    record["ended"] = _now()
    write_record(out, record)
    print(table(record["settings"]))
    if args.label:
        print(variant_lines(record["settings"]))
    print(f"\nminebot {record['minebot_commit']} {json.dumps(options)}, peer {record['peer_commit']}; "
          f"record in {out}/record{'-' + args.label if args.label else ''}.md")
    return interrupt_exit_code(stopped) if stopped is not None else EXIT_OK


if __name__ == "__main__":
    from minebot.cli import stop_on_signals
    stop_on_signals()           # SIGTERM or SIGINT stops a long run as Ctrl-C does: table printed
    sys.exit(main())
