//! Random playouts with the house draw rules kept over the playout's own history.

use rand::rngs::SmallRng;
use rand::Rng;

use super::board::Position;
use super::movegen::legal_moves;
use super::Poddavki;
use crate::games::{ending, Outcome, Rules, Terminal};

/// Plies without progress that draw (the house rule).
pub const NO_PROGRESS_PLIES: usize = 30;
/// The occurrence of a position that draws.
pub const REPETITIONS: u32 = 3;

/// Same result rules as the generic playout (through [`ending`]), faster: one reused move
/// list, and only the hashes since the last irreversible move are kept.
pub fn playout(game: &Poddavki, start: &Position, rng: &mut SmallRng, max_plies: u32) -> Outcome {
    let mut pos = *start;
    let mut moves = Vec::with_capacity(64);
    // Positions since the last progress move, the current one last.
    let mut stretch: Vec<u64> = Vec::with_capacity(64);
    stretch.push(pos.hash);
    for _ in 0..max_plies {
        let listed = || {
            moves.clear();
            legal_moves(&pos, &mut moves);
            !moves.is_empty()
        };
        // `DrawTracker::draw` on this playout's own stretch.
        let draw = || {
            if game.draw_no_progress && stretch.len() > NO_PROGRESS_PLIES {
                Some(Terminal::new(Outcome::Draw, "no-progress"))
            } else if game.draw_repetition && occurrences(&stretch) >= REPETITIONS {
                Some(Terminal::new(Outcome::Draw, "repetition"))
            } else {
                None
            }
        };
        if let Some(t) = ending(game, &pos, listed, draw) {
            return t.outcome;
        }
        let m = moves[rng.gen_range(0..moves.len())];
        let progress = game.is_progress(&pos, m);
        pos = pos.make(m);
        if progress {
            stretch.clear();
        }
        stretch.push(pos.hash);
    }
    Outcome::Draw
}

/// How often the last position occurs in the stretch (same side to move: every other entry).
fn occurrences(stretch: &[u64]) -> u32 {
    let Some(&cur) = stretch.last() else {
        return 0;
    };
    stretch
        .iter()
        .rev()
        .step_by(2)
        .filter(|&&h| h == cur)
        .count() as u32
}
