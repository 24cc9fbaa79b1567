// The board of the page (web/index.html): the selected game's main line drawn as inline SVG
// (squares as rectangles, pieces as Unicode chess glyphs; nothing is downloaded), stepped
// through with ←/→, Home/End, the buttons, or a click on a move. The positions are the
// package's: the game's `startFen` and each move's `fen` (`moves()`); this file only draws
// the piece placement of a FEN, it plays nothing. The FEN shown is the board's `data-fen`.

const SVG = "http://www.w3.org/2000/svg";
/** Side of a square in the SVG's units. */
const SQUARE = 45;
/** The glyph of each FEN piece letter (the solid set, filled white or black). */
const GLYPHS = { k: "♚", q: "♛", r: "♜", b: "♝", n: "♞", p: "♟" };
const NAMES = { k: "king", q: "queen", r: "rook", b: "bishop", n: "knight", p: "pawn" };

/** An SVG element with attributes. */
function svg(tag, attributes = {}) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  return node;
}

/** The board in `root` (the #board section: a heading, an SVG, buttons, the move shown). */
export class Board {
  constructor(root) {
    this.root = root;
    this.line = null;
    this.ply = 0;
    this.title = root.querySelector("h2");
    this.caption = root.querySelector(".position");
    this.drawing = svg("svg", { viewBox: `0 0 ${8 * SQUARE} ${8 * SQUARE}`, role: "img", class: "squares" });
    root.querySelector(".frame").append(this.drawing);
    for (const [name, step] of [["first", () => 0], ["back", () => this.ply - 1], ["forward", () => this.ply + 1], ["last", () => Infinity]]) {
      root.querySelector(`button.${name}`).addEventListener("click", () => this.go(step()));
    }
    document.addEventListener("keydown", (event) => this.key(event));
  }

  /** Shows the main line `line` (`{ title, startFen, moves }`) of game `number` at `ply`. */
  show(number, line, ply = 0) {
    this.line = line;
    this.root.hidden = false;
    this.root.dataset.game = number;
    this.title.textContent = line.title;
    this.go(ply);
  }

  /** No game on the board. */
  clear() {
    this.line = null;
    this.root.hidden = true;
    delete this.root.dataset.game;
    delete this.root.dataset.fen;
  }

  /** Goes to `ply` (0: the start; clamped to the line). */
  go(ply) {
    if (!this.line) return;
    const { moves } = this.line;
    this.ply = Math.max(0, Math.min(moves.length, ply));
    const fen = this.ply === 0 ? this.line.startFen : moves[this.ply - 1].fen;
    this.root.dataset.fen = fen;
    this.root.dataset.ply = this.ply;
    this.draw(fen);
    const move = moves[this.ply - 1];
    this.caption.textContent = move
      ? `After ${move.moveNumber}${move.color === "w" ? "." : "…"} ${move.san} (${this.ply} of ${moves.length})`
      : `Start (${moves.length} moves in the main line)`;
    for (const span of document.querySelectorAll(".moves .san.current")) span.classList.remove("current");
    document.querySelector(`#games article[data-game="${this.root.dataset.game}"] .moves > .san[data-ply="${this.ply}"]`)?.classList.add("current");
  }

  /** ←/→, Home/End step through the line, unless a text field has the keys. */
  key(event) {
    if (!this.line || event.altKey || event.ctrlKey || event.metaKey) return;
    if (event.target.closest?.("input, textarea, select")) return;
    const steps = { ArrowLeft: this.ply - 1, ArrowRight: this.ply + 1, Home: 0, End: Infinity };
    if (!(event.key in steps)) return;
    event.preventDefault();
    this.go(steps[event.key]);
  }

  /** Draws the piece placement of `fen` (its first field). */
  draw(fen) {
    const squares = [];
    const label = [];
    const ranks = fen.split(" ")[0].split("/");
    for (let rank = 0; rank < 8; rank++) {
      for (let file = 0; file < 8; file++) {
        squares.push(svg("rect", { x: file * SQUARE, y: rank * SQUARE, width: SQUARE, height: SQUARE, class: (rank + file) % 2 ? "dark" : "light" }));
      }
      let file = 0;
      for (const c of ranks[rank] ?? "") {
        if (c >= "1" && c <= "8") {
          file += Number(c);
          continue;
        }
        const kind = c.toLowerCase();
        if (!(kind in GLYPHS)) continue;
        const white = c !== kind;
        const piece = svg("text", { x: file * SQUARE + SQUARE / 2, y: rank * SQUARE + SQUARE / 2, class: white ? "piece white" : "piece black" });
        piece.textContent = GLYPHS[kind];
        squares.push(piece);
        label.push(`${white ? "white" : "black"} ${NAMES[kind]} ${"abcdefgh"[file]}${8 - rank}`);
        file++;
      }
    }
    this.drawing.replaceChildren(...squares);
    this.drawing.setAttribute("aria-label", label.join(", "));
  }
}
