//! The endgame databases up to 5 pieces against the test kit's bounded search: sampled
//! positions whose result the search proves must agree with the database. Reads the databases
//! from `TETRAD_EGDB_DIR` (default `egdb`), built beforehand with
//! `tetrad egdb build --game poddavki --pieces 5 --dir DIR`.

use tetrad::egdb::{slices_upto, Tables};

use crate::egdb_tests::check_sampled;

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
