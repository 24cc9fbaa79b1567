//! The checker's view of PGN text: a game cut into its parts (tag section,
//! the white space after it, movetext, the game's end), tag lines read
//! leniently, and movetext cut into tokens with the white space before each.
//!
//! This is not the reader: it reads the bytes as they stand, wrong or not
//! (`1.e4`, `{text}`, `e4!`), so that a difference between them and the
//! export can be put on a token; the reader has already said the game reads.

/// White space in PGN text (SPEC-NOTES "Encoding").
pub(super) fn is_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

/// A game cut into its parts, each a range of its bytes.
pub(super) struct Parts {
    /// The tag lines, each with its line end (and any empty line among them).
    pub tags: std::ops::Range<usize>,
    /// The white space between the tags and the movetext.
    pub gap: std::ops::Range<usize>,
    /// From the first byte of the movetext to its last non-space byte.
    pub movetext: std::ops::Range<usize>,
    /// The white space after the movetext.
    pub end: std::ops::Range<usize>,
}

impl Parts {
    /// Cuts `game`: the tag section is its leading lines that start with `[`,
    /// with the empty lines between them.
    pub fn of(game: &[u8]) -> Parts {
        let mut tags_end = 0;
        let mut i = 0;
        while i < game.len() {
            let line_end = game[i..]
                .iter()
                .position(|&b| b == b'\n')
                .map_or(game.len(), |n| i + n + 1);
            let line = &game[i..line_end];
            let first = line.iter().position(|&b| !is_space(b));
            match first.map(|n| line[n]) {
                Some(b'[') => tags_end = line_end,
                Some(_) => break,
                None => {}
            }
            i = line_end;
        }
        let movetext_start = game[tags_end..]
            .iter()
            .position(|&b| !is_space(b))
            .map_or(game.len(), |n| tags_end + n);
        let movetext_end = game
            .iter()
            .rposition(|&b| !is_space(b))
            .map_or(movetext_start, |n| (n + 1).max(movetext_start));
        Parts {
            tags: 0..tags_end,
            gap: tags_end..movetext_start,
            movetext: movetext_start..movetext_end,
            end: movetext_end..game.len(),
        }
    }
}

/// A tag pair as written: its name, its value with the escapes of the
/// reader undone, and the value's bytes between the quotes.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct TagPair<'a> {
    pub name: &'a [u8],
    pub value: Vec<u8>,
    pub raw: &'a [u8],
}

/// The tag pairs of one line, read leniently (any white space around the
/// name and value); `None` when the line is not made of tag pairs.
pub(super) fn tag_pairs(line: &[u8]) -> Option<Vec<TagPair<'_>>> {
    let mut pairs = Vec::new();
    let mut rest = trim(line);
    while !rest.is_empty() {
        rest = trim(rest.strip_prefix(b"[")?);
        let name_len = rest
            .iter()
            .position(|&b| !(b.is_ascii_alphanumeric() || b == b'_'))
            .unwrap_or(rest.len());
        let (name, after) = rest.split_at(name_len);
        let after = trim(after).strip_prefix(b"\"")?;
        // The value runs to the last quote before the `]` that closes the pair.
        let close = after.iter().position(|&b| b == b']').and_then(|_| {
            let mut end = None;
            let mut escaped = false;
            for (n, &b) in after.iter().enumerate() {
                match b {
                    _ if escaped => escaped = false,
                    b'\\' => escaped = true,
                    b'"' if trim(&after[n + 1..]).starts_with(b"]") => {
                        end = Some(n);
                        break;
                    }
                    _ => {}
                }
            }
            end
        })?;
        let raw = &after[..close];
        if name.is_empty() {
            return None;
        }
        pairs.push(TagPair {
            name,
            value: unescape(raw),
            raw,
        });
        rest = trim(trim(&after[close + 1..]).strip_prefix(b"]")?);
    }
    (!pairs.is_empty()).then_some(pairs)
}

fn trim(mut bytes: &[u8]) -> &[u8] {
    while let [first, rest @ ..] = bytes
        && is_space(*first)
    {
        bytes = rest;
    }
    while let [rest @ .., last] = bytes
        && is_space(*last)
    {
        bytes = rest;
    }
    bytes
}

/// `\"` is a quote and `\\` a backslash; any other backslash is itself.
fn unescape(raw: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(raw.len());
    let mut i = 0;
    while i < raw.len() {
        if raw[i] == b'\\' && matches!(raw.get(i + 1), Some(b'"' | b'\\')) {
            i += 1;
        }
        out.push(raw[i]);
        i += 1;
    }
    out
}

/// What a movetext token is, as far as the checker needs to know.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    /// `{`, `}`, `;` or a word of a comment.
    Comment,
    /// `(` or `)`.
    Paren,
    /// A `%` escape line, whole.
    Escape,
    /// A move number indication, `12.`, `12...` or `12`.
    Number,
    /// Anything else: a move, a NAG, a suffix, a marker.
    Word,
}

/// A movetext token: its bytes `start..end` and the white space before it
/// starting at `space`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Token {
    pub space: usize,
    pub start: usize,
    pub end: usize,
    pub kind: Kind,
}

/// Cuts movetext into tokens. A move number glued to its move (`1.e4`) and
/// punctuation glued to a word (`e4{`, `e5)`) are cut apart, with no white
/// space between them.
pub(super) fn movetext_tokens(text: &[u8]) -> Vec<Token> {
    let mut tokens = Vec::new();
    let (mut brace, mut rest_of_line) = (false, false);
    let mut i = 0;
    let mut line_start = true;
    while i < text.len() {
        let space = i;
        while i < text.len() && is_space(text[i]) {
            if text[i] == b'\n' || text[i] == b'\r' {
                rest_of_line = false;
                line_start = true;
            }
            i += 1;
        }
        if i == text.len() {
            break;
        }
        let at_line_start = line_start || i == 0;
        line_start = false;
        let start = i;
        let word_end = |from: usize, stops: &[u8]| {
            text[from..]
                .iter()
                .position(|&b| is_space(b) || stops.contains(&b))
                .map_or(text.len(), |n| from + n)
        };
        let (end, kind) = if brace {
            if text[i] == b'}' {
                brace = false;
                (i + 1, Kind::Comment)
            } else {
                (word_end(i, b"}"), Kind::Comment)
            }
        } else if rest_of_line {
            (word_end(i, b""), Kind::Comment)
        } else {
            match text[i] {
                b'{' => {
                    brace = true;
                    (i + 1, Kind::Comment)
                }
                b';' => {
                    rest_of_line = true;
                    (i + 1, Kind::Comment)
                }
                b'(' | b')' => (i + 1, Kind::Paren),
                b'%' if at_line_start => {
                    let end = text[i..]
                        .iter()
                        .position(|&b| b == b'\n' || b == b'\r')
                        .map_or(text.len(), |n| i + n);
                    (end, Kind::Escape)
                }
                _ => {
                    let end = word_end(i, b"{}();");
                    let digits = text[i..end]
                        .iter()
                        .take_while(|b| b.is_ascii_digit())
                        .count();
                    let dots = text[i + digits..end]
                        .iter()
                        .take_while(|&&b| b == b'.')
                        .count();
                    if digits > 0 && dots > 0 {
                        (i + digits + dots, Kind::Number)
                    } else if digits == end - i && text[i] != b'0' {
                        (end, Kind::Number)
                    } else {
                        (end, Kind::Word)
                    }
                }
            }
        };
        tokens.push(Token {
            space,
            start,
            end,
            kind,
        });
        i = end;
    }
    tokens
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts<'a>(text: &'a [u8], tokens: &[Token]) -> Vec<&'a str> {
        tokens
            .iter()
            .map(|t| std::str::from_utf8(&text[t.start..t.end]).unwrap())
            .collect()
    }

    #[test]
    fn movetext_is_cut_into_tokens() {
        let text = b"1.e4 {a  b}(1. d4) e5! ; x }\n%esc\n2... Nf3 $1 1-0";
        let tokens = movetext_tokens(text);
        assert_eq!(
            texts(text, &tokens),
            [
                "1.", "e4", "{", "a", "b", "}", "(", "1.", "d4", ")", "e5!", ";", "x", "}", "%esc",
                "2...", "Nf3", "$1", "1-0"
            ]
        );
        assert_eq!(tokens[1].space, tokens[1].start);
        assert_eq!(tokens[13].kind, Kind::Comment);
        assert_eq!(tokens[14].kind, Kind::Escape);
    }

    #[test]
    fn tag_lines_are_read_leniently() {
        let pairs = tag_pairs(b"[White  \"a \\\"b\\\" \\c\" ] [Black\"\"]").unwrap();
        assert_eq!(pairs.len(), 2);
        assert_eq!(pairs[0].name, b"White");
        assert_eq!(pairs[0].value, b"a \"b\" \\c");
        assert_eq!(pairs[1].raw, b"");
        let odd = tag_pairs(b"[White \"\"Mephisto\"\"]").unwrap();
        assert_eq!(odd[0].value, b"\"Mephisto\"");
        assert!(tag_pairs(b"1. e4").is_none());
    }

    #[test]
    fn a_game_is_cut_into_parts() {
        let game = b"[A \"1\"]\r\n\r\n[B \"2\"]\n\n1. e4 *\n\n";
        let parts = Parts::of(game);
        assert_eq!(&game[parts.tags.clone()], b"[A \"1\"]\r\n\r\n[B \"2\"]\n");
        assert_eq!(&game[parts.gap.clone()], b"\n");
        assert_eq!(&game[parts.movetext.clone()], b"1. e4 *");
        assert_eq!(&game[parts.end.clone()], b"\n\n");
    }
}
