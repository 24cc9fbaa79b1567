//! Builds its parent's type: a child looking up at its face is no circle.

use super::F;

/// Builds an `F`.
pub fn make() -> F {
    F(crate::f::F(1).0)
}
