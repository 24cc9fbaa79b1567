//! A fixture crate for the tidy tests: `a -> b -> c -> a` is a circle;
//! `d` and `e` are not in one.

mod a;
mod b;
mod c;
mod d;
mod e;
mod f;

pub use a::A;
