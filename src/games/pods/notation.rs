//! Move notation: `A@c3` (placement) and `c3-c5` (advanced move along a leg).

use super::board::{parse_point, point_name};
use super::movegen::PodsMove;
use super::position::{describe, pod_char, Pos};
use super::Pods;
use crate::games::{MoveInput, RuleError};

pub fn format(mv: PodsMove) -> String {
    match mv {
        PodsMove::Place { pod, to } => {
            format!(
                "{}@{}",
                pod_char(0, usize::from(pod)),
                point_name(usize::from(to))
            )
        }
        PodsMove::Step { from, to } => {
            format!(
                "{}-{}",
                point_name(usize::from(from)),
                point_name(usize::from(to))
            )
        }
    }
}

/// A placement is entered by choosing the pod from the hand, then its point; a step by its two
/// points.
pub fn input(mv: PodsMove) -> MoveInput {
    match mv {
        PodsMove::Place { pod, to } => MoveInput {
            piece: Some(pod_char(0, usize::from(pod)).to_string()),
            points: vec![point_name(usize::from(to))],
        },
        PodsMove::Step { from, to } => MoveInput {
            piece: None,
            points: vec![point_name(usize::from(from)), point_name(usize::from(to))],
        },
    }
}

/// The move the text names, legal or not; `None` when it is not Pods notation.
pub fn read(text: &str) -> Option<PodsMove> {
    let t = text.trim();
    if let Some((pod, point)) = t.split_once('@') {
        let mut chars = pod.trim().chars();
        let letter = match (chars.next(), chars.next()) {
            (Some(c), None) if ('A'..='N').contains(&c.to_ascii_uppercase()) => {
                c.to_ascii_uppercase() as u8 - b'A'
            }
            _ => return None,
        };
        let to = parse_point(point.trim())?;
        return Some(PodsMove::Place {
            pod: letter,
            to: to as u8,
        });
    }
    let (from, to) = match t.split_once('-') {
        Some((a, b)) => (a.trim(), b.trim()),
        None if t.len() == 4 && t.is_ascii() => t.split_at(2),
        None => return None,
    };
    Some(PodsMove::Step {
        from: parse_point(from)? as u8,
        to: parse_point(to)? as u8,
    })
}

pub fn parse(game: &Pods, pos: &Pos, text: &str) -> Result<PodsMove, RuleError> {
    let forms = if game.advanced() {
        "A@c3 (place pod A) or c3-c5 (move along a leg)"
    } else {
        "A@c3 (place pod A on c3)"
    };
    let mv = read(text).ok_or_else(|| RuleError::Syntax(text.trim().to_string(), forms))?;
    let mut legal = Vec::new();
    game.tables.gen_moves(pos, game.advanced(), &mut legal);
    if legal.contains(&mv) {
        return Ok(mv);
    }
    Err(RuleError::Illegal(why_illegal(game, pos, mv)))
}

/// The first rule the move breaks, in words.
fn why_illegal(game: &Pods, pos: &Pos, mv: PodsMove) -> String {
    let t = &game.tables;
    let colour = usize::from(pos.side);
    let enemy = colour ^ 1;
    let g = t.geo(pos);
    let name = format(mv);
    match mv {
        PodsMove::Place { pod, to } => {
            let (letter, q) = (usize::from(pod), usize::from(to));
            if pos.hand[colour] & (1 << letter) == 0 {
                return format!("{name}: pod {} is not in hand", pod_char(colour, letter));
            }
            if t.placeable_hand(pos, colour) & (1 << letter) == 0 {
                return format!("{name}: the first move must place a bipod (A or B)");
            }
            if pos.all() & (1 << q) != 0 {
                return format!("{name}: {} is occupied", describe(pos, q));
            }
            if t.attacks(pos, enemy) & (1 << q) != 0 {
                return format!("{name}: {} is attacked by an enemy pod", point_name(q));
            }
            let v = t.point_view(g, pos, q, enemy);
            let m = t.legs[colour][letter];
            if (m.short & v.hit_short) | (m.long & v.hit_long) != 0 {
                return format!("{name}: the pod would attack an enemy pod");
            }
            if !game.advanced() && m.all & v.free == 0 {
                return format!("{name}: all legs of the pod would be blocked");
            }
            format!("{name} is not legal here")
        }
        PodsMove::Step { from, to } => {
            let (p, q) = (usize::from(from), usize::from(to));
            if !game.advanced() {
                return format!("{name}: pods never move in standard Pods");
            }
            match pos.pod_at(p) {
                Some((c, _)) if c == colour => {}
                _ => return format!("{name}: no pod of the side to move on {}", point_name(p)),
            }
            if pos.all() & (1 << q) != 0 {
                return format!("{name}: {} is occupied", describe(pos, q));
            }
            format!(
                "{name}: the pod on {} cannot reach {} along a leg",
                point_name(p),
                point_name(q)
            )
        }
    }
}
