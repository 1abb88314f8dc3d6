//! The databases in play, behind a face that names no game: the session opens a directory
//! with [`open`] (as Stockfish's `SyzygyPath` does) and hands the games [`Opened::oracle`];
//! the game the slices are for takes it (`AnyGame::set_oracle`), the others refuse it. Only
//! this module knows the slices are Poddavki's.

use std::any::Any;
use std::path::Path;
use std::sync::Arc;

use super::{Coverage, EgdbError, Tables, Value};
use crate::games::poddavki::{Poddavki, Position};
use crate::games::Rules;
use crate::search::{Oracle, Verdict};

/// A directory's database, opened for play.
pub struct Opened {
    /// An `Arc<dyn Oracle<G>>` of the game it is for, as `AnyGame::set_oracle` takes it.
    oracle: Arc<dyn Oracle<Poddavki>>,
    coverage: Coverage,
}

/// The slices opened, as the search's oracle.
struct Database(Tables);

impl Oracle<Poddavki> for Database {
    fn probe(&self, pos: &Position) -> Option<Verdict> {
        // A slice not held (`Missing`) is a position not covered.
        self.0.probe(pos).ok().map(|v| match v {
            Value::Win(d) => Verdict::Win(d.into()),
            Value::Loss(d) => Verdict::Loss(d.into()),
            Value::Draw => Verdict::Draw,
        })
    }
}

/// The protocol name of the game the databases are for.
pub fn game() -> &'static str {
    Poddavki::default().name()
}

/// Whether a game (by its protocol name) has endgame databases: the options that open them are
/// listed while it is the game.
pub fn has_databases(game_name: &str) -> bool {
    game_name == game()
}

/// Opens the database of `dir` within `max_bytes`: the slices the game under its default rules
/// can take exactly (none whose wins need more plies than its no-progress rule allows).
pub fn open(dir: &Path, max_bytes: u64) -> Result<Opened, EgdbError> {
    let game = Poddavki::default();
    let limit = game.draw_rules().no_progress_plies.unwrap_or(u32::MAX);
    let (tables, coverage) = Tables::open_within(dir, max_bytes, limit)?;
    Ok(Opened {
        oracle: Arc::new(Database(tables)),
        coverage,
    })
}

impl Opened {
    /// The protocol name of the game the database is for.
    pub fn game(&self) -> &'static str {
        game()
    }

    /// The oracle to hand a game, as `AnyGame::set_oracle` takes it.
    pub fn oracle(&self) -> &(dyn Any + Send + Sync) {
        &self.oracle
    }

    /// What was opened, for the log.
    pub fn coverage(&self) -> &Coverage {
        &self.coverage
    }
}
