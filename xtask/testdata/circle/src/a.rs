//! Uses `b` through a grouped import.

use crate::{b::B, e};

/// A thing.
pub struct A(pub B, pub e::E);
