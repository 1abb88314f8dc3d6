//! Batched play for learning: many games of one kind stepped together by action number
//! ([`crate::games::Actions`]), each writing its observation and legal-action mask into the
//! caller's arrays. The Python package's `VecEnv` splits its games into [`EnvChunk`]s that its
//! threads take as they come; nothing here knows about Python.

use std::sync::atomic::AtomicBool;

use crate::games::actions::{Decision, Decisions};
use crate::games::prelude::*;
use crate::games::{ending, DrawTracker, Outcome, Side};
use crate::search::{self, Params, Root, Table};

/// Some games of a batch, type-erased. Arrays are the chunk's rows, row-major: `obs` holds
/// `len() * observation size`, `mask` `len() * actions`, `rewards` `len() * 2`, `done` `len()`.
pub trait EnvChunk: Send {
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Every game back to the start; writes all of `obs` and `mask`.
    fn reset(&mut self, obs: &mut [f32], mask: &mut [bool]);
    /// The first game whose action is not one of its legal ones (checked against the games'
    /// own lists, not the caller's mask, which the caller may have written into).
    fn first_illegal(&self, actions: &[i64]) -> Option<usize>;
    /// Plays each game's action (legal: the caller asked [`EnvChunk::first_illegal`]) and, with an
    /// opponent, the opponent's reply. A game that ends gets its rewards (+1 win, -1 loss, 0
    /// draw, by player) and `done`, and starts again: its observation and mask are the new
    /// game's. An action that is one step of a move under way ([`Decision::Continue`]) only
    /// adds to that move: no reply, no reward, the same player decides next. `obs` and `mask`
    /// must hold what the last `reset` or `step` wrote (only what changes is written).
    fn step(
        &mut self,
        actions: &[i64],
        obs: &mut [f32],
        mask: &mut [bool],
        rewards: &mut [f32],
        done: &mut [bool],
    );
}

/// The engine as the second player: a search with these limits answers each move.
#[derive(Clone, Debug)]
pub struct Opponent {
    pub params: Params,
}

struct Env<G: Game> {
    pos: G::Pos,
    tracker: DrawTracker,
    /// The legal actions, sorted, with what each does (empty while waiting for a reset).
    legal: Decisions<G::Move>,
    /// The actions of the move under way (a game whose moves take several decisions).
    pending: Vec<u32>,
    /// The position the observation row shows, between moves (the next one writes only what
    /// changed); `None` when the row must be written whole.
    shown: Option<G::Pos>,
    /// Games finished so far: with `seed`, the opponent's search seed.
    games: u64,
    seed: u64,
}

/// Games of type `G`.
pub struct Chunk<G: Game> {
    game: G,
    envs: Vec<Env<G>>,
    opponent: Option<(Opponent, Table<G::Move>)>,
    moves: Vec<G::Move>,
    /// The decisions [`Chunk::list`] found, for [`Chunk::refresh`].
    next: Decisions<G::Move>,
    obs_size: usize,
    actions: usize,
    stop: AtomicBool,
}

impl<G: Game> Chunk<G> {
    /// `n` games; game `i`'s seed is `seeds + i` (the opponent's search seeds derive from it).
    pub fn new(game: G, n: usize, seeds: u64, opponent: Option<Opponent>) -> Chunk<G> {
        let start = game.start();
        let hash = game.hash(&start);
        let obs_size = game.observation_shape().iter().product();
        let actions = game.action_space().actions();
        Chunk {
            envs: (0..n)
                .map(|i| Env {
                    pos: start.clone(),
                    tracker: DrawTracker::new(hash),
                    legal: Vec::new(),
                    pending: Vec::new(),
                    shown: None,
                    games: 0,
                    seed: seeds.wrapping_add(i as u64),
                })
                .collect(),
            game,
            // A small table, cleared before each search: a reply depends on the position and
            // the seed alone, not on which games a chunk searched before.
            opponent: opponent.map(|o| (o, Table::with_kib(256))),
            moves: Vec::new(),
            next: Vec::new(),
            obs_size,
            actions,
            stop: AtomicBool::new(false),
        }
    }

    fn restart(&mut self, i: usize) {
        let start = self.game.start();
        let env = &mut self.envs[i];
        env.tracker.restart(self.game.hash(&start));
        env.pos = start;
        env.pending.clear();
        env.games += 1;
    }

    /// Plays `mv` in game `i`; the result if that ended it. Lists the decisions of the new
    /// position into `self.next` on the way (what the game-over check and the next
    /// [`Chunk::refresh`] both need, generated once).
    fn play(&mut self, i: usize, mv: G::Move) -> Option<Outcome> {
        let env = &mut self.envs[i];
        env.pending.clear();
        let progress = self.game.is_progress(&env.pos, mv);
        env.pos = self.game.make(&env.pos, mv);
        env.tracker.push(self.game.hash(&env.pos), progress);
        self.list(i)
    }

    /// Game `i`'s legal actions into `self.next` (none once it is over) and its result, if
    /// over. In the middle of a move nothing is decided.
    fn list(&mut self, i: usize) -> Option<Outcome> {
        let env = &self.envs[i];
        let game = &self.game;
        let (moves, next) = (&mut self.moves, &mut self.next);
        moves.clear();
        next.clear();
        if !env.pending.is_empty() {
            game.decisions(&env.pos, &env.pending, moves, next);
            return None;
        }
        let result = ending(
            game,
            &env.pos,
            || {
                game.decisions(&env.pos, &[], moves, next);
                !moves.is_empty() || !next.is_empty()
            },
            || env.tracker.draw(&game.draw_rules()),
        );
        if result.is_some() {
            next.clear();
        }
        result.map(|t| t.outcome)
    }

    /// The opponent's move in game `i` (the side to move there).
    fn reply(&mut self, i: usize) -> Option<G::Move> {
        let (opponent, table) = self.opponent.as_mut()?;
        table.clear();
        let env = &self.envs[i];
        let mut params = opponent.params.clone();
        params.seed = env
            .seed
            .wrapping_mul(0x9E37_79B9_7F4A_7C15)
            .wrapping_add(env.games)
            .wrapping_add(env.tracker.quiet_plies() as u64)
            | 1;
        let root = Root::new(&env.pos)
            .after(&env.tracker)
            .table(table)
            .stop(&self.stop);
        search::run(&self.game, root, &params).best
    }

    /// Writes game `i`'s observation and mask row from the decisions in `self.next` (listed
    /// by [`Chunk::list`] for its current decision point), clearing the bits of the actions it
    /// had before; the observation row changes only where the game's planes do.
    fn refresh(&mut self, i: usize, obs: &mut [f32], mask: &mut [bool]) {
        let row = &mut mask[i * self.actions..(i + 1) * self.actions];
        let env = &mut self.envs[i];
        for &(a, _) in &env.legal {
            row[a as usize] = false;
        }
        std::mem::swap(&mut env.legal, &mut self.next);
        for &(a, _) in &env.legal {
            row[a as usize] = true;
        }
        let row = &mut obs[i * self.obs_size..(i + 1) * self.obs_size];
        match &env.shown {
            Some(before) if env.pending.is_empty() => {
                self.game.observe_change(before, &env.pos, row)
            }
            _ => self.game.observe_decision(&env.pos, &env.pending, row),
        }
        env.shown = env.pending.is_empty().then(|| env.pos.clone());
    }
}

fn rewards_of(result: Outcome, out: &mut [f32]) {
    let (a, b) = match result {
        Outcome::Draw => (0.0, 0.0),
        Outcome::Win(Side::P1) => (1.0, -1.0),
        Outcome::Win(Side::P2) => (-1.0, 1.0),
    };
    out[0] = a;
    out[1] = b;
}

impl<G: Game> EnvChunk for Chunk<G> {
    fn len(&self) -> usize {
        self.envs.len()
    }

    fn reset(&mut self, obs: &mut [f32], mask: &mut [bool]) {
        mask.fill(false);
        for i in 0..self.envs.len() {
            self.restart(i);
            self.envs[i].legal.clear();
            self.envs[i].shown = None;
            self.list(i);
            self.refresh(i, obs, mask);
        }
    }

    fn first_illegal(&self, actions: &[i64]) -> Option<usize> {
        let legal = |env: &Env<G>, a: i64| {
            u32::try_from(a).is_ok_and(|a| env.legal.binary_search_by_key(&a, |&(x, _)| x).is_ok())
        };
        self.envs
            .iter()
            .zip(actions)
            .position(|(env, &a)| !legal(env, a))
    }

    fn step(
        &mut self,
        actions: &[i64],
        obs: &mut [f32],
        mask: &mut [bool],
        rewards: &mut [f32],
        done: &mut [bool],
    ) {
        for (i, &action) in actions.iter().enumerate().take(self.envs.len()) {
            let env = &self.envs[i];
            let Ok(k) = env
                .legal
                .binary_search_by_key(&(action as u32), |&(x, _)| x)
            else {
                continue; // not legal (the caller asked first): left as it was
            };
            let decision = env.legal[k].1;
            let mut result = match decision {
                Decision::Move(mv) => self.play(i, mv),
                Decision::Continue => {
                    // The same player decides again: no reply, nothing decided.
                    self.envs[i].pending.push(action as u32);
                    self.list(i);
                    None
                }
            };
            if result.is_none() && self.envs[i].pending.is_empty() {
                if let Some(reply) = self.reply(i) {
                    result = self.play(i, reply);
                }
            }
            let r = &mut rewards[2 * i..2 * i + 2];
            match result {
                Some(o) => {
                    rewards_of(o, r);
                    done[i] = true;
                    self.restart(i);
                    self.list(i);
                }
                None => {
                    r.fill(0.0);
                    done[i] = false;
                }
            }
            self.refresh(i, obs, mask);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::registry::Registry;

    /// An action passes [`super::EnvChunk::first_illegal`] exactly when its mask bit is set,
    /// along random play in every game (the check reads the games' own lists, not the mask).
    #[test]
    fn first_illegal_agrees_with_the_mask() {
        let registry = Registry::builtin();
        for &name in registry.names() {
            let state = registry.find(name).unwrap().new_state();
            let (n, width) = (3, state.action_space().actions());
            let obs_size: usize = state.observation_shape().iter().product();
            let mut chunk = state.env_chunk(n, 7, None);
            let (mut obs, mut mask) = (vec![0.0; n * obs_size], vec![false; n * width]);
            let (mut rewards, mut done) = (vec![0.0; 2 * n], vec![false; n]);
            chunk.reset(&mut obs, &mut mask);
            for ply in 0..60 {
                let rows: Vec<&[bool]> = mask.chunks(width).collect();
                let legal: Vec<Vec<i64>> = rows
                    .iter()
                    .map(|r| (0..width as i64).filter(|&a| r[a as usize]).collect())
                    .collect();
                assert!(legal.iter().all(|l| !l.is_empty()), "{name}");
                let pick: Vec<i64> = legal.iter().map(|l| l[(ply * 7) % l.len()]).collect();
                assert_eq!(chunk.first_illegal(&pick), None, "{name}");
                // An action in range that is not legal, where there is one (a small game may
                // have every action legal), and actions out of range.
                let wrong = rows[1].iter().position(|&b| !b).map(|a| a as i64);
                for bad in wrong.into_iter().chain([-1, width as i64, i64::MAX]) {
                    let mut actions = pick.clone();
                    actions[1] = bad;
                    assert_eq!(chunk.first_illegal(&actions), Some(1), "{name} {bad}");
                }
                chunk.step(&pick, &mut obs, &mut mask, &mut rewards, &mut done);
            }
        }
    }
}
