//! Points, moves, position strings and the text diagram.

use std::cell::RefCell;

use super::board::{col, point, row, Bits, COLS, N, PLACEABLE, ROWS};
use super::movegen::Move;
use super::paths::{canonical_path, single_jump, Canonical};
use super::position::Pos;
use super::tree;
use crate::games::{RuleError, Side};

pub fn point_name(p: usize) -> String {
    let mut s = String::with_capacity(3);
    push_point_name(&mut s, p);
    s
}

/// Appends the point's name; without `format!`, as listing millions of ball moves writes tens
/// of names each.
fn push_point_name(s: &mut String, p: usize) {
    s.push((b'a' + col(p) as u8) as char);
    let r = row(p) as u8;
    if r >= 10 {
        s.push((b'0' + r / 10) as char);
    }
    s.push((b'0' + r % 10) as char);
}

/// `h10`, `H10` → index; anything else → `None`.
pub fn parse_point(text: &str) -> Option<u16> {
    let b = text.as_bytes();
    let (&c, digits) = b.split_first()?;
    let c = c.to_ascii_lowercase();
    if !(b'a'..b'a' + COLS as u8).contains(&c) || digits.is_empty() || digits.len() > 2 {
        return None;
    }
    if digits.len() == 2 && digits[0] == b'0' {
        return None;
    }
    let mut r = 0usize;
    for &d in digits {
        if !d.is_ascii_digit() {
            return None;
        }
        r = r * 10 + (d - b'0') as usize;
    }
    if r >= ROWS {
        return None;
    }
    Some(point((c - b'a') as usize, r) as u16)
}

pub fn format_move(pos: &Pos, mv: Move) -> String {
    match mv {
        Move::Place(p) => point_name(p as usize),
        Move::Jump { to, removed } => {
            // Only a move that is not legal here has no path: still say something readable.
            let path = jump_path(pos, to, &removed).unwrap_or_else(|| vec![to]);
            let mut s = String::with_capacity(4 * (path.len() + 1));
            push_point_name(&mut s, pos.ball as usize);
            for q in path {
                s.push('-');
                push_point_name(&mut s, q as usize);
            }
            s
        }
    }
}

/// Whether `mv` is legal in `pos`, whatever value it holds (a stale or foreign move is simply
/// not legal). A ball move is checked by finding its canonical path, which only walks chains
/// over the move's own men.
pub fn is_legal(pos: &Pos, mv: Move) -> bool {
    match mv {
        Move::Place(p) => {
            let p = p as usize;
            p < N && PLACEABLE.get(p) && p != pos.ball as usize && !pos.men.get(p)
        }
        Move::Jump { to, removed } => {
            (to as usize) < N
                && !removed.is_empty()
                && removed.is_subset(&pos.men)
                && !pos.men.andnot(&removed).get(to as usize)
                && jump_path(pos, to, &removed).is_some()
        }
    }
}

/// The canonical path of a ball move, `None` when it is not legal in `pos`: read off the tree of
/// the position's moves when this thread's last `legal_moves` was for `pos` (what listing all
/// moves relies on), else found by a direct search over this move's states only.
pub(super) fn jump_path(pos: &Pos, to: u16, removed: &Bits) -> Option<Vec<u16>> {
    // Not a move of this position (nor of any, for points off the board); the lookups below
    // index tables by these points.
    if to as usize >= N || !removed.is_subset(&pos.men) {
        return None;
    }
    if let Some(known) = tree::cached_path(pos, to, removed) {
        return known;
    }
    let key = (pos.men, pos.ball, to, *removed);
    let hit = RECENT.with(|r| {
        let r = r.borrow();
        r.iter().find(|(k, _)| *k == key).map(|(_, p)| p.clone())
    });
    if let Some(known) = hit {
        return known;
    }
    let path = match canonical_path(&pos.men, pos.ball, to, removed, usize::MAX) {
        Canonical::Path(p) => Some(p),
        Canonical::Illegal | Canonical::OutOfBudget => None,
    };
    RECENT.with(|r| {
        let mut r = r.borrow_mut();
        if r.len() >= RECENT_PATHS {
            r.remove(0);
        }
        r.push((key, path.clone()));
    });
    path
}

/// Paths found by a direct search lately, per thread: checking a move with [`is_legal`] and
/// then naming it, or naming a search's line at every iteration, asks for the same paths again,
/// and each can take milliseconds in a dense position.
const RECENT_PATHS: usize = 16;

type PathKey = (Bits, u16, u16, Bits);

thread_local! {
    static RECENT: RefCell<Vec<(PathKey, Option<Vec<u16>>)>> = const { RefCell::new(Vec::new()) };
}

/// The move forms a refusal names.
const MOVE_FORMS: &str = "h11 (place a man) or h10-h12-j14 (jump the ball)";

pub fn parse_move(pos: &Pos, text: &str) -> Result<Move, RuleError> {
    let t = text.trim();
    let syntax = || RuleError::Syntax(t.to_string(), MOVE_FORMS);
    if !t.contains('-') {
        let p = parse_point(t).ok_or_else(syntax)?;
        if !PLACEABLE.get(p as usize) {
            return Err(RuleError::Illegal(format!(
                "{t}: men stand on rows 1-19 only"
            )));
        }
        if p == pos.ball || pos.men.get(p as usize) {
            return Err(RuleError::Illegal(format!("{t}: the point is occupied")));
        }
        return Ok(Move::Place(p));
    }
    let mut points = Vec::new();
    for part in t.split('-') {
        points.push(parse_point(part.trim()).ok_or_else(syntax)?);
    }
    let (&start, rest) = points.split_first().ok_or_else(syntax)?;
    if start != pos.ball {
        return Err(RuleError::Illegal(format!(
            "{t}: the ball is on {}",
            point_name(pos.ball as usize)
        )));
    }
    let mut men = pos.men;
    let mut removed = Bits::EMPTY;
    let mut at = start;
    for &q in rest {
        let over = single_jump(&men, at, q).ok_or_else(|| {
            RuleError::Illegal(format!(
                "{t}: no jump from {} to {}",
                point_name(at as usize),
                point_name(q as usize)
            ))
        })?;
        men = men.andnot(&over);
        removed = removed.or(&over);
        at = q;
    }
    Ok(Move::Jump { to: at, removed })
}

pub fn format_position(pos: &Pos) -> String {
    let mut s = String::with_capacity(80);
    for r in (0..ROWS).rev() {
        let mut empty = 0;
        for c in 0..COLS {
            let p = point(c, r);
            let ch = if p == pos.ball as usize {
                'O'
            } else if pos.men.get(p) {
                'X'
            } else {
                empty += 1;
                continue;
            };
            if empty > 0 {
                s.push_str(&empty.to_string());
                empty = 0;
            }
            s.push(ch);
        }
        if empty > 0 {
            s.push_str(&empty.to_string());
        }
        if r > 0 {
            s.push('/');
        }
    }
    s.push(' ');
    s.push(if pos.side == Side::P1 { 'r' } else { 'b' });
    s
}

pub fn parse_position(text: &str) -> Result<Pos, RuleError> {
    let bad = |why: String| RuleError::InvalidPosition(why);
    let mut parts = text.split_whitespace();
    let rows_text = parts
        .next()
        .ok_or_else(|| bad("empty position string".into()))?;
    let side_text = parts
        .next()
        .ok_or_else(|| bad("missing side to move (r or b)".into()))?;
    if parts.next().is_some() {
        return Err(bad("extra text after the side to move".into()));
    }
    let side = match side_text.to_ascii_lowercase().as_str() {
        "r" | "red" => Side::P1,
        "b" | "blue" => Side::P2,
        _ => return Err(bad(format!("side must be r or b, not '{side_text}'"))),
    };
    let rows: Vec<&str> = rows_text.split('/').collect();
    if rows.len() != ROWS {
        return Err(bad(format!("{} rows instead of {ROWS}", rows.len())));
    }
    let mut men = Bits::EMPTY;
    let mut ball = None;
    for (i, row_text) in rows.iter().enumerate() {
        let r = ROWS - 1 - i;
        let mut c = 0usize;
        let mut chars = row_text.bytes().peekable();
        while let Some(ch) = chars.next() {
            match ch {
                b'1'..=b'9' => {
                    let mut n = (ch - b'0') as usize;
                    if let Some(&d) = chars.peek() {
                        if d.is_ascii_digit() {
                            n = n * 10 + (d - b'0') as usize;
                            chars.next();
                        }
                    }
                    c += n;
                }
                b'X' | b'x' | b'O' | b'o' => {
                    if c >= COLS {
                        return Err(bad(format!("row {r} is longer than {COLS} points")));
                    }
                    let p = point(c, r);
                    if ch.eq_ignore_ascii_case(&b'x') {
                        if !PLACEABLE.get(p) {
                            return Err(bad(format!("a man on row {r}: men stand on rows 1-19")));
                        }
                        men.set(p);
                    } else if ball.replace(p as u16).is_some() {
                        return Err(bad("more than one ball".into()));
                    }
                    c += 1;
                }
                _ => {
                    return Err(bad(format!(
                        "unexpected '{}' in row {r}",
                        (ch as char).escape_default()
                    )))
                }
            }
            if c > COLS {
                return Err(bad(format!("row {r} is longer than {COLS} points")));
            }
        }
        if c != COLS {
            return Err(bad(format!("row {r} has {c} points instead of {COLS}")));
        }
    }
    let ball = ball.ok_or_else(|| bad("no ball".into()))?;
    debug_assert!((ball as usize) < N);
    Ok(Pos::new(men, ball, side))
}

pub fn render(pos: &Pos) -> String {
    let letters: String = (0..COLS)
        .map(|c| format!(" {}", (b'a' + c as u8) as char))
        .collect();
    let mut s = format!("   {letters}\n");
    for r in (0..ROWS).rev() {
        s.push_str(&format!("{r:>2} "));
        for c in 0..COLS {
            let p = point(c, r);
            let ch = if p == pos.ball as usize {
                'O'
            } else if pos.men.get(p) {
                'X'
            } else if r == 1 || r == 19 {
                '-'
            } else {
                '.'
            };
            s.push(' ');
            s.push(ch);
        }
        match r {
            19 => s.push_str("  blue's goal line (red scores on 19-20)"),
            1 => s.push_str("  red's goal line (blue scores on 0-1)"),
            _ => {}
        }
        s.push('\n');
    }
    s.push_str(&format!("   {letters}\n"));
    s.push_str(if pos.side == Side::P1 {
        "red to move"
    } else {
        "blue to move"
    });
    s.push_str("\nlegend: O ball, X man, . empty, - empty on a goal line");
    s
}
