//! [`Query::matching_plies`](super::Query::matching_plies): the query
//! evaluated as [`eval`](super::eval) does, gathering the plies of the
//! position predicates that decide the selection.

use pgnkit_game::Game;

use super::{Context, Expr, eval};
use crate::positions::Ply;

/// The plies of a selected game (see `Query::matching_plies`), `None` when it is not selected.
pub(super) fn matching(expr: &Expr, game: &Game, context: &Context<'_>) -> Option<Vec<Ply>> {
    let mut plies = Vec::new();
    if !collect(expr, game, context, &mut plies) {
        return None;
    }
    plies.sort_by_key(|p| (!p.main_line, p.ply));
    plies.dedup();
    Some(plies)
}

/// Whether `expr` holds, adding the plies of what made it hold to `out`.
fn collect(expr: &Expr, game: &Game, context: &Context<'_>, out: &mut Vec<Ply>) -> bool {
    match expr {
        Expr::Or(all) => {
            let mut any = false;
            for e in all {
                any |= collect(e, game, context, out);
            }
            any
        }
        Expr::And(all) => {
            let mark = out.len();
            for e in all {
                if !collect(e, game, context, out) {
                    out.truncate(mark);
                    return false;
                }
            }
            true
        }
        Expr::Position(p) => p.plies(game, out),
        other => eval::matches(other, game, context),
    }
}
