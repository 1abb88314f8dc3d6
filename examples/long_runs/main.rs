//! Long runs: the measurement programs that take minutes and, for the matches at 100 ms a move,
//! need an idle machine, so they are programs rather than tests. The quick versions of the same
//! checks are tests (`tests/engine/`), and these runs share their helpers, so a long run plays
//! exactly the matches of its quick test, only more of them and by the clock.
//!
//! ```text
//! cargo run --release --features long-runs --example long_runs -- [NAME...]
//! ```
//!
//! Each NAME is a prefix (`pods_play::full_`, `soak::`); the runs it matches run one after the
//! other. With no NAME the list is printed. A run whose acceptance bound fails panics, and the
//! program exits with an error. The `long-runs` feature keeps `cargo test` from building this.

#[path = "../../tests/engine/baselines.rs"]
mod baselines;
#[path = "../../tests/common/mod.rs"]
mod common;
#[path = "../../tests/engine/pods_baselines.rs"]
mod pods_baselines;

// The test files themselves, for their helpers: outside the test harness their tests are
// compiled out, which leaves some helpers and imports unused here.
#[allow(dead_code, unused_imports)]
#[path = "../../tests/engine/diamond_play.rs"]
mod diamond_play;
#[allow(dead_code, unused_imports)]
#[path = "../../tests/cli/egdb_play.rs"]
mod egdb_play;
#[allow(dead_code, unused_imports)]
#[path = "../../tests/engine/egdb.rs"]
mod egdb_tests;
#[allow(dead_code, unused_imports)]
#[path = "../../tests/engine/phutball_dense.rs"]
mod phutball_dense;
#[allow(dead_code, unused_imports)]
#[path = "../../tests/engine/phutball_play.rs"]
mod phutball_play;
#[allow(dead_code, unused_imports)]
#[path = "../../tests/engine/poddavki_play.rs"]
mod poddavki_play;
#[allow(dead_code, unused_imports)]
#[path = "../../tests/engine/pods_play.rs"]
mod pods_play;
#[allow(dead_code, unused_imports)]
#[path = "../../tests/engine/soak.rs"]
mod soak;

mod batch;
mod dense;
mod diamond;
mod egdb;
mod phutball;
mod poddavki;
mod pods;
mod soaks;

/// Every run, named after the test file whose quick checks it extends (`batch::` measures
/// batched play, the Rust half of python/bench.py: no test has a quick version of it).
const RUNS: &[(&str, fn())] = &[
    ("batch::step_speed", batch::step_speed),
    (
        "diamond_play::full_match_vs_random_100ms",
        diamond::full_match_vs_random_100ms,
    ),
    (
        "diamond_play::full_match_vs_greedy_100ms",
        diamond::full_match_vs_greedy_100ms,
    ),
    (
        "phutball_play::full_match_vs_random_100ms",
        phutball::full_match_vs_random_100ms,
    ),
    (
        "phutball_play::full_match_vs_greedy_100ms",
        phutball::full_match_vs_greedy_100ms,
    ),
    (
        "egdb::sampled_five_piece_results",
        egdb::sampled_five_piece_results,
    ),
    ("egdb::database_games_100ms", egdb::database_games_100ms),
    ("egdb::probe_cost", egdb::probe_cost),
    ("egdb::same_as_format_1", egdb::same_as_format_1),
    (
        "poddavki_play::full_match_vs_random_100ms",
        poddavki::full_match_vs_random_100ms,
    ),
    (
        "poddavki_play::full_match_vs_greedy_100ms",
        poddavki::full_match_vs_greedy_100ms,
    ),
    (
        "poddavki_play::fixed_nodes_100_games",
        poddavki::fixed_nodes_100_games,
    ),
    (
        "pods_play::full_standard_vs_random_100ms",
        pods::full_standard_vs_random_100ms,
    ),
    (
        "pods_play::full_standard_vs_greedy_100ms",
        pods::full_standard_vs_greedy_100ms,
    ),
    (
        "pods_play::full_standard_second_vs_greedy_100ms",
        pods::full_standard_second_vs_greedy_100ms,
    ),
    (
        "pods_play::full_advanced_vs_random_100ms",
        pods::full_advanced_vs_random_100ms,
    ),
    (
        "pods_play::full_advanced_vs_greedy_100ms",
        pods::full_advanced_vs_greedy_100ms,
    ),
    ("pods_play::generate_endgames", pods::generate_endgames),
    ("soak::soak_long", soaks::soak_long),
    (
        "soak::threaded_search_soak_long",
        soaks::threaded_search_soak_long,
    ),
    (
        "phutball_dense::phutball_dense_random_play_long",
        dense::phutball_dense_random_play_long,
    ),
    (
        "phutball_dense::phutball_dense_figures",
        dense::phutball_dense_figures,
    ),
    (
        "phutball_dense::phutball_dense_search_hooks",
        dense::phutball_dense_search_hooks,
    ),
];

/// The environment variable `name` as a `T`, or `default` when it is unset or unreadable.
fn env_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() -> anyhow::Result<()> {
    let prefixes: Vec<String> = std::env::args().skip(1).collect();
    if prefixes.is_empty() {
        for (name, _) in RUNS {
            println!("{name}");
        }
        return Ok(());
    }
    let chosen: Vec<_> = RUNS
        .iter()
        .filter(|(name, _)| prefixes.iter().any(|p| name.starts_with(p.as_str())))
        .collect();
    if chosen.is_empty() {
        anyhow::bail!("no run starts with {prefixes:?} (run with no argument for the list)");
    }
    for (name, run) in chosen {
        eprintln!("== {name}");
        run();
    }
    Ok(())
}
