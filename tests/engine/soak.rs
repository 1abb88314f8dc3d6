//! Random-play soak (short version) across every game in the registry: after every move, the
//! invariants every game must keep. The long version: `scripts/soak.sh` (the `soak::` runs of
//! examples/long_runs; `SOAK_GAMES` and `SOAK_SEED` change the number of games per game name
//! and the seeds). Searches with 2 to 4 threads are soaked too
//! (`SOAK_SEARCHES` per game in the long version).

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tetrad::games::prelude::*;
use tetrad::games::{DrawTracker, GameKind, GameVisitor};
use tetrad::registry::Registry;
use tetrad::testkit::{self, Soak};

fn soak_of(kind: GameKind, games: u32, max_plies: u32, seed: u64) -> Soak {
    let mut soak = Soak::new(games, seed);
    soak.max_plies = max_plies;
    if kind.name() == "phutball" {
        // Random Phutball fills the board; dense boards have millions of distinct ball moves
        // (deciding them is NP-hard), so its games stay short here. Its perft has no fast
        // subtree depth: the stoppable walk is compared two plies deep.
        soak.games = games / 4 + 1;
        soak.max_plies = max_plies.min(60);
        soak.stoppable_above = 2;
    }
    soak
}

pub(crate) fn all(games: u32, max_plies: u32, seed: u64) {
    let mut n = 0;
    for (i, &kind) in Registry::builtin().kinds().iter().enumerate() {
        let soak = soak_of(kind, games, max_plies, seed + i as u64 + 1);
        let report = testkit::conformance_kind(kind, soak);
        eprintln!("soak: {kind}: {report:?}");
        assert!(report.positions > u64::from(soak.games), "{kind}");
        assert!(report.transpositions > 0, "{kind}: {report:?}");
        n += report.positions;
    }
    eprintln!(
        "soak: {games} games per game name ({} Phutball), seed {seed}: {n} positions checked",
        games / 4 + 1
    );
}

#[test]
fn soak_short() {
    all(40, 200, 0);
}

/// Lazy SMP on random positions of a game: every search with 2 to 4 threads, stopped by a
/// random node limit, answers one of the position's moves. Games restart every 40 plies (dense
/// Phutball boards would make each search slow). Returns the searches made.
fn search_soak<G: Game>(game: &G, searches: u32, seed: u64) -> u32 {
    use std::sync::atomic::AtomicBool;
    use tetrad::search::{self, Limits, Params, Root, Table};
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut tt = Table::new(4);
    let stop = AtomicBool::new(false);
    let mut pos = game.start();
    let mut tracker = DrawTracker::new(game.hash(&pos));
    let mut moves = Vec::new();
    let mut plies = 0;
    for _ in 0..searches {
        if plies == 40 || tetrad::games::outcome(game, &pos, &tracker).is_some() {
            pos = game.start();
            tracker = DrawTracker::new(game.hash(&pos));
            plies = 0;
        }
        moves.clear();
        game.legal_moves(&pos, &mut moves);
        let threads = rng.gen_range(2..=4);
        let params = Params {
            limits: Limits {
                nodes: Some(rng.gen_range(1..4000)),
                depth: Some(rng.gen_range(1..=6)),
                ..Limits::default()
            },
            threads,
            ..Params::default()
        };
        let root = Root::new(&pos).after(&tracker).table(&mut tt).stop(&stop);
        let r = search::run(game, root, &params);
        let text = game.format_position(&pos);
        let best = r
            .best
            .unwrap_or_else(|| panic!("{}: no move at {text}", game.name()));
        assert!(
            moves.contains(&best),
            "{}, {threads} threads: {best:?} at {text}",
            game.name()
        );
        let m = moves[rng.gen_range(0..moves.len())];
        let next = game.make(&pos, m);
        tracker.push(game.hash(&next), game.is_progress(&pos, m));
        pos = next;
        plies += 1;
    }
    searches
}

struct SearchSoak {
    searches: u32,
    seed: u64,
}

impl GameVisitor for SearchSoak {
    type Output = u32;
    fn visit<G: Game>(self, game: G) -> u32 {
        search_soak(&game, self.searches, self.seed)
    }
}

pub(crate) fn all_searches(searches: u32, seed: u64) {
    let mut n = 0;
    for (i, &kind) in GameKind::all().iter().enumerate() {
        n += kind.visit(SearchSoak {
            searches,
            seed: seed + i as u64 + 1,
        });
    }
    eprintln!("soak: {n} searches with 2-4 threads, seed {seed}");
}

#[test]
fn threaded_search_soak_short() {
    all_searches(25, 0);
}
