//! Criterion benchmarks of pgnkit-chess (perft, SAN).

fn main() {}
