//! [`Query::matching_plies`](super::Query::matching_plies): the query
//! evaluated as [`eval`] does, gathering the plies of the
//! position predicates that decide the selection.

use pgnkit_game::Game;

use super::{Context, Expr, eval};
use crate::positions::{Line, Ply, Positional};
use pgnkit_chess::{Move, Position};

/// The plies of a selected game (see `Query::matching_plies`), `None` when it is not selected.
pub(super) fn matching(expr: &Expr, game: &Game, context: &Context<'_>) -> Option<Vec<Ply>> {
    let mut plies = Vec::new();
    if !collect(expr, game, context, &mut plies) {
        return None;
    }
    Some(ordered(plies))
}

/// Whether `expr` reads positions alone, of the main line (see
/// `Query::reads_main_line_positions_only`).
pub(super) fn main_line_positions_only(expr: &Expr) -> bool {
    match expr {
        Expr::Or(all) | Expr::And(all) => all.iter().all(main_line_positions_only),
        Expr::Not(a) => main_line_positions_only(a),
        Expr::Position(p) => !p.variations,
        _ => false,
    }
}

/// [`matching`] for a query that [`main_line_positions_only`] accepts, on a
/// start position and the main line's moves.
pub(super) fn matching_in_moves(expr: &Expr, start: &Position, moves: &[Move]) -> Option<Vec<Ply>> {
    let mut plies = Vec::new();
    if !collect_in_moves(expr, start, moves, &mut plies) {
        return None;
    }
    Some(ordered(plies))
}

fn collect_in_moves(expr: &Expr, start: &Position, moves: &[Move], out: &mut Vec<Ply>) -> bool {
    match expr {
        Expr::Or(all) => {
            let mut any = false;
            for e in all {
                any |= collect_in_moves(e, start, moves, out);
            }
            any
        }
        Expr::And(all) => {
            let mark = out.len();
            for e in all {
                if !collect_in_moves(e, start, moves, out) {
                    out.truncate(mark);
                    return false;
                }
            }
            true
        }
        Expr::Not(a) => !collect_in_moves(a, start, moves, &mut Vec::new()),
        Expr::Position(p) => p.plies(Line::Moves(start, moves), out),
        // Not reached: `main_line_positions_only` accepts no other node.
        _ => false,
    }
}

/// The position predicates of `expr`, in the order [`matching_followed`] reads their plies.
pub(super) fn leaves<'e>(expr: &'e Expr, out: &mut Vec<&'e Positional>) {
    match expr {
        Expr::Or(all) | Expr::And(all) => all.iter().for_each(|e| leaves(e, out)),
        Expr::Not(a) => leaves(a, out),
        Expr::Position(p) => out.push(p),
        _ => {}
    }
}

/// [`matching_in_moves`] from the plies each predicate of [`leaves`] found
/// (a [`Follower`](crate::positions::Follower) each, in that order).
pub(super) fn matching_followed(expr: &Expr, found: &[&[Ply]]) -> Option<Vec<Ply>> {
    let mut plies = Vec::new();
    let mut next = 0;
    if !collect_followed(expr, found, &mut next, &mut plies) {
        return None;
    }
    Some(ordered(plies))
}

/// Whether `expr` selects the game, when the answers known of its
/// predicates (`known`, in [`leaves`] order: found for good, never found,
/// `None` while open) already decide it whatever the rest of the game: an
/// `and` with a predicate never found, an `or` with one found, a `not` of
/// what is decided. `None` while the answer may still change.
pub(super) fn decided(expr: &Expr, known: &[Option<bool>], next: &mut usize) -> Option<bool> {
    match expr {
        Expr::Or(all) | Expr::And(all) => {
            // Every node is visited, so that `next` walks the predicates in order.
            let is_or = matches!(expr, Expr::Or(_));
            let mut open = false;
            let mut settled = false;
            for e in all {
                match decided(e, known, next) {
                    Some(b) if b == is_or => settled = true,
                    Some(_) => {}
                    None => open = true,
                }
            }
            if settled {
                Some(is_or)
            } else if open {
                None
            } else {
                Some(!is_or)
            }
        }
        Expr::Not(a) => decided(a, known, next).map(|b| !b),
        Expr::Position(_) => {
            let answer = known.get(*next).copied().flatten();
            *next += 1;
            answer
        }
        // Not reached: `main_line_positions_only` accepts no other node.
        _ => None,
    }
}

/// [`collect_in_moves`] with the predicates' plies given: every node is
/// visited (no short cut), so that `next` walks the predicates in order.
fn collect_followed(expr: &Expr, found: &[&[Ply]], next: &mut usize, out: &mut Vec<Ply>) -> bool {
    match expr {
        Expr::Or(all) => {
            let mut any = false;
            for e in all {
                any |= collect_followed(e, found, next, out);
            }
            any
        }
        Expr::And(all) => {
            let mark = out.len();
            let mut every = true;
            for e in all {
                every &= collect_followed(e, found, next, out);
            }
            if !every {
                out.truncate(mark);
            }
            every
        }
        Expr::Not(a) => !collect_followed(a, found, next, &mut Vec::new()),
        Expr::Position(_) => {
            let plies = found.get(*next).copied().unwrap_or_default();
            *next += 1;
            out.extend_from_slice(plies);
            !plies.is_empty()
        }
        // Not reached: `main_line_positions_only` accepts no other node.
        _ => false,
    }
}

/// Plies in order, main line first, each once.
fn ordered(mut plies: Vec<Ply>) -> Vec<Ply> {
    plies.sort_by_key(|p| (!p.main_line, p.ply));
    plies.dedup();
    plies
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
        Expr::Position(p) => p.plies(Line::Tree(game), out),
        other => eval::matches(other, game, context),
    }
}
