//! Batched play from Rust, one thread, no Python: game-steps a second of one `EnvChunk` of
//! each game (512 games, only `step` timed), with a random policy (a uniformly random legal
//! action of each game, from its mask row) and the first-legal one (the lowest legal action:
//! every environment then plays the same game). python/README.md ("Speed") quotes it: the same
//! instructions a step run faster when every game is the same, as the branch predictors learn
//! it. `BATCH_GAMES` and `BATCH_STEPS` change the sizes, `BATCH_GAME=NAME` measures one game,
//! `BATCH_POLICY=random` or `first` one policy.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use std::time::{Duration, Instant};
use tetrad::registry::Registry;

use crate::env_or;

pub fn step_speed() {
    let (n, steps): (usize, usize) = (env_or("BATCH_GAMES", 512), env_or("BATCH_STEPS", 2000));
    let only = std::env::var("BATCH_GAME").ok();
    let policy = std::env::var("BATCH_POLICY").ok();
    let registry = Registry::builtin();
    let kinds = registry.kinds().iter();
    for kind in kinds.filter(|k| only.as_deref().is_none_or(|name| name == k.name())) {
        for random in [true, false] {
            let name = if random { "random" } else { "first" };
            if policy.as_deref().is_some_and(|p| p != name) {
                continue;
            }
            let game = kind.new_state();
            let actions = game.action_space().actions();
            let obs_size: usize = game.observation_shape().iter().product();
            let mut chunk = game.env_chunk(n, 1, None);
            let (mut obs, mut mask) = (vec![0.0; n * obs_size], vec![false; n * actions]);
            let (mut rewards, mut done) = (vec![0.0; 2 * n], vec![false; n]);
            chunk.reset(&mut obs, &mut mask);
            let mut rng = SmallRng::seed_from_u64(1);
            let mut chosen = vec![0i64; n];
            let mut legal = Vec::new();
            let mut spent = Duration::ZERO;
            for _ in 0..steps {
                for (i, a) in chosen.iter_mut().enumerate() {
                    let row = &mask[i * actions..(i + 1) * actions];
                    legal.clear();
                    legal.extend((0..actions).filter(|&k| row[k]));
                    let pick = if random {
                        rng.gen_range(0..legal.len())
                    } else {
                        0
                    };
                    *a = legal[pick] as i64;
                }
                let start = Instant::now();
                assert_eq!(chunk.first_illegal(&chosen), None);
                chunk.step(&chosen, &mut obs, &mut mask, &mut rewards, &mut done);
                spent += start.elapsed();
            }
            let per_step = spent.as_secs_f64() / steps as f64;
            println!(
                "{:<14} {:<6} {:>8.1} us a step of {n} games, {:>6.2} M game-steps/s",
                kind.name(),
                name,
                per_step * 1e6,
                n as f64 / per_step / 1e6
            );
        }
    }
}
