//! Property tests of the layout: every path (clock, short, plain, long and
//! general comments, moves, numbers, NAGs, variations) against a plain
//! reference layout written from the rules.

use super::comment::word_end;
use super::*;
use proptest::prelude::*;

/// One movetext item for the layout.
#[derive(Debug, Clone)]
enum Item {
    Move(String),
    Number(u32, bool),
    /// A SAN move of at most 8 bytes written with
    /// [`Layout::ascii_move`], after its number if there is one.
    NumberedMove(Option<(u32, bool)>, String),
    Nag(u8),
    Comment(String),
    Open,
    Close,
}

fn item() -> impl Strategy<Value = Item> {
    prop_oneof![
        "[a-hNBRQKx1-8=+#-]{1,9}".prop_map(Item::Move),
        (1u32..300, any::<bool>()).prop_map(|(n, b)| Item::Number(n, b)),
        any::<u8>().prop_map(Item::Nag),
        // Words of any characters (braces and `;` included), spaces,
        // tabs and line ends between them, sometimes over-long.
        "([ \t\r\n]{0,3}[^ \t\r\n\x0b\x0c]{0,12}){0,8}( x{70,90})?".prop_map(Item::Comment),
        Just(Item::Open),
        Just(Item::Close),
    ]
}

/// Items as [`item`], plus moves written with their numbers and
/// plain comments (printable ASCII words, single spaces: the
/// layout's fast path), some longer than that path takes.
fn item_or_plain() -> impl Strategy<Value = Item> {
    let number = prop::option::of((1u32..300, any::<bool>()));
    prop_oneof![
        item(),
        (number, "[a-hNBRQKx1-8=+#-]{1,8}").prop_map(|(n, m)| Item::NumberedMove(n, m)),
        "[!-|]{1,9}( [!-|]{1,9}){0,9}".prop_map(Item::Comment),
        // Short texts, a space or two at either end (the clock
        // comment shape, `{ [%clk 0:03:00] }`).
        " {0,2}[!-|]{1,9}( [!-|]{1,8})? {0,2}".prop_map(Item::Comment),
        // Clock commands, some too short or too long for their path.
        " {0,2}\\[%clk [0-9%\\[][!-|]{5,17}( [!-|]{1,3})? {0,2}".prop_map(Item::Comment),
    ]
}

/// Items as [`item_or_plain`], plus long comments (annotations) of
/// up to a few hundred bytes: words, some starting with `[` or `%`,
/// mostly single spaces, now and then two spaces, a line feed or a
/// `}` (which the long plain path must leave to the general one).
fn item_or_long() -> impl Strategy<Value = Item> {
    prop_oneof![
        item_or_plain(),
        " ?[!-|]{1,9}( [!-|\\[%]{1,9}){6,40} ?".prop_map(Item::Comment),
        "[!-|]{1,12}(( |  | \n|\t)[!-~]{1,12}){5,30}".prop_map(Item::Comment),
    ]
}

/// A plain two-phase reference: tokens to units, then units to
/// lines, written straight from the rules.
fn reference(items: &[Item], width: usize) -> String {
    // (text, join to previous); `None` is a forced line end.
    let mut tokens: Vec<Option<(String, Join, bool)>> = Vec::new();
    for item in items {
        match item {
            Item::Move(m) => tokens.push(Some((m.clone(), Join::Free, false))),
            Item::Number(n, b) => {
                let dots = if *b { "..." } else { "." };
                tokens.push(Some((format!("{n}{dots}"), Join::Free, false)));
            }
            Item::NumberedMove(number, m) => {
                if let Some((n, b)) = number {
                    let dots = if *b { "..." } else { "." };
                    tokens.push(Some((format!("{n}{dots}"), Join::Free, false)));
                }
                tokens.push(Some((m.clone(), Join::Free, false)));
            }
            Item::Nag(n) => tokens.push(Some((format!("${n}"), Join::Free, false))),
            Item::Open => tokens.push(Some(("(".into(), Join::Free, true))),
            Item::Close => tokens.push(Some((")".into(), Join::Tight, false))),
            Item::Comment(c) => {
                let words: Vec<&str> = c
                    .split(|ch: char| ch.is_ascii() && is_comment_space(ch as u8))
                    .filter(|w| !w.is_empty())
                    .collect();
                if words.is_empty() {
                    continue;
                }
                if c.contains('}') {
                    tokens.push(Some((";".into(), Join::Free, false)));
                    for w in words {
                        tokens.push(Some((w.into(), Join::Space, false)));
                    }
                    tokens.push(None);
                } else {
                    tokens.push(Some(("{".into(), Join::Free, false)));
                    for (k, w) in words.iter().enumerate() {
                        let glued = k == 0 || w.starts_with('[') || w.starts_with('%');
                        let join = if glued { Join::Space } else { Join::Free };
                        tokens.push(Some(((*w).into(), join, false)));
                    }
                    tokens.push(Some(("}".into(), Join::Space, false)));
                }
            }
        }
    }
    // Units, each with a flag: a line must end after it.
    let mut units: Vec<(String, bool)> = Vec::new();
    let mut after_open = false;
    let mut after_break = false;
    for token in &tokens {
        let Some((text, join, opens)) = token else {
            if let Some(u) = units.last_mut() {
                u.1 = true;
            }
            after_break = true;
            continue;
        };
        let join = if after_open && !after_break {
            Join::Tight
        } else {
            *join
        };
        match (join, units.last_mut()) {
            (Join::Space, Some(u)) if !after_break => {
                u.0.push(' ');
                u.0.push_str(text);
            }
            (Join::Tight, Some(u)) if !after_break => u.0.push_str(text),
            _ => units.push((text.clone(), false)),
        }
        after_open = *opens;
        after_break = false;
    }
    let mut out = String::new();
    let mut line = 0;
    for (unit, ends) in units {
        let n = unit.chars().count();
        if line == 0 {
            line = n;
        } else if line + 1 + n <= width {
            out.push(' ');
            line += 1 + n;
        } else {
            out.push('\n');
            line = n;
        }
        out.push_str(&unit);
        if ends {
            out.push('\n');
            line = 0;
        }
    }
    if line > 0 {
        out.push('\n');
    }
    out
}

/// Lays `items` out at `width` and checks the text against the
/// reference and the line invariants.
fn check_layout(items: &[Item], width: usize) -> Result<(), TestCaseError> {
    let mut l = Layout::new(width);
    for item in items {
        match item {
            Item::Move(m) => l.mov(m.as_bytes()),
            Item::Number(n, b) => l.move_number(*n, *b),
            Item::NumberedMove(number, m) => {
                let mut buf = [0u8; 8];
                for (d, s) in buf.iter_mut().zip(m.bytes()) {
                    *d = s;
                }
                l.ascii_move(*number, &buf, m.len());
            }
            Item::Nag(n) => l.nag(*n),
            Item::Comment(c) => {
                let written = l.comment(c.as_bytes());
                prop_assert_eq!(written, c.bytes().any(|b| !is_comment_space(b)));
            }
            Item::Open => l.open_variation(),
            Item::Close => l.close_variation(),
        }
    }
    l.finish();
    let text = std::str::from_utf8(l.output()).expect("UTF-8 in, UTF-8 out");
    prop_assert_eq!(text, reference(items, width));
    for line in text.lines() {
        prop_assert!(!line.is_empty());
        prop_assert!(!line.starts_with(' ') && !line.ends_with(' '), "{:?}", line);
        prop_assert!(
            !line.starts_with('[') && !line.starts_with('%'),
            "{:?}",
            line
        );
    }
    Ok(())
}

proptest! {
    #[test]
    fn layout_matches_the_reference(items in prop::collection::vec(item(), 0..60), width in 10usize..100) {
        check_layout(&items, width)?;
    }

    #[test]
    fn fast_paths_match_the_reference(items in prop::collection::vec(item_or_plain(), 0..60), width in 10usize..100) {
        check_layout(&items, width)?;
    }

    #[test]
    fn long_comments_match_the_reference(items in prop::collection::vec(item_or_long(), 0..30), width in 10usize..100) {
        check_layout(&items, width)?;
    }

    #[test]
    fn long_plain_spaces_finds_exactly_the_plain_texts(text in "[!-|]([ -|]{0,3}[ -~\té]){20,60}[!-|]") {
        let bytes = text.as_bytes();
        let plain = !text.contains("  ") && bytes.iter().all(|&b| (b' '..=b'|').contains(&b));
        prop_assert_eq!(long_plain_spaces(bytes).is_some(), plain);
    }

    #[test]
    fn plain_spaces_finds_exactly_the_plain_texts(text in "[ -~\t\né}]{1,70}") {
        let bytes = text.as_bytes();
        let plain = bytes.len() <= 64
            && bytes.first() != Some(&b' ')
            && bytes.last() != Some(&b' ')
            && !text.contains("  ")
            && bytes.iter().all(|&b| (b' '..=b'|').contains(&b));
        let spaces = bytes
            .iter()
            .take(64)
            .enumerate()
            .filter(|(_, b)| **b == b' ')
            .fold(0u64, |bits, (i, _)| bits | 1 << i);
        // A text given to it starts with a word.
        if bytes.first() != Some(&b' ') {
            prop_assert_eq!(plain_spaces(bytes), plain.then_some(spaces));
        }
    }

    #[test]
    fn word_end_stops_at_the_first_white_space(text in "[ -~\t\n\r\x00-\x1fé]{0,40}", from in 0usize..40) {
        let bytes = text.as_bytes();
        let from = from.min(bytes.len());
        let expected = bytes[from..]
            .iter()
            .position(|&b| is_comment_space(b))
            .map_or(bytes.len(), |i| from + i);
        prop_assert_eq!(word_end(bytes, from), expected);
    }
}
