//! The long random-play soaks: `SOAK_GAMES` games per game name and `SOAK_SEARCHES` threaded
//! searches per game (`SOAK_SEED` moves the seeds); `scripts/soak.sh` runs them.

use crate::env_or;
use crate::soak::{all, all_searches};

pub fn soak_long() {
    all(env_or("SOAK_GAMES", 4000), 400, env_or("SOAK_SEED", 0));
}

pub fn threaded_search_soak_long() {
    all_searches(env_or("SOAK_SEARCHES", 2000), env_or("SOAK_SEED", 0));
}
