//! Positions whose value a game-supplied oracle knows (an endgame database): the search takes
//! that value instead of searching them, at interior nodes (`node.rs`) and at the root, where
//! the move that keeps the value is played without a search ([`root_lines`]).
//!
//! The oracle's values are those of the game with the repetition draw only and no history
//! before the position; the game's no-progress rule and the game's history are applied here
//! (docs/egdb.md, "In play").

use std::ops::ControlFlow;
use std::sync::atomic::Ordering;
use std::time::Instant;

use super::node::{MATE_BOUND, MAX_PLY};
use super::threads::Shared;
use super::{Info, Params, PvLine, SearchResult};
use crate::games::prelude::*;
use crate::games::{self, DrawRules, DrawTracker, Outcome};

/// A position's value for its side to move: win or loss with the distance to the next
/// progress move ([`Rules::is_progress`]) or the end of the game, the winner hurrying and the
/// loser delaying (distance to zeroing), or draw.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Win(u32),
    Loss(u32),
    Draw,
}

/// What a game knows beyond its rules: the values of the positions it covers. The oracle
/// promises that after any progress move, every win it gives converts within the game's
/// no-progress limit (no "cursed" win): then a win `D` with `c` plies already on the count is a
/// sure win exactly when `c + D` is within the limit.
pub trait Oracle<G: Rules>: Send + Sync {
    /// The value of `pos` with no history before it; `None` when it is not covered.
    fn probe(&self, pos: &G::Pos) -> Option<Verdict>;
}

/// Score of a database win at the root; `n` plies further from the root it scores
/// `TB_WIN - n`. Below the mate scores, above every evaluation (as UCI engines score
/// tablebase wins).
pub const TB_WIN: i32 = MATE_BOUND - 500;
/// Scores beyond this (up to [`MATE_BOUND`]) are database wins or losses.
pub const TB_BOUND: i32 = TB_WIN - MAX_PLY as i32;

/// The value in play with `quiet` plies on the no-progress count: a win or loss that the count
/// would cut off is a draw (the winner, keeping to winning moves, cannot lose; the loser,
/// delaying, reaches the count).
pub fn in_play(v: Verdict, quiet: usize, rules: &DrawRules) -> Verdict {
    let fits = |d: u32| {
        rules
            .no_progress_plies
            .is_none_or(|n| quiet as u64 + u64::from(d) <= u64::from(n))
    };
    match v {
        Verdict::Win(d) | Verdict::Loss(d) if !fits(d) => Verdict::Draw,
        v => v,
    }
}

/// Whether a position since the last progress move already occurred twice: its next
/// occurrence may draw a game the oracle calls won or lost, so those values are not taken in
/// that stretch (draws still are: repetitions only add draws).
pub(super) fn repeats(history: &DrawTracker) -> bool {
    history.stretch_repeats()
}

/// The score of a position the oracle covers, `ply` plies from the root, with the search's
/// draw rules and history: `None` when its value cannot be taken (a win or loss in a stretch
/// where a repetition threatens).
pub(super) fn score(
    v: Verdict,
    tracker: &DrawTracker,
    rules: &DrawRules,
    stale: bool,
    ply: usize,
) -> Option<i32> {
    let quiet = tracker.quiet_plies();
    // A progress move since the root leaves the earlier stretch behind.
    let threatened = stale && quiet >= ply;
    match in_play(v, quiet, rules) {
        Verdict::Draw => Some(0),
        Verdict::Win(_) if !threatened => Some(TB_WIN - ply as i32),
        Verdict::Loss(_) if !threatened => Some(-(TB_WIN - ply as i32)),
        _ => None,
    }
}

/// The root decided by the oracle: the move to play, the value in play, the line expected
/// (the move first) and the positions probed.
pub(super) struct RootChoice<M> {
    pub(super) verdict: Verdict,
    pub(super) pv: Vec<M>,
    pub(super) probes: u64,
}

/// How a move ranks for the side making it: a win nearer the progress move first, then a draw
/// (one that keeps a win the count cuts off first), then a loss further off first.
fn rank(own: Verdict, raw: Option<Verdict>) -> (u8, i64) {
    match own {
        Verdict::Win(d) => (0, i64::from(d)),
        Verdict::Draw => match raw {
            Some(Verdict::Loss(d)) => (1, i64::from(d)),
            Some(Verdict::Draw) => (2, 0),
            _ => (3, 0),
        },
        Verdict::Loss(d) => (4, -i64::from(d)),
    }
}

/// Every move at `pos` with its value in play for the mover, by the oracle's values of its
/// successors, best first (see [`rank`]), or `None` when a successor is not covered.
fn ranked_moves<G: Game>(
    game: &G,
    oracle: &dyn Oracle<G>,
    pos: &G::Pos,
    tracker: &DrawTracker,
    rules: &DrawRules,
    probes: &mut u64,
) -> Option<Vec<(G::Move, Verdict)>> {
    let mover = game.side_to_move(pos);
    let mut moves: Vec<(G::Move, Verdict, (u8, i64))> = Vec::new();
    let mut covered = true;
    let _ = game.for_each_move(pos, |m| {
        let child = game.make(pos, m);
        let progress = game.is_progress(pos, m);
        let mut after = tracker.clone();
        after.push(game.hash(&child), progress);
        let step = |d: u32| if progress { 1 } else { 1 + d };
        let (own, raw) = match games::outcome(game, &child, &after) {
            Some(t) => match t.outcome {
                Outcome::Draw => (Verdict::Draw, Some(Verdict::Draw)),
                Outcome::Win(side) if side == mover => (Verdict::Win(1), None),
                Outcome::Win(_) => (Verdict::Loss(1), None),
            },
            None => {
                *probes += 1;
                let Some(raw) = oracle.probe(&child) else {
                    covered = false;
                    return ControlFlow::Break(());
                };
                let own = match in_play(raw, after.quiet_plies(), rules) {
                    Verdict::Loss(d) => Verdict::Win(step(d)),
                    Verdict::Win(d) => Verdict::Loss(step(d)),
                    Verdict::Draw => Verdict::Draw,
                };
                (own, Some(raw))
            }
        };
        moves.push((m, own, rank(own, raw)));
        ControlFlow::Continue(())
    });
    if !covered || moves.is_empty() {
        return None;
    }
    // Stable: among moves that rank alike, the game's order.
    moves.sort_by_key(|&(_, _, r)| r);
    Some(moves.into_iter().map(|(m, v, _)| (m, v)).collect())
}

/// The best move at `pos` by the oracle's values of its successors and its value in play, or
/// `None` when a successor is not covered.
fn best_move<G: Game>(
    game: &G,
    oracle: &dyn Oracle<G>,
    pos: &G::Pos,
    tracker: &DrawTracker,
    rules: &DrawRules,
    probes: &mut u64,
) -> Option<(G::Move, Verdict)> {
    ranked_moves(game, oracle, pos, tracker, rules, probes)?
        .first()
        .copied()
}

/// The longest line [`root_lines`] reports: up to the first progress move or this many plies.
const PV_PLIES: usize = 24;

/// The root's `lines` best moves by the oracle alone (MultiPV; 1: the move to play), best
/// first, each with the line expected after it, when every move's outcome is covered and the
/// values in play can be taken (see [`score`]): a win keeps to the least distance to zeroing, a
/// draw keeps the draw, a loss resists longest. The positions probed are counted in the first
/// line's `probes`.
pub(super) fn root_lines<G: Game>(
    game: &G,
    oracle: &dyn Oracle<G>,
    pos: &G::Pos,
    history: &DrawTracker,
    lines: usize,
) -> Option<Vec<RootChoice<G::Move>>> {
    let rules = game.draw_rules();
    let mut probes = 1;
    oracle.probe(pos)?;
    let ranked = ranked_moves(game, oracle, pos, history, &rules, &mut probes)?;
    let ranked = &ranked[..ranked.len().min(lines.max(1))];
    if ranked.iter().any(|&(_, v)| v != Verdict::Draw) && repeats(history) {
        return None;
    }
    let mut out = Vec::with_capacity(ranked.len());
    for &(first, verdict) in ranked {
        let mut pv = vec![first];
        let mut tracker = history.clone();
        let mut at = pos.clone();
        let mut mv = first;
        while pv.len() < PV_PLIES {
            let progress = game.is_progress(&at, mv);
            at = game.make(&at, mv);
            tracker.push(game.hash(&at), progress);
            if progress || games::outcome(game, &at, &tracker).is_some() {
                break;
            }
            match best_move(game, oracle, &at, &tracker, &rules, &mut probes) {
                Some((m, _)) => {
                    pv.push(m);
                    mv = m;
                }
                None => break,
            }
        }
        out.push(RootChoice {
            verdict,
            pv,
            probes: 0,
        });
    }
    out[0].probes = probes;
    Some(out)
}

impl<M> RootChoice<M> {
    pub(super) fn score(&self) -> i32 {
        match self.verdict {
            Verdict::Win(_) => TB_WIN,
            Verdict::Loss(_) => -TB_WIN,
            Verdict::Draw => 0,
        }
    }
}

impl<M: Clone> RootChoice<M> {
    /// The one report of a root the oracle decided: depth 1, the positions probed as nodes.
    pub(super) fn info(&self, elapsed_ms: u64, hashfull: u32) -> Info<M> {
        Info {
            depth: 1,
            seldepth: self.pv.len() as u32,
            score: self.score(),
            nodes: self.probes,
            elapsed_ms,
            pv: self.pv.clone(),
            hashfull,
            multipv: None,
            tbhits: Some(self.probes),
        }
    }
}

/// The search's result when the oracle decides the root, after its reports: one line, or as
/// many as MultiPV asks (each root move ranked by the oracle, its line expected after it).
pub(super) fn decided<G: Game>(
    shared: &Shared<'_, G>,
    params: &Params,
    start: Instant,
    on_info: &mut dyn FnMut(&Info<G::Move>),
) -> Option<SearchResult<G::Move>> {
    let oracle = shared.oracle?;
    let multipv = params.multipv.max(1);
    let choices = root_lines(shared.game, oracle, shared.pos, shared.history, multipv)?;
    let probes: u64 = choices.iter().map(|c| c.probes).sum();
    shared.tbhits.fetch_add(probes, Ordering::Relaxed);
    let elapsed = start.elapsed().as_millis() as u64;
    for (k, choice) in choices.iter().enumerate() {
        let mut info = choice.info(elapsed, shared.tt.hashfull());
        info.nodes = probes;
        info.tbhits = Some(probes);
        info.multipv = (multipv > 1).then_some(k as u32 + 1);
        on_info(&info);
    }
    let lines: Vec<PvLine<G::Move>> = choices
        .iter()
        .map(|c| PvLine {
            score: c.score(),
            depth: 1,
            pv: c.pv.clone(),
        })
        .collect();
    let best = &choices[0];
    Some(SearchResult {
        best: best.pv.first().copied(),
        score: best.score(),
        depth: 1,
        nodes: probes,
        pv: best.pv.clone(),
        lines,
    })
}
