//! The validating reader: games from bytes ([`read_games`],
//! [`visit_games`]) or a stream ([`Reader`]), each resolved move by move
//! and sent to a [`Visitor`] as events, with diagnostics and recovery as
//! SPEC-NOTES "Reading (import format)" says.
//!
//! Recovery: at most one error per line of play. After an error the rest of
//! that variation (or main line) is skipped to its `)` (or the marker); the
//! other lines go on from their own positions. A game with an error is
//! returned broken, with what was read and its original bytes; the next game
//! is read as usual.

mod game_reader;
mod movetext;
mod state;
mod tag_section;
mod tokens;

use std::borrow::Cow;
use std::io::{self, Read};

use pgnkit_lexer::{GameSplitter, LexOptions, Lexer, RawGame, TokenizedGame};

use crate::builder::TreeBuilder;
use crate::diagnostic::Diagnostics;
use crate::game::Game;
use crate::game_start::GameStart;
use crate::tags::{Tags, clean_tags_with};
use crate::visitor::{TagsOnly, Visitor};
use game_reader::read_game;
use tokens::Tokens;

/// Options for reading.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ReadOptions {
    /// Report every lenient move form (`0-0`, `Ng1f3`, `e8Q`, a null
    /// move, ...) as an error instead of accepting it.
    pub strict: bool,
    /// Brace comments nest, `{ a { b } c }` being one comment (pgn-extract's
    /// `--nestedcomments`; the lexer's
    /// [`LexOptions::nested_comments`](pgnkit_lexer::LexOptions), which
    /// every entry point of this crate passes on to the splitter and the
    /// lexer).
    pub nested_comments: bool,
    /// Repair a tag value without its closing quote whose line ends with
    /// `]` (`[Site "Paris]`): the value runs to that `]` (pgn-extract's
    /// `--fixtagstrings`), with a warning instead of the error
    /// (SPEC-NOTES-adjacent rule in `docs/pgn-extract.md`).
    pub fix_tag_strings: bool,
}

impl ReadOptions {
    /// The lenient default.
    pub fn new() -> ReadOptions {
        ReadOptions::default()
    }

    /// Strict: lenient move forms are errors.
    pub fn strict() -> ReadOptions {
        ReadOptions {
            strict: true,
            ..ReadOptions::default()
        }
    }

    /// The lexer's rules these options ask for (what the splitter and the
    /// lexer read with). The single pass's tokens leave the usual move
    /// numbers out ([`LexOptions::skip_move_numbers`]): the reader passes
    /// over them, and they are half the tokens of a movetext.
    pub fn lex_options(&self) -> LexOptions {
        LexOptions::new()
            .with_nested_comments(self.nested_comments)
            .with_skip_move_numbers(true)
    }
}

/// One game read: what the visitor made of it, its diagnostics, and where
/// it is in the input with its original bytes.
#[derive(Debug, Clone)]
pub struct ReadGame<'a, T> {
    /// The visitor's output (a [`Game`] for [`read_games`]).
    pub value: T,
    /// Errors and warnings, in order.
    pub diagnostics: Diagnostics,
    /// The game's original bytes.
    pub raw: Cow<'a, [u8]>,
    /// Absolute offset of the game's first byte.
    pub offset: u64,
    /// 1-based line of the game's first byte.
    pub line: u64,
    /// 1-based column of the game's first byte on its line, in characters
    /// (a game may start after the previous game's marker on its line).
    pub column: u64,
}

impl<T> ReadGame<'_, T> {
    /// Whether the game has an error.
    pub fn is_broken(&self) -> bool {
        self.diagnostics.has_errors()
    }

    /// Where the game is in the input, with its bytes: what
    /// [`Diagnostic::render`](crate::Diagnostic::render) needs to show the
    /// source line of one of its diagnostics.
    pub fn start(&self) -> GameStart<'_> {
        GameStart {
            bytes: &self.raw,
            offset: self.offset,
            line: self.line,
            column: self.column,
        }
    }

    /// `diagnostic` (one of this game's) as people read it, with its source
    /// line and a caret under the fault: [`Diagnostic::render`] with
    /// [`ReadGame::start`].
    ///
    /// ```
    /// use pgnkit_game::read_games;
    /// // The second game starts on column 12 of the first line.
    /// let read = read_games(b"1. e4 e5 * 1. d4 Ke7 *").nth(1).unwrap();
    /// let error = read.diagnostics.errors().next().unwrap();
    /// assert_eq!((error.line, error.column), (1, 18));
    /// let shown = read.render(error);
    /// assert!(shown.ends_with("\n  1. d4 Ke7 *\n        ^\n"), "{shown}");
    /// ```
    ///
    /// [`Diagnostic::render`]: crate::Diagnostic::render
    pub fn render(&self, diagnostic: &crate::Diagnostic) -> String {
        diagnostic.render(&self.start())
    }
}

/// Reads every game of `input` into [`Game`]s.
pub fn read_games(input: &[u8]) -> Games<'_> {
    read_games_with(input, ReadOptions::default())
}

/// Reads every game of `input` into [`Game`]s with `options`.
pub fn read_games_with(input: &[u8], options: ReadOptions) -> Games<'_> {
    Games {
        inner: visit_games_with(input, TreeBuilder::new(), options),
    }
}

/// The games of a byte slice, as [`Game`]s with their diagnostics.
#[derive(Debug)]
pub struct Games<'a> {
    inner: VisitGames<'a, TreeBuilder>,
}

impl<'a> Iterator for Games<'a> {
    type Item = ReadGame<'a, Game>;

    fn next(&mut self) -> Option<Self::Item> {
        self.inner.next()
    }
}

/// Sends every game of `input` through `visitor` (a visitor, or a `&mut`
/// to one), with the default [`ReadOptions`].
pub fn visit_games<V: Visitor>(input: &[u8], visitor: V) -> VisitGames<'_, V> {
    visit_games_with(input, visitor, ReadOptions::default())
}

/// [`visit_games`] with `options`.
pub fn visit_games_with<V: Visitor>(
    input: &[u8],
    visitor: V,
    options: ReadOptions,
) -> VisitGames<'_, V> {
    VisitGames {
        splitter: GameSplitter::new(input).with_options(options.lex_options()),
        visitor,
        options,
    }
}

/// The games of a byte slice, each sent through a visitor.
#[derive(Debug)]
pub struct VisitGames<'a, V> {
    splitter: GameSplitter<'a>,
    visitor: V,
    options: ReadOptions,
}

impl<'a, V> VisitGames<'a, V> {
    /// The visitor.
    pub fn visitor(&mut self) -> &mut V {
        &mut self.visitor
    }
}

impl<'a, V: Visitor> Iterator for VisitGames<'a, V> {
    type Item = ReadGame<'a, V::Output>;

    fn next(&mut self) -> Option<Self::Item> {
        let game = self.splitter.next_tokenized()?;
        let raw = game.raw;
        let start = GameStart::from(raw);
        let (value, diagnostics) = visit_tokenized(game, &mut self.visitor, self.options);
        Some(ReadGame {
            value,
            diagnostics,
            raw: Cow::Borrowed(raw.bytes),
            offset: start.offset,
            line: start.line,
            column: start.column,
        })
    }
}

/// Games from a stream (any [`Read`]: it reads in chunks of its own, so a
/// `BufReader` is not needed), one at a time in constant memory.
///
/// [`Reader::new`] reads with the default [`ReadOptions`],
/// [`Reader::with_options`] with others, as [`visit_games`] and
/// [`visit_games_with`] do; [`visit_next`](Reader::visit_next) takes a
/// visitor as they do (by value, or a `&mut` to one).
///
/// ```
/// use pgnkit_game::{Reader, Validate};
///
/// let file: &[u8] = b"1. e4 e5 *\n\n1. d4 Ke7 *\n";
/// let mut reader = Reader::new(file);
/// let mut broken = 0;
/// while let Some(read) = reader.visit_next(Validate) {
///     broken += usize::from(read?.is_broken());
/// }
/// assert_eq!(broken, 1);
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug)]
pub struct Reader<R> {
    inner: pgnkit_lexer::Reader<R>,
    options: ReadOptions,
}

impl<R: Read> Reader<R> {
    /// A reader over `stream`.
    pub fn new(stream: R) -> Reader<R> {
        Reader::with_options(stream, ReadOptions::default())
    }

    /// A reader over `stream` with `options`.
    pub fn with_options(stream: R, options: ReadOptions) -> Reader<R> {
        let mut inner = pgnkit_lexer::Reader::new(stream);
        inner.set_options(options.lex_options());
        Reader { inner, options }
    }

    /// Sends the next game through `visitor` (a visitor, or a `&mut` to
    /// one); `None` at the end.
    pub fn visit_next<V: Visitor>(
        &mut self,
        mut visitor: V,
    ) -> Option<io::Result<ReadGame<'_, V::Output>>> {
        let options = self.options;
        let game = match self.inner.next_tokenized() {
            Ok(Some(game)) => game,
            Ok(None) => return None,
            Err(e) => return Some(Err(e)),
        };
        let raw = game.raw;
        let start = GameStart::from(raw);
        let (value, diagnostics) = visit_tokenized(game, &mut visitor, options);
        Some(Ok(ReadGame {
            value,
            diagnostics,
            raw: Cow::Borrowed(raw.bytes),
            offset: start.offset,
            line: start.line,
            column: start.column,
        }))
    }

    /// The next game's tags only, as [`visit_next`](Reader::visit_next) with
    /// [`TagsOnly`] gives them, without lexing the movetext: the game is
    /// found by the lexer's splitter alone, and its tag section read from
    /// its bytes by [`clean_tags_with`]; a section that is not clean (the reader
    /// would warn about it) is read by the reader from the game's tokens
    /// (that game alone lexed), so the tags are the same either way. No
    /// diagnostics: use `visit_next` for those. `None` at the end.
    ///
    /// ```
    /// use pgnkit_game::Reader;
    ///
    /// let file: &[u8] = b"[White \"A\"]\n\n1. e4 *\n\n[White \"B\"]\n[White \"C\"]\n\n1. d4 *\n";
    /// let mut reader = Reader::new(file);
    /// let mut whites = Vec::new();
    /// while let Some(tags) = reader.next_tags() {
    ///     whites.push(tags?.white().map(str::to_owned));
    /// }
    /// // The second game's duplicate is read by the reader: the first value wins.
    /// assert_eq!(whites, [Some("A".to_owned()), Some("B".to_owned())]);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn next_tags(&mut self) -> Option<io::Result<Tags>> {
        let options = self.options;
        let game = match self.inner.next_game() {
            Ok(Some(game)) => GameStart::from(game),
            Ok(None) => return None,
            Err(e) => return Some(Err(e)),
        };
        let mut tags = Tags::new();
        if clean_tags_with(game, &mut tags, options.lex_options()).is_none() {
            tags = visit_game(game, &mut TagsOnly::default(), options).0;
        }
        Some(Ok(tags))
    }

    /// Reads the next game into a [`Game`] (its raw bytes copied).
    pub fn next_game(&mut self) -> Option<io::Result<ReadGame<'static, Game>>> {
        let read = match self.visit_next(TreeBuilder::new())? {
            Ok(read) => read,
            Err(e) => return Some(Err(e)),
        };
        Some(Ok(ReadGame {
            value: read.value,
            diagnostics: read.diagnostics,
            raw: Cow::Owned(read.raw.into_owned()),
            offset: read.offset,
            line: read.line,
            column: read.column,
        }))
    }
}

impl<R: Read> Iterator for Reader<R> {
    type Item = io::Result<ReadGame<'static, Game>>;

    fn next(&mut self) -> Option<Self::Item> {
        self.next_game()
    }
}

/// Reads one game (the bytes of one game, as the splitter gives them)
/// through `visitor`; returns the visitor's output and the diagnostics.
///
/// The bytes are tokenized with the [`Lexer`] and read as
/// [`visit_tokenized`] reads the splitter's tokens: one walk for both.
pub fn visit_game<V: Visitor>(
    game: GameStart<'_>,
    visitor: &mut V,
    options: ReadOptions,
) -> (V::Output, Diagnostics) {
    let mut lexer = Lexer::with_options(game.bytes, options.lex_options());
    let tokens: Vec<_> = lexer
        .by_ref()
        .map(|token| pgnkit_lexer::GameToken {
            kind: token.kind,
            span: token.span,
        })
        .collect();
    let raw = RawGame {
        bytes: game.bytes,
        offset: game.offset,
        line: game.line,
        column: game.column,
    };
    let game = TokenizedGame {
        raw,
        tokens: &tokens,
        warnings: lexer.warnings(),
        too_large: None,
        // `visit_tokenized` looks at the tokens.
        variations: None,
    };
    visit_tokenized(game, visitor, options)
}

/// [`visit_game`] for a game the lexer already tokenized (its single pass,
/// [`pgnkit_lexer::Reader::next_tokenized`]): the same events and
/// diagnostics, without lexing the bytes again.
pub fn visit_tokenized<V: Visitor>(
    game: TokenizedGame<'_, '_>,
    visitor: &mut V,
    options: ReadOptions,
) -> (V::Output, Diagnostics) {
    let tokens = Tokens::new(game.tokens, game.warnings);
    // Only a `(` token starts a variation: the lexer's pass says whether
    // the game has one; otherwise its tokens are looked at (before the
    // reader, whose movetext loop keeps its registers for itself).
    let variations = game.variations.unwrap_or_else(|| {
        game.tokens
            .iter()
            .any(|t| t.kind == pgnkit_lexer::TokenKind::VariationOpen)
    });
    read_game(
        GameStart::from(game.raw),
        tokens,
        game.too_large,
        variations,
        visitor,
        options,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::termination::Termination;
    use crate::visitor::{MoveEvent, RawComment};

    /// The diagnostics of every game of `input`, read with `visitor`.
    fn diagnostics_with<V: Visitor>(input: &[u8], visitor: V) -> Vec<Diagnostics> {
        visit_games(input, visitor)
            .map(|game| game.diagnostics)
            .collect()
    }

    #[test]
    fn validate_skips_texts_but_not_diagnostics() {
        // Comments everywhere, escapes and TABs in tag values, duplicate and
        // special tags, a mismatched result, comments after the marker.
        let input = concat!(
            "[Event \"a \\\"b\\\" c\"]\n[Event \"d\"]\n[Result \"1-0\"]\n",
            "[White \"x\ty\"]\n{before} 1. e4 {after} e5 (1... c5 {in} 2. Nf3) ",
            "; line\n2. Nf3 {c} 0-1 {late}\n\n",
            "[FEN \"8/8/8/8/8/8/8/K6k w - - 0 1\"]\n[SetUp \"1\"]\n1. Kb1 {x} *\n\n",
            "[Variant \"Atomic\"]\n1. e4 *\n\n{only a comment} *\n",
        );
        let all = diagnostics_with(input.as_bytes(), TreeBuilder::new());
        assert_eq!(all.len(), 4);
        assert!(all.iter().any(|d| !d.is_empty()));
        assert_eq!(diagnostics_with(input.as_bytes(), crate::Validate), all);
    }

    /// Keeps the tags it wants and every event it is sent, comments included.
    #[derive(Default)]
    struct TagsAndMoves(Vec<String>);

    impl Visitor for TagsAndMoves {
        type Output = Vec<String>;
        const COMMENTS: bool = false;
        fn wants_tag(&self, name: &[u8]) -> bool {
            name == b"White"
        }
        fn tag(&mut self, name: &[u8], value: &[u8]) {
            let (name, value) = (
                String::from_utf8_lossy(name),
                String::from_utf8_lossy(value),
            );
            self.0.push(format!("[{name} {value}]"));
        }
        fn comment_before(&mut self, c: RawComment<'_>) {
            self.0
                .push(format!("before {{{}}}", String::from_utf8_lossy(c.text)));
        }
        fn san(&mut self, event: MoveEvent<'_>) {
            self.0
                .push(String::from_utf8_lossy(event.text).into_owned());
        }
        fn comment(&mut self, c: RawComment<'_>) {
            self.0
                .push(format!("{{{}}}", String::from_utf8_lossy(c.text)));
        }
        fn trailing_comment(&mut self, c: RawComment<'_>) {
            self.0
                .push(format!("trailing {{{}}}", String::from_utf8_lossy(c.text)));
        }
        fn end_game(&mut self) -> Vec<String> {
            std::mem::take(&mut self.0)
        }
    }

    #[test]
    fn a_visitor_without_comments_gets_only_its_tags_and_moves() {
        let input = concat!(
            "[Event \"e\"]\n[White \"a \\\"b\\\"\"]\n[Black \"c\"]\n",
            "{before} 1. e4 {after} e5 (1... c5 {in}) ; line\n2. Nf3 {c} 0-1 {late}\n\n",
            "[FEN \"8/8/8/8/8/8/8/K6k w - - 0 1\"]\n[SetUp \"1\"]\n{x} 1. Kb1 {y} *\n\n",
            "{only a comment} *\n",
        );
        let games: Vec<_> = visit_games(input.as_bytes(), TagsAndMoves::default()).collect();
        let events: Vec<Vec<String>> = games.iter().map(|g| g.value.clone()).collect();
        assert_eq!(
            events,
            [
                vec!["[White a \"b\"]", "e4", "e5", "c5", "Nf3"],
                // The FEN is not sent, but the game starts from it.
                vec!["Kb1"],
                vec![],
            ]
        );
        // The diagnostics are those of a reader of everything.
        let all = diagnostics_with(input.as_bytes(), TreeBuilder::new());
        let got: Vec<Diagnostics> = games.into_iter().map(|g| g.diagnostics).collect();
        assert!(all.iter().any(|d| !d.is_empty()));
        assert_eq!(got, all);
    }

    #[test]
    fn next_tags_gives_the_tags_of_visit_next_with_tags_only() {
        // Clean sections and every kind the fast path leaves to the reader:
        // escapes, a TAB, an unescaped quote, a duplicate, a `]` missing, a
        // malformed pair, an unterminated value, comments between pairs, a
        // Latin-1 game, a game without tags, tags on one line.
        let mut input = concat!(
            "[Event \"a\"]\n[Site \"b\"]\n\n1. e4 e5 {c} 1-0\n\n",
            "[Event \"F/S \\\"Return\\\"\"]\n[Round \"x\\\\y\"]\n*\n\n",
            "[White \"x\ty\"]\n*\n\n",
            "[White \"say \"hi\" now\"]\n*\n\n",
            "[Event \"d\"]\n[Event \"e\"]\n*\n\n",
            "[Event \"no close\"\n[Site \"s\"]\n*\n\n",
            "[Event]\n[Site \"s\"]\n*\n\n",
            "[Event \"open\n[Site \"s\"]\n*\n\n",
            "[Event \"a\"] {between} [Site \"b\"]\n; line\n[Round \"1\"]\n*\n\n",
            "[White \"Réti\"]\n*\n\n",
            "1. e4 *\n\n",
            "[A \"1\"][B \"2\"] [C\"3\"]\n*\n\n",
            "[1abc \"x\"]\n[_y \"y\"]\n[12 \"z\"]\n*\n\n",
            "[Event \"e\"]\n% escaped line\n[Site \"s\"]\n*\n\n",
        )
        .as_bytes()
        .to_vec();
        input.extend_from_slice(b"[White \"R\xe9ti\"]\n*\n");
        let input = &input[..];
        let expected: Vec<Tags> = visit_games(input, TagsOnly::default())
            .map(|game| game.value)
            .collect();
        assert_eq!(expected.len(), 15);
        // Small reads: games cross the buffer's ends.
        let mut reader = Reader {
            inner: pgnkit_lexer::Reader::with_chunk_size(input, 7),
            options: ReadOptions::default(),
        };
        let mut got = Vec::new();
        while let Some(tags) = reader.next_tags() {
            got.push(tags.unwrap());
        }
        assert_eq!(got, expected);
        assert_eq!(got[1].get("Event"), Some("F/S \"Return\""));
        assert_eq!(got[9].get("White"), Some("Réti"));
        assert_eq!(got[14].get("White"), Some("Réti"));
        // The clean ones took the fast path, the others did not.
        let clean: Vec<bool> = GameSplitter::new(input)
            .map(|raw| crate::tags::clean_tags(GameStart::from(raw), &mut Tags::new()).is_some())
            .collect();
        let expected_clean = [
            true, false, false, false, false, false, false, false, true, true, true, true, false,
            true, true,
        ];
        assert_eq!(clean, expected_clean);
    }
    /// Stops after a count of main-line moves ([`Visitor::STOP`]), keeping
    /// what it saw.
    struct StopAfter {
        moves: usize,
        seen: Vec<String>,
        termination: Option<Termination>,
        event: String,
    }

    impl Visitor for StopAfter {
        type Output = (Vec<String>, Option<Termination>, String);
        const STOP: bool = true;
        fn begin_game(&mut self, _game: GameStart<'_>) {
            self.seen.clear();
            self.event.clear();
        }
        fn tag(&mut self, name: &[u8], value: &[u8]) {
            if name == b"Event" {
                self.event = String::from_utf8_lossy(value).into_owned();
            }
        }
        fn san(&mut self, event: crate::MoveEvent<'_>) {
            self.seen
                .push(String::from_utf8_lossy(event.text).into_owned());
        }
        fn stop(&mut self) -> bool {
            self.seen.len() >= self.moves
        }
        fn termination(&mut self, termination: Termination) {
            self.termination = Some(termination);
        }
        fn end_game(&mut self) -> Self::Output {
            (
                std::mem::take(&mut self.seen),
                self.termination.take(),
                std::mem::take(&mut self.event),
            )
        }
    }

    #[test]
    fn a_visitor_that_stops_skips_the_rest_of_the_movetext() {
        // After the stop: illegal moves, variations (one with a marker of
        // its own), NAGs, comments; then the game's marker, a comment after
        // it, and games that must read as before.
        let input = concat!(
            "[Event \"a\"]\n[Result \"0-1\"]\n\n1. e4 e5 2. Qxz9 $1 {c} (2. d4 (2. c4 1-0) exd4) ",
            "Zz 0-1 {late}\n\n",
            "[Event \"b\"]\n\n1. d4 (1. c4) d5 2. c4 *\n\n",
            "[Event \"c\"]\n\n1. Nf3 Nf6 2. g3 1/2-1/2\n",
        );
        let read: Vec<_> = visit_games(
            input.as_bytes(),
            StopAfter {
                moves: 2,
                seen: Vec::new(),
                termination: None,
                event: String::new(),
            },
        )
        .map(|g| (g.value, g.diagnostics.has_errors()))
        .collect();
        let game = |moves: &[&str], t: Termination, event: &str| {
            let moves = moves.iter().map(|m| m.to_string()).collect();
            ((moves, Some(t), event.to_string()), false)
        };
        assert_eq!(
            read,
            [
                game(&["e4", "e5"], Termination::BlackWins, "a"),
                // A variation's move counts, but the stop is asked after main-line moves.
                game(&["d4", "c4", "d5"], Termination::Unknown, "b"),
                game(&["Nf3", "Nf6"], Termination::Draw, "c"),
            ]
        );
        // Read whole, the first game has errors; the games split the same.
        let whole = diagnostics_with(input.as_bytes(), crate::Validate);
        assert_eq!(whole.len(), 3);
        assert!(whole[0].has_errors() && !whole[1].has_errors());
    }
}
