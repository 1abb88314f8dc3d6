//! The endgame databases up to 5 pieces against the test kit's bounded search: sampled
//! positions whose result the search proves must agree with the database. Reads the databases
//! from `TETRAD_EGDB_DIR` (default `egdb`), built beforehand with
//! `tetrad egdb build --game poddavki --pieces 5 --dir DIR`.

use tetrad::egdb::{slices_upto, Tables};

use crate::common::Engine;
use crate::egdb_play::play_from_database;
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
