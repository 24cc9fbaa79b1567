// The page (web/, assembled with the package in target/web by `cargo xtask wasm`) in a real
// browser: Debian's Chromium, headless, driven by playwright-core (web/tests/package.json,
// installed under target/web-tests). The page is served by a small server of this file's own;
// every request the browser makes is routed, and one that leaves that server fails the test
// (the page works offline). Chromium missing: a failure in CI (CI=true), a loud skip here.
//
// Environment: PGNKIT_WEB (the page), PGNKIT_WEB_MODULES (node_modules with playwright-core),
// PGNKIT_NPM (the package, for the expected figures), PGNKIT_BIN (the `pgnkit` command),
// PGNKIT_CORPUS, PGNKIT_CHROMIUM (default /usr/bin/chromium), PGNKIT_WEB_SCREENSHOT (where the
// screenshot goes; default target/web-page.png; docs/web-page.png is one).
import test from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { spawnSync } from "node:child_process";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const webDir = path.resolve(process.env.PGNKIT_WEB ?? path.join(root, "target", "web"));
const modules = path.resolve(process.env.PGNKIT_WEB_MODULES ?? path.join(root, "target", "web-tests", "node_modules"));
const packageDir = path.resolve(process.env.PGNKIT_NPM ?? path.join(root, "target", "npm", "pgnkit"));
const corpus = process.env.PGNKIT_CORPUS ?? path.join(root, "..", "shared", "corpus");
const chromium = process.env.PGNKIT_CHROMIUM ?? "/usr/bin/chromium";
const binary = path.resolve(process.env.PGNKIT_BIN ?? path.join(root, "target", "debug", "pgnkit"));

const missing = !fs.existsSync(chromium) ? `no Chromium at ${chromium} (apt-get install chromium)` : null;
if (missing && process.env.CI === "true") {
  test("Chromium is installed (CI)", () => assert.fail(`${missing}: the browser tests must run in CI`));
} else if (missing) {
  console.error(`\n*** web/tests/browser.test.mjs: browser tests SKIPPED: ${missing}. ***\n`);
  test("browser tests", { skip: missing }, () => {});
} else {
  await browserTests();
}

/** The package in Node: what the page must show. */
async function pgnkit() {
  const module = await import(pathToFileURL(path.join(packageDir, "node.mjs")).href);
  await module.default();
  return module;
}

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".wasm": "application/wasm",
  ".ts": "text/plain; charset=utf-8",
};

/** A static server of `dir` on 127.0.0.1 (a free port); resolves to it and its origin. */
function serve(dir) {
  const server = http.createServer((request, response) => {
    const url = new URL(request.url, "http://localhost");
    const file = path.join(dir, decodeURIComponent(url.pathname === "/" ? "/index.html" : url.pathname));
    if (!file.startsWith(dir + path.sep) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { "content-type": TYPES[path.extname(file)] ?? "application/octet-stream" });
    fs.createReadStream(file).pipe(response);
  });
  return new Promise((resolve) => {
    server.listen(0, "127.0.0.1", () => resolve({ server, origin: `http://127.0.0.1:${server.address().port}` }));
  });
}

async function browserTests() {
  const { chromium: launcher } = createRequire(path.join(modules, "noop.js"))("playwright-core");
  const { server, origin } = await serve(webDir);
  const browser = await launcher.launch({
    executablePath: chromium,
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage"],
  });
  const package_ = await pgnkit();

  test.after(async () => {
    await browser.close();
    server.close();
  });

  /** The page, loaded and ready, with the requests it made, those that left, its errors. */
  async function open(t) {
    const context = await browser.newContext({ serviceWorkers: "block", viewport: { width: 1000, height: 800 } });
    const seen = { local: [], outside: [], errors: [] };
    await context.route("**/*", (route) => {
      const url = route.request().url();
      if (url.startsWith(origin + "/")) {
        seen.local.push(url);
        return route.continue();
      }
      seen.outside.push(url);
      return route.abort();
    });
    const page = await context.newPage();
    page.on("pageerror", (error) => seen.errors.push(String(error)));
    page.on("console", (message) => {
      if (message.type() === "error") seen.errors.push(message.text());
    });
    await page.goto(origin + "/");
    await page.waitForSelector("body[data-ready=true]", { timeout: 20000 });
    t.after(async () => {
      await context.close();
      assert.deepEqual(seen.outside, [], "requests outside the local server");
      // A request the page's Content-Security-Policy stopped, or a script error, is one too.
      assert.deepEqual(seen.errors, [], "errors in the page");
    });
    return { page, seen };
  }

  /** The summary's figures once the page has checked an input. */
  async function summary(page) {
    await page.waitForSelector("#summary:not([hidden])", { timeout: 60000 });
    return page.$eval("#summary", (s) => ({ games: Number(s.dataset.games), errors: Number(s.dataset.errors), text: s.textContent }));
  }

  test("the page loads the module from its own server and checks a corpus file", async (t) => {
    const { page, seen } = await open(t);
    const file = path.join(corpus, "annotated", "pychess", "world_matches.pgn");
    const bytes = fs.readFileSync(file);
    const games = package_.parsePgn(bytes);
    const errors = games.reduce((n, g) => n + g.errors.length, 0);
    await page.setInputFiles("#file", file);
    const shown = await summary(page);
    assert.equal(shown.games, games.length);
    assert.equal(shown.errors, errors);
    assert.match(shown.text, /world_matches\.pgn/);
    const articles = await page.$$eval("#games article", (a) => a.length);
    assert.equal(articles, Math.min(games.length, 200));
    // The first game's tags, in the package's order, and its main line's moves.
    const tags = await page.$$eval("#games article:first-of-type .tags tr", (rows) => rows.map((r) => [r.cells[0].textContent, r.cells[1].textContent]));
    assert.deepEqual(tags, [...games[0].headers.entries()]);
    const sans = await page.$$eval("#games article:first-of-type .moves > .san", (s) => s.map((e) => e.textContent));
    assert.deepEqual(sans, games[0].moves().map((m) => m.san));
    assert.ok(seen.local.some((url) => url.endsWith("/pgnkit/pgnkit_bg.wasm")), "the module came from the local server");
    assert.ok(page.workers().some((w) => w.url().endsWith("/worker.js")), "the reader runs in a Web Worker");
  });

  test("a new input while one is being read: the new one wins", async (t) => {
    const { page } = await open(t);
    await page.setInputFiles("#file", path.join(corpus, "annotated", "pychess", "world_matches.pgn"));
    await page.fill("#text", '[White "Second"]\n[Black "B"]\n\n1. e4 *\n');
    await page.click("#check");
    await page.waitForFunction(() => document.querySelector("#summary")?.dataset.games === "1" && document.querySelector("#status").textContent === "pasted text: checked.", null, { timeout: 60000 });
    await page.waitForTimeout(300);
    assert.equal(await page.$eval("#summary", (s) => s.dataset.games), "1");
    assert.deepEqual(await page.$$eval("#games article h3", (h) => h.map((e) => e.textContent)), ["1. Second – B *"]);
  });

  test("a file dropped on the page is checked", async (t) => {
    const { page } = await open(t);
    const pgn = '[White "Dropped"]\n[Black "B"]\n\n1. e4 e5 *\n';
    const transfer = await page.evaluateHandle((text) => {
      const data = new DataTransfer();
      data.items.add(new File([text], "dropped.pgn", { type: "text/plain" }));
      return data;
    }, pgn);
    await page.dispatchEvent("#drop", "dragover", { dataTransfer: transfer });
    assert.ok(await page.$eval("#drop", (d) => d.classList.contains("over")), "the drop zone shows the drag");
    await page.dispatchEvent("#drop", "drop", { dataTransfer: transfer });
    const shown = await summary(page);
    assert.equal(shown.games, 1);
    assert.equal(await page.textContent("#summary dd"), "dropped.pgn");
    assert.deepEqual(await page.$$eval("#games .tags td", (cells) => cells.map((c) => c.textContent)), ["Dropped", "B"]);
  });

  test("tags, comments and file names are shown as text: no markup, no script runs", async (t) => {
    const { page } = await open(t);
    const script = "<script>window.__pwned = 1</script>";
    const image = "<img src=x onerror=window.__pwned=2>";
    const pgn = `[Event "${script}"]\n[White "${image}"]\n[Black "B"]\n\n{${image}} 1. e4 {${script} ${image}} e5 *\n`;
    /** Nothing of the payloads became an element, and none ran. */
    async function inert() {
      await page.waitForTimeout(200);
      assert.equal(await page.evaluate(() => window.__pwned), undefined, "a payload ran");
      assert.equal(await page.locator("img, script:not([src])").count(), 0, "markup from the input became elements");
    }
    await page.fill("#text", pgn);
    await page.click("#check");
    assert.equal((await summary(page)).games, 1);
    const tags = await page.$$eval("#games .tags td", (cells) => cells.map((c) => c.textContent));
    assert.ok(tags.includes(script) && tags.includes(image), `the tag values as text: ${tags}`);
    assert.ok((await page.textContent("#games h3")).includes(image), "the title shows White as text");
    const comments = await page.$$eval("#games .comment", (spans) => spans.map((s) => s.textContent));
    assert.deepEqual(comments, [`{${image}}`, `{${script} ${image}}`]);
    await inert();
    const name = `${image}${script}.pgn`;
    await page.setInputFiles("#file", { name, mimeType: "text/plain", buffer: Buffer.from(pgn) });
    await page.waitForFunction((n) => document.querySelector("#summary dd")?.textContent === n, name);
    await page.waitForSelector("#games article");
    await inert();
  });

  test("a broken game shows its error with line:column", async (t) => {
    const { page } = await open(t);
    const pgn = '[White "A"]\n[Black "B"]\n\n1. e4 e5 2. Ke3 Nc6 *\n\n[White "C"]\n[Black "D"]\n\n1. d4 *\n';
    const diagnostics = package_.check(pgn);
    const errors = diagnostics.filter((d) => d.severity === "error");
    assert.equal(errors.length, 1);
    const [expected] = errors;
    assert.deepEqual([expected.game, expected.line, expected.move], [1, 4, "Ke3"], "the illegal move is on line 4");
    await page.fill("#text", pgn);
    await page.click("#check");
    const shown = await summary(page);
    assert.equal(shown.games, 2);
    assert.equal(shown.errors, 1);
    const moveOf = (d) => (d.move ? ` (${d.move})` : "");
    const items = await page.$$eval("#problems li", (li) => li.map((i) => i.textContent));
    assert.deepEqual(items, diagnostics.map((d) => `pasted text:${d.line}:${d.column}: game ${d.game}: ${d.message}${moveOf(d)}`));
    assert.ok(items.includes(`pasted text:4:${expected.column}: game 1: ${expected.message} (Ke3)`), items.join("\n"));
    const inGame = await page.$$eval("#games article.broken .diagnostics li.error", (li) => li.map((i) => i.textContent));
    assert.deepEqual(inGame, [`line 4, column ${expected.column}: ${expected.message} (Ke3)`]);
  });

  test("binary input gives one clear error, the command's", async (t) => {
    const { page } = await open(t);
    // 4096 bytes (the most the page looks at, and all the command sees): a NUL in 128 (too
    // few for the command's NUL rule, `detect`), a third control bytes (`binary_message`).
    const bytes = Buffer.alloc(4096);
    for (let i = 0; i < bytes.length; i++) bytes[i] = i % 128 === 0 ? 0 : i % 3 === 0 ? 1 + (i % 8) : 65 + (i % 26);
    await page.setInputFiles("#file", { name: "data.pgn", mimeType: "application/octet-stream", buffer: bytes });
    const shown = await summary(page);
    assert.equal(shown.games, 0);
    const items = await page.$$eval("#problems li", (li) => li.map((i) => i.textContent));
    assert.equal(items.length, 1, `one error: ${items}`);
    assert.match(items[0], /^cannot read data\.pgn: binary data, not PGN text \(\d+ control bytes in its first 4096 bytes\)$/);
    assert.equal(await page.locator("#games article").count(), 0);
    // The page's copy of the rule says what `pgnkit check` says of the same bytes.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pgnkit-web-"));
    t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
    fs.writeFileSync(path.join(dir, "data.pgn"), bytes);
    const run = spawnSync(binary, ["check", "data.pgn"], { cwd: dir, encoding: "utf8" });
    assert.notEqual(run.status, 0);
    assert.ok(run.stderr.split("\n").includes(`pgnkit: ${items[0]}`), `the command says: ${run.stderr}`);
  });

  /** Loads `file` (a corpus file) in the page; the package's games of it. */
  async function load(page, file) {
    await page.setInputFiles("#file", file);
    await summary(page);
    await page.waitForSelector("#results:not([hidden])");
    return package_.parsePgn(fs.readFileSync(file));
  }

  /** The file the page offers when `button` is clicked, as bytes, and its name. */
  async function downloaded(page, button) {
    const [download] = await Promise.all([page.waitForEvent("download"), page.click(button)]);
    return { name: download.suggestedFilename(), bytes: fs.readFileSync(await download.path()) };
  }

  test("the export download is the command's export, byte for byte; the NDJSON is toJSON()", async (t) => {
    const { page } = await open(t);
    // A file with broken games: the export leaves them out, as the command does.
    const file = path.join(corpus, "fen-start", "lichess-practice", "lichess-practice-the-fork_by_arex_2017.01.29.pgn");
    const rich = path.join(corpus, "annotated", "pychess", "world_matches.pgn");
    for (const input of [rich, file]) {
      const games = await load(page, input);
      const pgn = await downloaded(page, "#download-pgn");
      assert.equal(pgn.name, `${path.basename(input, ".pgn")}-export.pgn`);
      const run = spawnSync(binary, ["export", input], { maxBuffer: 1 << 30 });
      assert.ok(run.stdout.length > 0, `pgnkit export ${input}: ${run.stderr}`);
      assert.ok(pgn.bytes.equals(run.stdout), `the download of ${input} is \`pgnkit export\`'s output (${pgn.bytes.length} vs ${run.stdout.length} bytes)`);
      const ndjson = await downloaded(page, "#download-ndjson");
      assert.equal(ndjson.name, `${path.basename(input, ".pgn")}.ndjson`);
      const lines = ndjson.bytes.toString("utf8").split("\n");
      assert.equal(lines.pop(), "", "the last line ends with a newline");
      assert.equal(lines.length, games.length);
      assert.deepEqual(lines.map((l) => JSON.parse(l)), games.map((g) => JSON.parse(JSON.stringify(g.toJSON()))));
    }
  });

  test("the board steps through the main line: keys, buttons, a click on a move", async (t) => {
    const { page } = await open(t);
    const games = await load(page, path.join(corpus, "annotated", "pychess", "world_matches.pgn"));
    const number = 3;
    const game = games[number - 1];
    const fens = [game.startFen, ...game.moves().map((m) => m.fen)];
    assert.ok(fens.length > 10, "a game of some length");
    const fen = () => page.$eval("#board", (b) => b.dataset.fen);
    assert.equal(await page.locator("#board").isHidden(), true, "no board before a game is chosen");
    await page.click(`#games article[data-game="${number}"] h3 button`);
    assert.equal(await fen(), fens[0]);
    assert.equal(await page.$eval("#board", (b) => b.dataset.game), String(number));
    // The first positions of the main line, forward with →; the end; one back with ←.
    for (let ply = 1; ply < Math.min(fens.length, 16); ply++) {
      await page.keyboard.press("ArrowRight");
      assert.equal(await fen(), fens[ply], `ply ${ply}`);
    }
    await page.keyboard.press("End");
    assert.equal(await fen(), fens.at(-1));
    await page.keyboard.press("ArrowRight");
    assert.equal(await fen(), fens.at(-1), "→ at the end stays there");
    await page.keyboard.press("ArrowLeft");
    assert.equal(await fen(), fens.at(-2));
    await page.keyboard.press("Home");
    assert.equal(await fen(), fens[0]);
    await page.keyboard.press("ArrowLeft");
    assert.equal(await fen(), fens[0], "← at the start stays there");
    await page.keyboard.press("End");
    assert.equal(await fen(), fens.at(-1));
    // The buttons, and a click on the fifth move of the game's text.
    await page.click("#board button.first");
    await page.click("#board button.forward");
    assert.equal(await fen(), fens[1]);
    await page.click(`#games article[data-game="${number}"] .moves > .san >> nth=4`);
    assert.equal(await fen(), fens[5]);
    assert.equal(await page.textContent(`#games article[data-game="${number}"] .san.current`), game.moves()[4].san);
    // The SVG draws the placement: one glyph per piece of the FEN.
    const pieces = fens[5].split(" ")[0].replace(/[^a-zA-Z]/g, "").length;
    assert.equal(await page.locator("#board svg text.piece").count(), pieces);
    assert.equal(await page.locator("#board svg rect").count(), 64);
    // Keys typed in the filter box are the box's, not the board's.
    await page.focus("#filter");
    await page.keyboard.press("Home");
    assert.equal(await fen(), fens[5]);
  });

  test("the filter keeps the games of a player; a diagnostic jumps to its game", async (t) => {
    const { page } = await open(t);
    const games = await load(page, path.join(corpus, "annotated", "pychess", "world_matches.pgn"));
    const shownGames = games.slice(0, 200);
    // The player of the most games shown (as White), part of the name in capitals.
    const counts = new Map();
    for (const g of shownGames) counts.set(g.headers.get("White"), (counts.get(g.headers.get("White")) ?? 0) + 1);
    const [name] = [...counts].sort((a, b) => b[1] - a[1])[0];
    const wanted = name.slice(0, 6).toUpperCase();
    const expected = shownGames
      .map((g, i) => [i + 1, `${g.headers.get("White") ?? "?"}|${g.headers.get("Black") ?? "?"}`])
      .filter(([, players]) => players.toLowerCase().includes(wanted.toLowerCase()))
      .map(([n]) => n);
    assert.ok(expected.length > 1 && expected.length < 200, `${wanted}: ${expected.length} games`);
    await page.fill("#filter", wanted);
    const visible = () => page.$$eval("#games article:not([hidden])", (a) => a.map((v) => Number(v.dataset.game)));
    assert.deepEqual(await visible(), expected);
    assert.equal(await page.textContent("#filtered"), `${expected.length} of 200 games shown`);
    await page.fill("#filter", "no such player at all");
    assert.deepEqual(await visible(), []);
    await page.fill("#filter", "");
    assert.equal((await visible()).length, 200);

    // Broken games: a click (or Enter) on a diagnostic selects its game, at the position the
    // bad move was played in, and scrolls to it, even when the filter hid it.
    const pgn = [1, 2, 3, 4, 5, 6, 7, 8].map((i) => `[White "W${i}"]\n[Black "B${i}"]\n\n1. e4 e5 2. Nf3 ${i === 7 ? "Ke7 3. Ke3" : "Nc6"} *\n`).join("\n");
    const [bad] = package_.check(pgn).filter((d) => d.severity === "error");
    assert.equal(bad.game, 7);
    await page.fill("#text", pgn);
    await page.click("#check");
    await page.waitForFunction(() => document.querySelector("#summary")?.dataset.games === "8");
    await page.fill("#filter", "W1");
    assert.equal(await page.locator(`#games article[data-game="7"]`).isHidden(), true);
    await page.setViewportSize({ width: 1000, height: 300 });
    await page.click("#problems li.error");
    assert.equal(await page.$eval("#board", (b) => b.dataset.game), "7");
    assert.equal(await page.$eval("#board", (b) => b.dataset.fen), bad.fen);
    assert.ok(await page.$eval('#games article[data-game="7"]', (a) => a.classList.contains("selected") && !a.hidden));
    const box = await page.locator('#games article[data-game="7"]').boundingBox();
    assert.ok(box && box.y >= 0 && box.y < 300, `the game is scrolled into view (y ${box?.y})`);
    await page.click('#games article[data-game="1"] h3 button');
    await page.focus("#problems li.error");
    await page.keyboard.press("Enter");
    assert.equal(await page.$eval("#board", (b) => b.dataset.game), "7");
  });

  test("on a phone (390x844) nothing overflows; keyboard focus follows the page and shows", async (t) => {
    const { page } = await open(t);
    await page.setViewportSize({ width: 390, height: 844 });
    await load(page, path.join(corpus, "annotated", "pychess", "world_matches.pgn"));
    await page.click('#games article[data-game="1"] h3 button');
    await page.keyboard.press("End");
    // A tag table scrolls sideways inside itself (a long value); the table itself must fit.
    const overflow = await page.evaluate(() => {
      const width = document.documentElement.clientWidth;
      const wide = [...document.querySelectorAll("body *")]
        .filter((e) => e.getClientRects().length > 0 && e.getBoundingClientRect().right > width + 0.5 && !e.parentElement?.closest(".tags"))
        .map((e) => `${e.tagName}#${e.id}.${e.className?.baseVal ?? e.className}`);
      return { scroll: document.documentElement.scrollWidth, width, wide: wide.slice(0, 5) };
    });
    assert.equal(overflow.scroll, 390, `the page is as wide as the screen: ${JSON.stringify(overflow)}`);
    assert.deepEqual(overflow.wide, [], "elements past the right edge");
    assert.ok((await page.locator("#board svg").boundingBox()).width <= 390);
    // Tab order: the text, the check button, the file, then the filter and the downloads.
    await page.focus("#text");
    const order = [];
    for (let i = 0; i < 5; i++) {
      await page.keyboard.press("Tab");
      order.push(await page.evaluate(() => document.activeElement.id || document.activeElement.className));
    }
    assert.deepEqual(order, ["check", "file", "filter", "download-pgn", "download-ndjson"]);
    const outline = await page.evaluate(() => getComputedStyle(document.activeElement).outlineStyle);
    assert.notEqual(outline, "none", "the focused element shows its focus");
  });

  test("a screenshot of the page (docs/web-page.png with PGNKIT_WEB_SCREENSHOT)", async (t) => {
    const screenshot = process.env.PGNKIT_WEB_SCREENSHOT ?? path.join(webDir, "..", "web-page.png");
    const { page } = await open(t);
    await page.setViewportSize({ width: 900, height: 900 });
    const pgn = [
      '[Event "Casual"]\n[Site "?"]\n[Date "2026.12.06"]\n[Round "1"]\n[White "Anderssen"]\n[Black "Kieseritzky"]\n[Result "1-0"]\n',
      "1. e4 e5 2. f4 exf4 3. Bc4 Qh4+ {[%clk 0:04:58]} 4. Kf1 b5 $6 (4... d6 5. Nf3) 5. Bxb5 Nf6 1-0\n",
      '[Event "Blitz"]\n[White "A"]\n[Black "B"]\n[Result "*"]\n\n1. d4 d5 2. c4 Kd6 *\n',
    ].join("\n");
    await page.fill("#text", pgn);
    await page.click("#check");
    await summary(page);
    // The first game on the board, after 3... Qh4+.
    await page.click('#games article[data-game="1"] .moves > .san >> nth=5');
    await page.screenshot({ path: screenshot, fullPage: true });
    assert.ok(fs.statSync(screenshot).size > 10000, `a screenshot in ${screenshot}`);
  });
}
