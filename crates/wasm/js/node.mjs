// The `pgnkit` package as Node imports it (an ES module): wasm-bindgen's `nodejs` output
// (CommonJS, the module compiled and instantiated at load) with the names of the `web`
// output, so that code written for browsers (`await init()`, then the API) runs unchanged.
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const pgnkit = require("./node/pgnkit.js");

export const { parsePgn, check, binaryError, PgnReader, Game, Position, version } = pgnkit;

/** Nothing to wait for in Node (the module is ready at import); kept for the browser's API. */
export default async function init() {
  return pgnkit;
}

/** As `init`, synchronously. */
export function initSync() {
  return pgnkit;
}
