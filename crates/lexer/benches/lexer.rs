//! Throughput of the lexer crate (placeholder until the bench file is wired in).

fn main() {}
