//! Which rule a difference breaks: the game and its export are cut into the
//! same parts ([`Parts`]); the first difference of each part is looked at
//! with the tokens around it (tag lines in the tag section, movetext tokens
//! and the white space between them in the movetext) and named by a
//! [`Rule`].

use super::rule::Rule;
use super::tokens::{Kind, Parts, TagPair, Token, is_space, movetext_tokens, tag_pairs};

/// The roster tags, in their order.
const ROSTER: [&[u8]; 7] = [
    b"Event", b"Site", b"Date", b"Round", b"White", b"Black", b"Result",
];

/// The widest movetext line (SPEC-NOTES rule 3).
const WIDTH: usize = 79;

/// A deviation with its offset in the checked bytes (`lead` then the game).
#[derive(Debug)]
pub(super) struct Found {
    pub rule: Rule,
    pub at: usize,
    pub expected: String,
    pub found: String,
}

/// The deviations of one game (`game`, after `lead`, the bytes skipped
/// before it) from its export, one per rule, in order.
pub(super) fn deviations(lead: &[u8], game: &[u8], export: &[u8]) -> Vec<Found> {
    let mut all = Vec::new();
    let base = lead.len();
    if !lead.is_empty() {
        let rule = if lead.starts_with(b"\xEF\xBB\xBF") {
            Rule::Encoding
        } else {
            byte_rule(lead, 0).unwrap_or(Rule::GameEnd)
        };
        all.push(Found {
            rule,
            at: 0,
            expected: String::new(),
            found: show(lead),
        });
    }
    if game != export {
        if let Err(e) = std::str::from_utf8(game) {
            let at = e.valid_up_to();
            all.push(Found {
                rule: Rule::Encoding,
                at: base + at,
                expected: "UTF-8".into(),
                found: show(&game[at..(at + 1)]),
            });
        }
        let (f, e) = (Parts::of(game), Parts::of(export));
        let mut part = |rule: Option<Found>, offset: usize| {
            if let Some(mut d) = rule {
                d.at += base + offset;
                all.push(d);
            }
        };
        let tags = (&game[f.tags.clone()], &export[e.tags.clone()]);
        part(
            (tags.0 != tags.1).then(|| tag_rule(tags.0, tags.1)),
            f.tags.start,
        );
        if !f.tags.is_empty() {
            let gap = (&game[f.gap.clone()], &export[e.gap.clone()]);
            part(
                (gap.0 != gap.1).then(|| space_rule(gap.0, gap.1, Rule::TagSectionEnd)),
                f.gap.start,
            );
        }
        let movetext = (&game[f.movetext.clone()], &export[e.movetext.clone()]);
        part(
            (movetext.0 != movetext.1).then(|| movetext_rule(movetext.0, movetext.1)),
            f.movetext.start,
        );
        let end = (&game[f.end.clone()], &export[e.end.clone()]);
        part(
            (end.0 != end.1).then(|| space_rule(end.0, end.1, Rule::GameEnd)),
            f.end.start,
        );
        if all.len() == usize::from(!lead.is_empty()) {
            // Every part alike but not the whole: cannot happen, but say so rather than pass.
            let at = common_prefix(game, export);
            all.push(Found {
                rule: Rule::Other,
                at: base + at,
                expected: show(&export[at..]),
                found: show(&game[at..]),
            });
        }
    }
    all.sort_by_key(|d| d.at);
    let mut seen = Vec::new();
    all.retain(|d| {
        let new = !seen.contains(&d.rule);
        seen.push(d.rule);
        new
    });
    all
}

fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

/// Text for a message: the bytes as UTF-8 (Latin-1 when they are not).
fn show(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(text) => text.to_string(),
        Err(_) => bytes.iter().map(|&b| char::from(b)).collect(),
    }
}

/// The rule a single byte breaks wherever it stands: a CR, a TAB, or a byte
/// that does not start valid UTF-8.
fn byte_rule(text: &[u8], at: usize) -> Option<Rule> {
    match *text.get(at)? {
        b'\r' => Some(Rule::LineEnd),
        b'\t' => Some(Rule::Tab),
        b if b >= 0x80 => {
            let end = (at + 4).min(text.len());
            match std::str::from_utf8(&text[at..end]) {
                Err(e) if e.valid_up_to() == 0 && e.error_len().is_some() => Some(Rule::Encoding),
                _ => None,
            }
        }
        _ => None,
    }
}

/// White space that should be `expected` (the empty line after the tags, or
/// the one after the game): a CR, a TAB, a space at a line's edge, or else
/// `otherwise`.
fn space_rule(found: &[u8], expected: &[u8], otherwise: Rule) -> Found {
    let at = common_prefix(found, expected);
    let rule = byte_rule(found, at).unwrap_or(match found.get(at) {
        Some(b' ') => Rule::EdgeSpace,
        _ => otherwise,
    });
    Found {
        rule,
        at,
        expected: show(expected),
        found: show(found),
    }
}

/// The lines of `text` with their offsets, without their LF (a CR before
/// it stays, for messages to show; tag lines are read trimmed).
fn lines(text: &[u8]) -> Vec<(usize, &[u8])> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, &b) in text.iter().enumerate() {
        if b == b'\n' {
            out.push((start, &text[start..i]));
            start = i + 1;
        }
    }
    if start < text.len() {
        out.push((start, &text[start..]));
    }
    out
}

/// The first difference between two tag sections.
fn tag_rule(found: &[u8], expected: &[u8]) -> Found {
    let at = common_prefix(found, expected);
    let (f_lines, e_lines) = (lines(found), lines(expected));
    let k = found[..at].iter().filter(|&&b| b == b'\n').count();
    let f_line = f_lines.get(k).copied();
    let e_line = e_lines.get(k).copied();
    let found_text = f_line.map_or_else(|| "the end of the tags".into(), |(_, l)| show(l));
    let expected_text = e_line.map_or_else(|| "the end of the tags".into(), |(_, l)| show(l));
    let names: Vec<&[u8]> = f_lines
        .iter()
        .filter_map(|(_, l)| tag_pairs(l))
        .flatten()
        .map(|p| p.name)
        .collect();
    let missing_roster = |name: &[u8]| ROSTER.contains(&name) && !names.contains(&name);
    let edge = found.get(at) == Some(&b' ')
        && (at == 0
            || found[at - 1] == b'\n'
            || found[at..]
                .iter()
                .take_while(|&&b| b != b'\n')
                .all(|&b| b == b' ' || b == b'\r'));
    let rule = if let Some(rule) = byte_rule(found, at) {
        rule
    } else if edge {
        Rule::EdgeSpace
    } else {
        match (e_line, f_line) {
            (Some((_, e)), None) => {
                let name = e_name(e);
                if missing_roster(name) {
                    Rule::RosterDefault
                } else if name == b"FEN" {
                    Rule::FenTag
                } else {
                    Rule::TagOrder
                }
            }
            (_, Some((_, f))) if trim_is_empty(f) => Rule::TagSectionEnd,
            (None, Some(_)) => Rule::TagPair,
            (Some((_, e)), Some((_, f))) => match tag_pairs(f).as_deref() {
                Some([pair]) if names.iter().filter(|&&n| n == pair.name).count() > 1 => {
                    Rule::TagPair
                }
                Some([pair]) => pair_rule(e, pair, &missing_roster),
                _ => Rule::TagPair,
            },
            (None, None) => Rule::Other,
        }
    };
    Found {
        rule,
        at,
        expected: expected_text,
        found: found_text,
    }
}

fn trim_is_empty(line: &[u8]) -> bool {
    line.iter().all(|&b| is_space(b))
}

/// The name of an export tag line.
fn e_name(line: &[u8]) -> &[u8] {
    let line = line.strip_prefix(b"[").unwrap_or(line);
    let end = line.iter().position(|&b| b == b' ').unwrap_or(line.len());
    &line[..end]
}

/// Why a tag line `found` differs from the export's line `expected`.
fn pair_rule(expected: &[u8], found: &TagPair<'_>, missing_roster: &dyn Fn(&[u8]) -> bool) -> Rule {
    let Some(pairs) = tag_pairs(expected) else {
        return Rule::Other;
    };
    let [want] = pairs.as_slice() else {
        return Rule::Other;
    };
    if want.name != found.name {
        if missing_roster(want.name) {
            Rule::RosterDefault
        } else {
            Rule::TagOrder
        }
    } else if want.value != found.value {
        match want.name {
            b"Result" => Rule::ResultTag,
            b"FEN" => Rule::FenTag,
            _ => Rule::TagPair,
        }
    } else if want.raw != found.raw {
        Rule::TagEscape
    } else {
        Rule::TagPair
    }
}

fn text<'a>(bytes: &'a [u8], token: &Token) -> &'a [u8] {
    &bytes[token.start..token.end]
}

/// The first difference between two movetexts (each from its first token to
/// its last).
fn movetext_rule(found: &[u8], expected: &[u8]) -> Found {
    let (f, e) = (movetext_tokens(found), movetext_tokens(expected));
    for i in 0..f.len().max(e.len()) {
        let (ft, et) = (f.get(i), e.get(i));
        let same_token = match (ft, et) {
            (Some(a), Some(b)) => text(found, a) == text(expected, b),
            _ => false,
        };
        if let (Some(a), Some(b)) = (ft, et) {
            let (fs, es) = (&found[a.space..a.start], &expected[b.space..b.start]);
            if fs != es {
                let at = common_prefix(fs, es);
                if let Some(rule) = byte_rule(fs, at) {
                    return excerpt_pair(rule, a.space + at, (found, &f), (expected, &e), i);
                }
                if same_token {
                    let rule = gap_rule(found, &f, fs, es, i);
                    return excerpt_pair(rule, a.space + at, (found, &f), (expected, &e), i);
                }
            }
        }
        if !same_token {
            let at = match (ft, et) {
                (Some(a), Some(b)) => a.start + common_prefix(text(found, a), text(expected, b)),
                (Some(a), None) => a.start,
                (None, _) => found.len(),
            };
            let rule = token_rule(found, ft, expected, et);
            return Found {
                rule,
                at,
                expected: excerpt(expected, &e, i),
                found: excerpt(found, &f, i),
            };
        }
    }
    let at = common_prefix(found, expected);
    Found {
        rule: Rule::Other,
        at,
        expected: show(&expected[at..]),
        found: show(&found[at..]),
    }
}

/// Why the white space `fs` before token `i` should be `es`, the tokens
/// around it being the same.
fn gap_rule(found: &[u8], tokens: &[Token], fs: &[u8], es: &[u8], i: usize) -> Rule {
    let lines = |s: &[u8]| s.iter().filter(|&&b| b == b'\n').count();
    let (f_lines, e_lines) = (lines(fs), lines(es));
    if f_lines >= 2 {
        Rule::LineFill
    } else if f_lines == 1 && (e_lines == 1 || fs != b"\n") {
        // A space before or after the line break.
        Rule::EdgeSpace
    } else if f_lines == 1 {
        Rule::LineFill
    } else if e_lines == 1 {
        // The found line runs on where the export breaks it.
        let start = found[..tokens[i].start]
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |n| n + 1);
        let end = found[start..]
            .iter()
            .position(|&b| b == b'\n')
            .map_or(found.len(), |n| start + n);
        let width = String::from_utf8_lossy(&found[start..end]).chars().count();
        if width > WIDTH {
            Rule::LineLength
        } else {
            Rule::LineFill
        }
    } else if tokens[i].kind == Kind::Comment || (i > 0 && tokens[i - 1].kind == Kind::Comment) {
        Rule::Comment
    } else {
        Rule::TokenSpacing
    }
}

/// A white-space deviation shown as the tokens on both sides of it.
fn excerpt_pair(
    rule: Rule,
    at: usize,
    found: (&[u8], &[Token]),
    expected: (&[u8], &[Token]),
    i: usize,
) -> Found {
    let around = |(bytes, tokens): (&[u8], &[Token])| {
        let from = if i > 0 { tokens[i - 1].start } else { 0 };
        show(&bytes[from..tokens[i].end])
    };
    Found {
        rule,
        at,
        expected: around(expected),
        found: around(found),
    }
}

/// Token `i` as a message shows it: with the token after it when it is a
/// move number, `(` or `{`; "the end of the movetext" past the last.
fn excerpt(bytes: &[u8], tokens: &[Token], i: usize) -> String {
    let Some(t) = tokens.get(i) else {
        return "the end of the movetext".into();
    };
    let lead = matches!(t.kind, Kind::Number) || matches!(text(bytes, t), b"(" | b"{" | b";");
    let end = match tokens.get(i + 1) {
        Some(next) if lead => next.end,
        _ => t.end,
    };
    show(&bytes[t.start..end])
}

fn is_marker(text: &[u8]) -> bool {
    matches!(
        text,
        b"1-0" | b"0-1" | b"1/2-1/2" | b"*" | b"0:1" | b"1:0" | b"1/2:1/2"
    ) || text == "½-½".as_bytes()
        || text == "1–0".as_bytes()
        || text == "0–1".as_bytes()
}

fn is_nag(text: &[u8]) -> bool {
    text.first() == Some(&b'$')
        || (!text.is_empty() && text.iter().all(|b| matches!(b, b'!' | b'?')))
}

/// `e4!` against `e4`: a suffix glued to the move.
fn has_suffix(text: &[u8]) -> bool {
    text.len() > 1 && matches!(text.last(), Some(b'!' | b'?'))
}

fn is_null(text: &[u8]) -> bool {
    matches!(text, b"--" | b"Z0" | b"0000" | b"@@@@")
}

/// Why token `ft` of the game should be `et` of the export (either may be
/// past the end).
fn token_rule(found: &[u8], ft: Option<&Token>, expected: &[u8], et: Option<&Token>) -> Rule {
    let f = ft.map(|t| (t.kind, text(found, t)));
    let e = et.map(|t| (t.kind, text(expected, t)));
    let any = |test: &dyn Fn(Kind, &[u8]) -> bool| {
        f.is_some_and(|(k, t)| test(k, t)) || e.is_some_and(|(k, t)| test(k, t))
    };
    let black = |t: &[u8]| t.ends_with(b"..");
    if f.is_some_and(|(_, t)| std::str::from_utf8(t).is_err()) {
        Rule::Encoding
    } else if any(&|k, _| k == Kind::Escape) {
        Rule::EscapeLine
    } else if any(&|k, _| k == Kind::Number) {
        let is_black = match e {
            Some((Kind::Number, t)) => black(t),
            _ => f.is_some_and(|(_, t)| black(t)),
        };
        if is_black {
            Rule::BlackMoveNumber
        } else {
            Rule::WhiteMoveNumber
        }
    } else if any(&|k, t| k == Kind::Word && is_marker(t)) {
        Rule::Termination
    } else if any(&|k, _| k == Kind::Paren) {
        Rule::AnnotationOrder
    } else if any(&|k, t| k == Kind::Word && (is_nag(t) || has_suffix(t))) {
        Rule::Nag
    } else if any(&|k, _| k == Kind::Comment) {
        Rule::Comment
    } else if any(&|_, t| is_null(t)) {
        Rule::NullMove
    } else if f.is_some() && e.is_some() {
        Rule::San
    } else {
        Rule::Other
    }
}
