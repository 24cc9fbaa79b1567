//! A leaf: what a span is.

/// A byte range.
pub struct Span(pub u8);
