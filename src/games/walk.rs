//! Walks over the game tree that every game gets from [`Rules`]: perft and random playouts.

use rand::rngs::SmallRng;
use rand::Rng;

use super::{ending, DrawTracker, FastPaths, Moves, Outcome, Rules};

/// Why [`stoppable_perft`] has no count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PerftStop {
    Stopped,
    /// A position on the way has more than [`PERFT_MOVE_CAP`] moves (dense Phutball boards
    /// have hundreds of millions, and counting distinct moves takes memory for each).
    TooManyMoves,
}

pub const PERFT_MOVE_CAP: usize = 2_000_000;

/// [`FastPaths::perft`] that gives up soon after `stop` is set (the flag is read before every
/// position it walks and every subtree of [`FastPaths::PERFT_SUBTREE_DEPTH`] plies it hands to
/// [`FastPaths::perft`]) or when a position it walks has too many moves to count.
pub fn stoppable_perft<G: Rules + FastPaths>(
    game: &G,
    pos: &G::Pos,
    depth: u32,
    stop: &std::sync::atomic::AtomicBool,
) -> Result<u64, PerftStop> {
    if stop.load(std::sync::atomic::Ordering::Relaxed) {
        return Err(PerftStop::Stopped);
    }
    if depth <= G::PERFT_SUBTREE_DEPTH {
        return Ok(game.perft(pos, depth));
    }
    if depth == 0 {
        return Ok(1);
    }
    if game.terminal(pos).is_some() {
        return Ok(0);
    }
    if depth == 1 {
        return game
            .count_moves_upto(pos, PERFT_MOVE_CAP)
            .map(|n| n as u64)
            .ok_or(PerftStop::TooManyMoves);
    }
    let mut moves = Vec::new();
    if !game.legal_moves_upto(pos, PERFT_MOVE_CAP, &mut moves) {
        return Err(PerftStop::TooManyMoves);
    }
    let mut sum = 0;
    for m in moves {
        sum += stoppable_perft(game, &game.make(pos, m), depth - 1, stop)?;
    }
    Ok(sum)
}

pub fn generic_perft<G: Rules>(game: &G, pos: &G::Pos, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if game.terminal(pos).is_some() {
        return 0;
    }
    let mut moves = Vec::new();
    game.legal_moves(pos, &mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    moves
        .iter()
        .map(|&m| generic_perft(game, &game.make(pos, m), depth - 1))
        .sum()
}

pub fn generic_playout<G: Rules>(
    game: &G,
    pos: &G::Pos,
    rng: &mut SmallRng,
    max_plies: u32,
) -> Outcome {
    let rules = game.draw_rules();
    let mut tracker = DrawTracker::new(game.hash(pos));
    let mut pos = pos.clone();
    let mut moves = Vec::new();
    for _ in 0..max_plies {
        let listed = || {
            moves.clear();
            game.legal_moves(&pos, &mut moves);
            !moves.is_empty()
        };
        if let Some(t) = ending(game, &pos, listed, || tracker.draw(&rules)) {
            return t.outcome;
        }
        let mv = moves[rng.gen_range(0..moves.len())];
        let progress = game.is_progress(&pos, mv);
        pos = game.make(&pos, mv);
        tracker.push(game.hash(&pos), progress);
    }
    Outcome::Draw
}
