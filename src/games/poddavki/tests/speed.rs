//! Speed measurements (ignored; run with
//! `cargo test --release -- --ignored --nocapture poddavki_speed`).

use std::time::Instant;

use rand::rngs::SmallRng;
use rand::SeedableRng;

use crate::games::poddavki::Poddavki;
use crate::games::{Game, Outcome};

#[test]
#[ignore]
fn poddavki_speed_perft_11() {
    let g = Poddavki::default();
    let t = Instant::now();
    let n = g.perft(&g.start(), 11);
    let s = t.elapsed().as_secs_f64();
    assert_eq!(n, 110_917_189);
    println!(
        "perft 11: {n} leaves in {s:.3} s = {:.1} M leaves/s",
        n as f64 / s / 1e6
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
    let t = Instant::now();
    for _ in 0..count {
        match g.playout(&start, &mut rng, 1000) {
            Outcome::Win(side) => wins[side.index()] += 1,
            Outcome::Draw => wins[2] += 1,
        }
    }
    let s = t.elapsed().as_secs_f64();
    println!(
        "{count} playouts in {s:.3} s = {:.0} playouts/s (white {}, black {}, draws {})",
        count as f64 / s,
        wins[0],
        wins[1],
        wins[2]
    );
}
