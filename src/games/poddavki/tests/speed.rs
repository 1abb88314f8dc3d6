//! Speed measurements (ignored; run with
//! `cargo test --release -- --ignored --nocapture --test-threads=1 poddavki_speed`).
//! Rates are given per wall-clock second and per second of this thread's CPU time (Linux
//! schedstat), as the machine may be shared.

use std::time::Instant;

use rand::rngs::SmallRng;
use rand::SeedableRng;

use crate::games::poddavki::Poddavki;
use crate::games::prelude::*;
use crate::games::Outcome;

/// CPU time this thread has run, in seconds, if the kernel tells.
fn thread_cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let ns: f64 = text.split_whitespace().next()?.parse().ok()?;
    Some(ns / 1e9)
}

/// Runs `f`, returning its result, wall seconds and CPU seconds (wall if unknown).
fn timed<T>(f: impl FnOnce() -> T) -> (T, f64, f64) {
    let cpu0 = thread_cpu_seconds();
    let t = Instant::now();
    let r = f();
    let wall = t.elapsed().as_secs_f64();
    let cpu = match (cpu0, thread_cpu_seconds()) {
        (Some(a), Some(b)) => b - a,
        _ => wall,
    };
    (r, wall, cpu)
}

#[test]
#[ignore]
fn poddavki_speed_perft_11() {
    let g = Poddavki::default();
    let (n, wall, cpu) = timed(|| g.perft(&g.start(), 11));
    assert_eq!(n, 110_917_189);
    println!(
        "perft 11: {n} leaves, wall {wall:.3} s = {:.1} M leaves/s, cpu {cpu:.3} s = {:.1} M leaves/s",
        n as f64 / wall / 1e6,
        n as f64 / cpu / 1e6
    );
}

#[test]
#[ignore]
fn poddavki_speed_playouts() {
    let g = Poddavki::default();
    let start = g.start();
    let mut rng = SmallRng::seed_from_u64(7);
    let count = 500_000;
    let mut wins = [0u32; 3];
    let ((), wall, cpu) = timed(|| {
        for _ in 0..count {
            match g.playout(&start, &mut rng, 1000) {
                Outcome::Win(side) => wins[side.index()] += 1,
                Outcome::Draw => wins[2] += 1,
            }
        }
    });
    println!(
        "{count} playouts: wall {wall:.3} s = {:.0}/s, cpu {cpu:.3} s = {:.0}/s \
         (white {}, black {}, draws {})",
        count as f64 / wall,
        count as f64 / cpu,
        wins[0],
        wins[1],
        wins[2]
    );
}
