//! A leaf that its users reach from above; its test-only helper may look
//! up at `d` without making a circle.

/// A leaf.
pub struct E;

#[cfg(test)]
fn helper() -> &'static str {
    crate::d::TEXT
}
