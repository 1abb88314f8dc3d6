//! How long a proven standard game lasts. The solver (`solver.rs`) says who wins; to play and
//! report the proof as a mate, the root also needs the distance: the winner ending the game as
//! soon as it can, the loser holding out as long as it can. Depth-bounded win/loss questions
//! ("does the side to move win within d plies?") asked with growing d give it, the first d that
//! answers yes being the distance. They run on the solver that made the proof, so its table of
//! verdicts cuts them short, and every question asked as deep as the game can still go is the
//! solver's own.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, DefaultHasher};

/// Fixed keys, not the per-thread random ones of `RandomState`: the map's probing then does the
/// same for the same positions on every run (the fuzz targets need that; the keys are Zobrist
/// hashes, which no input chooses).
type FactMap = HashMap<u64, Facts, BuildHasherDefault<DefaultHasher>>;

use super::board::POINTS;
use super::movegen::PodsMove;
use super::position::Pos;
use super::solver::{self, Solver, ROOT_GATE_POINTS};
use super::Pods;

/// The proven end of a standard game: with best play the side to move wins (or loses) `plies`
/// plies from the position, along `pv` (its first move is the one to play).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proof {
    pub win: bool,
    pub plies: u32,
    pub pv: Vec<PodsMove>,
    /// Solver nodes the proof and its distance took.
    pub nodes: u64,
}

/// What the root work found out about a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RootVerdict {
    /// No proof within the budget.
    Unknown,
    /// Proven won, but the distance was not found within its budget: a winning move.
    Won(PodsMove),
    /// Proven lost, distance not found.
    Lost,
    Proven(Proof),
}

/// At most this many distance facts are kept (about 40 MiB); past it they are not stored, so a
/// huge budget costs time, not memory.
const MAX_FACTS: usize = 1 << 21;

/// What the bounded questions have established about one position: `win_within(d)` is true
/// from `win_in` on and false below `no_win_below`; the same for `lose_within`.
#[derive(Clone, Copy)]
struct Facts {
    win_in: u8,
    no_win_below: u8,
    lose_in: u8,
    no_lose_below: u8,
}

const UNKNOWN: Facts = Facts {
    win_in: u8::MAX,
    no_win_below: 0,
    lose_in: u8::MAX,
    no_lose_below: 0,
};

struct Distance<'s, 'a> {
    s: &'s mut Solver<'a>,
    facts: FactMap,
}

/// Points still empty: every standard move fills one, so the game ends within this many plies.
fn empty(pos: &Pos) -> u32 {
    POINTS as u32 - pos.all().count_ones()
}

fn small(d: u32) -> u8 {
    d.min(u32::from(u8::MAX - 1)) as u8
}

impl Distance<'_, '_> {
    fn facts(&self, hash: u64) -> Facts {
        self.facts.get(&hash).copied().unwrap_or(UNKNOWN)
    }

    fn note(&mut self, hash: u64, f: impl FnOnce(&mut Facts)) {
        if self.facts.len() < MAX_FACTS || self.facts.contains_key(&hash) {
            f(self.facts.entry(hash).or_insert(UNKNOWN));
        }
    }

    /// The children of `pos`, those most promising for the question first: for a win (`attack`)
    /// the ones the solver knows lost for their mover, then fewest replies; for a loss (where
    /// one child not won quickly by the opponent refutes it) the ones known lost first, then most
    /// replies.
    /// Each with its mover's reply count.
    fn children(&mut self, pos: &Pos, attack: bool) -> Vec<(PodsMove, Pos, u32)> {
        let t = self.s.t;
        let mut moves = Vec::with_capacity(64);
        t.gen_moves(pos, false, &mut moves);
        let other = usize::from(pos.side) ^ 1;
        let mut keyed: Vec<(u8, u32, PodsMove, Pos)> = moves
            .into_iter()
            .map(|m| {
                let child = t.make(pos, m, false);
                let known = match self.s.probe(child.hash) {
                    Some(false) => 0,
                    None => 1,
                    Some(true) => 2,
                };
                let replies = t.count_moves(&child, other, false);
                (known, replies, m, child)
            })
            .collect();
        if attack {
            keyed.sort_by_key(|k| (k.0, k.1));
        } else {
            keyed.sort_by_key(|k| (k.0, std::cmp::Reverse(k.1)));
        }
        keyed.into_iter().map(|k| (k.2, k.3, k.1)).collect()
    }

    /// Whether the side to move wins within `d` plies; `None` once the budget is spent.
    fn win_within(&mut self, pos: &Pos, ply: usize, d: u32) -> Option<bool> {
        if d == 0 {
            return Some(false);
        }
        if d >= empty(pos) {
            return self.s.solve(pos, ply, None);
        }
        if self.s.probe(pos.hash) == Some(false) {
            return Some(false);
        }
        let f = self.facts(pos.hash);
        if d >= u32::from(f.win_in) {
            return Some(true);
        }
        if d < u32::from(f.no_win_below) {
            return Some(false);
        }
        if !self.s.count_node() {
            return None;
        }
        for (_, child, replies) in self.children(pos, true) {
            let lost = if d == 1 {
                replies == 0
            } else {
                self.lose_within(&child, ply + 1, d - 1)?
            };
            if lost {
                self.note(pos.hash, |f| {
                    f.win_in = f.win_in.min(small(d));
                    f.no_lose_below = u8::MAX;
                });
                return Some(true);
            }
        }
        self.note(pos.hash, |f| {
            f.no_win_below = f.no_win_below.max(small(d + 1))
        });
        Some(false)
    }

    /// Whether the side to move loses within `d` plies (has no move now, or every move lets
    /// the opponent win within `d - 1`); `None` once the budget is spent.
    fn lose_within(&mut self, pos: &Pos, ply: usize, d: u32) -> Option<bool> {
        if d >= empty(pos) {
            return self.s.solve(pos, ply, None).map(|win| !win);
        }
        if self.s.probe(pos.hash) == Some(true) {
            return Some(false);
        }
        let f = self.facts(pos.hash);
        if d >= u32::from(f.lose_in) {
            return Some(true);
        }
        if d < u32::from(f.no_lose_below) {
            return Some(false);
        }
        if !self.s.count_node() {
            return None;
        }
        let lost = if d < 2 {
            // Lost within 0 or 1 ply: only when there is no move now.
            let mut moves = Vec::with_capacity(64);
            self.s.t.gen_moves(pos, false, &mut moves);
            moves.is_empty()
        } else {
            let mut all = true;
            for (_, child, _) in &self.children(pos, false) {
                if !self.win_within(child, ply + 1, d - 1)? {
                    all = false;
                    break;
                }
            }
            all
        };
        self.note(pos.hash, |f| {
            if lost {
                f.lose_in = f.lose_in.min(small(d));
                f.no_win_below = u8::MAX;
            } else {
                f.no_lose_below = f.no_lose_below.max(small(d + 1));
            }
        });
        Some(lost)
    }

    /// The distance of a position the solver has proven won (`win`) or lost: the first d, of
    /// the right parity, the bounded question answers yes to.
    fn distance(&mut self, pos: &Pos, win: bool) -> Option<u32> {
        let mut d = u32::from(win);
        while d <= empty(pos) + 1 {
            let yes = if win {
                self.win_within(pos, 0, d)?
            } else {
                self.lose_within(pos, 0, d)?
            };
            if yes {
                return Some(d);
            }
            d += 2;
        }
        None
    }

    /// The proven line from `pos`, `plies` long: the winner's moves end the game soonest, the
    /// loser's latest. `None` when the budget runs out before its first move is known; later
    /// moves the budget does not reach are left out.
    fn line(&mut self, pos: &Pos, win: bool, plies: u32) -> Option<Vec<PodsMove>> {
        let mut pv = Vec::new();
        let (mut pos, mut win, mut n) = (*pos, win, plies);
        while n > 0 {
            let mut next = None;
            for (m, child, _) in self.children(&pos, win) {
                let ply = pv.len() + 1;
                let step = if win {
                    self.lose_within(&child, ply, n - 1)
                } else {
                    // Lost within n: the move that holds out is the one the opponent needs
                    // all of n - 1 plies to win after.
                    self.win_within(&child, ply, n.saturating_sub(3))
                        .map(|quick| !quick)
                };
                match step {
                    Some(true) => {
                        next = Some((m, child));
                        break;
                    }
                    Some(false) => {}
                    None if pv.is_empty() => return None,
                    None => return Some(pv),
                }
            }
            let (m, child) = next?;
            pv.push(m);
            pos = child;
            win = !win;
            n -= 1;
        }
        Some(pv)
    }
}

/// Proves `pos` within `budget` solver nodes and, when it is proven, finds its distance and line
/// within as many again. The bool says whether the interrupt cut the work short (such a verdict
/// is not for keeping: a longer search may do better).
pub fn prove(
    game: &Pods,
    pos: &Pos,
    budget: u64,
    interrupt: &dyn Fn() -> bool,
) -> (RootVerdict, bool) {
    let (verdict, interrupted, _) = prove_with_table(
        game,
        pos,
        budget,
        solver::root_table_entries(budget),
        interrupt,
    );
    (verdict, interrupted)
}

/// [`prove`] with the solver's table size (see [`solver::solve_with_table`]), and the nodes of
/// the proof and of the distance. For long proofs.
pub fn prove_with_table(
    game: &Pods,
    pos: &Pos,
    budget: u64,
    entries: u64,
    interrupt: &dyn Fn() -> bool,
) -> (RootVerdict, bool, [u64; 2]) {
    let mut s = Solver::new(&game.tables, budget, entries, interrupt);
    let mut best = None;
    let Some(win) = s.solve(pos, 0, Some(&mut best)) else {
        return (
            RootVerdict::Unknown,
            s.budget.interrupted,
            [s.stats.nodes, 0],
        );
    };
    let proof_nodes = s.stats.nodes;
    s.budget.limit = s.stats.nodes.saturating_add(budget);
    let mut d = Distance {
        s: &mut s,
        facts: FactMap::default(),
    };
    let proof = d
        .distance(pos, win)
        .and_then(|plies| Some((plies, d.line(pos, win, plies)?)));
    let verdict = match (proof, win, best) {
        (Some((plies, pv)), _, _) => RootVerdict::Proven(Proof {
            win,
            plies,
            pv,
            nodes: s.stats.nodes,
        }),
        (None, true, Some(m)) => RootVerdict::Won(m),
        (None, true, None) => RootVerdict::Unknown,
        (None, false, _) => RootVerdict::Lost,
    };
    (
        verdict,
        s.budget.interrupted,
        [proof_nodes, s.stats.nodes - proof_nodes],
    )
}

/// The root verdict the search uses, late in a standard game and when the solver is on; cached,
/// unless the interrupt cut it short.
pub fn root_verdict(game: &Pods, pos: &Pos, interrupt: &dyn Fn() -> bool) -> RootVerdict {
    if game.solver_nodes == 0
        || game.advanced()
        || solver::points_left(&game.tables, pos) > ROOT_GATE_POINTS
    {
        return RootVerdict::Unknown;
    }
    if let Some(v) = game.cache.lock().ok().and_then(|c| c.get(pos.hash)) {
        return v;
    }
    let (verdict, interrupted) = prove(game, pos, game.solver_nodes, interrupt);
    if !interrupted {
        if let Ok(mut c) = game.cache.lock() {
            c.put(pos.hash, verdict.clone());
        }
    }
    verdict
}
