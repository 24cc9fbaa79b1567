//! The `pgnkit` command (work in progress; see crates/cli).

fn main() {}
