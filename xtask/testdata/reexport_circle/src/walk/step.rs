//! Reaches `Help` through its parent's `use`: `super::Help` is `mid`'s.

/// A step that needs help.
pub struct Step(pub super::Help);
