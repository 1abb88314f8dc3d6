//! The endgame database builder against checks that share no code with it (the test kit's
//! plain retrograde and bounded search).

use std::path::PathBuf;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tetrad::egdb::check::{key, positions, prove, retrograde, Solved};
use tetrad::egdb::{build, slices_upto, Material, Reads, Tables, Value};
use tetrad::games::poddavki::Position;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tetrad-egdb-it-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn same(v: Value, s: Solved) -> bool {
    match (v, s) {
        (Value::Win(a), Solved::Win(b)) | (Value::Loss(a), Solved::Loss(b)) => u32::from(a) == b,
        (Value::Draw, Solved::Draw) => true,
        _ => false,
    }
}

#[test]
fn every_position_up_to_three_pieces_matches_a_plain_retrograde() {
    let dir = scratch("three");
    build(&dir, &slices_upto(3), 2, Reads::Whole, &mut |_| {}).expect("built");
    let tables = Tables::open(&dir).expect("opened");
    let plain = retrograde(3);
    let all = positions(3);
    assert_eq!(plain.len(), all.len());
    let mut kinds = [0; 3];
    for p in &all {
        let solved = plain[&key(p)];
        let stored = tables.probe(p).expect("covered");
        assert!(
            same(stored, solved),
            "{p:?}: database {stored}, plain {solved:?}"
        );
        kinds[match solved {
            Solved::Win(_) => 0,
            Solved::Loss(_) => 1,
            Solved::Draw => 2,
        }] += 1;
    }
    // The files as play opens them, a block at a time through a cache of 4 blocks (so that
    // blocks are dropped and read again), give the same values.
    let (files, coverage) = Tables::open_within(&dir, 4 << 14, u32::MAX).expect("opened");
    assert!(coverage.left_out.is_empty() && coverage.bytes > 0);
    for p in &all {
        let solved = plain[&key(p)];
        let stored = files.probe(p).expect("covered");
        assert!(
            same(stored, solved),
            "{p:?}: file {stored}, plain {solved:?}"
        );
    }
    // Every kind of result occurs, and positions are many: the comparison is not empty.
    assert!(
        kinds.iter().all(|&k| k > 100) && all.len() > 500_000,
        "{kinds:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sampled_four_piece_results_a_bounded_search_proves_agree() {
    let dir = scratch("four");
    let four = [
        Material::new(0, 2, 0, 2),
        Material::new(0, 3, 0, 1),
        Material::new(0, 1, 0, 3),
        Material::new(1, 0, 0, 3),
        Material::new(0, 3, 1, 0),
    ];
    let mut slices = slices_upto(3);
    slices.extend(four);
    build(&dir, &slices, 2, Reads::Whole, &mut |_| {}).expect("built");
    let tables = Tables::open(&dir).expect("opened");
    let (bad, n) = tables.verify(2, 5, &mut |_, _| {}).expect("verified");
    assert_eq!(n, 0, "{bad:?}");
    let (wins, losses) = check_sampled(&tables, &four, 400, 5, 26);
    // The compressed files, probed a block at a time, against the values as built (in memory,
    // uncompressed), on random positions of every side and colour.
    let (files, _) = Tables::open_within(&dir, 8 << 14, u32::MAX).expect("opened");
    let mut rng = SmallRng::seed_from_u64(43);
    let mut compared = 0;
    while compared < 20_000 {
        let m = four[rng.gen_range(0..four.len())];
        let Some(p) = random_position(&mut rng, m) else {
            continue;
        };
        compared += 1;
        assert_eq!(
            files.probe(&p).expect("covered"),
            tables.probe(&p).expect("covered"),
            "{p:?}"
        );
    }
    assert!(
        wins >= 20 && losses >= 20,
        "proven: {wins} wins, {losses} losses"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Draws `samples` random positions of the materials and checks every result [`prove`] finds within `depth` plies against the database;
/// returns how many proven wins and losses agreed.
pub fn check_sampled(
    tables: &Tables,
    materials: &[Material],
    samples: u32,
    depth: u32,
    seed: u64,
) -> (u32, u32) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let (mut wins, mut losses) = (0, 0);
    let mut drawn = 0;
    while drawn < samples {
        let m = materials[rng.gen_range(0..materials.len())];
        let Some(p) = random_position(&mut rng, m) else {
            continue;
        };
        drawn += 1;
        let stored = tables.probe(&p).expect("covered");
        match prove(&p, depth) {
            Some(true) => {
                wins += 1;
                assert!(
                    matches!(stored, Value::Win(_)),
                    "{p:?}: proven win, database {stored}"
                );
            }
            Some(false) => {
                losses += 1;
                assert!(
                    matches!(stored, Value::Loss(_)),
                    "{p:?}: proven loss, database {stored}"
                );
            }
            None => {}
        }
    }
    (wins, losses)
}

/// A random position of a material (men off their far rank), if the squares drawn are free.
pub fn random_position(rng: &mut SmallRng, m: Material) -> Option<Position> {
    let mut occupied = 0u32;
    let mut draw = |rng: &mut SmallRng, lo: u32, hi: u32| {
        let s = rng.gen_range(lo..hi);
        let bit = 1u32 << s;
        let free = occupied & bit == 0;
        occupied |= bit;
        free.then_some(bit)
    };
    let (mut white, mut black, mut kings) = (0, 0, 0);
    for _ in 0..m.white_men {
        white |= draw(rng, 0, 28)?;
    }
    for _ in 0..m.black_men {
        black |= draw(rng, 4, 32)?;
    }
    for _ in 0..m.white_kings {
        let b = draw(rng, 0, 32)?;
        white |= b;
        kings |= b;
    }
    for _ in 0..m.black_kings {
        let b = draw(rng, 0, 32)?;
        black |= b;
        kings |= b;
    }
    Some(Position::new(white, black, kings, rng.gen_range(0..2)))
}

#[test]
fn a_missing_slice_is_an_error_not_a_value() {
    let tables = Tables::new();
    let p = Position::new(1, 1 << 31, 1 << 31 | 1, 0);
    assert!(tables.probe(&p).is_err());
}
