//! Dense Phutball's long checks: the random-play soak, listing times on the densest positions
//! found (or on `POS=<position string>`) and the slowest search hooks.

use std::time::Instant;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tetrad::games::phutball::board::Bits;
use tetrad::games::phutball::{movegen, Pos};
use tetrad::games::prelude::*;

use crate::phutball_dense::{g, parse_case, soak, DENSEST, LONG_CHAINS};

pub fn phutball_dense_random_play_long() {
    let t = Instant::now();
    let st = soak(50, 200, 2_000_000);
    eprintln!(
        "{st:?} in {:.1} s, peak RSS {} MiB",
        t.elapsed().as_secs_f64(),
        peak_rss_mib()
    );
    assert_eq!(st.direct_out_of_budget, 0);
}

/// Times of listing and naming every move of the densest positions found (or of `POS`).
pub fn phutball_dense_figures() {
    let positions: Vec<String> = match std::env::var("POS") {
        Ok(p) => vec![p],
        Err(_) => DENSEST.iter().map(|s| s.to_string()).collect(),
    };
    for text in positions {
        let pos = g().parse_position(&text).expect("position");
        let t = Instant::now();
        let mut moves = Vec::new();
        g().legal_moves(&pos, &mut moves);
        let list_time = t.elapsed();
        let list_rss = peak_rss_mib();
        let t = Instant::now();
        let names: Vec<String> = moves.iter().map(|&m| g().format_move(&pos, m)).collect();
        let name_time = t.elapsed();
        let name_rss = peak_rss_mib();
        let longest = names.iter().map(String::len).max().unwrap_or(0);
        drop(names);
        let t = Instant::now();
        let n = g().perft(&pos, 1);
        let count_time = t.elapsed();
        assert_eq!(moves.len() as u64, n);
        eprintln!(
            "men {} ({:.0}%): {n} moves; legal_moves {:.2} s (peak RSS {list_rss} MiB), \
             format all {:.2} s (peak RSS {name_rss} MiB, longest name {longest} chars), \
             perft 1 {:.2} s",
            pos.men.count(),
            f64::from(pos.men.count()) * 100.0 / 285.0,
            list_time.as_secs_f64(),
            name_time.as_secs_f64(),
            count_time.as_secs_f64(),
        );
    }
}

/// The search hooks (`root_moves`, `search_moves`, `evaluate`) on random-play positions, the
/// densest ones found and constructed patterns up to 75% full: the slowest call of each. They
/// walk bounded numbers of states, whatever the density.
pub fn phutball_dense_search_hooks() {
    let mut all: Vec<Pos> = Vec::new();
    for seed in 0..50u64 {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut pos = g().start();
        for _ in 0..200 {
            if g().terminal(&pos).is_some() {
                break;
            }
            all.push(pos);
            let mut moves = Vec::new();
            movegen::push_placements(&pos, &mut moves);
            movegen::push_jumps_limited(&pos, 5_000, &mut moves);
            pos = g().make(&pos, moves[rng.gen_range(0..moves.len())]);
        }
    }
    all.extend(
        DENSEST
            .iter()
            .map(|s| g().parse_position(s).expect("position")),
    );
    all.extend(LONG_CHAINS.iter().map(|s| parse_case(s).0));
    for p in patterns() {
        all.push(p);
        let mut q = p;
        q.side = q.side.other();
        all.push(Pos::new(q.men, q.ball, q.side));
    }
    let mut worst = [
        (0f64, String::new()),
        (0f64, String::new()),
        (0f64, String::new()),
    ];
    for pos in &all {
        let mut times = [0f64; 3];
        let t = Instant::now();
        g().root_moves(pos, &mut Vec::new());
        times[0] = t.elapsed().as_secs_f64();
        let t = Instant::now();
        g().search_moves(pos, &mut Vec::new());
        times[1] = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let _ = g().evaluate(pos);
        times[2] = t.elapsed().as_secs_f64();
        for (w, t) in worst.iter_mut().zip(times) {
            if t > w.0 {
                *w = (t, g().format_position(pos));
            }
        }
    }
    for (name, (t, p)) in ["root_moves", "search_moves", "evaluate"]
        .iter()
        .zip(&worst)
    {
        eprintln!("{} positions; slowest {name}: {t:.3} s at {p}", all.len());
    }
}

/// Constructed dense positions: patterns of men over rows 1-19 (ball on h10 or next to it).
fn patterns() -> Vec<Pos> {
    use tetrad::games::phutball::board::point;
    let pats: [fn(usize, usize) -> bool; 5] = [
        |c, r| (c + r) % 2 == 0,
        |_, r| r % 2 == 1,
        |c, r| (c + r) % 3 != 0,
        |c, r| (c + 2 * r) % 5 < 2,
        |c, r| c % 2 == 1 || r % 2 == 1,
    ];
    pats.iter()
        .map(|f| {
            let mut men = Bits::EMPTY;
            for r in 1..=19 {
                for c in 0..15 {
                    if f(c, r) {
                        men.set(point(c, r));
                    }
                }
            }
            let ball = (7..15).chain(0..7).find(|&c| !men.get(point(c, 10)));
            let ball = point(ball.unwrap_or(7), 10);
            men.clear(ball);
            Pos::new(men, ball as u16, tetrad::games::Side::P1)
        })
        .collect()
}

/// Peak resident memory of this process so far, in MiB (Linux; 0 elsewhere).
fn peak_rss_mib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmHWM:"))
                .and_then(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
        })
        .map_or(0, |kb| kb / 1024)
}
