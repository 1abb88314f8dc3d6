//! The threads of one search (Lazy SMP): the calling thread is the main thread; helpers start
//! once the game's root work is done, search on the shared lock-free table, are halted when the
//! main thread ends and are joined before the result goes back. A panic in any of them halts
//! all and is resumed on the calling thread.

use std::panic::{catch_unwind, resume_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, Ordering};
use std::sync::Mutex;
use std::thread;
use std::time::Instant;

use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::SeedableRng;

use super::abdada::Busy;
use super::deepen::{extend_from_table, iterate};
use super::node::Searcher;
use super::oracle::Oracle;
use super::tt::Table;
use super::{Info, Params, PvLine, SearchResult};
use crate::games::prelude::*;
use crate::games::DrawTracker;

/// The most threads one search uses, whatever it is asked for.
pub const MAX_THREADS: usize = 256;

/// What the threads of one search share.
pub(super) struct Shared<'a, G: Game> {
    pub(super) game: &'a G,
    pub(super) pos: &'a G::Pos,
    /// The game before the root (repetition and no-progress draws).
    pub(super) history: &'a DrawTracker,
    pub(super) tt: &'a Table<G::Move>,
    pub(super) stop: &'a AtomicBool,
    /// Set when the main thread is done (or a thread failed): every thread stops.
    pub(super) halt: &'a AtomicBool,
    /// Node counts of every thread of the search, published at each clock check.
    pub(super) counters: &'a [AtomicU64],
    /// Set while pondering (see [`Params::ponder`]).
    pub(super) ponder: Option<&'a AtomicBool>,
    /// See [`Searcher::frontier`].
    pub(super) frontier: &'a AtomicU32,
    pub(super) finished: &'a Finished<G::Move>,
    /// See [`Searcher::busy`].
    pub(super) busy: Option<&'a Busy>,
    /// The game's oracle (an endgame database), and how many of its values every thread took.
    pub(super) oracle: Option<&'a dyn Oracle<G>>,
    pub(super) tbhits: &'a AtomicU64,
}

/// The deepest iteration a helper completed: its line and selective depth.
pub(super) type Finished<M> = Mutex<Option<(PvLine<M>, u32)>>;

/// Runs the search of `pos` on `threads` threads (see [`super::run`]).
#[allow(clippy::too_many_arguments)]
pub(super) fn search<G: Game>(
    game: &G,
    pos: &G::Pos,
    history: &DrawTracker,
    tt: &mut Table<G::Move>,
    stop: &AtomicBool,
    oracle: Option<&dyn Oracle<G>>,
    params: &Params,
    on_info: &mut dyn FnMut(&Info<G::Move>),
) -> SearchResult<G::Move> {
    let started = params.started.unwrap_or_else(Instant::now);
    tt.new_search();
    let tt: &Table<G::Move> = tt;
    let threads = params.threads.clamp(1, MAX_THREADS);
    let halt = AtomicBool::new(false);
    let counters: Vec<AtomicU64> = (0..threads).map(|_| AtomicU64::new(0)).collect();
    let frontier = AtomicU32::new(0);
    let finished = Mutex::new(None);
    let busy = (threads > 1 && game.search_tuning().threads.share_moves).then(Busy::new);
    let tbhits = AtomicU64::new(0);
    let shared = Shared {
        game,
        pos,
        history,
        tt,
        stop,
        halt: &halt,
        counters: &counters,
        ponder: params.ponder.as_deref(),
        frontier: &frontier,
        finished: &finished,
        busy: busy.as_ref(),
        oracle,
        tbhits: &tbhits,
    };
    thread::scope(|scope| {
        let mut helpers = Vec::new();
        let mut result = {
            // Halts the helpers however the main thread's search ends, a panic included: the
            // scope waits for them before it lets the panic go on.
            let _halt = HaltOnDrop(&halt, false);
            let start_helpers = |root: &[G::Move], max_depth: u32, start: Instant| {
                for id in 1..threads {
                    let mut h = Searcher::new(&shared, id, params, start);
                    h.node_limit = None; // the main thread counts every thread's nodes
                    h.root = root.to_vec();
                    // Another order of equal-looking root moves than the main thread's.
                    h.root
                        .shuffle(&mut SmallRng::seed_from_u64(params.seed ^ id as u64));
                    let failed = &halt;
                    let spawned = thread::Builder::new().name("search".into()).spawn_scoped(
                        scope,
                        move || {
                            let _halt = HaltOnDrop(failed, true);
                            h.helper(pos, max_depth)
                        },
                    );
                    match spawned {
                        Ok(handle) => helpers.push(handle),
                        Err(e) => log::warn!("search thread {id} not started: {e}"),
                    }
                }
            };
            catch_unwind(AssertUnwindSafe(|| {
                iterate(&shared, params, on_info, start_helpers)
            }))
        };
        let mut failure = None;
        let mut deeper: Option<(PvLine<G::Move>, u32)> = None;
        for h in helpers {
            match h.join() {
                Ok(h) => {
                    if let Ok(r) = &mut result {
                        r.nodes += h.nodes;
                    }
                    // Stockfish's rule (before voting): a helper's iteration is taken over the
                    // main thread's only when it went deeper and scored higher.
                    if let (Ok(r), Some((line, seldepth))) = (&result, h.completed) {
                        let best = deeper
                            .as_ref()
                            .map_or((r.depth, r.score), |(l, _)| (l.depth, l.score));
                        if line.depth > best.0 && line.score > best.1 {
                            deeper = Some((line, seldepth));
                        }
                    }
                }
                Err(panic) => failure = failure.or(Some(panic)),
            }
        }
        match (result, failure) {
            (Err(panic), _) | (Ok(_), Some(panic)) => resume_unwind(panic),
            (Ok(mut r), None) => {
                if let Some((line, seldepth)) = deeper.filter(|_| params.multipv <= 1) {
                    on_info(&Info {
                        depth: line.depth,
                        seldepth,
                        score: line.score,
                        nodes: r.nodes,
                        elapsed_ms: started.elapsed().as_millis() as u64,
                        pv: line.pv.clone(),
                        hashfull: tt.hashfull(),
                        multipv: None,
                        tbhits: oracle.map(|_| tbhits.load(Ordering::Relaxed)),
                    });
                    r.best = line.pv.first().copied();
                    r.pv = line.pv.clone();
                    r.score = line.score;
                    r.depth = line.depth;
                    r.lines = vec![line];
                }
                if r.pv.len() == 1 {
                    extend_from_table(game, pos, tt, &mut r.pv);
                }
                r
            }
        }
    })
}

/// Sets the flag when dropped: always, or (`only_on_panic`) only when unwinding.
struct HaltOnDrop<'a>(&'a AtomicBool, bool);

impl Drop for HaltOnDrop<'_> {
    fn drop(&mut self) {
        if !self.1 || thread::panicking() {
            self.0.store(true, Ordering::Relaxed);
        }
    }
}
