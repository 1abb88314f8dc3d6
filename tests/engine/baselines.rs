//! Opponents for strength tests (a uniformly random mover and per-game greedy baselines), the
//! engine's own search run in-process, and a match runner that alternates colours.
#![allow(dead_code)]

use std::sync::atomic::AtomicBool;
use std::sync::Arc;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tetrad::engine::AnyGame;
use tetrad::games::diamond::{suites as dsuites, Diamond, Move as DMove};
use tetrad::games::phutball::board::{col, row, BLUE_SCORES, RED_SCORES};
use tetrad::games::phutball::{Move as PMove, Phutball, Pos as PPos};
use tetrad::games::poddavki::{Move as DkMove, Poddavki, Position as DkPos};
use tetrad::games::prelude::*;
use tetrad::games::{Outcome, Side};
use tetrad::search::{Limits, Params};

/// Who plays the other side of a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Opponent {
    Random,
    Greedy,
}

/// Wins, draws and losses of the engine over a match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Score {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl std::fmt::Display for Score {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "+{} ={} -{}", self.wins, self.draws, self.losses)
    }
}

impl Score {
    /// Counts one game's `result` for the player who had `side`.
    pub fn add(&mut self, result: Outcome, side: Side) {
        match result {
            Outcome::Win(s) if s == side => self.wins += 1,
            Outcome::Draw => self.draws += 1,
            Outcome::Win(_) => self.losses += 1,
        }
    }
}

/// Plays `g` to its end, or for `max_plies` plies (then it counts as a draw). `mover(g, a)` gives
/// each move; `a` says whether `a_side` is to move. Returns the outcome and the plies played.
pub fn play_out(
    g: &mut dyn AnyGame,
    a_side: Side,
    max_plies: u32,
    mut mover: impl FnMut(&dyn AnyGame, bool) -> String,
) -> (Outcome, u32) {
    let mut plies = 0;
    loop {
        if let Some(t) = g.result() {
            return (t.outcome, plies);
        }
        if plies >= max_plies {
            return (Outcome::Draw, plies);
        }
        let mv = mover(&*g, g.side_to_move() == a_side);
        g.play(&mv).expect("both players play legal moves");
        plies += 1;
    }
}

pub fn node_limit(nodes: u64) -> Limits {
    Limits {
        nodes: Some(nodes),
        ..Limits::default()
    }
}

pub fn movetime(ms: u64) -> Limits {
    Limits {
        movetime: Some(ms),
        ..Limits::default()
    }
}

/// The engine's choice in the current position, searched in this process.
pub fn engine_move(g: &dyn AnyGame, limits: Limits) -> String {
    let params = Params {
        limits,
        ..Params::default()
    };
    let job = g.search_job(params, Arc::new(AtomicBool::new(false)), Box::new(|_| {}));
    job().best.expect("a move in a running game")
}

pub fn random_move(g: &dyn AnyGame, rng: &mut SmallRng) -> String {
    let moves = g.legal_moves();
    moves[rng.gen_range(0..moves.len())].clone()
}

fn pick<T: Clone>(items: &[T], rng: &mut SmallRng) -> Option<T> {
    if items.is_empty() {
        None
    } else {
        Some(items[rng.gen_range(0..items.len())].clone())
    }
}

/// Rows the ball still has to travel before it stands on `side`'s scoring rows.
fn rows_to_goal(ball: usize, side: Side) -> usize {
    match side {
        Side::P1 => 19usize.saturating_sub(row(ball)),
        Side::P2 => row(ball).saturating_sub(1),
    }
}

/// The Phutball greedy baseline: a scoring move when one exists; else the ball move that brings
/// the ball closest to the opponent's goal (only if it brings it closer than it is now; ties
/// broken at random); else a random placement on one of the ball's eight neighbours (and only if
/// all of them are taken, any random legal move).
pub fn phutball_greedy_move(game: &Phutball, pos: &PPos, rng: &mut SmallRng) -> PMove {
    let me = pos.side;
    let mut moves = Vec::new();
    game.legal_moves(pos, &mut moves);
    let goal = if me == Side::P1 {
        &RED_SCORES
    } else {
        &BLUE_SCORES
    };
    let scoring: Vec<PMove> = moves
        .iter()
        .copied()
        .filter(|m| matches!(m, PMove::Jump { to, .. } if goal.get(*to as usize)))
        .collect();
    if let Some(m) = pick(&scoring, rng) {
        return m;
    }
    let now = rows_to_goal(pos.ball as usize, me);
    let best = moves
        .iter()
        .filter_map(|m| match m {
            PMove::Jump { to, .. } => Some(rows_to_goal(*to as usize, me)),
            PMove::Place(_) => None,
        })
        .min();
    if let Some(best) = best.filter(|&b| b < now) {
        let closest: Vec<PMove> = moves
            .iter()
            .copied()
            .filter(
                |m| matches!(m, PMove::Jump { to, .. } if rows_to_goal(*to as usize, me) == best),
            )
            .collect();
        if let Some(m) = pick(&closest, rng) {
            return m;
        }
    }
    let b = pos.ball as usize;
    let next_to_ball: Vec<PMove> = moves
        .iter()
        .copied()
        .filter(|m| match m {
            PMove::Place(p) => {
                let p = *p as usize;
                let dc = (col(p) as i32 - col(b) as i32).abs();
                let dr = (row(p) as i32 - row(b) as i32).abs();
                dc.max(dr) == 1
            }
            PMove::Jump { .. } => false,
        })
        .collect();
    pick(&next_to_ball, rng)
        .or_else(|| pick(&moves, rng))
        .expect("a running game has a move")
}

/// The Diamond greedy baseline: completes a square if it can; else, when the opponent could
/// complete one next move, blocks: a move after which he cannot (or, when no move stops every
/// threat, a move onto one of his winning points); else a random move.
pub fn diamond_greedy_move(game: &Diamond, fen: &str, rng: &mut SmallRng) -> DMove {
    let pos = game.parse_position(fen).expect("engine positions parse");
    if let Some(m) = pick(&dsuites::winning(&pos), rng) {
        return m;
    }
    let threats = dsuites::threat_points(&pos);
    let mut moves = Vec::new();
    game.legal_moves(&pos, &mut moves);
    if threats != 0 {
        if let Some(m) = pick(&dsuites::blocking(&pos), rng) {
            return m;
        }
        let onto: Vec<DMove> = moves
            .iter()
            .copied()
            .filter(|m| matches!(m, DMove::Place(t) | DMove::Step(_, t) if threats >> t & 1 == 1))
            .collect();
        if let Some(m) = pick(&onto, rng) {
            return m;
        }
    }
    pick(&moves, rng).expect("a running game has a move")
}

/// Material a Poddavki side still has to give away: a man 1, a king 2 (a flying king is the
/// harder piece to lose: it can run from every offer).
fn poddavki_material(pos: &DkPos, side: usize) -> i32 {
    let pieces = pos.pieces[side];
    (pieces & !pos.kings).count_ones() as i32 + 2 * (pieces & pos.kings).count_ones() as i32
}

/// The Poddavki greedy baseline, a two-ply material count for the giveaway goal. Each legal move
/// is played with every reply of the opponent, and each position after a reply is worth the
/// opponent's material minus the mover's (see [`poddavki_material`]): moves that force the
/// opponent to capture, and to capture much, score high; the mover's own captures, and moves
/// that let the opponent shed material, score low. A move is worth its worst reply (the
/// opponent counts the same way). A move after which the opponent has no move loses at once and
/// is worth less than any other; a reply after which the mover has no move wins for him and is
/// worth more than any other. The best move is played, ties broken at random. Draw rules are not
/// looked at (the baseline sees no history).
pub fn poddavki_greedy_move(game: &Poddavki, pos: &DkPos, rng: &mut SmallRng) -> DkMove {
    let me = pos.stm;
    let mut moves = Vec::new();
    game.legal_moves(pos, &mut moves);
    let value = |mv: DkMove| -> i32 {
        let after = game.make(pos, mv);
        let mut replies = Vec::new();
        game.legal_moves(&after, &mut replies);
        replies
            .iter()
            .map(|&r| {
                let back = game.make(&after, r);
                if game.has_legal_move(&back) {
                    poddavki_material(&back, 1 - me) - poddavki_material(&back, me)
                } else {
                    i32::MAX
                }
            })
            .min()
            .unwrap_or(i32::MIN)
    };
    let scored: Vec<(DkMove, i32)> = moves.iter().map(|&m| (m, value(m))).collect();
    let best = scored.iter().map(|&(_, v)| v).max();
    let top: Vec<DkMove> = scored
        .iter()
        .filter(|&&(_, v)| Some(v) == best)
        .map(|&(m, _)| m)
        .collect();
    pick(&top, rng).expect("a running game has a move")
}

/// One side of a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Player {
    Engine(Limits),
    Random,
    Greedy,
}

impl From<Opponent> for Player {
    fn from(o: Opponent) -> Player {
        match o {
            Opponent::Random => Player::Random,
            Opponent::Greedy => Player::Greedy,
        }
    }
}

/// `player`'s move in notation.
fn move_of(g: &dyn AnyGame, player: Player, rng: &mut SmallRng) -> String {
    match (player, g.name()) {
        (Player::Engine(limits), _) => engine_move(g, limits),
        (Player::Random, _) => random_move(g, rng),
        (Player::Greedy, "phutball") => {
            let game = Phutball::default();
            let pos = game
                .parse_position(&g.position())
                .expect("engine positions parse");
            let m = phutball_greedy_move(&game, &pos, rng);
            game.format_move(&pos, m)
        }
        (Player::Greedy, "diamond") => {
            let game = Diamond;
            let fen = g.position();
            let pos = game.parse_position(&fen).expect("engine positions parse");
            let m = diamond_greedy_move(&game, &fen, rng);
            game.format_move(&pos, m)
        }
        (Player::Greedy, "poddavki") => {
            let game = Poddavki::default();
            let pos = game
                .parse_position(&g.position())
                .expect("engine positions parse");
            let m = poddavki_greedy_move(&game, &pos, rng);
            game.format_move(&pos, m)
        }
        (Player::Greedy, other) => panic!("no greedy baseline for {other}"),
    }
}

/// Plays `games` games of `name` between `a` and `b` from the start position, `a` taking the
/// first mover's side in even-numbered games; a game still running after `max_plies` plies
/// counts as a draw. The score is `a`'s.
pub fn play_between(
    name: &str,
    a: Player,
    b: Player,
    games: u32,
    seed: u64,
    max_plies: u32,
) -> Score {
    play_paired(name, a, b, games, seed, max_plies, 0)
}

/// Plays `games` games like [`play_between`], each pair of games from the same `opening_plies`
/// random plies (drawn from `seed`), `a` taking the first mover's side in the first game of the
/// pair and the other side in the second: neither side's result depends on which openings it was
/// dealt.
/// With `TETRAD_MATCH_LOG` set, every game's moves are printed.
pub fn play_paired(
    name: &str,
    a: Player,
    b: Player,
    games: u32,
    seed: u64,
    max_plies: u32,
    opening_plies: u32,
) -> Score {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut score = Score::default();
    let mut opening = Vec::new();
    for i in 0..games {
        let a_side = if i % 2 == 0 { Side::P1 } else { Side::P2 };
        let mut g = name
            .parse::<tetrad::games::GameKind>()
            .expect("game exists")
            .new_state();
        if i % 2 == 0 {
            opening.clear();
            for _ in 0..opening_plies {
                if g.result().is_some() {
                    break;
                }
                let mv = random_move(&*g, &mut rng);
                g.play(&mv).expect("a legal move");
                opening.push(mv);
            }
        } else {
            for mv in &opening {
                g.play(mv).expect("the opening replays");
            }
        }
        let mut moves = opening.clone();
        let (result, plies) = play_out(g.as_mut(), a_side, max_plies, |g, a_to_move| {
            let mv = move_of(g, if a_to_move { a } else { b }, &mut rng);
            moves.push(mv.clone());
            mv
        });
        score.add(result, a_side);
        if std::env::var_os("TETRAD_MATCH_LOG").is_some() {
            eprintln!(
                "{name} {a:?} vs {b:?} game {i}: first player {a_side:?}, {result:?} after {} plies; running {score}; moves {}",
                plies + opening.len() as u32,
                moves.join(" ")
            );
        }
    }
    score
}

/// The engine with `limits` against `opp` (see [`play_between`]); the score is the engine's.
pub fn play_match(
    name: &str,
    opp: Opponent,
    limits: Limits,
    games: u32,
    seed: u64,
    max_plies: u32,
) -> Score {
    play_between(
        name,
        Player::Engine(limits),
        opp.into(),
        games,
        seed,
        max_plies,
    )
}
