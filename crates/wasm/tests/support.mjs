// What the Node tests share: the package under test (PGNKIT_NPM, the folder `cargo xtask
// wasm` writes), the `pgnkit` command to compare with (PGNKIT_BIN) and the corpus.
import path from "node:path";
import { createRequire } from "node:module";
import { pathToFileURL, fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..", "..");

/** The package folder. */
export const packageDir = path.resolve(process.env.PGNKIT_NPM ?? path.join(root, "target", "npm", "pgnkit"));

/** The `pgnkit` command. */
export const binary = path.resolve(process.env.PGNKIT_BIN ?? path.join(root, "target", "debug", "pgnkit"));

/** The corpus folder. */
export const corpus = process.env.PGNKIT_CORPUS ?? path.join(root, "..", "shared", "corpus");

/** The package, imported as a user imports it (its `node` export). */
export async function load() {
  const pgnkit = await import(pathToFileURL(path.join(packageDir, "node.mjs")).href);
  await pgnkit.default();
  return pgnkit;
}

/** The CommonJS module behind the package (the same instance), for test-only hooks. */
export function raw() {
  return createRequire(import.meta.url)(path.join(packageDir, "node", "pgnkit.js"));
}
