// The TypeScript declarations of the `pgnkit` package (web/pgnkit.d.ts, written by
// wasm-bindgen with the interfaces of crates/wasm/src/game.rs) used as a TypeScript user uses
// them: `tsc --noEmit` (tsconfig.json beside this file) must accept every line, and must
// reject each line marked `@ts-expect-error` (an unused marker is an error too, so a
// declaration that loosens to `any` fails the check).
import init, { binaryError, check, parsePgn, PgnReader, Position, version } from "pgnkit";
import type { CheckDiagnostic, Diagnostic, ExportOptions, Game, Move, ReadOptions } from "pgnkit";

export async function tour(text: string, bytes: Uint8Array): Promise<string[]> {
  await init();
  const out: string[] = [version()];
  const options: ReadOptions = { strict: true };
  const games: Game[] = parsePgn(text, options);
  for (const game of games) {
    const headers: Map<string, string> = game.headers;
    const white: string | undefined = headers.get("White");
    out.push(white ?? "?", game.result, String(game.plyCount), game.startFen);
    const errors: Diagnostic[] = game.errors;
    for (const e of errors) {
      const where: string = `${e.line}:${e.column}`;
      const severity: "error" | "warning" = e.severity;
      out.push(where, severity, e.message, e.move ?? "", e.fen ?? "");
    }
    const moves: Move[] = game.moves();
    for (const move of moves) {
      const color: "w" | "b" = move.color;
      const clock: number | null = move.clock;
      const centipawns: number | undefined = move.eval?.cp;
      const alternatives: Move[][] = move.variations;
      out.push(move.san, move.uci, move.fen, color, String(clock), String(centipawns), String(alternatives.length));
      out.push(...move.comments, ...move.commentsBefore, ...move.nags.map(String));
    }
    const exportOptions: ExportOptions = { width: 60, notation: "uci", comments: false };
    out.push(game.toPgn(exportOptions), game.toPgn(), JSON.stringify(game.toJSON()));
    game.free();
  }
  const refused: string | null = binaryError("input.pgn", bytes.subarray(0, 4096));
  out.push(refused ?? "text");
  const diagnostics: CheckDiagnostic[] = check(bytes);
  out.push(...diagnostics.map((d) => `${d.game}:${d.line}:${d.column}`));
  let count = 0;
  const reader = new PgnReader((game: Game) => {
    count += game.plyCount;
    game.free();
  });
  reader.push(bytes);
  reader.push("1. e4 *\n");
  reader.end();
  out.push(String(reader.games + count));
  const position: Position = Position.fromFen("7k/6Q1/6K1/8/8/8/8/8 b - - 0 1");
  const mate: boolean = position.isCheckmate();
  const legal: string[] = new Position().legalMoves();
  out.push(String(mate), ...legal, new Position().play("e4"), position.fen(), position.epd());

  // What the declarations must refuse.
  // @ts-expect-error: tag values are strings
  const bad: number | undefined = games[0].headers.get("White");
  // @ts-expect-error: parsePgn takes a string or bytes
  parsePgn(42);
  // @ts-expect-error: the notation is one of four names
  games[0].toPgn({ notation: "long" });
  // @ts-expect-error: binaryError may say nothing (null)
  const message: string = binaryError("x", bytes);
  // @ts-expect-error: a move's color is "w" or "b"
  const other: "white" = games[0].moves()[0].color;
  out.push(String(bad), String(other), message);
  return out;
}
