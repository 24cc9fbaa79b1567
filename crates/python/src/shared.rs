//! A game's data as Python objects share it: one `pgnkit_game::Game` behind
//! a lock, held by the `Game` object, its nodes and its `Headers`.

use std::sync::{Arc, RwLock, RwLockReadGuard, RwLockWriteGuard};

use pgnkit::game::Game as CoreGame;

/// A game's data, shared by its `Game` object, its nodes and its headers.
pub type Shared = Arc<RwLock<CoreGame>>;

/// Reads the game (a poisoned lock still holds a whole game: every write is one call).
pub fn read_lock(game: &Shared) -> RwLockReadGuard<'_, CoreGame> {
    game.read().unwrap_or_else(|e| e.into_inner())
}

/// Writes the game.
pub fn write_lock(game: &Shared) -> RwLockWriteGuard<'_, CoreGame> {
    game.write().unwrap_or_else(|e| e.into_inner())
}
