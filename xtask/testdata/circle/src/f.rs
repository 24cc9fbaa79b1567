//! A folder's face: holds the type its child implements and uses the child.

mod g;

pub use g::make;

/// A thing the child builds.
pub struct F(pub u8);
