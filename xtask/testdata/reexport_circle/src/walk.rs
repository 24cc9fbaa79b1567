//! A folder's face: re-exports its child's type and brings in `Help` from
//! `mid` for its child.

mod step;

#[allow(unused_imports)]
use crate::mid::Help;
pub use step::Step;
