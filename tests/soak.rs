//! Random-play soak (short version) across every game in the registry: after every move, the
//! invariants every game must keep. The long version: `scripts/soak.sh` (or
//! `cargo test --release --test soak -- --ignored`; `SOAK_GAMES` and `SOAK_SEED` change the
//! number of games per game name and the seeds). Searches with 2 to 4 threads are soaked too
//! (`SOAK_SEARCHES` per game in the long version).

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tetrad::games::{DrawTracker, Game, GameKind, GameVisitor};
use tetrad::render::Draw;

/// At most this many of the previous position's moves are asked about in the next one.
const STALE_SAMPLE: usize = 64;

/// `moves` holds the previous position's moves on entry (stale here: some are legal, some not)
/// and this position's on return.
fn check_position<G: Game>(game: &G, pos: &G::Pos, moves: &mut Vec<G::Move>) {
    // Asked before this position's moves are listed (a game may keep what its last listing
    // learnt, and must not need it).
    let step = moves.len().div_ceil(STALE_SAMPLE).max(1);
    let stale: Vec<(G::Move, bool)> = moves
        .iter()
        .step_by(step)
        .map(|&m| (m, game.is_legal(pos, m)))
        .collect();
    // String round trip; the incrementally kept hash equals the one built from scratch.
    let again = tetrad::fuzz::check_position(game, pos);
    let text = game.format_position(pos);
    moves.clear();
    game.legal_moves(pos, moves);
    for (m, legal) in stale {
        assert_eq!(
            legal,
            moves.contains(&m),
            "{}: is_legal({m:?}) at {text}",
            game.name()
        );
    }
    assert_eq!(
        game.has_legal_move(pos),
        !moves.is_empty(),
        "{}: has_legal_move at {text}",
        game.name()
    );
    let n = moves.len();
    assert_eq!(game.count_moves_upto(pos, n), Some(n), "{}", game.name());
    assert_eq!(
        game.count_moves_upto(pos, n + 10),
        Some(n),
        "{}",
        game.name()
    );
    if n > 0 {
        assert_eq!(game.count_moves_upto(pos, n - 1), None, "{}", game.name());
        assert!(
            moves.iter().all(|&m| game.is_legal(pos, m)),
            "{}",
            game.name()
        );
    }
    let mut from_string = Vec::new();
    game.legal_moves(&again, &mut from_string);
    assert_eq!(
        *moves,
        from_string,
        "{}: move list differs after reparse",
        game.name()
    );
    let mut names: Vec<String> = moves.iter().map(|&m| game.format_move(pos, m)).collect();
    for (&m, name) in moves.iter().zip(&names) {
        let parsed = game
            .parse_move(pos, name)
            .unwrap_or_else(|e| panic!("{}: {name} at {text}: {e}", game.name()));
        assert_eq!(parsed, m, "{}: {name} at {text}", game.name());
    }
    names.sort();
    let before = names.len();
    names.dedup();
    assert_eq!(
        before,
        names.len(),
        "{}: two moves share a name at {text}",
        game.name()
    );
}

fn soak<G: Game>(game: &G, games: u32, seed: u64, max_plies: u32) -> u64 {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut moves = Vec::new();
    let mut checked = 0;
    for _ in 0..games {
        moves.clear();
        let mut pos = game.start();
        let mut tracker = DrawTracker::new(game.hash(&pos));
        for _ in 0..max_plies {
            check_position(game, &pos, &mut moves);
            checked += 1;
            if tetrad::games::outcome(game, &pos, &tracker).is_some() {
                break;
            }
            let m = moves[rng.gen_range(0..moves.len())];
            let before = pos.clone();
            let next = game.make(&pos, m);
            // Copy-make: the old position is untouched (this is the engine's "undo").
            assert_eq!(before, pos);
            tracker.push(game.hash(&next), game.is_progress(&pos, m));
            pos = next;
        }
    }
    checked
}

struct Soak {
    games: u32,
    seed: u64,
    max_plies: u32,
}

impl GameVisitor for Soak {
    type Output = u64;
    fn visit<G: Game + Draw>(self, game: G) -> u64 {
        soak(&game, self.games, self.seed, self.max_plies)
    }
}

fn all(games: u32, max_plies: u32, seed: u64) {
    let mut n = 0;
    for (i, &kind) in GameKind::ALL.iter().enumerate() {
        // Random Phutball fills the board; dense boards have millions of distinct ball moves
        // (deciding them is NP-hard), so its games stay short here.
        let (games, max_plies) = if kind == GameKind::Phutball {
            (games / 4 + 1, max_plies.min(60))
        } else {
            (games, max_plies)
        };
        n += kind.visit(Soak {
            games,
            seed: seed + i as u64 + 1,
            max_plies,
        });
    }
    eprintln!(
        "soak: {games} games per game name ({} Phutball), seed {seed}: {n} positions checked",
        games / 4 + 1
    );
    assert!(n > u64::from(games));
}

#[test]
fn soak_short() {
    all(40, 200, 0);
}

#[test]
#[ignore]
fn soak_long() {
    let env = |name: &str, default: u64| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    all(env("SOAK_GAMES", 4000) as u32, 400, env("SOAK_SEED", 0));
}

/// Lazy SMP on random positions of a game: every search with 2 to 4 threads, stopped by a
/// random node limit, answers one of the position's moves. Games restart every 40 plies (dense
/// Phutball boards would make each search slow). Returns the searches made.
fn search_soak<G: Game>(game: &G, searches: u32, seed: u64) -> u32 {
    use std::sync::atomic::AtomicBool;
    use tetrad::search::{search, Limits, Params, Table};
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
        let r = search(game, &pos, &tracker, &mut tt, &stop, &params, |_| {});
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
    fn visit<G: Game + Draw>(self, game: G) -> u32 {
        search_soak(&game, self.searches, self.seed)
    }
}

fn all_searches(searches: u32, seed: u64) {
    let mut n = 0;
    for (i, &kind) in GameKind::ALL.iter().enumerate() {
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

#[test]
#[ignore]
fn threaded_search_soak_long() {
    let env = |name: &str, default: u64| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    all_searches(env("SOAK_SEARCHES", 2000) as u32, env("SOAK_SEED", 0));
}

/// `stoppable_perft` walks `above` plies and hands the subtrees below to the game's own perft.
fn perft_agrees<G: Game>(game: &G, above: u32, seed: u64) {
    use std::sync::atomic::AtomicBool;
    let depth = G::PERFT_SUBTREE_DEPTH + above;
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut pos = game.start();
    let mut moves = Vec::new();
    let (go, stopped) = (AtomicBool::new(false), AtomicBool::new(true));
    for _ in 0..6 {
        let want = game.perft(&pos, depth);
        let got = tetrad::games::stoppable_perft(game, &pos, depth, &go);
        assert_eq!(got, Ok(want), "{} perft {depth}", game.name());
        assert_eq!(
            tetrad::games::stoppable_perft(game, &pos, depth, &stopped),
            Err(tetrad::games::PerftStop::Stopped)
        );
        moves.clear();
        game.legal_moves(&pos, &mut moves);
        if moves.is_empty() || game.terminal(&pos).is_some() {
            break;
        }
        pos = game.make(&pos, moves[rng.gen_range(0..moves.len())]);
    }
}

struct PerftAgrees {
    above: u32,
    seed: u64,
}

impl GameVisitor for PerftAgrees {
    type Output = ();
    fn visit<G: Game + Draw>(self, game: G) {
        perft_agrees(&game, self.above, self.seed);
    }
}

#[test]
fn stoppable_perft_counts_like_each_games_perft() {
    for (i, &kind) in GameKind::ALL.iter().enumerate() {
        // Plies above each game's fast-perft subtree depth: the walk and the hand-over are both
        // compared with the game's own perft, at a fraction of a second per game.
        let above = match kind {
            GameKind::Phutball => 2,
            _ => 1,
        };
        kind.visit(PerftAgrees {
            above,
            seed: i as u64 + 1,
        });
    }
}
