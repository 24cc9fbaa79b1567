// The pgnkit npm package against its JavaScript peers, side by side in one run (issue 32):
// parsing and playing every move of a prefix of the bench file.
//
//   cargo xtask wasm                       # the package, in target/npm/pgnkit
//   (cd target/bench-js && cp ../../bench/js/package*.json . && npm ci)   # the peers, pinned
//   node bench/js/bench.mjs [FILE] [--bytes N] [--peer-bytes N]
//
// FILE: PGNKIT_BENCH_FILE, else target/bench.pgn (built by ../shared/corpus/bench-file.sh).
// pgnkit and chessops read the first N bytes (default 10 MB, cut at a game start); chess.js
// and @mliebelt/pgn-parser, far slower, read the first --peer-bytes (default 1 MB) and their
// rates are per megabyte, so the ratios compare like with like. Then single games: the first
// --single games (default 200) of the prefix, each parsed on its own call, games per second
// (what a page or a server that gets one game at a time sees). Each task runs a few times;
// the best time counts. Every task's answer (games read, moves played) is printed beside its
// time, so a wrong one shows. Benchmarks, not tests: never in CI.
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(name);
  if (i < 0) return fallback;
  const [value] = args.splice(i, 2).slice(1);
  return Number(value);
};
const BYTES = option("--bytes", 10_000_000);
const PEER_BYTES = option("--peer-bytes", 1_000_000);
const SINGLE = option("--single", 200);
const file = args[0] ?? process.env.PGNKIT_BENCH_FILE ?? path.join(root, "target", "bench.pgn");

const modules = path.join(root, "target", "bench-js", "node_modules");
/** A peer's ES module entry (its package.json's `exports`, else `module`, else `main`). */
async function importPeer(name, sub = ".") {
  const dir = path.join(modules, name);
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
  const pattern = manifest.exports?.["./*"];
  let entry = manifest.exports?.[sub] ?? (sub === "." ? undefined : pattern);
  while (entry && typeof entry === "object") entry = entry.import ?? entry.default;
  if (entry && pattern && manifest.exports?.[sub] === undefined) entry = entry.replace("*", sub.slice(2));
  entry ??= sub === "." ? (manifest.module ?? manifest.main) : undefined;
  const file = entry ? path.join(dir, entry) : createRequire(path.join(dir, "package.json")).resolve(name);
  const module = await import(pathToFileURL(file).href);
  return module.default && Object.keys(module).length === 1 ? module.default : module;
}
const pgnkit = await import(pathToFileURL(path.join(root, "target", "npm", "pgnkit", "node.mjs")).href);
const chessopsPgn = await importPeer("chessops", "./pgn");
const chessopsSan = await importPeer("chessops", "./san");
const { Chess } = await importPeer("chess.js");
const mliebelt = await importPeer("@mliebelt/pgn-parser");

/** The first `n` bytes of the file, cut before the game that starts after them. */
function prefix(n) {
  const fd = fs.openSync(file, "r");
  const buf = Buffer.alloc(n + 1_000_000);
  const got = fs.readSync(fd, buf, 0, buf.length, 0);
  fs.closeSync(fd);
  const text = buf.subarray(0, got).toString("latin1");
  const cut = text.indexOf("\n[Event ", Math.min(n, got));
  return cut < 0 ? text : text.slice(0, cut + 1);
}

/** Best of `runs` timings of `task`, with its answer. */
function time(task, runs = 3) {
  let best = Infinity;
  let answer;
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    answer = task();
    best = Math.min(best, Number(process.hrtime.bigint() - start) / 1e9);
  }
  return { seconds: best, answer };
}

const big = prefix(BYTES);
const small = prefix(PEER_BYTES);
const games = (text) => text.split(/\n(?=\[Event )/).filter((g) => g.trim());

const tasks = [
  ["pgnkit parsePgn (read + play every move)", big, (t) => {
    let moves = 0;
    const read = pgnkit.parsePgn(t);
    for (const g of read) {
      moves += g.plyCount;
      g.free();
    }
    return `${read.length} games, ${moves} moves`;
  }],
  ["pgnkit parsePgn + moves() (objects, FEN each)", big, (t) => {
    let moves = 0;
    const read = pgnkit.parsePgn(t);
    for (const g of read) {
      moves += g.moves().length;
      g.free();
    }
    return `${read.length} games, ${moves} moves`;
  }],
  ["pgnkit check (validate only)", big, (t) => `${pgnkit.check(t).length} diagnostics`],
  ["chessops parsePgn + play each SAN", big, (t) => {
    let moves = 0;
    const read = chessopsPgn.parsePgn(t);
    for (const game of read) {
      const start = chessopsPgn.startingPosition(game.headers);
      if (start.isErr) continue;
      const pos = start.value;
      for (const node of game.moves.mainline()) {
        const move = chessopsSan.parseSan(pos, node.san);
        if (!move) break;
        pos.play(move);
        moves++;
      }
    }
    return `${read.length} games, ${moves} moves`;
  }],
  ["chess.js loadPgn per game", small, (t) => {
    let ok = 0;
    const chess = new Chess();
    for (const g of games(t)) {
      try {
        chess.loadPgn(g);
        ok++;
      } catch {
        // counted as not read
      }
    }
    return `${ok} games`;
  }],
  ["@mliebelt/pgn-parser parse (no moves played)", small, (t) => `${mliebelt.parse(t, { startRule: "games" }).length} games`],
];

console.log(`file: ${file}; ${(big.length / 1e6).toFixed(1)} MB for pgnkit and chessops, ${(small.length / 1e6).toFixed(1)} MB for chess.js and pgn-parser; node ${process.version}`);
const rates = {};
for (const [name, text, task] of tasks) {
  const { seconds, answer } = time(() => task(text), text === big ? 3 : 2);
  const rate = text.length / 1e6 / seconds;
  rates[name] = rate;
  console.log(`${name.padEnd(46)} ${seconds.toFixed(3).padStart(8)} s ${rate.toFixed(2).padStart(8)} MB/s   ${answer}`);
}
const ours = rates[tasks[0][0]];
for (const [name] of tasks.slice(3)) {
  console.log(`pgnkit parsePgn vs ${name}: ${(ours / rates[name]).toFixed(1)}x`);
}

// Single games: each task gets one game per call (the multi-game task's code, one game).
const singles = games(small).slice(0, SINGLE);
console.log(`\nsingle games: the first ${singles.length} games of the prefix, one call each`);
const perGame = {};
for (const [name, , task] of tasks) {
  const { seconds, answer } = time(() => {
    let moves = 0;
    for (const g of singles) moves += Number(/(\d+) moves/.exec(task(g))?.[1] ?? 0);
    return moves ? `${moves} moves` : "";
  }, 3);
  perGame[name] = singles.length / seconds;
  console.log(`${name.padEnd(46)} ${seconds.toFixed(3).padStart(8)} s ${perGame[name].toFixed(0).padStart(8)} games/s   ${answer}`);
}
for (const [name] of tasks.slice(3)) {
  console.log(`pgnkit parsePgn vs ${name} (single games): ${(perGame[tasks[0][0]] / perGame[name]).toFixed(1)}x`);
}
