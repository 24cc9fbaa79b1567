//! Comments, kept exactly as read, with typed accessors for the embedded
//! commands that lichess, chess.com and ChessBase write into them
//! (`[%clk 1:05:23]`, `[%emt 0:00:05]`, `[%eval 0.25,20]`, `[%eval #-3]`,
//! `[%csl Ga4,Rb5]`, `[%cal Ge2e4]`).
//!
//! The accessors parse on demand and never change the text, so export
//! writes what was read.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::sync::Arc;
use std::time::Duration;

use pgnkit_chess::Square;

/// How a comment was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum CommentKind {
    /// `{ ... }`.
    #[default]
    Brace,
    /// `; ...` to the end of the line.
    Line,
}

/// A comment: its text exactly as read (between the braces, or after the
/// `;` up to the line end) and how it was written.
///
/// ```
/// use pgnkit_game::{Comment, Eval, Score};
/// let c = Comment::brace(" [%eval -1.25,18] [%clk 0:03:07.5] nice ");
/// assert_eq!(c.eval(), Some(Eval { score: Score::Centipawns(-125), depth: Some(18) }));
/// assert_eq!(c.clock().map(|d| d.as_millis()), Some(187_500));
/// assert_eq!(c.text(), " [%eval -1.25,18] [%clk 0:03:07.5] nice ");
/// assert_eq!(c.text_without_commands(), "nice");
/// ```
///
/// Comments read by the tree builder share one copy of their game's text
/// (no allocation per comment); a comment built from a string owns it.
/// Either way it compares, hashes and prints as its text and kind.
#[derive(Clone, Default)]
pub struct Comment {
    text: CommentText,
    kind: CommentKind,
}

/// Where a comment's text lives.
#[derive(Clone)]
enum CommentText {
    /// Its own copy.
    Owned(Box<str>),
    /// `buf[start..end]`: a piece of the text of the game it was read in,
    /// shared by all that game's comments.
    Shared { buf: Arc<str>, start: u32, end: u32 },
}

impl Default for CommentText {
    fn default() -> CommentText {
        CommentText::Owned(Box::default())
    }
}

/// One embedded command `[%name args]` of a comment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Command<'a> {
    /// The name after `%` (`clk`, `eval`, ...).
    pub name: &'a str,
    /// Everything after the name up to `]`, trimmed.
    pub args: &'a str,
}

/// An engine evaluation from `[%eval ...]`, from White's point of view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Eval {
    /// The score.
    pub score: Score,
    /// The search depth, when given (`[%eval 0.25,20]`).
    pub depth: Option<u32>,
}

/// A score: centipawns or a mate distance.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Score {
    /// Hundredths of a pawn (`0.25` is 25), rounded.
    Centipawns(i32),
    /// Mate in that many moves; negative when Black mates (`#-3` is -3).
    Mate(i32),
}

impl fmt::Display for Score {
    /// As python-chess prints a score: `+125`, `-30`, `0`, `#+3`, `#-3`.
    ///
    /// ```
    /// use pgnkit_game::Score;
    /// assert_eq!(Score::Centipawns(125).to_string(), "+125");
    /// assert_eq!(Score::Centipawns(0).to_string(), "0");
    /// assert_eq!(Score::Mate(-3).to_string(), "#-3");
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Score::Centipawns(cp) if cp > 0 => write!(f, "+{cp}"),
            Score::Centipawns(cp) => write!(f, "{cp}"),
            Score::Mate(n) if n > 0 => write!(f, "#+{n}"),
            Score::Mate(n) => write!(f, "#-{}", n.unsigned_abs()),
        }
    }
}

impl fmt::Display for Eval {
    /// The argument of `[%eval ...]` as lichess and python-chess write it:
    /// pawns with two decimals or `#` and a mate distance, then `,depth`
    /// when known.
    ///
    /// ```
    /// use pgnkit_game::{Eval, Score};
    /// let eval = Eval { score: Score::Centipawns(-125), depth: Some(18) };
    /// assert_eq!(eval.to_string(), "-1.25,18");
    /// assert_eq!(Eval { score: Score::Mate(3), depth: None }.to_string(), "#3");
    /// ```
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.score {
            Score::Centipawns(cp) => {
                let sign = if cp < 0 { "-" } else { "" };
                let abs = cp.unsigned_abs();
                write!(f, "{sign}{}.{:02}", abs / 100, abs % 100)?;
            }
            Score::Mate(n) => write!(f, "#{n}")?,
        }
        match self.depth {
            Some(depth) => write!(f, ",{depth}"),
            None => Ok(()),
        }
    }
}

/// A clock reading or a move time, printed as `[%clk ...]` holds it and
/// python-chess writes it: `h:mm:ss`, with up to three decimals of a second
/// when there are any.
///
/// ```
/// use std::time::Duration;
/// use pgnkit_game::Clock;
/// assert_eq!(Clock(Duration::from_secs(3 * 60 + 7)).to_string(), "0:03:07");
/// assert_eq!(Clock(Duration::from_millis(3_723_500)).to_string(), "1:02:03.5");
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Clock(pub std::time::Duration);

impl fmt::Display for Clock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let millis = self.0.as_millis();
        let secs = millis / 1000;
        let (hours, minutes, seconds) = (secs / 3600, secs % 3600 / 60, secs % 60);
        write!(f, "{hours}:{minutes:02}:{seconds:02}")?;
        let frac = millis % 1000;
        if frac != 0 {
            let digits = format!("{frac:03}");
            write!(f, ".{}", digits.trim_end_matches('0'))?;
        }
        Ok(())
    }
}

impl From<Duration> for Clock {
    fn from(duration: Duration) -> Clock {
        Clock(duration)
    }
}

/// The colour of a drawn shape.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ShapeColor {
    /// `G`.
    Green,
    /// `R`.
    Red,
    /// `Y`.
    Yellow,
    /// `B`.
    Blue,
}

/// A highlighted square (`[%csl Ga4]`, `from == to`) or an arrow
/// (`[%cal Ge2e4]`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Shape {
    /// Its colour.
    pub color: ShapeColor,
    /// Where it starts.
    pub from: Square,
    /// Where it ends (the same square for a highlight).
    pub to: Square,
}

impl Comment {
    /// A comment with `text`, written how `kind` says.
    pub fn new(text: impl Into<String>, kind: CommentKind) -> Comment {
        Comment {
            text: CommentText::Owned(text.into().into_boxed_str()),
            kind,
        }
    }

    /// The comment whose text is `buf[range]`, sharing `buf`; `None` when
    /// the range is not one of `buf` (out of bounds, not on character
    /// boundaries, or beyond `u32` offsets).
    #[inline]
    pub(crate) fn shared(
        buf: &Arc<str>,
        range: std::ops::Range<usize>,
        kind: CommentKind,
    ) -> Option<Comment> {
        buf.get(range.clone())?;
        let start = u32::try_from(range.start).ok()?;
        let end = u32::try_from(range.end).ok()?;
        Some(Comment {
            text: CommentText::Shared {
                buf: Arc::clone(buf),
                start,
                end,
            },
            kind,
        })
    }

    /// A brace comment.
    pub fn brace(text: impl Into<String>) -> Comment {
        Comment::new(text, CommentKind::Brace)
    }

    /// A rest-of-line (`;`) comment.
    pub fn line(text: impl Into<String>) -> Comment {
        Comment::new(text, CommentKind::Line)
    }

    /// The text exactly as read.
    pub fn text(&self) -> &str {
        match &self.text {
            CommentText::Owned(text) => text,
            CommentText::Shared { buf, start, end } => {
                buf.get(*start as usize..*end as usize).unwrap_or_default()
            }
        }
    }

    /// How the comment was written.
    pub fn kind(&self) -> CommentKind {
        self.kind
    }

    /// Replaces the text.
    pub fn set_text(&mut self, text: impl Into<String>) {
        self.text = CommentText::Owned(text.into().into_boxed_str());
    }

    /// Whether the text is only white space.
    pub fn is_blank(&self) -> bool {
        self.text().bytes().all(is_comment_space)
    }

    /// The embedded commands `[%name args]`, in order.
    pub fn commands(&self) -> impl Iterator<Item = Command<'_>> + '_ {
        CommandIter {
            rest: self.text().as_bytes(),
        }
        .map(|(_, c)| c)
    }

    /// The first command named `name`.
    pub fn command(&self, name: &str) -> Option<Command<'_>> {
        self.commands().find(|c| c.name == name)
    }

    /// The text with every command removed and white space runs collapsed.
    pub fn text_without_commands(&self) -> String {
        let mut out = String::new();
        let mut rest = self.text();
        let mut iter = CommandIter {
            rest: rest.as_bytes(),
        };
        while let Some((range, _)) = iter.next() {
            out.push_str(&rest[..range.0]);
            out.push(' ');
            rest = &rest[range.1..];
            iter = CommandIter {
                rest: rest.as_bytes(),
            };
        }
        out.push_str(rest);
        out.split(|c: char| c.is_ascii() && is_comment_space(c as u8))
            .filter(|w| !w.is_empty())
            .collect::<Vec<_>>()
            .join(" ")
    }

    /// The clock after the move, `[%clk 1:05:23]` (fractional seconds allowed).
    pub fn clock(&self) -> Option<Duration> {
        self.command("clk").and_then(|c| parse_duration(c.args))
    }

    /// The elapsed move time, `[%emt 0:00:05]`.
    pub fn emt(&self) -> Option<Duration> {
        self.command("emt").and_then(|c| parse_duration(c.args))
    }

    /// The evaluation, `[%eval 0.25]`, `[%eval #-3]`, `[%eval 0.25,20]`.
    pub fn eval(&self) -> Option<Eval> {
        self.command("eval").and_then(|c| parse_eval(c.args))
    }

    /// Sets the command `[%name args]`: replaces the first one named `name`
    /// in place, or, when there is none, puts it at the front of the text
    /// (as lichess writes `{ [%clk 0:03:00] }`). `None` removes every
    /// command named `name`. Returns whether the text changed.
    ///
    /// ```
    /// use pgnkit_game::Comment;
    /// let mut c = Comment::brace(" good move ");
    /// c.set_command("clk", Some("0:03:00"));
    /// assert_eq!(c.text(), " [%clk 0:03:00] good move ");
    /// c.set_command("clk", Some("0:02:59"));
    /// assert_eq!(c.text(), " [%clk 0:02:59] good move ");
    /// c.set_command("clk", None);
    /// assert_eq!(c.text(), " good move ");
    /// // A text without padding gets it at both ends.
    /// let mut c = Comment::brace("good");
    /// c.set_command("clk", Some("0:03:00"));
    /// assert_eq!(c.text(), " [%clk 0:03:00] good ");
    /// ```
    pub fn set_command(&mut self, name: &str, args: Option<&str>) -> bool {
        let old = self.text();
        let mut out = String::with_capacity(old.len() + 24);
        let mut rest = old;
        let mut done = false;
        loop {
            // The iterator's ranges are relative to the text it starts on.
            let Some(((begin, end), command)) = (CommandIter {
                rest: rest.as_bytes(),
            })
            .next() else {
                out.push_str(rest);
                break;
            };
            if command.name != name {
                out.push_str(&rest[..end]);
                rest = &rest[end..];
                continue;
            }
            match args {
                Some(args) if !done => {
                    out.push_str(&rest[..begin]);
                    push_command(&mut out, name, args);
                    done = true;
                }
                _ => {
                    // Removed with the one space after it (or before it at
                    // the end), so no double space is left.
                    let before = &rest[..begin];
                    let after = &rest[end..];
                    if let Some(after) = after.strip_prefix(' ') {
                        out.push_str(before);
                        rest = after;
                        continue;
                    }
                    out.push_str(before.strip_suffix(' ').unwrap_or(before));
                }
            }
            rest = &rest[end..];
        }
        if let (Some(args), false) = (args, done) {
            let mut front = String::with_capacity(out.len() + 24);
            front.push(' ');
            push_command(&mut front, name, args);
            match out.strip_prefix(' ') {
                Some(text) => {
                    front.push(' ');
                    front.push_str(text);
                }
                None if out.is_empty() => front.push(' '),
                // A text without padding gets it on both ends, as the
                // command at the front has it before (`{ [%clk 0:03:00] good }`).
                None => {
                    front.push(' ');
                    front.push_str(&out);
                    if !out.ends_with(' ') {
                        front.push(' ');
                    }
                }
            }
            out = front;
        }
        let changed = out != old;
        if changed {
            self.set_text(out);
        }
        changed
    }

    /// The highlighted squares (`[%csl ...]`) and arrows (`[%cal ...]`), in
    /// order. Malformed entries are skipped.
    pub fn shapes(&self) -> Vec<Shape> {
        self.commands().flat_map(Command::shapes).collect()
    }
}

impl PartialEq for Comment {
    fn eq(&self, other: &Comment) -> bool {
        self.kind == other.kind && self.text() == other.text()
    }
}

impl Eq for Comment {}

impl Hash for Comment {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.text().hash(state);
        self.kind.hash(state);
    }
}

impl fmt::Debug for Comment {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Comment")
            .field("text", &self.text())
            .field("kind", &self.kind)
            .finish()
    }
}

fn push_command(out: &mut String, name: &str, args: &str) {
    out.push_str("[%");
    out.push_str(name);
    out.push(' ');
    out.push_str(args);
    out.push(']');
}

/// White space in comments: space, TAB, LF, CR, VT and FF.
pub(crate) fn is_comment_space(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | 0x0b | 0x0c)
}

/// The commands `[%name args]` of a comment's text, found in its bytes (so
/// a Latin-1 text works too; a command whose arguments are not UTF-8 is
/// skipped), without allocating.
pub(crate) struct CommandIter<'a> {
    pub(crate) rest: &'a [u8],
}

impl<'a> Iterator for CommandIter<'a> {
    /// Byte range in the text this iterator was started on, and the command.
    type Item = ((usize, usize), Command<'a>);

    fn next(&mut self) -> Option<Self::Item> {
        // Offsets are relative to the start of the text this iterator was
        // built with; `consumed` tracks how far we moved.
        let start_rest = self.rest;
        let mut consumed = 0;
        loop {
            let rest = start_rest.get(consumed..)?;
            let Some(open) = memchr::memmem::find(rest, b"[%") else {
                self.rest = &[];
                return None;
            };
            let after = rest.get(open + 2..).unwrap_or_default();
            let Some(close) = memchr::memchr(b']', after) else {
                self.rest = &[];
                return None;
            };
            let body = after.get(..close).unwrap_or_default();
            let name_len = body
                .iter()
                .position(|&c| !(c.is_ascii_alphanumeric() || c == b'_'))
                .unwrap_or(body.len());
            let begin = consumed + open;
            let end = begin + 2 + close + 1;
            let (name, args) = body.split_at(name_len);
            let (Ok(name), Ok(args)) = (std::str::from_utf8(name), std::str::from_utf8(args))
            else {
                consumed = end;
                continue;
            };
            if name.is_empty() {
                consumed = begin + 2;
                continue;
            }
            let command = Command {
                name,
                args: args.trim(),
            };
            self.rest = start_rest.get(end..).unwrap_or_default();
            // Report the range relative to the original text of this iterator.
            return Some(((begin, end), command));
        }
    }
}

impl<'a> Command<'a> {
    /// The time of a `[%clk]` or `[%emt]` command (`1:05:23`, fractional
    /// seconds allowed); `None` for other commands or a malformed time.
    pub fn duration(&self) -> Option<Duration> {
        match self.name {
            "clk" | "emt" => parse_duration(self.args),
            _ => None,
        }
    }

    /// The evaluation of an `[%eval]` command.
    pub fn eval(&self) -> Option<Eval> {
        match self.name {
            "eval" => parse_eval(self.args),
            _ => None,
        }
    }

    /// The shapes of a `[%csl]` (highlighted squares) or `[%cal]` (arrows)
    /// command, in order, malformed entries skipped; none for other
    /// commands.
    pub fn shapes(self) -> impl Iterator<Item = Shape> + 'a {
        let arrow = match self.name {
            "csl" => Some(false),
            "cal" => Some(true),
            _ => None,
        };
        let args = if arrow.is_some() { self.args } else { "" };
        args.split(',')
            .filter_map(move |item| parse_shape(item.trim().as_bytes(), arrow?))
    }
}

fn parse_duration(text: &str) -> Option<Duration> {
    let mut parts = text.trim().rsplitn(3, ':');
    let seconds = parts.next()?;
    let minutes = parts.next();
    let hours = parts.next();
    let secs: f64 =
        if seconds.bytes().all(|b| b.is_ascii_digit() || b == b'.') && !seconds.is_empty() {
            seconds.parse().ok()?
        } else {
            return None;
        };
    let int = |s: Option<&str>| -> Option<u64> {
        match s {
            None => Some(0),
            Some(s) if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) => s.parse().ok(),
            Some(_) => None,
        }
    };
    let total = int(hours)?.checked_mul(3600)? + int(minutes)?.checked_mul(60)?;
    let millis = (secs * 1000.0).round();
    if !millis.is_finite() || millis > 1e15 {
        return None;
    }
    Some(Duration::from_secs(total) + Duration::from_millis(millis as u64))
}

fn parse_eval(args: &str) -> Option<Eval> {
    let (score, depth) = match args.split_once(',') {
        Some((s, d)) => (s.trim(), Some(d.trim().parse::<u32>().ok()?)),
        None => (args.trim(), None),
    };
    let score = if let Some(mate) = score.strip_prefix('#') {
        Score::Mate(mate.parse().ok()?)
    } else {
        let valid = !score.is_empty()
            && score.bytes().enumerate().all(|(i, b)| {
                b.is_ascii_digit() || b == b'.' || (i == 0 && (b == b'-' || b == b'+'))
            });
        if !valid {
            return None;
        }
        let pawns: f64 = score.parse().ok()?;
        let cp = (pawns * 100.0).round();
        if !cp.is_finite() || cp.abs() > f64::from(i32::MAX) {
            return None;
        }
        Score::Centipawns(cp as i32)
    };
    Some(Eval { score, depth })
}

fn parse_shape(item: &[u8], arrow: bool) -> Option<Shape> {
    let color = match item.first()? {
        b'G' => ShapeColor::Green,
        b'R' => ShapeColor::Red,
        b'Y' => ShapeColor::Yellow,
        b'B' => ShapeColor::Blue,
        _ => return None,
    };
    match (arrow, item.len()) {
        (false, 3) => {
            let sq = parse_square(&item[1..3])?;
            Some(Shape {
                color,
                from: sq,
                to: sq,
            })
        }
        (true, 5) => Some(Shape {
            color,
            from: parse_square(&item[1..3])?,
            to: parse_square(&item[3..5])?,
        }),
        _ => None,
    }
}

fn parse_square(text: &[u8]) -> Option<Square> {
    Square::from_ascii(text)
}

impl Shape {
    /// Whether this is an arrow (`from != to`).
    pub fn is_arrow(&self) -> bool {
        self.from != self.to
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn clock_forms() {
        let c = Comment::brace("[%clk 1:05:23]");
        assert_eq!(c.clock(), Some(Duration::from_secs(3600 + 5 * 60 + 23)));
        assert_eq!(
            Comment::brace("[%clk 0:00:09.5]").clock(),
            Some(Duration::from_millis(9500))
        );
        assert_eq!(Comment::brace("[%clk x]").clock(), None);
        assert_eq!(
            Comment::brace("[%emt 0:00:05]").emt(),
            Some(Duration::from_secs(5))
        );
    }

    #[test]
    fn eval_forms() {
        let e = |s: &str| Comment::brace(s).eval();
        assert_eq!(
            e("[%eval 0.25]"),
            Some(Eval {
                score: Score::Centipawns(25),
                depth: None
            })
        );
        assert_eq!(
            e("[%eval #-3]"),
            Some(Eval {
                score: Score::Mate(-3),
                depth: None
            })
        );
        assert_eq!(
            e("x [%eval 0.25,20] y"),
            Some(Eval {
                score: Score::Centipawns(25),
                depth: Some(20)
            })
        );
        assert_eq!(e("[%eval abc]"), None);
        assert_eq!(e("[%eval ]"), None);
    }

    #[test]
    fn shapes_and_text() {
        let c = Comment::line("a [%csl Ga4,Rb5] [%cal Ge2e4,Xa1a2] b");
        let shapes = c.shapes();
        assert_eq!(shapes.len(), 3);
        assert_eq!(shapes[0].color, ShapeColor::Green);
        assert!(!shapes[0].is_arrow());
        assert!(shapes[2].is_arrow());
        assert_eq!(c.text_without_commands(), "a b");
        assert_eq!(c.kind(), CommentKind::Line);
        let names: Vec<_> = c.commands().map(|c| c.name).collect();
        assert_eq!(names, vec!["csl", "cal"]);
    }

    #[test]
    fn shared_and_owned_comments_are_the_same_value() {
        use std::collections::hash_map::DefaultHasher;
        let hash = |c: &Comment| {
            let mut h = DefaultHasher::new();
            c.hash(&mut h);
            h.finish()
        };
        let buf: Arc<str> = Arc::from("1. e4 { [%clk 0:03:00] } e5 ; rest");
        let shared = Comment::shared(&buf, 7..22, CommentKind::Brace).unwrap();
        let owned = Comment::brace(" [%clk 0:03:00]");
        assert_eq!(shared.text(), " [%clk 0:03:00]");
        assert_eq!(shared, owned);
        assert_eq!(hash(&shared), hash(&owned));
        assert_eq!(format!("{shared:?}"), format!("{owned:?}"));
        assert_eq!(
            format!("{owned:?}"),
            r#"Comment { text: " [%clk 0:03:00]", kind: Brace }"#
        );
        assert_eq!(shared.clock(), Some(Duration::from_secs(180)));
        let line = Comment::shared(&buf, 30..34, CommentKind::Line).unwrap();
        assert_eq!(line, Comment::line("rest"));
        assert_ne!(line, Comment::brace("rest"));
        let mut edited = shared.clone();
        edited.set_text("new");
        assert_eq!(edited.text(), "new");
        assert_eq!(shared.text(), " [%clk 0:03:00]");
    }

    #[test]
    fn shared_ranges_must_lie_on_the_text() {
        let buf: Arc<str> = Arc::from("{é}");
        assert!(Comment::shared(&buf, 1..3, CommentKind::Brace).is_some());
        assert!(Comment::shared(&buf, 1..2, CommentKind::Brace).is_none());
        assert!(Comment::shared(&buf, 1..9, CommentKind::Brace).is_none());
        assert_eq!(Comment::default(), Comment::brace(""));
    }

    #[test]
    fn unterminated_command_is_text() {
        let c = Comment::brace("[% x] [%clk 0:01:00");
        assert_eq!(c.commands().count(), 0);
        assert!(!c.is_blank());
        assert!(Comment::brace(" \t\n").is_blank());
    }
}
