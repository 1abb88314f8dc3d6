//! The endgame databases up to 5 pieces against the test kit's bounded search: sampled
//! positions whose result the search proves must agree with the database. Reads the databases
//! from `TETRAD_EGDB_DIR` (default `egdb`), built beforehand with
//! `tetrad egdb build --game poddavki --pieces 5 --dir DIR`.

use std::path::Path;
use std::time::Instant;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tetrad::egdb::{slices_upto, Material, Tables, Value};

use crate::common::Engine;
use crate::egdb_play::play_from_database;
use crate::egdb_tests::{check_sampled, random_position};

pub fn sampled_five_piece_results() {
    let dir = std::env::var("TETRAD_EGDB_DIR").unwrap_or_else(|_| "egdb".into());
    let tables = Tables::open(std::path::Path::new(&dir)).expect("the databases load");
    let five: Vec<_> = slices_upto(5)
        .into_iter()
        .filter(|m| m.pieces() == 5)
        .collect();
    assert!(
        five.iter().all(|m| tables.materials().contains(m)),
        "{dir} lacks 5-piece slices"
    );
    let (wins, losses) = check_sampled(&tables, &five, 10_000, 5, 2026);
    eprintln!(
        "egdb: 10,000 sampled 5-piece positions: {wins} proven wins and {losses} proven losses agree"
    );
}

/// Issue 26's acceptance in play: from random positions of up to 5 pieces, 200 sure wins for
/// the side to move (half of them with plies already on the no-progress count), 200 draws,
/// 200 sure losses and 20 wins the count cuts off, each played to the end by tetrad with the
/// database on both sides at 100 ms a move: every game must end as the database and the count
/// say, every move of a sure win or loss keeping to the distance to zeroing. The binary is
/// `TETRAD_BIN` (default `target/release/tetrad`), the database `TETRAD_EGDB_DIR`.
pub fn database_games_100ms() {
    let dir = std::env::var("TETRAD_EGDB_DIR").unwrap_or_else(|_| "egdb".into());
    let bin = std::env::var("TETRAD_BIN").unwrap_or_else(|_| "target/release/tetrad".into());
    let mut e = Engine::spawn(std::process::Command::new(bin));
    assert_eq!(e.gtp("set_option movetime 100"), "=");
    let t = play_from_database(&mut e, std::path::Path::new(&dir), 5, 200, 2026);
    eprintln!(
        "egdb in play, up to 5 pieces: {} sure wins won ({} with plies on the count), {} draws \
         drawn, {} cut-off wins drawn, {} sure losses lost; {} games off, {} moves off the \
         distance",
        t.wins,
        t.counted_wins,
        t.draws,
        t.cut_wins,
        t.losses,
        t.wrong.len(),
        t.off_distance.len()
    );
    assert!(t.wrong.is_empty(), "{:#?}", t.wrong);
    assert!(t.off_distance.is_empty(), "{:#?}", t.off_distance);
}

/// Probe cost and memory with the files opened as play opens them (`TETRAD_EGDB_DIR`): the time
/// to open the directory, then 100,000 random positions of its slices probed cold (each block
/// read and decompressed the first time it is asked for) and again warm (from the cache); the
/// resident memory after the first 1,000 probes.
pub fn probe_cost() {
    let dir = std::env::var("TETRAD_EGDB_DIR").unwrap_or_else(|_| "egdb".into());
    let started = Instant::now();
    let (tables, cov) =
        Tables::open_within(Path::new(&dir), 512 << 20, u32::MAX).expect("the databases open");
    let opened = started.elapsed();
    let materials: Vec<Material> = cov.slices.iter().flat_map(|&m| [m, m.mirror()]).collect();
    let mut rng = SmallRng::seed_from_u64(2026);
    let mut positions = Vec::new();
    while positions.len() < 100_000 {
        let m = materials[rng.gen_range(0..materials.len())];
        if let Some(p) = random_position(&mut rng, m) {
            positions.push(p);
        }
    }
    let mut rss_after_1000 = String::new();
    let cold = Instant::now();
    for (i, p) in positions.iter().enumerate() {
        tables.probe(p).expect("covered");
        if i == 999 {
            rss_after_1000 = rss();
        }
    }
    let cold = cold.elapsed();
    let warm = Instant::now();
    for p in &positions {
        tables.probe(p).expect("covered");
    }
    let warm = warm.elapsed();
    let per = |d: std::time::Duration| d.as_secs_f64() * 1e6 / positions.len() as f64;
    eprintln!(
        "egdb: {} slices ({} bytes) opened in {:.3} s; 100,000 probes: cold {:.2} us each, \
         warm {:.2} us each; {rss_after_1000} after 1,000 probes, {} after all",
        cov.slices.len(),
        cov.bytes,
        opened.as_secs_f64(),
        per(cold),
        per(warm),
        rss()
    );
}

fn rss() -> String {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .map(|l| l.trim_start_matches("VmRSS:").trim().to_string())
        })
        .unwrap_or_else(|| "?".into())
}

/// The compressed set (`TETRAD_EGDB_DIR`) against one of format 1 (`TETRAD_EGDB_V1_DIR`, one
/// byte per index of every slice, both sides to move: tetrad v0.3.0's), on `TETRAD_EGDB_SAMPLES`
/// random positions (default 1,000,000) of every slice of up to `TETRAD_EGDB_PIECES` pieces (5),
/// mirrors included: every value must be the same.
pub fn same_as_format_1() {
    let dir = std::env::var("TETRAD_EGDB_DIR").unwrap_or_else(|_| "egdb".into());
    let old = std::env::var("TETRAD_EGDB_V1_DIR").expect("TETRAD_EGDB_V1_DIR");
    let samples: usize = std::env::var("TETRAD_EGDB_SAMPLES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1_000_000);
    let pieces: u32 = std::env::var("TETRAD_EGDB_PIECES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(5);
    let (tables, _) =
        Tables::open_within(Path::new(&dir), 1 << 30, u32::MAX).expect("the databases open");
    let slices = slices_upto(pieces);
    // Format 1: a 36-byte header, then a byte per index: 0 draw, 1-127 win D + 1, 128-254
    // loss D + 128, 255 invalid.
    let files: Vec<std::fs::File> = slices
        .iter()
        .map(|m| {
            std::fs::File::open(Path::new(&old).join(format!("poddavki-{m}.egdb")))
                .expect("a format 1 slice")
        })
        .collect();
    let mut rng = SmallRng::seed_from_u64(43);
    let mut compared = 0;
    let mut kinds = [0u64; 3];
    while compared < samples {
        let k = rng.gen_range(0..slices.len());
        let Some(p) = random_position(&mut rng, slices[k]) else {
            continue;
        };
        let mut b = [0u8];
        std::os::unix::fs::FileExt::read_exact_at(&files[k], &mut b, 36 + slices[k].index(&p))
            .expect("read");
        let old = match b[0] {
            0 => Value::Draw,
            1..=127 => Value::Win(b[0] - 1),
            255 => panic!("{p:?}: an invalid index in format 1"),
            x => Value::Loss(x - 128),
        };
        let new = tables.probe(&p).expect("covered");
        assert_eq!(new, old, "{p:?}");
        kinds[match new {
            Value::Win(_) => 0,
            Value::Draw => 1,
            Value::Loss(_) => 2,
        }] += 1;
        compared += 1;
    }
    eprintln!(
        "egdb: {compared} random positions of {} slices up to {pieces} pieces: the same values \
         in both formats ({} wins, {} draws, {} losses)",
        slices.len(),
        kinds[0],
        kinds[1],
        kinds[2]
    );
}
