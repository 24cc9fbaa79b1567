//! A fixture crate for the tidy tests: two circles that show only when a
//! path is followed through re-exports to the module that defines its name.
//!
//! - `pass -> split -> pass`: `split` names `crate::Pass` (the root's alias
//!   of `pass::Tokenized`) and `pass` names `crate::{Raw, Span}` (the root's
//!   re-export of `split::Raw`; `Span` comes from `span` through a glob).
//! - `mid -> walk::step -> mid`: `mid` names `crate::walk::Step` (the
//!   folder's re-export of its child's type) and `walk::step` names
//!   `super::Help` (its parent's private `use` of `mid::Help`).
//!
//! `span` is a leaf that anyone may use.

mod mid;
mod pass;
mod span;
mod split;
mod walk;

pub use pass::Tokenized as Pass;
pub use split::{Raw, Splitter};
use span::*;
