// The peer (JSMinesweeper, D. Hill, MIT) as an oracle: ONE long-lived node process that answers,
// for a position, the move the peer's solver would make and WHY (the kind of its decision).
//
//   node benchmarks/peer_oracle.js --peer ../shared/peers/jsminesweeper [--clock real|frozen]
//
// Reads one JSON object per line on stdin:
//   {"game": ID, "rows": R, "cols": C, "mines": M, "revealed": [[r, c, value], ...]}
// (every revealed cell with its number, nothing flagged) and writes one line per request:
//   {"cell": [r, c], "safety": p, "kind": K, "message": TEXT, "actions": [[r, c, p], ...], "ms": T}
// "actions" are the peer's clears in its own order (its game loop plays every certain one and
// the first); "cell" is the first. A line {"quit": true} (or the end of stdin) ends the process.
//
// Why one Board per game, fed the reveals in order: the peer's solver keeps state on its board
// between the calls of a game (cells it has proved to be mines, board.bestTree) and its
// LongTermRiskHelper reads the global `board`; its own loop (bulkRun, run_js.js) makes one
// Board per game and applies each click's reveals to it. So does this oracle: a request with the
// same "game" whose revealed cells include every cell the board has revealed is a continuation
// and only the new cells are applied (in the request's order); anything else starts a new Board.
//
// The kind is read from what the peer's solver reports (its status messages, which the oracle
// receives through the showMessage it provides) and from a few of its methods the oracle wraps
// to see which of them found the move (LongTermRiskHelper.findInfluence, the probability
// engine's unavoidable 50/50 check, the partial brute-force check):
//   certain          a safe cell (the peer's probability engine found one)
//   5050-early       an unavoidable 50/50 (or pseudo) taken even though safe cells were there
//   5050-ltr         an unavoidable 50/50 or pseudo found by its long-term-risk helper
//   5050-pe          an unavoidable 2-cell 50/50 or pseudo found by its probability engine
//   isolated-edge    brute-force search of an isolated edge region
//   bfda             brute-force endgame search (< 1000 solutions in its play mode)
//   bfda-dead        brute force found every cell dead: its best dead cell
//   tiebreak         its guess heuristic (secondary safety, progress, 50/50 influence, dominance)
//   tiebreak-partial-bfda   the same, its choice replaced by an unfinished brute-force search
//   safest           the safest cell without tie-break (its probability engine took >= 50 ms)
//   offedge-hunt     no candidate on the frontier: an off-frontier cell with fewest covered neighbours
//   all-dead         every cell dead or a mine
// --clock real (default) keeps the peer's own timing: it skips its tie-break when its
// probability engine took 50 ms or more, so a loaded machine changes its choices; --clock frozen
// makes that never happen (each of its timings reads 0), the peer as on an infinitely fast machine.
// Loads the peer's scripts unchanged into a node vm context (as its own driver run_js.js does).
"use strict";
const fs = require("fs");
const vm = require("vm");
const path = require("path");
const readline = require("readline");

const args = {};
for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].replace(/^--/, "")] = process.argv[i + 1];
const peer = args.peer || path.join(__dirname, "..", "..", "shared", "peers", "jsminesweeper");
const clock = args.clock || "real";
if (clock !== "real" && clock !== "frozen") {
  process.stderr.write(`peer_oracle.js: --clock ${clock}: choose real or frozen\n`);
  process.exit(2);
}
const client = path.join(peer, "src", "Minesweeper");
const files = ["client/Board.js", "client/Tile.js", "client/solver_main.js", "client/solver_probability_engine.js",
  "client/Brute_force.js", "client/BruteForceAnalysis.js", "client/MinesweeperGame.js", "client/SolutionCounter.js",
  "client/EfficiencyHelper.js", "client/FiftyFiftyHelper.js", "client/LongTermRiskHelper.js",
  "Utility/PrimeSieve.js", "Utility/Binomial.js"];
for (const f of files) {
  if (!fs.existsSync(path.join(client, f))) {
    process.stderr.write(`peer_oracle.js: no ${path.join(client, f)}: --peer must be the peer's folder (src/Minesweeper)\n`);
    process.exit(2);
  }
}

const RealDate = Date;
class ClockDate extends RealDate {
  static now() { return clock === "frozen" ? 0 : RealDate.now(); }
}
const realPerf = require("perf_hooks").performance;
const perf = { now: () => (clock === "frozen" ? 0 : realPerf.now()) };
const silent = { log() {}, info() {}, warn() {}, error: (...a) => process.stderr.write(a.join(" ") + "\n") };
const ctx = vm.createContext({ console: silent, Date: ClockDate, Math, BigInt, Map, Set, performance: perf,
  setTimeout, clearTimeout });

// Browser globals the scripts touch (as in run_js.js): the page's globals, a status line, sleep.
let src = "let oldrng = false; let binomialCache; let BINOMIAL; let analysisMode = false; let analysing = false;" +
  " let board = null; const BOMB = 9; const HIDDEN = 10; var width = {}, height = {}, mines = {};\n" +
  "let __messages = []; function showMessage(text) { __messages.push(String(text)); } async function sleep(ms) {}\n";
for (const f of files) src += fs.readFileSync(path.join(client, f), "utf8").replace(/^\s*"use strict";/m, "") + "\n";
src += `
binomialCache = new BinomialCache(5000, 500, new Binomial(65000, 500));
const __seen = { ltr: 0, pe5050: false, partial: false, early: false };
{
  const findInfluence = LongTermRiskHelper.prototype.findInfluence;
  LongTermRiskHelper.prototype.findInfluence = function () {
    const found = findInfluence.apply(this, arguments);
    __seen.ltr = found.length;
    return found;
  };
  const check = ProbabilityEngine.prototype.checkForUnavoidable5050OrPseudo;
  ProbabilityEngine.prototype.checkForUnavoidable5050OrPseudo = function () {
    const found = check.apply(this, arguments);
    if (found != null) { __seen.pe5050 = true; if (this.localClears.length > 0) __seen.early = true; }
    return found;
  };
  const better = BruteForceAnalysis.prototype.checkForBetterMove;
  BruteForceAnalysis.prototype.checkForBetterMove = function () {
    const found = better.apply(this, arguments);
    if (found != null) __seen.partial = true;
    return found;
  };
}
let __game = null;
const __options = { playStyle: PLAY_STYLE_NOFLAGS, verbose: false, advancedGuessing: true, fullProbability: true, hardcore: false };

function __kind(messages, first) {
  const last = messages.length ? messages[messages.length - 1] : "";
  if (/unavoidable 50\\/50/.test(last)) {
    if (__seen.early) return "5050-early";
    if (__seen.ltr > 0) return "5050-ltr";
    return "5050-pe";
  }
  if (first && first.prob == 1) return "certain";
  if (/isolated edge/.test(last)) return "isolated-edge";
  if (/chance to win the game/.test(last)) return "bfda";
  if (/All the remaining tiles are dead/.test(last)) return "bfda-dead";
  if (/Guessing heuristic/.test(last)) return __seen.partial ? "tiebreak-partial-bfda" : "tiebreak";
  if (/safest guess using the probability engine/.test(last)) return "safest";
  if (/best guess is off the edge/.test(last)) return "offedge-hunt";
  if (/All tiles are dead/.test(last)) return "all-dead";
  if (/Best follow up move/.test(last)) return "bfda-tree";
  return "other";
}

async function __answer(req) {
  const W = req.cols, H = req.rows;
  const fresh = () => { board = new Board(0, W, H, req.mines, 0, "safe"); __game = req.game; };
  if (board === null || __game !== req.game || board.width !== W || board.height !== H || board.num_bombs !== req.mines) fresh();
  const given = new Set(req.revealed.map(([r, c]) => r * W + c));
  for (const tile of board.tiles) {
    if (!tile.isCovered() && !given.has(tile.index)) { fresh(); break; }   // not a continuation of this board
  }
  for (const [r, c, v] of req.revealed) {
    const tile = board.getTile(r * W + c);
    if (tile.isCovered()) tile.setValue(v);
  }
  __messages = [];
  __seen.ltr = 0; __seen.pe5050 = false; __seen.partial = false; __seen.early = false;
  const reply = await solver(board, __options);
  const clears = reply.actions.filter((a) => a.action != ACTION_CHORD && a.action != ACTION_FLAG);
  const first = clears.length ? clears[0] : null;
  return {
    cell: first ? [first.y, first.x] : null, safety: first ? first.prob : null,
    kind: first ? __kind(__messages, first) : "none", message: __messages.length ? __messages[__messages.length - 1] : "",
    actions: clears.map((a) => [a.y, a.x, a.prob]),
  };
}
this.__answer = __answer;
this.__init = () => solver(null, null);
`;
vm.runInContext(src, ctx, { filename: "jsminesweeper_oracle.js" });

function check(req) {
  for (const key of ["rows", "cols", "mines"]) {
    if (!Number.isInteger(req[key]) || req[key] < 1) return `"${key}" must be a positive integer`;
  }
  if (!Array.isArray(req.revealed)) return `"revealed" must be a list of [row, col, value]`;
  for (const cell of req.revealed) {
    if (!Array.isArray(cell) || cell.length !== 3 || !cell.every(Number.isInteger) || cell[0] < 0 ||
        cell[0] >= req.rows || cell[1] < 0 || cell[1] >= req.cols || cell[2] < 0 || cell[2] > 8) {
      return `bad revealed cell ${JSON.stringify(cell)}`;
    }
  }
  return null;
}

(async () => {
  await ctx.__init();
  const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line.trim()) continue;
    let req;
    try {
      req = JSON.parse(line);
    } catch (err) {
      process.stdout.write(JSON.stringify({ error: `not JSON: ${err.message}` }) + "\n");
      continue;
    }
    if (req.quit) break;
    const problem = check(req);
    if (problem) {
      process.stdout.write(JSON.stringify({ error: problem }) + "\n");
      continue;
    }
    const t0 = realPerf.now();
    const answer = await ctx.__answer(req);
    answer.ms = +(realPerf.now() - t0).toFixed(1);
    process.stdout.write(JSON.stringify(answer) + "\n");
  }
  process.exit(0);
})();
