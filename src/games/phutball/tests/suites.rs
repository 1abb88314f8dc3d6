//! Hand-built tactical suites for the search, as data (`suites.txt`) plus checkers:
//!
//! - [`SCORE_IN_ONE`]: the side to move scores with one ball move (some chains need four or more
//!   jumps, some pass near or through the mover's own goal, where stopping early loses);
//! - [`STOP_THE_THREAT`]: the opponent would score next move and a placement stops every such
//!   chain (the named one; others may exist).
//!
//! Each pattern is given for Red and, mirrored top to bottom, for Blue, and where it is not
//! symmetric also mirrored left to right. The checkers verify every claim by brute force over
//! legal moves, so that they can be reused against `genmove`.

use std::sync::LazyLock;

use super::movegen::Move;
use super::tactics::is_own_goal;
use super::{Phutball, Pos};
use crate::games::prelude::*;
use crate::games::{Outcome, Side};

/// A "score in one" position.
pub struct ScoreInOne {
    pub name: &'static str,
    pub position: &'static str,
    /// Fewest jumps of any scoring chain.
    pub min_jumps: u32,
    /// Some ball move available here ends on the mover's own goal (and loses).
    pub own_goal_trap: bool,
}

/// A "stop the threat" position.
pub struct StopTheThreat {
    pub name: &'static str,
    pub position: &'static str,
    /// A placement that stops every scoring chain of the opponent.
    pub stopper: &'static str,
}

/// The suites' data: positions are long, and as text they are one line each.
const DATA: &str = include_str!("suites.txt");

/// The lines of `DATA` whose first word is `kind`, split into `fields` words and the rest of the
/// line (the position, which holds a space).
fn entries(
    kind: &str,
    fields: usize,
) -> impl Iterator<Item = (Vec<&'static str>, &'static str)> + '_ {
    DATA.lines()
        .filter(move |l| l.split(' ').next() == Some(kind))
        .map(move |l| {
            let mut parts = l.splitn(fields + 2, ' ').skip(1);
            let words: Vec<&str> = parts.by_ref().take(fields).collect();
            let position = parts.next().filter(|_| words.len() == fields);
            (
                words,
                position.unwrap_or_else(|| panic!("suites.txt: short line {l:?}")),
            )
        })
}

pub static SCORE_IN_ONE: LazyLock<Vec<ScoreInOne>> = LazyLock::new(|| {
    entries("score", 3)
        .map(|(w, position)| ScoreInOne {
            name: w[0],
            position,
            min_jumps: w[1].parse().expect("suites.txt: fewest jumps"),
            own_goal_trap: match w[2] {
                "own-goal" => true,
                "-" => false,
                other => panic!("suites.txt: {}: trap {other:?}", w[0]),
            },
        })
        .collect()
});

pub static STOP_THE_THREAT: LazyLock<Vec<StopTheThreat>> = LazyLock::new(|| {
    entries("stop", 2)
        .map(|(w, position)| StopTheThreat {
            name: w[0],
            position,
            stopper: w[1],
        })
        .collect()
});

/// True when after `mv` (by the side to move in `pos`) the opponent has no move that wins at
/// once: brute force over his legal replies.
pub fn stops_threat(game: &Phutball, pos: &Pos, mv: Move) -> bool {
    let child = game.make(pos, mv);
    if let Some(t) = game.terminal(&child) {
        return t.outcome == Outcome::Win(pos.side);
    }
    !wins_at_once(game, &child)
}

/// True when the side to move has a legal move after which it has won (brute force).
pub fn wins_at_once(game: &Phutball, pos: &Pos) -> bool {
    let mut moves = Vec::new();
    game.legal_moves(pos, &mut moves);
    moves.iter().any(|&m| {
        game.terminal(&game.make(pos, m)).map(|t| t.outcome) == Some(Outcome::Win(pos.side))
    })
}

fn other_to_move(pos: &Pos) -> Pos {
    Pos::new(pos.men, pos.ball, pos.side.other())
}

/// Fewest jumps in a scoring chain, by a breadth-first search over single jumps (independent of
/// the move generator's chain search).
pub fn min_scoring_jumps(pos: &Pos) -> Option<u32> {
    use super::board::{Bits, NONE, STEP};
    use std::collections::HashSet;
    let target = super::movegen::scoring_rows(pos.side);
    let mut layer: Vec<(u16, Bits)> = vec![(pos.ball, pos.men)];
    let mut seen: HashSet<(u16, Bits)> = layer.iter().copied().collect();
    for depth in 1..=super::board::N as u32 {
        let mut next = Vec::new();
        for &(ball, men) in &layer {
            for step in STEP.iter() {
                let mut q = step[ball as usize];
                let mut men2 = men;
                let mut over = 0;
                while q != NONE && men.get(q as usize) {
                    men2.clear(q as usize);
                    over += 1;
                    q = step[q as usize];
                }
                if over == 0 || q == NONE {
                    continue;
                }
                if target.get(q as usize) {
                    return Some(depth);
                }
                if seen.insert((q, men2)) {
                    next.push((q, men2));
                }
            }
        }
        if next.is_empty() {
            return None;
        }
        layer = next;
    }
    None
}

/// Checks every claim of a "score in one" entry.
pub fn check_score_in_one(game: &Phutball, s: &ScoreInOne) -> Result<(), String> {
    let pos = game
        .parse_position(s.position)
        .map_err(|e| format!("{}: {e}", s.name))?;
    if game.terminal(&pos).is_some() {
        return Err(format!("{}: already over", s.name));
    }
    let m = game
        .winning_move(&pos)
        .ok_or_else(|| format!("{}: winning_move found nothing", s.name))?;
    let after = game.make(&pos, m);
    if game.terminal(&after).map(|t| t.outcome) != Some(Outcome::Win(pos.side)) {
        return Err(format!(
            "{}: {} does not win",
            s.name,
            game.format_move(&pos, m)
        ));
    }
    let min = min_scoring_jumps(&pos);
    if min != Some(s.min_jumps) {
        return Err(format!(
            "{}: fewest jumps {min:?}, expected {}",
            s.name, s.min_jumps
        ));
    }
    let mut moves = Vec::new();
    game.legal_moves(&pos, &mut moves);
    let trap = moves.iter().any(|&mv| is_own_goal(&pos, mv));
    if trap != s.own_goal_trap {
        return Err(format!("{}: own-goal trap is {trap}", s.name));
    }
    Ok(())
}

/// Checks every claim of a "stop the threat" entry: the mover cannot score, the opponent could,
/// the named placement stops every chain (brute force over the replies), and so does every move
/// of [`Phutball::threat_stoppers`], which must contain it.
pub fn check_stop_the_threat(game: &Phutball, s: &StopTheThreat) -> Result<(), String> {
    let pos = game
        .parse_position(s.position)
        .map_err(|e| format!("{}: {e}", s.name))?;
    if game.terminal(&pos).is_some() {
        return Err(format!("{}: already over", s.name));
    }
    if wins_at_once(game, &pos) {
        return Err(format!("{}: the side to move can score", s.name));
    }
    if !wins_at_once(game, &other_to_move(&pos)) {
        return Err(format!("{}: no threat", s.name));
    }
    if game.threat(&pos).is_none() {
        return Err(format!("{}: threat() missed the threat", s.name));
    }
    let stopper = game
        .parse_move(&pos, s.stopper)
        .map_err(|e| format!("{}: {e}", s.name))?;
    if !matches!(stopper, Move::Place(_)) {
        return Err(format!("{}: {} is not a placement", s.name, s.stopper));
    }
    if !stops_threat(game, &pos, stopper) {
        return Err(format!(
            "{}: {} does not stop the threat",
            s.name, s.stopper
        ));
    }
    let all = game.threat_stoppers(&pos);
    if !all.contains(&stopper) {
        return Err(format!("{}: threat_stoppers misses {}", s.name, s.stopper));
    }
    for &m in &all {
        if !stops_threat(game, &pos, m) {
            return Err(format!(
                "{}: threat_stoppers offers {}, which fails",
                s.name,
                game.format_move(&pos, m)
            ));
        }
    }
    Ok(())
}

/// Which side a suite entry is for (the side to move).
pub fn side_of(game: &Phutball, position: &str) -> Option<Side> {
    game.parse_position(position).ok().map(|p| p.side)
}
