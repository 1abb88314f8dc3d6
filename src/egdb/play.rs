//! The databases in play, behind a face that names no game: the session opens a directory
//! with [`open`] (as Stockfish's `SyzygyPath` does) and hands the games [`Opened::oracle`];
//! the game the slices are for takes it (`AnyGame::set_oracle`), the others refuse it. Only
//! this module knows the slices are Poddavki's.

use std::any::Any;
use std::path::Path;
use std::sync::{Arc, Mutex};

use super::{Coverage, EgdbError, Tables, Value};
use crate::games::poddavki::{Poddavki, Position};
use crate::games::Rules;
use crate::search::{Oracle, Verdict};

/// A directory's database, opened for play.
pub struct Opened {
    /// An `Arc<dyn Oracle<G>>` of the game it is for, as `AnyGame::set_oracle` takes it.
    oracle: Arc<dyn Oracle<Poddavki>>,
    database: Arc<Database>,
    coverage: Coverage,
}

/// The slices opened, as the search's oracle.
struct Database {
    tables: Tables,
    /// The first file error a probe met (a block that failed its checksum): its positions are
    /// not covered, never given a wrong value.
    fault: Mutex<Option<String>>,
}

impl Oracle<Poddavki> for Database {
    fn probe(&self, pos: &Position) -> Option<Verdict> {
        match self.tables.probe(pos) {
            Ok(v) => Some(match v {
                Value::Win(d) => Verdict::Win(d.into()),
                Value::Loss(d) => Verdict::Loss(d.into()),
                Value::Draw => Verdict::Draw,
            }),
            // A slice not held is a position not covered.
            Err(EgdbError::Missing(_)) => None,
            Err(e) => {
                let mut fault = self.fault.lock().unwrap_or_else(|e| e.into_inner());
                if fault.is_none() {
                    log::error!("egdb: {e}; the positions it holds are not covered");
                    *fault = Some(e.to_string());
                }
                None
            }
        }
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

/// Opens the database of `dir`, keeping up to `max_bytes` of decompressed blocks: the slices
/// the game under its default rules can take exactly (none whose wins need more plies than its
/// no-progress rule allows).
pub fn open(dir: &Path, max_bytes: u64) -> Result<Opened, EgdbError> {
    let game = Poddavki::default();
    let limit = game.draw_rules().no_progress_plies.unwrap_or(u32::MAX);
    let (tables, coverage) = Tables::open_within(dir, max_bytes, limit)?;
    let database = Arc::new(Database {
        tables,
        fault: Mutex::new(None),
    });
    Ok(Opened {
        oracle: Arc::clone(&database) as Arc<dyn Oracle<Poddavki>>,
        database,
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

    /// The first file error a probe met, if any (docs/egdb.md, "In play").
    pub fn fault(&self) -> Option<String> {
        self.database
            .fault
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// What was opened, for the log.
    pub fn coverage(&self) -> &Coverage {
        &self.coverage
    }
}
