//! The visitors `select`, `dedupe` and `classify` read a game with when it
//! needs no tree: [`MainOnly`] (the main line's moves, for classification
//! before writing) and [`Retag`] (the streaming writer with the classified
//! `ECO` and `Opening` in place of the game's own).

use pgnkit::game::{GameStart, MoveEvent, Nag, RawComment, Skip, Termination, Visitor};

/// No events wanted but the main line's moves (under a
/// [`MainLine`](pgnkit::select::MainLine)): variations are skipped.
#[derive(Debug, Default)]
pub struct MainOnly;

impl Visitor for MainOnly {
    type Output = ();
    const TEXT: bool = false;

    fn begin_variation(&mut self) -> Skip {
        Skip::Yes
    }

    fn end_game(&mut self) {}
}

/// Passes every event to `V`, with the values of `ECO` and `Opening` replaced
/// by `eco` and `name` (added after the other tags when the game has none),
/// as `Tags::insert` does on a tree. The values are UTF-8: for a game read
/// as Latin-1 the caller must not use this unless they are ASCII.
pub struct Retag<'a, V> {
    inner: V,
    eco: &'a str,
    name: &'a str,
    had: [bool; 2],
}

impl<'a, V> Retag<'a, V> {
    /// Wraps `inner`.
    pub fn new(inner: V, eco: &'a str, name: &'a str) -> Self {
        Retag {
            inner,
            eco,
            name,
            had: [false; 2],
        }
    }
}

impl<V: Visitor> Visitor for Retag<'_, V> {
    type Output = V::Output;
    const MOVES: bool = V::MOVES;
    const TEXT: bool = V::TEXT;

    fn begin_game(&mut self, game: GameStart<'_>) {
        self.had = [false; 2];
        self.inner.begin_game(game);
    }

    fn tag(&mut self, name: &[u8], value: &[u8]) {
        match name {
            b"ECO" => {
                self.had[0] = true;
                self.inner.tag(name, self.eco.as_bytes());
            }
            b"Opening" => {
                self.had[1] = true;
                self.inner.tag(name, self.name.as_bytes());
            }
            _ => self.inner.tag(name, value),
        }
    }

    fn end_tags(&mut self) -> Skip {
        if !self.had[0] {
            self.inner.tag(b"ECO", self.eco.as_bytes());
        }
        if !self.had[1] {
            self.inner.tag(b"Opening", self.name.as_bytes());
        }
        self.inner.end_tags()
    }

    fn begin_movetext(&mut self, start: &pgnkit::chess::Position) {
        self.inner.begin_movetext(start);
    }

    fn comment_before(&mut self, comment: RawComment<'_>) {
        self.inner.comment_before(comment);
    }

    fn san(&mut self, event: MoveEvent<'_>) {
        self.inner.san(event);
    }

    fn nag(&mut self, nag: Nag) {
        self.inner.nag(nag);
    }

    fn comment(&mut self, comment: RawComment<'_>) {
        self.inner.comment(comment);
    }

    fn trailing_comment(&mut self, comment: RawComment<'_>) {
        self.inner.trailing_comment(comment);
    }

    fn begin_variation(&mut self) -> Skip {
        self.inner.begin_variation()
    }

    fn end_variation(&mut self) {
        self.inner.end_variation();
    }

    fn termination(&mut self, termination: Termination) {
        self.inner.termination(termination);
    }

    fn end_game(&mut self) -> V::Output {
        self.inner.end_game()
    }
}
