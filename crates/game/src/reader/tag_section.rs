//! The tag section: each tag pair checked and sent to the visitor, the
//! tags the reader itself needs (`FEN`, `SetUp`, `Variant`, `Result`),
//! duplicate names found, and the starting position those tags give.

use std::borrow::Cow;

use pgnkit_chess::{Bitboard, CastlingMode, Color, Position, Rank, Setup};
use pgnkit_lexer::{GameToken, LexErrorKind, Span, TokenKind};
use smallvec::SmallVec;

use super::state::{GameReader, describe};
use super::tokens::Tokens;
use crate::error::DiagnosticKind;
use crate::variant::{VariantKind, castling_needs_chess960};
use crate::visitor::Visitor;

/// The tags the reader itself needs.
#[derive(Default)]
pub(super) struct SpecialTags<'a> {
    pub(super) fen: Option<(Cow<'a, [u8]>, Span)>,
    pub(super) setup: Option<(Cow<'a, [u8]>, Span)>,
    pub(super) variant: Option<(Cow<'a, [u8]>, Span)>,
    pub(super) result: Option<Cow<'a, [u8]>>,
}

impl<'a> GameReader<'a> {
    /// Reads one tag pair after its `[`. Returns `false` on a malformed
    /// tag section (the game is broken and its movetext skipped).
    pub(super) fn read_tag<V: Visitor>(
        &mut self,
        lexer: &mut Tokens<'_>,
        open: GameToken,
        names: &mut TagNames<'a>,
        special: &mut SpecialTags<'a>,
        visitor: &mut V,
    ) -> bool {
        let name = match lexer.next().map(|t| self.token(t)) {
            Some(t)
                if matches!(t.kind, TokenKind::Symbol | TokenKind::Integer)
                    && is_tag_name(t.text) =>
            {
                t
            }
            other => {
                let span = other.map_or(open.span, |t| t.span);
                let what = other.map_or_else(|| "end of input".to_owned(), |t| describe(&t));
                self.diag(
                    DiagnosticKind::MalformedTag(format!("expected a tag name, found {what}")),
                    span,
                );
                return false;
            }
        };
        // The value's text is sliced only where it is wanted (see below).
        let value = match lexer.next() {
            Some(t) if t.kind == TokenKind::String => t,
            Some(t) if t.kind == TokenKind::Error(LexErrorKind::UnterminatedString) => {
                if self.options.fix_tag_strings
                    && let Some(read) =
                        self.repaired_tag(name.text, open, t, names, special, visitor)
                {
                    return read;
                }
                // Reading continues with the next line, still in the tags.
                self.diag(DiagnosticKind::UnterminatedString, t.span);
                return true;
            }
            other => {
                let other = other.map(|t| self.token(t));
                let span = other.map_or(name.span, |t| t.span);
                let what = other.map_or_else(|| "end of input".to_owned(), |t| describe(&t));
                self.diag(
                    DiagnosticKind::MalformedTag(format!("expected a tag value, found {what}")),
                    span,
                );
                return false;
            }
        };
        match lexer.next() {
            Some(t) if t.kind == TokenKind::TagClose => {}
            other => {
                let other = other.map(|t| self.token(t));
                let span = other.map_or(value.span, |t| t.span);
                let what = other.map_or_else(|| "end of input".to_owned(), |t| describe(&t));
                self.diag(
                    DiagnosticKind::MalformedTag(format!("expected `]`, found {what}")),
                    span,
                );
                return false;
            }
        }
        if lexer.unescaped_quote_at(value.span.start) {
            let name = String::from_utf8_lossy(name.text).into_owned();
            self.diag(DiagnosticKind::UnescapedQuote(name), value.span);
        }
        self.accept_tag(
            name.text,
            open,
            value.span,
            |reader| reader.token(value).string_value().unwrap_or_default(),
            names,
            special,
            visitor,
        )
    }

    /// A tag pair of the usual shape (`[`, a symbol, a string, `]`) with no lexer warning in
    /// its game, from [`Tokens::read_plain_tags`]: read as [`read_tag`](GameReader::read_tag)
    /// reads it (no unescaped quote nor TAB can be in it). `false` when the symbol is no tag
    /// name: then nothing is done, and `read_tag` reports it.
    #[inline(always)]
    pub(super) fn read_plain_tag<V: Visitor>(
        &mut self,
        open: &GameToken,
        name: &GameToken,
        value: &GameToken,
        names: &mut TagNames<'a>,
        special: &mut SpecialTags<'a>,
        visitor: &mut V,
    ) -> bool {
        // The lexer's spans always lie in the game's bytes: the name is sliced with one test
        // and a branch, not `Span::slice`'s selects (a span outside them goes to `read_tag`).
        let Some(name_text) = self.game.bytes.get(name.span.start..name.span.end) else {
            return false;
        };
        is_tag_name(name_text)
            && self.accept_tag(
                name_text,
                *open,
                value.span,
                |reader| reader.token(*value).string_value().unwrap_or_default(),
                names,
                special,
                visitor,
            )
    }

    /// A tag pair read: its name checked against those seen (a duplicate is
    /// dropped with a warning), its value (`value`, sliced only where it is
    /// wanted) kept when the reader needs it and sent to the visitor.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn accept_tag<V: Visitor>(
        &mut self,
        name_text: &'a [u8],
        open: GameToken,
        value_span: Span,
        value: impl FnOnce(&Self) -> Cow<'a, [u8]>,
        names: &mut TagNames<'a>,
        special: &mut SpecialTags<'a>,
        visitor: &mut V,
    ) -> bool {
        let Some(bit) = names.insert(name_text) else {
            self.diag(
                DiagnosticKind::DuplicateTag(String::from_utf8_lossy(name_text).into_owned()),
                open.span,
            );
            return true;
        };
        // Most names share no hash bit with the reader's own: their bytes are not compared.
        let special_name = bit & SPECIAL_BITS != 0
            && matches!(name_text, b"FEN" | b"SetUp" | b"Variant" | b"Result");
        // Without texts, or a tag the visitor does not want, only the
        // reader's own tags are unescaped.
        let wanted = V::TEXT && visitor.wants_tag(name_text);
        if !wanted && !special_name {
            return true;
        }
        let unescaped = value(self);
        match name_text {
            b"FEN" => special.fen = Some((unescaped.clone(), value_span)),
            b"SetUp" => special.setup = Some((unescaped.clone(), value_span)),
            b"Variant" => special.variant = Some((unescaped.clone(), value_span)),
            b"Result" => special.result = Some(unescaped.clone()),
            _ => {}
        }
        if wanted {
            visitor.tag(name_text, &unescaped);
        }
        true
    }

    /// A tag value without its closing quote (the lexer's unterminated
    /// string `value`, which runs to its line's end) repaired with
    /// [`ReadOptions::fix_tag_strings`](crate::ReadOptions): when the line,
    /// white space at its end aside, ends with `]`, the value is the text
    /// between the quote and that last `]` (escapes read as usual), and the
    /// tag pair is read with a warning; otherwise `false` (the error stays).
    #[cold]
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    fn repaired_tag<V: Visitor>(
        &mut self,
        name_text: &'a [u8],
        open: GameToken,
        value: GameToken,
        names: &mut TagNames<'a>,
        special: &mut SpecialTags<'a>,
        visitor: &mut V,
    ) -> Option<bool> {
        let text = self.token(value).text.trim_ascii_end();
        let inner = text.strip_prefix(b"\"")?.strip_suffix(b"]")?;
        let name = String::from_utf8_lossy(name_text).into_owned();
        self.diag(DiagnosticKind::MissingClosingQuote(name), value.span);
        Some(self.accept_tag(
            name_text,
            open,
            value.span,
            |_| pgnkit_lexer::unescape(inner),
            names,
            special,
            visitor,
        ))
    }

    /// Drops the castling rights of `setup` that name no rook (a file letter
    /// where its side has no rook, as `E` in `EQkq` with the king on e1),
    /// with a warning each, so that whether the game is Chess960 is decided
    /// on the rights that are left (SPEC-NOTES "When a game is Chess960").
    fn drop_rookless_rights(&mut self, setup: &mut Setup, span: Span) {
        let board = &setup.board;
        let rookless: Bitboard = setup
            .castling_rights
            .filter(|&sq| {
                let color = if sq.rank() == Rank::First {
                    Color::White
                } else {
                    Color::Black
                };
                !(board.rooks() & board.by_color(color)).contains(sq)
            })
            .collect();
        if rookless.is_empty() {
            return;
        }
        for sq in rookless {
            let letter = sq.file().char();
            let written = if sq.rank() == Rank::First {
                letter.to_ascii_uppercase()
            } else {
                letter
            };
            self.diag(
                DiagnosticKind::CastlingRightDropped(written.to_string()),
                span,
            );
        }
        setup.castling_rights &= !rookless;
    }

    /// The starting position from FEN, SetUp and Variant; `None` (with an
    /// error) when the game cannot be read.
    pub(super) fn start_position(&mut self, special: &SpecialTags<'a>) -> Option<Position> {
        let mut chess960 = false;
        if let Some((variant, span)) = &special.variant {
            match VariantKind::from_tag(variant) {
                VariantKind::Standard => {}
                VariantKind::Chess960 => chess960 = true,
                VariantKind::Unsupported => {
                    let name = String::from_utf8_lossy(variant).into_owned();
                    self.diag(DiagnosticKind::UnsupportedVariant(name), *span);
                    return None;
                }
            }
        }
        match &special.fen {
            Some((fen, span)) => {
                let mut setup = match Setup::parse(fen) {
                    Ok(s) => s,
                    Err(e) => {
                        // Point at the offending character when the value
                        // holds no escapes (then its bytes are the text's).
                        let at = if fen.len() + 2 == span.end - span.start {
                            let start = (span.start + 1 + e.offset).min(span.end - 1);
                            Span::new(start, (start + 1).min(span.end - 1).max(start))
                        } else {
                            *span
                        };
                        self.diag(DiagnosticKind::InvalidFen(e.to_string()), at);
                        return None;
                    }
                };
                self.drop_rookless_rights(&mut setup, *span);
                let mode = if chess960 || setup.castling_mode() == CastlingMode::Chess960 {
                    CastlingMode::Chess960
                } else {
                    CastlingMode::Standard
                };
                match Position::from_setup(setup.clone(), mode) {
                    // Without a Variant tag, the castling rights that are
                    // kept decide (see `castling_needs_chess960`).
                    Ok(p)
                        if mode == CastlingMode::Chess960
                            && !chess960
                            && !castling_needs_chess960(&p) =>
                    {
                        Some(Position::from_setup(setup, CastlingMode::Standard).unwrap_or(p))
                    }
                    Ok(p) => Some(p),
                    Err(e) => {
                        let message = format!("invalid FEN: {e}");
                        self.diag(DiagnosticKind::InvalidFen(message), *span);
                        None
                    }
                }
            }
            None => {
                if let Some((setup, span)) = &special.setup
                    && setup.as_ref() == b"1"
                {
                    self.diag(DiagnosticKind::SetUpWithoutFen, *span);
                }
                if chess960 {
                    let setup =
                        Setup::parse(b"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
                            .ok()?;
                    Position::from_setup(setup, CastlingMode::Chess960).ok()
                } else {
                    Some(Position::new())
                }
            }
        }
    }
}

/// The multiplier of [`TagNames`]' hash, chosen so that the names of each usual tag set
/// (Lichess's, Chess.com's, TWIC's; listed in this module's tests) fall on different bits:
/// a name then goes the slow way ([`TagNames::insert_seen`]) only when it is a duplicate or a
/// rare name. With the golden ratio's `0x9e37_79b1`, Chess.com's `UTCTime` and `Link` shared
/// a bit and every such game took that way once (callgrind: 190 instructions a game).
const NAME_HASH: u32 = 0x74b0_6a79;

/// A tag name's key: its length, first, middle and last byte. Cheap, and rarely shared (the
/// middle byte tells `UTCDate` from `UTCTime`, `EndDate` from `EndTime`).
#[inline(always)]
const fn name_key(name: &[u8]) -> u32 {
    const fn byte(name: &[u8], i: usize) -> u32 {
        if i < name.len() { name[i] as u32 } else { 0 }
    }
    let len = name.len();
    (len as u32 & 0xff) << 24
        | byte(name, 0) << 16
        | byte(name, len / 2) << 8
        | byte(name, len.wrapping_sub(1))
}

/// The bit of [`TagNames::seen`] for a name's key.
#[inline(always)]
const fn key_bit(key: u32) -> u64 {
    1u64 << (key.wrapping_mul(NAME_HASH) >> 26)
}

/// The hash bits of the tags the reader needs (`FEN`, `SetUp`, `Variant`, `Result`): a name
/// whose bit is not among them is none of those.
const SPECIAL_BITS: u64 = key_bit(name_key(b"FEN"))
    | key_bit(name_key(b"SetUp"))
    | key_bit(name_key(b"Variant"))
    | key_bit(name_key(b"Result"));

/// The tag names of a game so far, to find duplicates.
#[derive(Default)]
pub(super) struct TagNames<'a> {
    /// One bit per name key hash: a clear bit means "surely new".
    seen: u64,
    names: SmallVec<[(u32, &'a [u8]); 24]>,
}

impl<'a> TagNames<'a> {
    /// Adds `name`: its hash bit, or `None` if it was already there.
    #[inline(always)]
    pub(super) fn insert(&mut self, name: &'a [u8]) -> Option<u64> {
        let key = name_key(name);
        let bit = key_bit(key);
        if self.seen & bit != 0 {
            return self.insert_seen(key, name).then_some(bit);
        }
        self.seen |= bit;
        self.names.push((key, name));
        Some(bit)
    }

    /// [`insert`](TagNames::insert) when a name of the same hash was seen.
    #[inline(never)]
    fn insert_seen(&mut self, key: u32, name: &'a [u8]) -> bool {
        if self.names.iter().any(|&(k, n)| k == key && n == name) {
            return false;
        }
        self.names.push((key, name));
        true
    }
}

/// Whether a tag name's token text is a tag name (`A-Z a-z 0-9 _` only).
///
/// Four bytes at a time, with no branch inside: a table load and an AND a byte, then one test.
/// A name of 4 to 8 bytes (most) is its first and last four bytes, one of 9 to 16 its first
/// and last eight (the groups may overlap); a loop with a test and a branch a byte cost ~50
/// instructions a tag of `check` (callgrind, issue 34).
#[inline(always)]
fn is_tag_name(text: &[u8]) -> bool {
    /// `1` for the bytes of tag names, else `0`.
    static TAG_NAME: [u8; 256] = {
        let mut t = [0; 256];
        let mut i = 0;
        while i < 256 {
            t[i] = ((i as u8).is_ascii_alphanumeric() || i == b'_' as usize) as u8;
            i += 1;
        }
        t
    };
    let all = |g: &[u8]| g.iter().fold(1, |ok, &b| ok & TAG_NAME[usize::from(b)]) != 0;
    match (text.first_chunk::<8>(), text.last_chunk::<8>()) {
        (Some(head), Some(tail)) if text.len() <= 16 => all(head) & all(tail),
        (Some(_), Some(_)) => all(text),
        _ => match (text.first_chunk::<4>(), text.last_chunk::<4>()) {
            (Some(head), Some(tail)) => all(head) & all(tail),
            _ => all(text),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lichess's, Chess.com's and TWIC's tags (`EventType` aside: its key is `EventDate`'s).
    const USUAL_TAG_SETS: [&[&str]; 3] = [
        &[
            "Event",
            "Site",
            "Date",
            "Round",
            "White",
            "Black",
            "Result",
            "UTCDate",
            "UTCTime",
            "WhiteElo",
            "BlackElo",
            "WhiteRatingDiff",
            "BlackRatingDiff",
            "WhiteTitle",
            "BlackTitle",
            "Variant",
            "TimeControl",
            "ECO",
            "Opening",
            "Termination",
            "Annotator",
            "FEN",
            "SetUp",
        ],
        &[
            "Event",
            "Site",
            "Date",
            "Round",
            "White",
            "Black",
            "Result",
            "Link",
            "CurrentPosition",
            "Timezone",
            "ECO",
            "ECOUrl",
            "UTCDate",
            "UTCTime",
            "WhiteElo",
            "BlackElo",
            "TimeControl",
            "Termination",
            "StartTime",
            "EndDate",
            "EndTime",
            "SetUp",
            "FEN",
            "Variant",
        ],
        &[
            "Event",
            "Site",
            "Date",
            "Round",
            "White",
            "Black",
            "Result",
            "WhiteTitle",
            "BlackTitle",
            "WhiteElo",
            "BlackElo",
            "ECO",
            "Opening",
            "Variation",
            "WhiteFideId",
            "BlackFideId",
            "EventDate",
            "EventRounds",
            "EventCountry",
            "PlyCount",
            "Annotator",
            "Source",
            "SourceDate",
            "WhiteTeam",
            "BlackTeam",
            "Board",
            "TimeControl",
            "Time",
            "FEN",
            "SetUp",
            "Termination",
        ],
    ];

    #[test]
    fn tag_names_are_told_at_every_length_and_byte() {
        let bytes = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
        assert!(is_tag_name(b""));
        for len in 1..20 {
            assert!(is_tag_name(&vec![b'a'; len]), "{len}");
            for at in 0..len {
                for b in 0..=255u8 {
                    let mut name = vec![b'Z'; len];
                    name[at] = b;
                    assert_eq!(is_tag_name(&name), bytes(b), "{len} {at} {b}");
                }
            }
        }
    }

    /// Each usual set's names are told apart by the hash bit alone: no name of them takes
    /// the slow way.
    #[test]
    fn the_usual_tag_sets_share_no_hash_bit() {
        for set in USUAL_TAG_SETS {
            let mut names = TagNames::default();
            for name in set {
                let before = names.seen;
                assert!(names.insert(name.as_bytes()).is_some(), "{name}");
                assert_ne!(names.seen, before, "{name} shares a bit in {set:?}");
            }
        }
    }

    #[test]
    fn tag_names_find_duplicates_even_with_shared_keys() {
        let mut names = TagNames::default();
        // Same length, first and last byte: the same key.
        assert!(names.insert(b"Abc").is_some());
        assert!(names.insert(b"Axc").is_some());
        assert!(names.insert(b"Abc").is_none());
        assert!(names.insert(b"Axc").is_none());
        for i in 0..100u8 {
            let name = [b'T', b'a' + i % 26, b'0' + i / 26];
            assert!(names.insert(Box::leak(Box::new(name))).is_some());
        }
        assert!(names.insert(b"Ta0").is_none());
        assert!(names.insert(b"Event").is_some());
    }
}
