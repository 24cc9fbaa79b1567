// The reading side of the page (web/app.js), in a module Web Worker so that a large file never
// stalls the page: the `pgnkit` package's streaming reader (WebAssembly) is fed the input in
// chunks and posts back, after each chunk, what the page shows of the games it ended and
// their part of the downloads (each game's `toPgn()` for the games without errors, as `pgnkit
// export` writes them; each game's `toJSON()` line): the worker keeps nothing of them, and the
// page keeps each chunk's part as a Blob (which the browser may hold outside the page's
// memory), so a file of any size is read in bounded memory here.
//
// Messages in: `{ type: "start", name, head, shown }` (the first bytes, for the binary-data
// check; `shown`: how many games are sent in full), `{ type: "chunk", bytes }`, `{ type: "end" }`.
// Out: `{ type: "ready", version }`, `{ type: "refused", message }`, `{ type: "games", games }`
// (one per chunk and at the end, with `pgn` and `ndjson`: the downloads' text of its games),
// `{ type: "done" }`, `{ type: "failed", message }`.
import init, { binaryError, PgnReader, version } from "./pgnkit/pgnkit.js";

let reader = null;
let pending = [];
let parts = { pgn: [], ndjson: [] };
let shown = 0;
let count = 0;

/** What the page needs of `game` (number `number`): all of it for the games shown in full. */
function describe(game, number) {
  const out = { number, isBroken: game.isBroken, diagnostics: game.diagnostics };
  if (number <= shown) {
    out.headers = [...game.headers];
    out.result = game.result;
    out.comments = game.comments;
    out.startFen = game.startFen;
    out.moves = game.moves();
  }
  return out;
}

function onGame(game) {
  try {
    count++;
    pending.push(describe(game, count));
    if (!game.isBroken) parts.pgn.push(game.toPgn());
    parts.ndjson.push(`${JSON.stringify(game.toJSON())}\n`);
  } finally {
    game.free();
  }
}

/** Posts the games ended since the last post, with their part of the downloads. */
function flush() {
  self.postMessage({ type: "games", games: pending, pgn: parts.pgn.join(""), ndjson: parts.ndjson.join("") });
  pending = [];
  parts = { pgn: [], ndjson: [] };
}

function handle(message) {
  switch (message.type) {
    case "start": {
      reader?.free();
      reader = null;
      const refused = binaryError(message.name, message.head);
      if (refused !== null) {
        self.postMessage({ type: "refused", message: refused });
        return;
      }
      pending = [];
      parts = { pgn: [], ndjson: [] };
      shown = message.shown;
      count = 0;
      reader = new PgnReader(onGame);
      self.postMessage({ type: "started" });
      return;
    }
    case "chunk":
      reader.push(message.bytes);
      flush();
      return;
    case "end":
      reader.end();
      reader.free();
      reader = null;
      flush();
      self.postMessage({ type: "done" });
      return;
    default:
      throw new Error(`unknown message ${message.type}`);
  }
}

const ready = init().then(() => self.postMessage({ type: "ready", version: version() }));

self.onmessage = ({ data }) => {
  ready
    .then(() => handle(data))
    .catch((error) => self.postMessage({ type: "failed", message: String(error?.message ?? error) }));
};
