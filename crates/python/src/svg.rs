//! Drawing a position: as text (`str(board)`, python-chess's layout) and as
//! an SVG picture (`board._repr_svg_()`, which Jupyter shows).

use std::fmt::Write;

use pgnkit::chess::{File, Move, Position, Rank, Square};

/// The board as eight lines of eight characters, rank 8 first: piece
/// letters (upper case white) and `.` for empty squares, spaced as python-chess does.
pub fn ascii(position: &Position) -> String {
    let board = position.board();
    let mut out = String::new();
    for rank in (0..8).rev() {
        for file in 0..8 {
            let square = Square::from_coords(File::new(file), Rank::new(rank));
            let ch = board.piece_at(square).map_or('.', |p| p.char());
            if file > 0 {
                out.push(' ');
            }
            out.push(ch);
        }
        if rank > 0 {
            out.push('\n');
        }
    }
    out
}

/// Side of one square in the picture.
const SQUARE: u32 = 45;
const MARGIN: u32 = 20;

/// The board as an SVG picture: light and dark squares, the last move's
/// squares tinted, pieces as Unicode chess glyphs, coordinates at the edge.
pub fn board(position: &Position, last: Option<Move>) -> String {
    let size = SQUARE * 8 + MARGIN * 2;
    let mut svg = String::new();
    let _ = write!(
        svg,
        r##"<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size}" width="{size}" height="{size}"><rect width="{size}" height="{size}" fill="#212121"/>"##
    );
    let highlighted: Vec<Square> = last
        .map(|m| [m.from(), m.to()].into_iter().flatten().collect())
        .unwrap_or_default();
    let board = position.board();
    for rank in 0..8u32 {
        for file in 0..8u32 {
            let square = Square::from_coords(File::new(file), Rank::new(rank));
            let x = MARGIN + file * SQUARE;
            let y = MARGIN + (7 - rank) * SQUARE;
            let light = (file + rank) % 2 == 1;
            let fill = match (light, highlighted.contains(&square)) {
                (true, false) => "#ffce9e",
                (false, false) => "#d18b47",
                (true, true) => "#cdd16a",
                (false, true) => "#aaa23b",
            };
            let _ = write!(
                svg,
                r#"<rect x="{x}" y="{y}" width="{SQUARE}" height="{SQUARE}" fill="{fill}"/>"#
            );
            if let Some(piece) = board.piece_at(square) {
                let glyph = glyph(piece.char());
                let _ = write!(
                    svg,
                    r#"<text x="{}" y="{}" font-size="38" text-anchor="middle" dominant-baseline="central" fill="{}" stroke="{}" stroke-width="0.8">{glyph}</text>"#,
                    x + SQUARE / 2,
                    y + SQUARE / 2 + 2,
                    if piece.char().is_ascii_uppercase() {
                        "#ffffff"
                    } else {
                        "#000000"
                    },
                    if piece.char().is_ascii_uppercase() {
                        "#000000"
                    } else {
                        "#ffffff"
                    },
                );
            }
        }
    }
    for i in 0..8u32 {
        let file = (b'a' + i as u8) as char;
        let rank = (b'1' + i as u8) as char;
        let cx = MARGIN + i * SQUARE + SQUARE / 2;
        let cy = MARGIN + (7 - i) * SQUARE + SQUARE / 2;
        let _ = write!(
            svg,
            r##"<text x="{cx}" y="{}" font-size="14" text-anchor="middle" fill="#e5e5e5">{file}</text><text x="{}" y="{cy}" font-size="14" text-anchor="middle" dominant-baseline="central" fill="#e5e5e5">{rank}</text>"##,
            size - 5,
            MARGIN / 2,
        );
    }
    svg.push_str("</svg>");
    svg
}

/// The solid Unicode glyph of a piece letter (filled and stroked by colour).
fn glyph(letter: char) -> char {
    match letter.to_ascii_lowercase() {
        'k' => '\u{265A}',
        'q' => '\u{265B}',
        'r' => '\u{265C}',
        'b' => '\u{265D}',
        'n' => '\u{265E}',
        _ => '\u{265F}',
    }
}
