// The package's API from Node: parsePgn, games (headers, moves, variations, errors, toPgn,
// toJSON), check, the streaming PgnReader, Position, and how errors reach JavaScript.
import test from "node:test";
import assert from "node:assert/strict";

import { load, raw } from "./support.mjs";

const pgnkit = await load();
const { parsePgn, check, binaryError, PgnReader, Position } = pgnkit;

const TWO_GAMES = `[Event "Casual"]
[Site "?"]
[Date "????.??.??"]
[Round "?"]
[White "A"]
[Black "B"]
[Result "1-0"]
[Annotator "X"]

{ start } 1. e4 $1 { [%clk 0:01:30] [%eval 0.25,20] good } e5 (1... c5 2. Nf3 (2. c3) d6) 2. Nf3 Nc6 1-0

[Black "D"]
[White "C"]
[Event "Second"]

1. d4 d5 2. Ke3 *
`;

test("parsePgn reads every game, headers roster first", () => {
  const games = parsePgn(TWO_GAMES);
  assert.equal(games.length, 2);
  const [first, second] = games;
  assert.ok(first.headers instanceof Map);
  assert.deepEqual([...first.headers.keys()], ["Event", "Site", "Date", "Round", "White", "Black", "Result", "Annotator"]);
  // Roster order whatever the order in the file.
  assert.deepEqual([...second.headers.entries()], [["Event", "Second"], ["White", "C"], ["Black", "D"]]);
  assert.equal(first.result, "1-0");
  assert.equal(second.result, "*");
  assert.deepEqual(first.comments, [" start "]);
  assert.equal(first.line, 1);
  assert.equal(second.line, 12);
});

test("moves(): SAN, UCI, FEN after, comments, NAGs, clock, eval, variations", () => {
  const [game] = parsePgn(TWO_GAMES);
  const moves = game.moves();
  assert.deepEqual(moves.map((m) => m.san), ["e4", "e5", "Nf3", "Nc6"]);
  assert.equal(game.plyCount, 4);
  assert.deepEqual(moves.map((m) => m.uci), ["e2e4", "e7e5", "g1f3", "b8c6"]);
  const e4 = moves[0];
  assert.equal(e4.fen, "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1");
  assert.deepEqual([e4.ply, e4.moveNumber, e4.color], [1, 1, "w"]);
  assert.deepEqual(e4.nags, [1]);
  assert.deepEqual(e4.comments, [" [%clk 0:01:30] [%eval 0.25,20] good "]);
  assert.equal(e4.clock, 90);
  assert.deepEqual(e4.eval, { cp: 25, depth: 20 });
  assert.deepEqual(moves[1].color, "b");
  assert.equal(moves[1].clock, null);
  // 1... c5 2. Nf3 (2. c3) d6 is the alternative to 1... e5.
  assert.equal(moves[1].variations.length, 1);
  const line = moves[1].variations[0];
  assert.deepEqual(line.map((m) => m.san), ["c5", "Nf3", "d6"]);
  assert.equal(line[0].fen, "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
  assert.deepEqual(line[1].variations.map((v) => v.map((m) => m.san)), [["c3"]]);
  assert.equal(moves[3].fen, "r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3");
});

test("a broken game comes back with its errors and what was read before them", () => {
  const [, broken] = parsePgn(TWO_GAMES);
  assert.equal(broken.isBroken, true);
  assert.deepEqual(broken.moves().map((m) => m.san), ["d4", "d5"]);
  assert.equal(broken.errors.length, 1);
  const error = broken.errors[0];
  assert.equal(error.line, 16);
  assert.equal(error.column, 13);
  assert.equal(error.severity, "error");
  assert.equal(error.message, "illegal move");
  assert.equal(error.move, "Ke3");
  assert.equal(error.fen, "rnbqkbnr/ppp1pppp/8/3p4/3P4/8/PPP1PPPP/RNBQKBNR w KQkq - 0 2");
});

test("bad input never throws: binary bytes and empty text", () => {
  assert.deepEqual(parsePgn(""), []);
  const bytes = new Uint8Array(4096);
  for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7919) % 256;
  const games = parsePgn(bytes);
  assert.ok(games.length >= 1);
  assert.ok(games.some((g) => g.errors.length > 0));
  assert.ok(check(bytes).some((d) => d.severity === "error"));
});

test("binaryError: one error for binary data, the command's rule; null for text", () => {
  const bytes = new Uint8Array(4096);
  for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 7919) % 256;
  const message = binaryError("x.bin", bytes);
  assert.match(message, /^cannot read x\.bin: binary data, not PGN text \(\d+ control bytes in its first 4096 bytes\)$/);
  // Only the first 4096 bytes are looked at.
  const longer = new Uint8Array(10000);
  longer.set(bytes);
  assert.equal(binaryError("x.bin", longer), message);
  assert.equal(binaryError("a.pgn", TWO_GAMES), null);
  assert.equal(binaryError("a.pgn", new TextEncoder().encode(TWO_GAMES)), null);
  // Text with a stray NUL is text (its game gets the error).
  assert.equal(binaryError("a.pgn", TWO_GAMES.replace("Casual", "Cas\0ual")), null);
  assert.equal(binaryError("empty.pgn", ""), null);
  assert.throws(() => binaryError(1, bytes), TypeError);
  assert.throws(() => binaryError("x", 1), TypeError);
});

test("toPgn writes export format; options change it, bad ones throw", () => {
  const [game] = parsePgn(TWO_GAMES);
  const pgn = game.toPgn();
  assert.ok(pgn.startsWith('[Event "Casual"]\n'));
  assert.ok(pgn.includes("1. e4 $1 {"), pgn);
  assert.ok(pgn.endsWith("1-0\n\n"), JSON.stringify(pgn.slice(-20)));
  const reduced = game.toPgn({ reduced: true });
  assert.ok(!reduced.includes("Annotator"));
  assert.ok(reduced.includes("1. e4 e5 2. Nf3 Nc6 1-0\n"), reduced);
  assert.ok(game.toPgn({ notation: "uci", comments: false, nags: false, variations: false }).includes("\n\n1. e2e4 e7e5 2. g1f3 b8c6 1-0\n"));
  assert.throws(() => game.toPgn({ colour: true }), TypeError);
  assert.throws(() => game.toPgn({ width: 0 }), RangeError);
  assert.throws(() => game.toPgn({ width: "80" }), TypeError);
  assert.throws(() => game.toPgn({ notation: "xyz" }), RangeError);
  assert.throws(() => game.toPgn("width"), TypeError);
});

test("toJSON is the JSON shape of pgnkit, diagnostics included", () => {
  const [first, second] = parsePgn(TWO_GAMES);
  const json = JSON.parse(JSON.stringify(first));
  assert.deepEqual(json.tags[0], ["Event", "Casual"]);
  assert.equal(json.moves[0].san, "e4");
  assert.equal(json.result, "1-0");
  assert.deepEqual(json.diagnostics, []);
  assert.equal(second.toJSON().diagnostics[0].move, "Ke3");
});

test("check gives the diagnostics with their game numbers", () => {
  const diagnostics = check(TWO_GAMES);
  assert.equal(diagnostics.length, 1);
  assert.deepEqual(
    { game: diagnostics[0].game, line: diagnostics[0].line, column: diagnostics[0].column, message: diagnostics[0].message },
    { game: 2, line: 16, column: 13, message: "illegal move" },
  );
  assert.deepEqual(check(TWO_GAMES, { strict: false }), diagnostics);
  assert.throws(() => check(42), TypeError);
  assert.throws(() => check("", { strickt: true }), TypeError);
});

test("strict reading turns lenient move forms into errors", () => {
  const lenient = "1. e2e4 e5 *\n";
  assert.equal(parsePgn(lenient)[0].errors.length, 0);
  assert.ok(parsePgn(lenient, { strict: true })[0].errors.length > 0);
});

test("nestedComments and fixTagStrings read as the command's flags", () => {
  const nested = '[Event "n"]\n\n1. e4 { a { b } c } e5 *\n';
  const [plain] = parsePgn(nested);
  assert.ok(plain.errors.length > 0, "without the option ` c }` is not movetext");
  const [read] = parsePgn(nested, { nestedComments: true });
  assert.deepEqual(read.errors, []);
  assert.equal(read.toPgn().includes("; a { b } c"), true, read.toPgn());
  assert.ok(check(nested).some((d) => d.severity === "error"));
  assert.deepEqual(check(nested, { nestedComments: true }), []);
  const got = [];
  const reader = new PgnReader((game) => got.push(game.errors.length), { nestedComments: true });
  reader.push(nested + nested);
  reader.end();
  assert.deepEqual(got, [0, 0]);

  const unclosed = '[Site "Paris]\n\n1. e4 *\n';
  assert.ok(parsePgn(unclosed)[0].errors.length > 0);
  const [fixed] = parsePgn(unclosed, { fixTagStrings: true });
  assert.deepEqual(fixed.errors, []);
  assert.deepEqual(fixed.diagnostics.map((d) => d.severity), ["warning"]);
  assert.equal(fixed.toPgn().includes('[Site "Paris"]'), true, fixed.toPgn());
  assert.equal(check(unclosed, { fixTagStrings: true })[0].severity, "warning");

  assert.throws(() => parsePgn(nested, { nestedComments: "yes" }), TypeError);
  assert.throws(() => check(nested, { nested_comments: true }), TypeError);
  assert.throws(() => new PgnReader(() => {}, { fixTagStrings: 1 }), TypeError);
});

test("PgnReader gives the same games from chunks of any size", () => {
  const bytes = new TextEncoder().encode(TWO_GAMES.repeat(3));
  const whole = parsePgn(bytes).map((g) => g.toPgn());
  for (const size of [1, 2, 7, 64, 100000]) {
    const got = [];
    const reader = new PgnReader((game) => got.push(game.toPgn()));
    for (let i = 0; i < bytes.length; i += size) reader.push(bytes.subarray(i, i + size));
    reader.end();
    assert.deepEqual(got, whole, `chunks of ${size}`);
    assert.equal(reader.games, 6);
  }
  // Strings too, and games come as soon as their end is known.
  const got = [];
  const reader = new PgnReader((game) => got.push(game.headers.get("Event")));
  reader.push(TWO_GAMES);
  assert.deepEqual(got, ["Casual"]);
  reader.end();
  assert.deepEqual(got, ["Casual", "Second"]);
  assert.throws(() => reader.push("x"), TypeError);
  assert.throws(() => new PgnReader("not a function"), TypeError);
});

test("PgnReader keeps memory flat on a long stream", () => {
  const game = new TextEncoder().encode(TWO_GAMES);
  let count = 0;
  // Each game is freed when done with (else it waits for the garbage collector).
  const reader = new PgnReader((game) => {
    count++;
    game.free();
  });
  const memory = () => raw().__memoryBytesForTests();
  for (let i = 0; i < 200; i++) reader.push(game);
  const after200 = memory();
  for (let i = 0; i < 3000; i++) reader.push(game);
  reader.end();
  assert.equal(count, 6400);
  assert.equal(memory(), after200, "the module's memory did not grow");
});

test("Position: FEN, legal moves, SAN and UCI, game end", () => {
  const start = new Position();
  assert.equal(start.fen(), "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1");
  assert.equal(start.legalMoves().length, 20);
  assert.ok(start.legalMovesUci().includes("g1f3"));
  assert.equal(start.san("g1f3"), "Nf3");
  assert.equal(start.uci("Nf3"), "g1f3");
  const position = start.clone();
  for (const san of ["f3", "e5", "g4"]) position.play(san);
  assert.equal(position.play("Qh4"), "Qh4#");
  assert.equal(position.isCheckmate(), true);
  assert.equal(position.isGameOver(), true);
  assert.equal(position.turn(), "w");
  assert.equal(start.isCheckmate(), false, "clone() copies");
  assert.equal(position.epd(), "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq -");
  const stalemate = Position.fromFen("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1");
  assert.equal(stalemate.isStalemate(), true);
  assert.equal(Position.fromFen("8/8/8/8/8/8/8/K6k w - - 0 1").isInsufficientMaterial(), true);
  const p = new Position();
  assert.equal(p.playUci("e2e4"), "e4");
  assert.throws(() => p.play("Ke3"), RangeError);
  assert.throws(() => p.play("zz"), RangeError);
  assert.throws(() => p.san("e2e5"), RangeError);
  assert.equal(p.fen(), "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1", "unchanged by failed moves");
  assert.throws(() => Position.fromFen("not a fen"), RangeError);
  assert.throws(() => Position.fromFen(7), TypeError);
  assert.throws(() => p.play(undefined), TypeError);
});

test("a Rust panic is a JavaScript Error naming a pgnkit bug, and the module goes on", () => {
  assert.throws(() => raw().__panicForTests(), (e) => {
    assert.ok(e instanceof Error);
    assert.match(e.message, /^pgnkit bug: .*a panic asked for by the tests/);
    return true;
  });
  assert.equal(parsePgn(TWO_GAMES).length, 2);
  assert.equal(new Position().legalMoves().length, 20);
});

test("version is the workspace's", () => {
  assert.match(pgnkit.version(), /^\d+\.\d+\.\d+/);
});
