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
    await page.screenshot({ path: screenshot, fullPage: true });
    assert.ok(fs.statSync(screenshot).size > 10000, `a screenshot in ${screenshot}`);
  });
}
