//! Holds `Help` and names the walk's step through the folder's re-export.

use crate::walk::Step;

/// Help for a step.
pub struct Help;

/// No step yet.
pub fn first() -> Option<Step> {
    None
}
