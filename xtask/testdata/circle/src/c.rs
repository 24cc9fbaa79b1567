//! Closes the circle: `c` imports `a`.

use crate::a::A;

/// Seven.
pub fn seven() -> u8 {
    let _unused: Option<A> = None;
    7
}
