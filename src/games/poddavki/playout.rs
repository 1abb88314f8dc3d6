//! Random playouts with the house draw rules kept over the playout's own history.

use rand::rngs::SmallRng;
use rand::Rng;

use super::board::{Position, WHITE};
use super::movegen::legal_moves;
use crate::games::{Outcome, Side};

/// Plies without progress that draw (the house rule).
pub const NO_PROGRESS_PLIES: usize = 30;
/// The occurrence of a position that draws.
pub const REPETITIONS: u32 = 3;

/// Same result rules as the generic playout (no legal move wins, then the draws), faster: one
/// reused move list, and only the hashes since the last irreversible move are kept.
pub fn playout(
    start: &Position,
    rng: &mut SmallRng,
    max_plies: u32,
    repetition: bool,
    no_progress: bool,
) -> Outcome {
    let mut pos = *start;
    let mut moves = Vec::with_capacity(64);
    // Positions since the last progress move, the current one last.
    let mut stretch: Vec<u64> = Vec::with_capacity(64);
    stretch.push(pos.hash);
    for _ in 0..max_plies {
        moves.clear();
        legal_moves(&pos, &mut moves);
        if moves.is_empty() {
            return Outcome::Win(if pos.stm == WHITE { Side::P1 } else { Side::P2 });
        }
        if no_progress && stretch.len() > NO_PROGRESS_PLIES {
            return Outcome::Draw;
        }
        if repetition && occurrences(&stretch) >= REPETITIONS {
            return Outcome::Draw;
        }
        let m = moves[rng.gen_range(0..moves.len())];
        let progress = m.is_capture() || pos.kings >> m.from & 1 == 0;
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
