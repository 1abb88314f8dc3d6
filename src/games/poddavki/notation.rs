//! Move notation: capture paths, canonical output, lenient input.
//!
//! Moves carry no path, so the paths of a capture are enumerated again here, by the move
//! generator's own capture search (`movegen::piece_captures`) recording where the piece lands.

use super::board::{file_of, rank_of, square_at, Move, Position};
use super::movegen::{legal_moves, piece_captures, CaptureSink};
use crate::games::RuleError;

pub fn square_name(s: usize) -> String {
    let mut out = String::with_capacity(2);
    push_square(&mut out, s);
    out
}

/// Appends a square's name (no `format!`: notation is written per legal move listed).
fn push_square(out: &mut String, s: usize) {
    out.push((b'a' + file_of(s) as u8) as char);
    out.push((b'1' + rank_of(s) as u8) as char);
}

/// A square token such as `c3` (already lower-case): `None` when it is not a square name at all,
/// `Some(Err)` for a light square.
fn parse_square_token(tok: &str) -> Option<Result<usize, RuleError>> {
    let &[f @ b'a'..=b'h', r @ b'1'..=b'8'] = tok.as_bytes() else {
        return None;
    };
    let (f, r) = ((f - b'a') as i32, (r - b'1') as i32);
    Some(square_at(f, r).ok_or_else(|| {
        RuleError::Illegal(format!(
            "{tok} is a light square; only dark squares are used"
        ))
    }))
}

/// One capture sequence: the move it makes and every square the piece stands on, start first.
#[derive(Clone, Debug)]
pub struct CapturePath {
    pub mv: Move,
    pub squares: Vec<usize>,
}

/// Collects every path of one piece's captures, for writing and reading them.
struct PathSink {
    /// The squares the piece has stood on so far, start first.
    path: Vec<usize>,
    out: Vec<CapturePath>,
}

impl CaptureSink for PathSink {
    fn enter(&mut self, sq: usize) {
        self.path.push(sq);
    }

    fn leave(&mut self) {
        self.path.pop();
    }

    fn emit(&mut self, mv: Move) {
        let mut squares = self.path.clone();
        squares.push(mv.to as usize);
        self.out.push(CapturePath { mv, squares });
    }
}

/// Every capture path of the piece on `from` (belonging to the side to move).
pub fn capture_paths(pos: &Position, from: usize) -> Vec<CapturePath> {
    if from >= 32 || pos.pieces[pos.stm] >> from & 1 == 0 {
        return Vec::new();
    }
    let mut sink = PathSink {
        path: vec![from],
        out: Vec::new(),
    };
    piece_captures(pos, from, &mut sink);
    sink.out
}

fn path_string(squares: &[usize]) -> String {
    let mut out = String::with_capacity(squares.len() * 3);
    for (k, &s) in squares.iter().enumerate() {
        if k > 0 {
            out.push(':');
        }
        push_square(&mut out, s);
    }
    out
}

/// Canonical notation: `c3-d4`, or the lexicographically smallest path of a capture.
pub fn format_move(pos: &Position, mv: Move) -> String {
    if !mv.is_capture() {
        let mut out = String::with_capacity(5);
        push_square(&mut out, mv.from as usize);
        out.push('-');
        push_square(&mut out, mv.to as usize);
        return out;
    }
    capture_paths(pos, mv.from as usize)
        .into_iter()
        .filter(|p| p.mv == mv)
        .map(|p| path_string(&p.squares))
        .min()
        .unwrap_or_else(|| {
            // Not reachable for a legal move; still a readable answer rather than a panic.
            format!(
                "{}:{}",
                square_name(mv.from as usize),
                square_name(mv.to as usize)
            )
        })
}

fn side_name(side: usize) -> &'static str {
    if side == 0 {
        "white"
    } else {
        "black"
    }
}

/// The move forms a refusal names.
const MOVE_FORMS: &str = "c3-d4 or c3:e5";

/// Lenient parse: any full path (`:` or `x` between squares), and the short form `from:to`,
/// `fromxto` or `from-to` when exactly one legal move starts and ends there; case and
/// surrounding whitespace do not matter.
pub fn parse_move(pos: &Position, text: &str) -> Result<Move, RuleError> {
    let t = text.trim().to_ascii_lowercase();
    let syntax = || RuleError::Syntax(text.trim().chars().take(64).collect(), MOVE_FORMS);
    // One square alone (`e4`, another game's placement) is no move here, light square or not.
    if t.is_empty() || t.len() > 200 || !t.contains([':', 'x', '-']) {
        return Err(syntax());
    }
    // `-` marks a quiet move or the short form of a capture, never a longer path.
    let dashed = t.contains('-');
    let mut squares = Vec::new();
    for tok in t.split([':', 'x', '-']) {
        match parse_square_token(tok) {
            None => return Err(syntax()),
            Some(Err(e)) => return Err(e),
            Some(Ok(s)) => squares.push(s),
        }
    }
    let (from, to) = match (squares.first(), squares.last()) {
        (Some(&f), Some(&l)) if squares.len() == 2 || (squares.len() > 2 && !dashed) => (f, l),
        _ => return Err(syntax()),
    };
    let us = pos.stm;
    if pos.pieces[us] >> from & 1 == 0 {
        let what = if pos.pieces[us ^ 1] >> from & 1 != 0 {
            format!(
                "the piece on {} is not {}'s",
                square_name(from),
                side_name(us)
            )
        } else {
            format!("no piece on {}", square_name(from))
        };
        return Err(RuleError::Illegal(what));
    }
    let mut legal = Vec::new();
    legal_moves(pos, &mut legal);
    let starts_and_ends = |m: &&Move| m.from as usize == from && m.to as usize == to;
    if !legal.first().is_some_and(|m| m.is_capture()) {
        if squares.len() > 2 {
            return Err(RuleError::Illegal(format!(
                "{t}: there is nothing to capture"
            )));
        }
        return legal.iter().find(starts_and_ends).copied().ok_or_else(|| {
            RuleError::Illegal(format!(
                "the piece on {} cannot move to {}",
                square_name(from),
                square_name(to)
            ))
        });
    }
    let paths = capture_paths(pos, from);
    if paths.is_empty() {
        return Err(RuleError::Illegal(format!(
            "capture is compulsory and the piece on {} cannot capture",
            square_name(from)
        )));
    }
    if !dashed {
        if let Some(p) = paths.iter().find(|p| p.squares == squares) {
            return Ok(p.mv);
        }
    }
    if squares.len() > 2 {
        return Err(RuleError::Illegal(format!(
            "{t} is not the path of a legal capture"
        )));
    }
    let mut hits = legal.iter().filter(starts_and_ends);
    match (hits.next(), hits.next()) {
        (Some(&m), None) => Ok(m),
        (Some(_), Some(_)) => Err(RuleError::Ambiguous(t)),
        _ => Err(RuleError::Illegal(format!(
            "no capture from {} ends on {}",
            square_name(from),
            square_name(to)
        ))),
    }
}
