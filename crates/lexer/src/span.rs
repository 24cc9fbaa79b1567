//! Byte spans and the line index that turns a byte offset into a line and column.

use std::ops::Range;
use std::sync::OnceLock;

/// A half-open range of byte offsets `start..end` into the slice given to the lexer (for a game
/// from a splitter: into [`RawGame::bytes`](crate::RawGame::bytes); add
/// [`RawGame::offset`](crate::RawGame::offset) for a file offset).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Span {
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

impl Span {
    /// The span `start..end`.
    #[inline]
    pub const fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }

    /// Number of bytes.
    #[inline]
    pub const fn len(self) -> usize {
        self.end.saturating_sub(self.start)
    }

    /// Whether the span holds no byte.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.end <= self.start
    }

    /// The span as a range, for slicing.
    #[inline]
    pub const fn range(self) -> Range<usize> {
        self.start..self.end
    }

    /// The bytes of `input` this span covers (empty if it lies outside `input`).
    #[inline]
    pub fn slice(self, input: &[u8]) -> &[u8] {
        input.get(self.range()).unwrap_or_default()
    }
}

impl From<Range<usize>> for Span {
    fn from(r: Range<usize>) -> Span {
        Span::new(r.start, r.end)
    }
}

/// A 1-based line and column.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LineCol {
    /// 1-based line number (LF, CR LF and a lone CR each end a line).
    pub line: u64,
    /// 1-based column, counted in characters: UTF-8 characters when the whole input is valid
    /// UTF-8, else bytes (Latin-1).
    pub column: u64,
}

/// Turns byte offsets of one input into lines and columns.
///
/// Building it costs nothing; the table of line starts is computed the first time a position
/// is asked for (normally only when a diagnostic is rendered).
///
/// ```
/// use pgnkit_lexer::{LineCol, LineIndex};
/// let index = LineIndex::new("[Event \"é\"]\r\n1. e4 *".as_bytes());
/// assert_eq!(index.line_col(15), LineCol { line: 2, column: 2 });
/// assert_eq!(index.line_col(10), LineCol { line: 1, column: 10 }); // `é` is one character
/// ```
#[derive(Debug)]
pub struct LineIndex<'a> {
    input: &'a [u8],
    first_line: u64,
    table: OnceLock<Table>,
}

#[derive(Debug)]
struct Table {
    /// Offset of the first byte of every line.
    starts: Vec<usize>,
    utf8: bool,
}

impl<'a> LineIndex<'a> {
    /// An index over `input`, whose first byte is on line 1.
    pub fn new(input: &'a [u8]) -> LineIndex<'a> {
        LineIndex::with_first_line(input, 1)
    }

    /// An index over `input` whose first byte is on line `first_line` (e.g.
    /// [`RawGame::line`](crate::RawGame::line), to report file lines for a game's offsets).
    pub fn with_first_line(input: &'a [u8], first_line: u64) -> LineIndex<'a> {
        LineIndex {
            input,
            first_line,
            table: OnceLock::new(),
        }
    }

    fn table(&self) -> &Table {
        self.table.get_or_init(|| {
            let mut starts = vec![0];
            let input = self.input;
            for i in memchr::memchr2_iter(b'\n', b'\r', input) {
                if input.get(i) == Some(&b'\r') && input.get(i + 1) == Some(&b'\n') {
                    continue; // the LF ends this line
                }
                starts.push(i + 1);
            }
            Table {
                starts,
                utf8: std::str::from_utf8(input).is_ok(),
            }
        })
    }

    /// Whether columns are counted in UTF-8 characters (the input is valid UTF-8).
    pub fn is_utf8(&self) -> bool {
        self.table().utf8
    }

    /// The line and column of byte `offset` (offsets past the end are clamped to the end).
    pub fn line_col(&self, offset: usize) -> LineCol {
        let table = self.table();
        let offset = offset.min(self.input.len());
        let line = table.starts.partition_point(|&s| s <= offset).max(1);
        let start = table.starts.get(line - 1).copied().unwrap_or(0);
        let before = self.input.get(start..offset).unwrap_or_default();
        let chars = if table.utf8 {
            before.iter().filter(|&&b| (b as i8) >= -0x40).count()
        } else {
            before.len()
        };
        LineCol {
            line: self.first_line + line as u64 - 1,
            column: chars as u64 + 1,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_with_all_line_ends() {
        let input = b"a\nb\r\nc\rd";
        let index = LineIndex::new(input);
        assert_eq!(index.line_col(0), LineCol { line: 1, column: 1 });
        assert_eq!(index.line_col(2), LineCol { line: 2, column: 1 });
        assert_eq!(index.line_col(3), LineCol { line: 2, column: 2 });
        assert_eq!(index.line_col(5), LineCol { line: 3, column: 1 });
        assert_eq!(index.line_col(7), LineCol { line: 4, column: 1 });
        assert_eq!(index.line_col(100), LineCol { line: 4, column: 2 });
    }

    #[test]
    fn latin1_counts_bytes_and_first_line_shifts() {
        let input = b"x\n\xe9\xe9z";
        let index = LineIndex::with_first_line(input, 10);
        assert!(!index.is_utf8());
        assert_eq!(
            index.line_col(4),
            LineCol {
                line: 11,
                column: 3
            }
        );
        let utf8 = LineIndex::new("x\néé z".as_bytes());
        assert!(utf8.is_utf8());
        assert_eq!(utf8.line_col(7), LineCol { line: 2, column: 4 });
    }

    #[test]
    fn span_basics() {
        let s = Span::new(2, 5);
        assert_eq!(s.len(), 3);
        assert!(!s.is_empty());
        assert_eq!(s.slice(b"abcdefg"), b"cde");
        assert_eq!(Span::new(5, 9).slice(b"abc"), b"");
        assert_eq!(Span::from(1..1).len(), 0);
    }
}
