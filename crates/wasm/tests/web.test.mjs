// The browser build (`web/`, wasm-bindgen's `web` target, what bundlers and
// `<script type="module">` load), run in Node: initialised with the module's bytes (a
// browser fetches them), it reads games as the Node build does.
import test from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

import { load, packageDir } from "./support.mjs";

const PGN = '[White "A"]\n[Black "B"]\n\n1. e4 e5 (1... c5) 2. Ke3 *\n';

test("the web build gives what the Node build gives", async () => {
  const web = await import(pathToFileURL(path.join(packageDir, "web", "pgnkit.js")).href);
  await web.default({ module_or_path: fs.readFileSync(path.join(packageDir, "web", "pgnkit_bg.wasm")) });
  const node = await load();
  const [a] = web.parsePgn(PGN);
  const [b] = node.parsePgn(PGN);
  assert.deepEqual(a.moves(), b.moves());
  assert.deepEqual(a.errors, b.errors);
  assert.equal(a.errors[0].move, "Ke3");
  assert.equal(a.toPgn(), b.toPgn());
  assert.equal(new web.Position().legalMoves().length, 20);
});

test("package.json points each condition at a file that exists", () => {
  const manifest = JSON.parse(fs.readFileSync(path.join(packageDir, "package.json"), "utf8"));
  assert.equal(manifest.name, "pgnkit");
  assert.match(manifest.version, /^\d+\.\d+\.\d+/);
  const targets = Object.values(manifest.exports).flatMap((t) => (typeof t === "string" ? [t] : Object.values(t)));
  for (const target of [...targets, manifest.main, manifest.module, manifest.types]) {
    assert.ok(fs.existsSync(path.join(packageDir, target)), target);
  }
  const types = fs.readFileSync(path.join(packageDir, manifest.types), "utf8");
  for (const name of ["export function parsePgn", "export function check", "export class PgnReader", "export class Game", "export class Position", "export interface Move"]) {
    assert.ok(types.includes(name), name);
  }
});
