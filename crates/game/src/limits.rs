//! The bounds the reader keeps to whatever the input, so that its memory
//! stays bounded: shared by the reader and the diagnostic that reports a
//! bound reached.

/// How deep variations may nest: a `(` that would open a variation inside
/// this many open ones is an error ([`DiagnosticKind::VariationTooDeep`](crate::DiagnosticKind::VariationTooDeep))
/// and the rest of its line is skipped. Each open variation keeps its own
/// positions, so the limit bounds the reader's memory whatever the input;
/// real games stay far below it (the deepest in our corpus nests 14).
pub const MAX_VARIATION_DEPTH: usize = 256;
