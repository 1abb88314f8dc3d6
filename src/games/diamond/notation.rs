//! Move notation: `e4`, `e3-e4`, `e3-e4*`, `(b3)`, `swap`.

use super::board::{adj, parse_point, point_name, PointSet};
use super::movegen::{is_legal, placing, removable, step_capture, Move};
use super::position::{Pos, BLACK};
use crate::games::RuleError;

pub fn format_move(pos: &Pos, mv: Move) -> String {
    match mv {
        Move::Place(p) => point_name(p as usize),
        Move::Swap => "swap".to_string(),
        Move::Remove(n) => format!("({})", point_name(n as usize)),
        Move::Step(from, to) => {
            let star = if step_capture(pos, from as usize, to as usize).is_some() {
                "*"
            } else {
                ""
            };
            format!(
                "{}-{}{}",
                point_name(from as usize),
                point_name(to as usize),
                star
            )
        }
    }
}

fn side_name(pos: &Pos) -> &'static str {
    if pos.stm == BLACK {
        "black"
    } else {
        "white"
    }
}

/// The move forms a refusal names.
const MOVE_FORMS: &str = "e4 (place), e3-e4 (step), (b3) (remove) or swap";

/// Reads a move leniently (case, surrounding blanks, an optional `*`, `-` optional between the
/// points of a step) and returns it only if it is legal, else says why not.
pub fn parse_move(pos: &Pos, text: &str) -> Result<Move, RuleError> {
    let t = text.trim().to_ascii_lowercase();
    let syntax = || RuleError::Syntax(text.trim().to_string(), MOVE_FORMS);
    let illegal = |why: String| RuleError::Illegal(format!("{}: {why}", text.trim()));
    if t == "swap" {
        if pos.is_swap_turn() {
            return Ok(Move::Swap);
        }
        return Err(illegal(
            "swap is legal only on White's first turn, after Black's first placement".into(),
        ));
    }
    if let Some(inner) = t.strip_prefix('(').and_then(|s| s.strip_suffix(')')) {
        let n = parse_point(inner.trim()).ok_or_else(syntax)?;
        let mv = Move::Remove(n as u8);
        if is_legal(pos, mv) {
            return Ok(mv);
        }
        let why = if placing(pos) {
            format!(
                "{} must place a piece ({} in hand)",
                side_name(pos),
                pos.hand[pos.stm]
            )
        } else if !pos.neutral.has(n) {
            format!("no neutral piece on {}", point_name(n))
        } else if !removable(pos).has(n) {
            format!(
                "a piece is adjacent to the neutral piece on {}",
                point_name(n)
            )
        } else {
            "not a legal removal".into()
        };
        return Err(illegal(why));
    }
    let (body, star) = match t.strip_suffix('*') {
        Some(b) => (b.trim_end(), true),
        None => (t.as_str(), false),
    };
    if let Some(p) = parse_point(body) {
        if star {
            return Err(illegal("a placement never captures".into()));
        }
        let mv = Move::Place(p as u8);
        if is_legal(pos, mv) {
            return Ok(mv);
        }
        let why = if !placing(pos) {
            format!("{} has no pieces in hand and must move", side_name(pos))
        } else {
            format!("{} is occupied", point_name(p))
        };
        return Err(illegal(why));
    }
    let (a, b) = split_step(body).ok_or_else(syntax)?;
    let from = parse_point(a).ok_or_else(syntax)?;
    let to = parse_point(b).ok_or_else(syntax)?;
    let mv = Move::Step(from as u8, to as u8);
    if !is_legal(pos, mv) {
        let why = if placing(pos) {
            format!(
                "{} must place a piece ({} in hand)",
                side_name(pos),
                pos.hand[pos.stm]
            )
        } else if !pos.pieces[pos.stm].has(from) {
            format!("no {} piece on {}", side_name(pos), point_name(from))
        } else if !adj(from).has(to) {
            format!(
                "{} and {} are not joined by a line",
                point_name(from),
                point_name(to)
            )
        } else {
            format!("{} is occupied", point_name(to))
        };
        return Err(illegal(why));
    }
    if star && step_capture(pos, from, to).is_none() {
        return Err(illegal("the step captures nothing".into()));
    }
    Ok(mv)
}

/// `e3-e4`, `e3 e4` or `e3e4` → the two point texts.
fn split_step(body: &str) -> Option<(&str, &str)> {
    if let Some((a, b)) = body.split_once('-') {
        return Some((a.trim(), b.trim()));
    }
    if let Some((a, b)) = body.split_once(' ') {
        return Some((a.trim(), b.trim()));
    }
    if body.len() == 4 && body.is_char_boundary(2) {
        return Some(body.split_at(2));
    }
    None
}
