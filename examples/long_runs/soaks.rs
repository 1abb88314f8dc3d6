//! The long random-play soaks: `SOAK_GAMES` games per game name and `SOAK_SEARCHES` threaded
//! searches per game (`SOAK_SEED` moves the seeds); `scripts/soak.sh` runs them.

use crate::soak::{all, all_searches};

pub fn soak_long() {
    let env = |name: &str, default: u64| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    all(env("SOAK_GAMES", 4000) as u32, 400, env("SOAK_SEED", 0));
}

pub fn threaded_search_soak_long() {
    let env = |name: &str, default: u64| {
        std::env::var(name)
            .ok()
            .and_then(|v| v.parse().ok())
            .unwrap_or(default)
    };
    all_searches(env("SOAK_SEARCHES", 2000) as u32, env("SOAK_SEED", 0));
}
