//! What `select`, `dedupe` and `classify` need around the streaming writer
//! when a game needs no tree: [`set_tag`], which puts the classified `ECO`
//! and `Opening` into a game's export text after it was written, so a game
//! is read once (its opening is known only after its moves were read, and
//! the writer writes the tag section before the first move).

/// Sets the tag `name` to `value` in `text[from..]`, one game's export text (the
/// Seven Tag Roster, then the other tags in byte order of their names, one
/// per line, then an empty line): the line of `name` gets `value` in place
/// of its own, or a line is inserted where the writer puts it. The line is
/// formatted as the writer formats it (`\` and `"` escaped, TAB, LF and CR
/// written as spaces), so the text is the one the writer would have written
/// had the game held that tag. `name` must not be a roster tag or `FEN`.
pub fn set_tag(text: &mut Vec<u8>, from: usize, name: &str, value: &str) {
    let mut line = Vec::with_capacity(name.len() + value.len() + 6);
    line.push(b'[');
    line.extend_from_slice(name.as_bytes());
    line.extend_from_slice(b" \"");
    for &b in value.as_bytes() {
        match b {
            b'\\' => line.extend_from_slice(b"\\\\"),
            b'"' => line.extend_from_slice(b"\\\""),
            b'\t' | b'\n' | b'\r' => line.push(b' '),
            _ => line.push(b),
        }
    }
    line.extend_from_slice(b"\"]\n");
    let (at, old) = place(text, from, name.as_bytes());
    replace(text, at..at + old, &line);
}

/// Where the line of tag `name` is in the tag section starting at `from`
/// (its start and length), or where it goes (length 0).
fn place(text: &[u8], from: usize, name: &[u8]) -> (usize, usize) {
    let mut at = from;
    let mut index = 0;
    while let Some(len) = text
        .get(at..)
        .and_then(|rest| rest.iter().position(|&b| b == b'\n'))
    {
        let current = &text[at..at + len + 1];
        if current.first() != Some(&b'[') {
            break; // the empty line ending the section
        }
        // The roster's seven lines come first, whatever their names.
        if index >= 7 {
            let end = current
                .iter()
                .position(|&b| b == b' ')
                .unwrap_or(current.len());
            let found = &current[1..end];
            if found == name {
                return (at, len + 1);
            }
            if found > name {
                break;
            }
        }
        at += len + 1;
        index += 1;
    }
    (at, 0)
}

/// Replaces `range` of `text` with `new`, moving the bytes after it once.
fn replace(text: &mut Vec<u8>, range: std::ops::Range<usize>, new: &[u8]) {
    let (start, end, len) = (range.start, range.end, text.len());
    if new.len() > end - start {
        let grow = new.len() - (end - start);
        text.resize(len + grow, 0);
        text.copy_within(end..len, end + grow);
    } else {
        let shrink = (end - start) - new.len();
        text.copy_within(end..len, end - shrink);
        text.truncate(len - shrink);
    }
    text[start..start + new.len()].copy_from_slice(new);
}

#[cfg(test)]
mod tests {
    use pgnkit::export::{ExportOptions, GameWriter};

    use super::*;

    /// `pgn`'s one game written by the tree writer.
    fn written(pgn: &str) -> Vec<u8> {
        let game: pgnkit::Game = pgn.parse().expect("a game");
        let mut out = Vec::new();
        GameWriter::new(ExportOptions::export())
            .write(&game, &mut out)
            .expect("a Vec");
        out
    }

    #[test]
    fn set_tag_writes_what_the_writer_writes() {
        let cases = [
            // No other tags; tags before and after; the tag there already.
            "1. e4 *",
            "[Annotator \"x\"]\n[WhiteElo \"1\"]\n1. e4 *",
            "[ECO \"A00\"]\n[Opening \"Old \\\"name\\\"\"]\n[PlyCount \"1\"]\n1. e4 *",
            "[Black \"B\"]\n[EC \"a\"]\n[ECOX \"b\"]\n[Opening2 \"c\"]\n[Openin \"d\"]\n1. e4 *",
            "[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]\n[SetUp \"1\"]\n1. e4 *",
        ];
        for pgn in cases {
            let mut text = written(pgn);
            text.splice(0..0, b"before".iter().copied());
            set_tag(&mut text, 6, "ECO", "B00");
            set_tag(&mut text, 6, "Opening", "King's Pawn \"Game\"\\ \t");
            let mut game: pgnkit::Game = pgn.parse().expect("a game");
            game.tags_mut().insert("ECO", "B00");
            game.tags_mut()
                .insert("Opening", "King's Pawn \"Game\"\\ \t");
            let mut want = b"before".to_vec();
            GameWriter::new(ExportOptions::export())
                .write(&game, &mut want)
                .expect("a Vec");
            assert_eq!(
                String::from_utf8_lossy(&text),
                String::from_utf8_lossy(&want),
                "{pgn}"
            );
        }
    }
}
