// The page that checks PGN in the browser (web/index.html): pasted text, a picked file or a
// dropped one is read by the `pgnkit` package's streaming reader (WebAssembly, served from
// this folder), and each game is shown with its tags, moves and errors (line:column), with a
// summary. Every text that comes from the input (tag values, comments, moves, file names,
// messages) is inserted with `textContent`, never as HTML.
import init, { binaryError, PgnReader, version } from "./pgnkit/pgnkit.js";

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

/** Checks the bytes `chunks` yields (an async iterable of Uint8Array) of the input `name`. */
async function checkInput(name, size, head, chunks) {
  const run = ++current;
  const started = performance.now();
  const summary = $("summary");
  const problems = $("problems");
  const games = $("games");
  summary.replaceChildren();
  problems.replaceChildren();
  games.replaceChildren();
  summary.hidden = true;
  problems.hidden = true;
  const progress = $("progress");
  // Binary data (an image, an executable): one error, the one the `pgnkit` command gives.
  const refused = binaryError(name, head);
  if (refused !== null) {
    showSummary({ name, games: 0, broken: 0, errors: 1, warnings: 0, seconds: 0 });
    problems.hidden = false;
    problems.append(el("h2", "Errors"));
    const list = el("ul", null, "diagnostics");
    list.append(el("li", refused, "error"));
    problems.append(list);
    $("status").textContent = `${name}: not checked, it is not PGN text.`;
    return;
  }
  const stats = { name, games: 0, broken: 0, errors: 0, warnings: 0, seconds: 0 };
  const list = el("ul", null, "diagnostics");
  let listed = 0;
  const reader = new PgnReader((game) => {
    try {
      stats.games++;
      const number = stats.games;
      const diagnostics = game.diagnostics;
      if (game.isBroken) stats.broken++;
      for (const d of diagnostics) {
        if (d.severity === "error") stats.errors++;
        else stats.warnings++;
        if (listed < LISTED_ERRORS) {
          listed++;
          list.append(diagnosticItem(d, `${name}:${d.line}:${d.column}: game ${number}: `));
        }
      }
      if (number <= SHOWN_GAMES) games.append(gameView(game, number, diagnostics));
    } finally {
      game.free();
    }
  });
  let read = 0;
  progress.hidden = false;
  progress.value = 0;
  try {
    for await (const chunk of chunks) {
      if (run !== current) return;
      for (let at = 0; at < chunk.length; at += CHUNK) {
        reader.push(chunk.subarray(at, at + CHUNK));
        read += Math.min(CHUNK, chunk.length - at);
        progress.value = size ? read / size : 1;
        $("status").textContent = `${name}: ${stats.games} games read…`;
        await new Promise((resolve) => setTimeout(resolve, 0));
        if (run !== current) return;
      }
    }
    reader.end();
  } finally {
    reader.free();
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

/** A diagnostic as a list item: `prefix`, its message, the move it names. */
function diagnosticItem(d, prefix) {
  const text = `${prefix}${d.message}${d.move ? ` (${d.move})` : ""}`;
  const item = el("li", text, d.severity);
  item.dataset.line = d.line;
  item.dataset.column = d.column;
  return item;
}

/** One game: its tags, its moves with comments and variations, its errors. */
function gameView(game, number, diagnostics) {
  const view = el("article", null, game.isBroken ? "game broken" : "game");
  view.dataset.game = number;
  const headers = game.headers;
  const title = `${number}. ${headers.get("White") ?? "?"} – ${headers.get("Black") ?? "?"} ${game.result}`;
  view.append(el("h3", title));
  const tags = el("table", null, "tags");
  for (const [name, value] of headers) {
    const row = el("tr");
    row.append(el("th", name), el("td", value));
    tags.append(row);
  }
  view.append(tags);
  const moves = el("p", null, "moves");
  for (const text of game.comments) moves.append(el("span", `{${text}}`, "comment"), " ");
  appendLine(moves, game.moves());
  moves.append(el("span", game.result, "result"));
  view.append(moves);
  if (diagnostics.length > 0) {
    const list = el("ul", null, "diagnostics");
    for (const d of diagnostics) list.append(diagnosticItem(d, `line ${d.line}, column ${d.column}: `));
    view.append(list);
  }
  return view;
}

/** The moves of `line` into `parent`, numbered, each with its comments and variations. */
function appendLine(parent, line) {
  let numbered = false;
  for (const move of line) {
    for (const text of move.commentsBefore) parent.append(el("span", `{${text}}`, "comment"), " ");
    if (move.color === "w") parent.append(`${move.moveNumber}. `);
    else if (!numbered) parent.append(`${move.moveNumber}… `);
    numbered = true;
    parent.append(el("span", move.san, "san"));
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
  await checkInput("pasted text", bytes.length, bytes.subarray(0, HEAD), [bytes]);
}

/** Shows an unexpected failure (a bug, or a module that did not load). */
function fail(error) {
  $("status").textContent = `Error: ${error?.message ?? error}`;
  $("status").classList.add("failed");
}

async function main() {
  await init();
  $("status").textContent = `Ready (pgnkit ${version()}).`;
  document.body.dataset.ready = "true";
  const button = $("check");
  button.disabled = false;
  button.addEventListener("click", () => checkText().catch(fail));
  $("file").addEventListener("change", (event) => {
    const [file] = event.target.files;
    if (file) checkFile(file).catch(fail);
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
