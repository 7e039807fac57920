// The peer's boards without its solver: the mine layouts of its seeded games, exactly as
// run_js.js --export-boards writes them, in seconds instead of hours.
//
//   node benchmarks/peer_boards.js --peer ../shared/peers/jsminesweeper \
//       --w 30 --h 16 --m 99 --start 93 --type zero --seed 101 --n 1000 > boards.jsonl
//
// Game i of a run uses the i-th draw of the peer's JSF generator seeded with --seed (rounded
// to an integer, as its bulk runner does) as the seed of its ServerGame; nothing else in a
// game touches that generator, so the layouts depend only on these options. With the peer's
// per-game results kept (peer_compare.py), its boards can be rebuilt on any machine and only
// minebot has to play again. Loads MinesweeperGame.js from the peer's scripts (MIT).
"use strict";
const fs = require("fs");
const vm = require("vm");
const path = require("path");

const args = {};
for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].replace(/^--/, "")] = process.argv[i + 1];
for (const key of ["peer", "w", "h", "m", "start", "type", "seed", "n"]) {
  if (args[key] === undefined) {
    process.stderr.write(`peer_boards.js: --${key} is missing\n`);
    process.exit(2);
  }
}
const game = path.join(args.peer, "src", "Minesweeper", "client", "MinesweeperGame.js");
if (!fs.existsSync(game)) {
  process.stderr.write(`peer_boards.js: no ${game}: --peer must be the peer's folder (src/Minesweeper/client)\n`);
  process.exit(2);
}
const W = +args.w, H = +args.h, M = +args.m, START = +args.start, N = +args.n;
const context = vm.createContext({ console: { log() {}, error() {} }, Math, Date });
vm.runInContext("let oldrng = false;\n" + fs.readFileSync(game, "utf8").replace(/^\s*"use strict";/m, "") +
  "\nthis.__ServerGame = ServerGame; this.__JSF = JSF;", context);
const rng = context.__JSF(+args.seed);
const first = [Math.floor(START / W), START % W];
const lines = [];
for (let i = 0; i < N; i++) {
  const seed = Math.round(rng() * Number.MAX_SAFE_INTEGER);
  const g = new context.__ServerGame(0, W, H, M, START, seed, args.type);
  const mines = [];
  for (let t = 0; t < g.tiles.length; t++) if (g.tiles[t].is_bomb) mines.push([Math.floor(t / W), t % W]);
  lines.push(JSON.stringify({ cols: W, rows: H, mines, first }));
}
process.stdout.write(lines.join("\n") + "\n");
