//! The conformance kit (`tetrad::testkit::conformance`: seeded random play to the end with the
//! invariants every game must keep checked after every move) over every game of the registry.
//! The long version: `scripts/soak.sh` (or `cargo test --release --test soak -- --ignored`;
//! `SOAK_GAMES` and `SOAK_SEED` change the number of games per game name and the seeds).

use tetrad::registry::{Entry, Registry};
use tetrad::testkit::Soak;

fn soak_of(entry: &Entry, games: u32, max_plies: u32, seed: u64) -> Soak {
    let mut soak = Soak::new(games, seed);
    soak.max_plies = max_plies;
    if entry.name == "phutball" {
        // Random Phutball fills the board; dense boards have millions of distinct ball moves
        // (deciding them is NP-hard), so its games stay short here. Its perft has no fast
        // subtree depth: the stoppable walk is compared two plies deep.
        soak.games = games / 4 + 1;
        soak.max_plies = max_plies.min(60);
        soak.stoppable_above = 2;
    }
    soak
}

fn all(games: u32, max_plies: u32, seed: u64) {
    let mut n = 0;
    for (i, entry) in Registry::builtin().entries().iter().enumerate() {
        let soak = soak_of(entry, games, max_plies, seed + i as u64 + 1);
        let report = entry.conformance(soak);
        eprintln!("soak: {}: {report:?}", entry.name);
        assert!(report.positions > u64::from(soak.games), "{}", entry.name);
        assert!(report.transpositions > 0, "{}: {report:?}", entry.name);
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
