//! Uses `a` (above it is fine) and mentions `crate::d` only where it does
//! not count: in a comment, a string, the crate root and its own tests.

use crate::A; // the root re-exports `a::A`: an edge to `a`, above `d`

/// Text.
pub const TEXT: &str = "use crate::e::E; use crate::d::x;";

/// Wraps an `A`.
pub fn wrap(a: A) -> Option<A> {
    Some(a) // crate::e::E
}

#[cfg(test)]
mod tests {
    use crate::e::E;
    use super::*;

    #[test]
    fn counts_nothing() {
        let _ = E;
    }
}
