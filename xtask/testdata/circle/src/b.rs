//! Uses `c` through a path in code, not an import.

/// B holds a number from `c`.
pub struct B(pub u8);

impl B {
    /// Asks `c`.
    pub fn new() -> B {
        B(crate::c::seven())
    }
}
