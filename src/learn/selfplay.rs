//! `tetrad selfplay`: seeded games of the engine against itself at a fixed node count (or
//! depth), from the start plus random opening plies, written as training data: one line per
//! searched position, `GAME<TAB>PLY<TAB>POSITION<TAB>SCORE<TAB>RESULT` (after `#` comment lines:
//! the command line writes its own), where SCORE is the
//! search's score and RESULT the game's (1, 0.5 or 0), both for the side to move. A game that
//! ends during its random plies or runs past the ply cap writes nothing.

use std::io::{self, Write};

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

use crate::games::prelude::*;
use crate::games::{outcome, DrawTracker, Outcome, Side};
use crate::search::{self, Limits, Params, Root, Table};

/// What `tetrad selfplay` is asked to play (its command-line flags).
#[derive(Clone, Debug, clap::Args)]
pub struct Settings {
    #[arg(long, default_value_t = 100)]
    pub games: u32,
    /// Nodes a move (0: none).
    #[arg(long, default_value_t = 5000)]
    pub nodes: u64,
    /// Depth a move (0: none).
    #[arg(long, default_value_t = 0)]
    pub depth: u32,
    /// Random moves from the start before the engine plays.
    #[arg(long, default_value_t = 4)]
    pub random_plies: u32,
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Longer games are dropped.
    #[arg(long, default_value_t = 400)]
    pub max_plies: u32,
    /// Hash table MiB (emptied before each game).
    #[arg(long = "hash", default_value_t = 16)]
    pub hash_mib: usize,
}

/// What was played.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    pub games: u32,
    pub positions: u64,
    /// Games that ended in their random plies or ran past the cap.
    pub dropped: u32,
}

/// The random stream of game `index`: a game depends on the seed and its own number only.
fn game_rng(seed: u64, index: u32) -> SmallRng {
    SmallRng::seed_from_u64(seed ^ u64::from(index).wrapping_mul(0x9E37_79B9_7F4A_7C15))
}

/// One game's positions with the search scores, and the result for the first mover (1, 0.5,
/// 0); `None` when it is dropped.
#[allow(clippy::type_complexity)]
fn play<G: Game>(
    game: &G,
    s: &Settings,
    index: u32,
    table: &mut Table<G::Move>,
) -> Option<(Vec<(u32, G::Pos, i32)>, f64)> {
    let mut rng = game_rng(s.seed, index);
    let mut pos = game.start();
    let mut tracker = DrawTracker::new(game.hash(&pos));
    let mut moves = Vec::new();
    let mut ply = 0;
    let params = Params {
        limits: Limits {
            nodes: (s.nodes > 0).then_some(s.nodes),
            depth: (s.depth > 0).then_some(s.depth),
            ..Limits::default()
        },
        threads: 1,
        ..Params::default()
    };
    table.clear();
    let mut seen = Vec::new();
    let end = loop {
        if let Some(t) = outcome(game, &pos, &tracker) {
            break t;
        }
        if ply >= s.max_plies {
            return None;
        }
        let mv = if ply < s.random_plies {
            moves.clear();
            game.legal_moves(&pos, &mut moves);
            moves[rng.gen_range(0..moves.len())]
        } else {
            let r = search::run(game, Root::new(&pos).after(&tracker).table(table), &params);
            seen.push((ply, pos.clone(), r.score));
            r.best?
        };
        let next = game.make(&pos, mv);
        tracker.push(game.hash(&next), game.is_progress(&pos, mv));
        pos = next;
        ply += 1;
    };
    if ply <= s.random_plies {
        return None;
    }
    let first = match end.outcome {
        Outcome::Win(Side::P1) => 1.0,
        Outcome::Win(Side::P2) => 0.0,
        Outcome::Draw => 0.5,
    };
    Some((seen, first))
}

fn result_text(r: f64) -> &'static str {
    if r > 0.75 {
        "1"
    } else if r < 0.25 {
        "0"
    } else {
        "0.5"
    }
}

/// Plays `s.games` games of `game`, data lines to `out`, a progress line per ten games to
/// `progress`.
pub fn selfplay<G: Game>(
    game: &G,
    s: &Settings,
    out: &mut dyn Write,
    progress: &mut dyn Write,
) -> io::Result<Summary> {
    let mut table = Table::new(s.hash_mib.max(1));
    table.allocate();
    let mut sum = Summary::default();
    for index in 0..s.games {
        match play(game, s, index, &mut table) {
            None => sum.dropped += 1,
            Some((seen, first)) => {
                for (ply, pos, score) in &seen {
                    let result = match game.side_to_move(pos) {
                        Side::P1 => first,
                        Side::P2 => 1.0 - first,
                    };
                    writeln!(
                        out,
                        "{index}\t{ply}\t{}\t{score}\t{}",
                        game.format_position(pos),
                        result_text(result)
                    )?;
                }
                sum.games += 1;
                sum.positions += seen.len() as u64;
            }
        }
        if (index + 1) % 10 == 0 || index + 1 == s.games {
            writeln!(
                progress,
                "selfplay: {} of {} games, {} positions, {} dropped",
                index + 1,
                s.games,
                sum.positions,
                sum.dropped
            )?;
        }
    }
    out.flush()?;
    Ok(sum)
}
