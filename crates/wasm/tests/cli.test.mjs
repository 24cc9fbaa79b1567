// Differential tests: the package against the `pgnkit` command on corpus files. For each
// file: the same number of games (`check`'s summary), the same diagnostics (`check --json`,
// without the file name) from `check()` and from the games of `parsePgn()`, and the same
// export bytes (`export`: the games without errors, concatenated).
import test from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

import { binary, corpus, load } from "./support.mjs";

const { parsePgn, check, PgnReader } = await load();

/** Folders of the corpus read whole, and the largest file taken from them. */
const FOLDERS = ["edge", "annotated", "fen-start", "chess960", "lichess-annotated", "rules"];
const MAX_BYTES = 3 * 1024 * 1024;

/** The corpus's PGN files in those folders (UTF-16 files are the input crate's, not ours). */
function files() {
  const out = [];
  const walk = (dir) => {
    if (!fs.existsSync(dir)) return;
    for (const entry of fs.readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith(".pgn") && fs.statSync(full).size <= MAX_BYTES) out.push(full);
    }
  };
  for (const folder of FOLDERS) walk(path.join(corpus, folder));
  return out.filter((file) => {
    const head = fs.readFileSync(file).subarray(0, 2);
    return !(head[0] === 0xff && head[1] === 0xfe) && !(head[0] === 0xfe && head[1] === 0xff);
  });
}

/** Runs the command; its standard output and standard error. */
function run(args) {
  const result = spawnSync(binary, args, { maxBuffer: 1 << 30 });
  if (result.error) throw result.error;
  return { stdout: result.stdout, stderr: result.stderr.toString() };
}

/** A diagnostic with the fields both sides have. */
const fields = (d) => ({ line: d.line, column: d.column, offset: d.offset, severity: d.severity, message: d.message, move: d.move, fen: d.fen });

const list = files();

test("the corpus is there", () => {
  assert.ok(list.length >= 50, `${list.length} PGN files under ${corpus}`);
  execFileSync(binary, ["--version"]);
});

for (const file of list) {
  test(`same as the command: ${path.relative(corpus, file)}`, () => {
    const bytes = fs.readFileSync(file);
    const games = parsePgn(bytes);

    const checked = run(["check", "--json", file]);
    const count = /(\d+) games? read/.exec(checked.stderr);
    assert.ok(count, checked.stderr);
    assert.equal(games.length, Number(count[1]), "game count");

    const expected = checked.stdout.toString().split("\n").filter(Boolean).map((l) => fields(JSON.parse(l)));
    assert.deepEqual(check(bytes).map(fields), expected, "check() diagnostics");
    assert.deepEqual(games.flatMap((g) => g.diagnostics.map(fields)), expected, "parsePgn() diagnostics");

    const exported = run(["export", file]).stdout;
    const ours = games.filter((g) => !g.isBroken).map((g) => g.toPgn()).join("");
    assert.equal(Buffer.from(ours, "utf8").equals(exported), true, "export bytes");

    // The streaming reader gives the same games, in 4 KiB chunks.
    const streamed = [];
    const reader = new PgnReader((g) => streamed.push(g.diagnostics.length));
    for (let i = 0; i < bytes.length; i += 4096) reader.push(bytes.subarray(i, i + 4096));
    reader.end();
    assert.deepEqual(streamed, games.map((g) => g.diagnostics.length), "PgnReader");
  });
}
