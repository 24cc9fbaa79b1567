// The streaming reader in constant memory: PgnReader reads a file of some tens of MB
// (corpus files concatenated under target/, made once) in 1 MiB chunks from a Node stream,
// and the process's resident memory stays within 64 MB above its baseline (Node with the
// package loaded). The figures are printed. PGNKIT_MEMORY_FILE names another file to read
// (the 84 MB bench file, say).
import test from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { corpus, load } from "./support.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
/** The most the reader may add to Node's baseline. */
const LIMIT = 64 * 1024 * 1024;
/** The size of the file made from the corpus. */
const SIZE = 40 * 1024 * 1024;

/** The corpus files under big/ but the tagless opening lines, in path order, whole, until the
 * output reaches SIZE: written once to target/wasm-memory.pgn (remade when smaller). */
function memoryFile() {
  const out = path.join(root, "target", "wasm-memory.pgn");
  if (fs.existsSync(out) && fs.statSync(out).size >= SIZE) return out;
  const files = [];
  const walk = (dir) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory() && entry.name !== "opening-lines") walk(full);
      else if (entry.isFile() && /\.pgn$/i.test(entry.name)) files.push(full);
    }
  };
  walk(path.join(corpus, "big"));
  files.sort();
  const fd = fs.openSync(out + ".part", "w");
  let written = 0;
  for (let round = 0; written < SIZE; round++) {
    for (const file of files) {
      const bytes = fs.readFileSync(file);
      fs.writeSync(fd, bytes);
      fs.writeSync(fd, "\n\n");
      written += bytes.length + 2;
      if (written >= SIZE) break;
    }
    assert.ok(round < 100 && files.length > 0, `no PGN files under ${path.join(corpus, "big")}`);
  }
  fs.closeSync(fd);
  fs.renameSync(out + ".part", out);
  return out;
}

const mb = (bytes) => `${(bytes / 1048576).toFixed(1)} MB`;

test("PgnReader reads a large file in chunks within 64 MB above Node's baseline", async (t) => {
  const file = process.env.PGNKIT_MEMORY_FILE ?? memoryFile();
  const { PgnReader, parsePgn } = await load();
  parsePgn('[White "A"]\n\n1. e4 *\n').forEach((g) => g.free());
  globalThis.gc?.();
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  let games = 0;
  let plies = 0;
  const reader = new PgnReader((game) => {
    games++;
    plies += game.plyCount;
    game.free();
  });
  const started = performance.now();
  for await (const chunk of fs.createReadStream(file, { highWaterMark: 1 << 20 })) {
    reader.push(chunk);
    peak = Math.max(peak, process.memoryUsage().rss);
  }
  reader.end();
  reader.free();
  const after = process.memoryUsage().rss;
  peak = Math.max(peak, after);
  const seconds = (performance.now() - started) / 1000;
  const size = fs.statSync(file).size;
  t.diagnostic(
    `${path.basename(file)}: ${mb(size)}, ${games} games, ${plies} plies in ${seconds.toFixed(1)} s; ` +
      `RSS baseline ${mb(baseline)}, after ${mb(after)}, peak ${mb(peak)} (+${mb(peak - baseline)}, limit +${mb(LIMIT)})`,
  );
  assert.ok(games > 1000, `${games} games read`);
  assert.ok(peak - baseline <= LIMIT, `peak RSS ${mb(peak)} is more than ${mb(LIMIT)} above the baseline ${mb(baseline)}`);
});
