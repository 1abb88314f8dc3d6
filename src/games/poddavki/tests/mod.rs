//! Rule, notation and position tests for Poddavki.

mod perft;
mod speed;

use super::board::Position;
use super::Poddavki;
use crate::games::Game;

fn pos(fen: &str) -> Position {
    match Poddavki::default().parse_position(fen) {
        Ok(p) => p,
        Err(e) => panic!("{fen}: {e}"),
    }
}
