// The page that checks PGN in the browser (web/index.html): pasted text, a picked file or a
// dropped one is read by the `pgnkit` package's streaming reader (WebAssembly, served from
// this folder) in a Web Worker (worker.js), and each game is shown with its tags, moves and
// errors (line:column), with a summary. The checked input downloads in export format (each game's `toPgn()`, as `pgnkit
// export` writes it: the games without errors) and as NDJSON (each game's `toJSON()`). A game
// of the list goes on the board (board.js) to step through; the list filters by player; a
// diagnostic jumps to its game. Every text that comes from the input (tag values, comments,
// moves, file names, messages) is inserted with `textContent`, never as HTML.
import { Board } from "./board.js";

/** Games shown in full (tags and moves); the others are counted, their errors listed. */
const SHOWN_GAMES = 200;
/** Errors listed in the summary's list. */
const LISTED_ERRORS = 1000;
/** Bytes handed to the reader at a time (the page stays responsive in between). */
const CHUNK = 1 << 20;
/** Bytes looked at to tell binary data from text (all that `binaryError` looks at). */
const HEAD = 4096;

const $ = (id) => document.getElementById(id);

/** An element with `text` as its text (never parsed as HTML), and a class. */
function el(tag, text, className) {
  const node = document.createElement(tag);
  if (text !== undefined && text !== null) node.textContent = String(text);
  if (className) node.className = className;
  return node;
}

/** The run under way; a new one makes the old one stop at its next chunk. */
let current = 0;

/** The board of the selected game (made in `main`). */
let board = null;

/**
 * What the last run keeps: the export text of each game without errors (`toPgn()`), each
 * game's JSON line (`toJSON()`), and the main line of each game shown (for the board).
 */
let kept = { name: "", pgn: [], ndjson: [], lines: new Map() };

/**
 * The reading worker (web/worker.js) and a queue of its messages: `next()` resolves to the
 * next one. A new run makes a new worker when the old one is busy.
 */
class Reading {
  constructor() {
    this.worker = new Worker(new URL("./worker.js", import.meta.url), { type: "module" });
    this.queue = [];
    this.waiting = [];
    this.busy = false;
    this.worker.onmessage = ({ data }) => this.deliver(data);
    this.worker.onerror = (event) => this.deliver({ type: "failed", message: event.message || "the reading worker failed" });
  }

  deliver(message) {
    const resolve = this.waiting.shift();
    if (resolve) resolve(message);
    else this.queue.push(message);
  }

  /** The next message; a `failed` one throws. */
  async next() {
    const message = this.queue.length > 0 ? this.queue.shift() : await new Promise((resolve) => this.waiting.push(resolve));
    if (message.type === "failed") throw new Error(message.message);
    return message;
  }

  post(message, transfer = []) {
    this.worker.postMessage(message, transfer);
  }
}

/** The worker; replaced when a run starts while another is under way. */
let reading = null;

/** Checks the bytes `chunks` yields (an async iterable of Uint8Array) of the input `name`. */
async function checkInput(name, size, head, chunks) {
  const run = ++current;
  if (reading.busy) {
    reading.worker.terminate();
    reading = new Reading();
    await reading.next(); // ready
  }
  const worker = reading;
  worker.busy = true;
  try {
    await readInput(worker, run, name, size, head, chunks);
  } finally {
    worker.busy = false;
  }
}

async function readInput(worker, run, name, size, head, chunks) {
  const started = performance.now();
  const summary = $("summary");
  const problems = $("problems");
  const games = $("games");
  summary.replaceChildren();
  problems.replaceChildren();
  games.replaceChildren();
  summary.hidden = true;
  problems.hidden = true;
  $("results").hidden = true;
  board.clear();
  kept = { name, pgn: [], ndjson: [], lines: new Map() };
  const progress = $("progress");
  // Binary data (an image, an executable): one error, the one the `pgnkit` command gives.
  worker.post({ type: "start", name, head, shown: SHOWN_GAMES });
  const answer = await worker.next();
  if (answer.type === "refused") {
    showSummary({ name, games: 0, broken: 0, errors: 1, warnings: 0, seconds: 0 });
    problems.hidden = false;
    problems.append(el("h2", "Errors"));
    const list = el("ul", null, "diagnostics");
    list.append(el("li", answer.message, "error"));
    problems.append(list);
    $("status").textContent = `${name}: not checked, it is not PGN text.`;
    return;
  }
  const stats = { name, games: 0, broken: 0, errors: 0, warnings: 0, seconds: 0 };
  const list = el("ul", null, "diagnostics");
  let listed = 0;
  /** Shows the games of a `games` message. */
  const show = (message) => {
    for (const game of message.games) {
      stats.games++;
      const { number, diagnostics } = game;
      if (game.isBroken) stats.broken++;
      for (const d of diagnostics) {
        if (d.severity === "error") stats.errors++;
        else stats.warnings++;
        if (listed < LISTED_ERRORS) {
          listed++;
          list.append(diagnosticItem(d, `${name}:${d.line}:${d.column}: game ${number}: `, number));
        }
      }
      if (game.moves) games.append(gameView(game));
    }
    // The downloads, a Blob per chunk: the browser may keep them outside the page's memory.
    if (message.pgn) kept.pgn.push(new Blob([message.pgn]));
    if (message.ndjson) kept.ndjson.push(new Blob([message.ndjson]));
  };
  let read = 0;
  progress.hidden = false;
  progress.value = 0;
  try {
    for await (const chunk of chunks) {
      if (run !== current) return;
      for (let at = 0; at < chunk.length; at += CHUNK) {
        // A copy of the piece, handed over to the worker (the file's chunk stays whole).
        const piece = chunk.slice(at, at + CHUNK);
        worker.post({ type: "chunk", bytes: piece }, [piece.buffer]);
        show(await worker.next());
        if (run !== current) return;
        read += Math.min(CHUNK, chunk.length - at);
        progress.value = size ? read / size : 1;
        $("status").textContent = `${name}: ${stats.games} games read…`;
      }
    }
    worker.post({ type: "end" });
    show(await worker.next());
    await worker.next(); // done
  } finally {
    progress.hidden = true;
  }
  stats.seconds = (performance.now() - started) / 1000;
  showSummary(stats);
  if (stats.errors + stats.warnings > 0) {
    problems.hidden = false;
    problems.append(el("h2", "Errors and warnings"));
    problems.append(list);
    const more = stats.errors + stats.warnings - listed;
    if (more > 0) problems.append(el("p", `and ${more} more`));
  }
  if (stats.games > SHOWN_GAMES) {
    games.append(el("p", `The first ${SHOWN_GAMES} games are shown; ${stats.games - SHOWN_GAMES} more were checked.`, "note"));
  }
  $("results").hidden = stats.games === 0;
  $("filter").value = "";
  filterGames();
  $("status").textContent = `${name}: checked.`;
}

/** The summary: games, broken games, errors, warnings, time. */
function showSummary(stats) {
  const summary = $("summary");
  summary.hidden = false;
  summary.dataset.games = stats.games;
  summary.dataset.errors = stats.errors;
  summary.append(el("h2", "Summary"));
  const facts = el("dl");
  for (const [term, value] of [
    ["Input", stats.name],
    ["Games", stats.games],
    ["Games with errors", stats.broken],
    ["Errors", stats.errors],
    ["Warnings", stats.warnings],
    ["Time", `${stats.seconds.toFixed(2)} s`],
  ]) {
    facts.append(el("dt", term), el("dd", value));
  }
  summary.append(facts);
  summary.classList.toggle("clean", stats.errors === 0);
}

/**
 * A diagnostic as a list item: `prefix`, its message, the move it names; with `game` (its
 * number), a click or Enter on it selects that game and scrolls to it.
 */
function diagnosticItem(d, prefix, game) {
  const text = `${prefix}${d.message}${d.move ? ` (${d.move})` : ""}`;
  const item = el("li", text, d.severity);
  item.dataset.line = d.line;
  item.dataset.column = d.column;
  if (game !== undefined && game <= SHOWN_GAMES) {
    item.dataset.game = game;
    item.tabIndex = 0;
    item.classList.add("jump");
    item.title = `Show game ${game}`;
  }
  return item;
}

/** Selects game `number` (shown), at `ply` (the end with `Infinity`), and scrolls to it. */
function jumpTo(number, ply) {
  const view = document.querySelector(`#games article[data-game="${number}"]`);
  if (!view) return;
  if (view.hidden) {
    $("filter").value = "";
    filterGames();
  }
  select(number, ply);
  view.scrollIntoView({ block: "start" });
  view.querySelector("h3 button")?.focus({ preventScroll: true });
}

/** Puts game `number` on the board at `ply`, and marks it in the list. */
function select(number, ply) {
  const line = kept.lines.get(number);
  if (!line) return;
  for (const view of document.querySelectorAll("#games article.selected")) {
    view.classList.remove("selected");
    view.querySelector("h3 button")?.removeAttribute("aria-current");
  }
  const view = document.querySelector(`#games article[data-game="${number}"]`);
  view?.classList.add("selected");
  view?.querySelector("h3 button")?.setAttribute("aria-current", "true");
  board.show(number, line, ply);
}

/** Hides the games whose White and Black do not hold the filter's text (any case). */
function filterGames() {
  const wanted = $("filter").value.trim().toLowerCase();
  const views = document.querySelectorAll("#games article");
  let shown = 0;
  for (const view of views) {
    const hit = wanted === "" || view.dataset.white.includes(wanted) || view.dataset.black.includes(wanted);
    view.hidden = !hit;
    if (hit) shown++;
  }
  $("filtered").textContent = wanted === "" ? "" : `${shown} of ${views.length} games shown`;
}

/** Offers `parts` (Blobs) as a file named `name` to download. */
function download(name, parts, type) {
  const url = URL.createObjectURL(new Blob(parts, { type }));
  const link = document.createElement("a");
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

/** The input's name without its extension, for the names of the downloads. */
function stem(name) {
  const base = name === "pasted text" ? "pasted" : name.replace(/\.[^.]*$/, "");
  return base || "games";
}

/**
 * One game (as the worker describes it: `number`, `headers` entries, `result`, `comments`,
 * `startFen`, `moves`, `isBroken`, `diagnostics`): its tags, its moves with comments and
 * variations, its errors.
 */
function gameView(game) {
  const { number, diagnostics } = game;
  const view = el("article", null, game.isBroken ? "game broken" : "game");
  view.dataset.game = number;
  const headers = new Map(game.headers);
  const white = headers.get("White") ?? "?";
  const black = headers.get("Black") ?? "?";
  view.dataset.white = white.toLowerCase();
  view.dataset.black = black.toLowerCase();
  const title = `${number}. ${white} – ${black} ${game.result}`;
  const heading = el("h3");
  const button = el("button", title, "select");
  button.type = "button";
  button.title = "Show on the board";
  button.addEventListener("click", () => select(number, 0));
  heading.append(button);
  view.append(heading);
  const tags = el("table", null, "tags");
  for (const [name, value] of headers) {
    const row = el("tr");
    row.append(el("th", name), el("td", value));
    tags.append(row);
  }
  view.append(tags);
  const moves = el("p", null, "moves");
  for (const text of game.comments) moves.append(el("span", `{${text}}`, "comment"), " ");
  const line = game.moves;
  kept.lines.set(number, { title, startFen: game.startFen, moves: line.map((m) => ({ san: m.san, fen: m.fen, moveNumber: m.moveNumber, color: m.color })) });
  appendLine(moves, line, true);
  moves.addEventListener("click", (event) => {
    const ply = event.target.dataset?.ply;
    if (ply !== undefined) select(number, Number(ply));
  });
  moves.append(el("span", game.result, "result"));
  view.append(moves);
  if (diagnostics.length > 0) {
    const list = el("ul", null, "diagnostics");
    for (const d of diagnostics) list.append(diagnosticItem(d, `line ${d.line}, column ${d.column}: `));
    view.append(list);
  }
  return view;
}

/**
 * The moves of `line` into `parent`, numbered, each with its comments and variations; the
 * main line's (`main`) carry their ply, for a click to put them on the board.
 */
function appendLine(parent, line, main = false) {
  let numbered = false;
  for (const [index, move] of line.entries()) {
    for (const text of move.commentsBefore) parent.append(el("span", `{${text}}`, "comment"), " ");
    if (move.color === "w") parent.append(`${move.moveNumber}. `);
    else if (!numbered) parent.append(`${move.moveNumber}… `);
    numbered = true;
    const san = el("span", move.san, "san");
    if (main) san.dataset.ply = index + 1;
    parent.append(san);
    for (const nag of move.nags) parent.append(` $${nag}`);
    parent.append(" ");
    for (const text of move.comments) parent.append(el("span", `{${text}}`, "comment"), " ");
    for (const variation of move.variations) {
      const span = el("span", "(", "variation");
      appendLine(span, variation);
      if (span.lastChild?.nodeType === Node.TEXT_NODE && span.lastChild.data === " ") span.lastChild.remove();
      span.append(")");
      parent.append(span, " ");
    }
    // After a comment or a variation, Black's move is numbered again.
    numbered = move.color === "b" || (move.comments.length === 0 && move.variations.length === 0);
  }
}

/** The chunks of a file, read as a stream. */
async function* fileChunks(file) {
  const reader = file.stream().getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    yield value;
  }
}

async function checkFile(file) {
  const head = new Uint8Array(await file.slice(0, HEAD).arrayBuffer());
  await checkInput(file.name, file.size, head, fileChunks(file));
}

async function checkText() {
  const bytes = new TextEncoder().encode($("text").value);
  await checkInput("pasted text", bytes.length, bytes.slice(0, HEAD), [bytes]);
}

/** Shows an unexpected failure (a bug, or a module that did not load). */
function fail(error) {
  $("status").textContent = `Error: ${error?.message ?? error}`;
  $("status").classList.add("failed");
}

async function main() {
  board = new Board($("board"));
  reading = new Reading();
  const { version } = await reading.next();
  $("status").textContent = `Ready (pgnkit ${version}).`;
  document.body.dataset.ready = "true";
  const button = $("check");
  button.disabled = false;
  button.addEventListener("click", () => checkText().catch(fail));
  $("file").addEventListener("change", (event) => {
    const [file] = event.target.files;
    if (file) checkFile(file).catch(fail);
  });
  $("filter").addEventListener("input", filterGames);
  $("download-pgn").addEventListener("click", () => download(`${stem(kept.name)}-export.pgn`, kept.pgn, "application/x-chess-pgn"));
  $("download-ndjson").addEventListener("click", () => download(`${stem(kept.name)}.ndjson`, kept.ndjson, "application/x-ndjson"));
  const jump = (event) => {
    const item = event.target.closest("li[data-game]");
    if (item) jumpTo(Number(item.dataset.game), Infinity);
  };
  $("problems").addEventListener("click", jump);
  $("problems").addEventListener("keydown", (event) => {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      jump(event);
    }
  });
  const drop = $("drop");
  document.addEventListener("dragover", (event) => {
    event.preventDefault();
    drop.classList.add("over");
  });
  document.addEventListener("dragleave", () => drop.classList.remove("over"));
  document.addEventListener("drop", (event) => {
    event.preventDefault();
    drop.classList.remove("over");
    const [file] = event.dataTransfer?.files ?? [];
    if (file) checkFile(file).catch(fail);
  });
}

main().catch(fail);
