//! The Poddavki endgame databases in play (docs/egdb.md, "In play"): the `egdb_path` and
//! `egdb_memory` options, the oracle Poddavki searches take from them, and `egdb_probe`.

use std::any::Any;
use std::path::Path;
use std::sync::Arc;

use super::{Session, SessionError};
use crate::egdb::{Coverage, EgdbError, Tables, Value};
use crate::games::poddavki::{Poddavki, Position};
use crate::games::Rules;
use crate::search::{Oracle, Verdict};

/// The default of `egdb_memory`, in MiB: room for every slice up to 5 pieces (303 MB).
pub const DEFAULT_EGDB_MIB: u64 = 512;
pub const MAX_EGDB_MIB: u64 = 65_536;

/// Why the database could not be loaded or asked.
#[derive(Debug, thiserror::Error)]
pub enum EgdbFailure {
    #[error("egdb_path: {0}; no endgame database in use")]
    Load(#[from] EgdbError),
    #[error("no endgame database loaded (set egdb_path)")]
    NotLoaded,
    #[error("the endgame database covers poddavki only, not {0}")]
    OtherGame(&'static str),
    #[error("position not covered by the endgame database")]
    NotCovered,
}

/// The option values and the database they loaded.
pub(super) struct Endgames {
    path: String,
    pub(super) memory_mib: u64,
    loaded: Option<Loaded>,
}

impl Default for Endgames {
    fn default() -> Endgames {
        Endgames {
            path: String::new(),
            memory_mib: DEFAULT_EGDB_MIB,
            loaded: None,
        }
    }
}

struct Loaded {
    /// The path and memory bound it was loaded under: set again, they load nothing.
    from: (String, u64),
    oracle: Arc<dyn Oracle<Poddavki>>,
}

/// The slices loaded, as the search's oracle.
struct Database(Tables);

impl Oracle<Poddavki> for Database {
    fn probe(&self, pos: &Position) -> Option<Verdict> {
        // A slice not loaded (`Missing`) is a position not covered.
        self.0.probe(pos).ok().map(|v| match v {
            Value::Win(d) => Verdict::Win(d.into()),
            Value::Loss(d) => Verdict::Loss(d.into()),
            Value::Draw => Verdict::Draw,
        })
    }
}

impl Endgames {
    pub(super) fn path(&self) -> &str {
        &self.path
    }

    /// The oracle to hand a game, as `AnyGame::set_oracle` takes it.
    fn oracle(&self) -> Option<&(dyn Any + Send + Sync)> {
        self.loaded
            .as_ref()
            .map(|l| &l.oracle as &(dyn Any + Send + Sync))
    }
}

/// Loads the database of `dir` within `mib` MiB: the slices a Poddavki game under its default
/// rules can take exactly (none whose wins need more plies than the no-progress rule allows).
fn load(dir: &str, mib: u64) -> Result<(Arc<dyn Oracle<Poddavki>>, Coverage), EgdbError> {
    let limit = Poddavki::default()
        .draw_rules()
        .no_progress_plies
        .unwrap_or(u32::MAX);
    let (tables, coverage) = Tables::open_within(Path::new(dir), mib << 20, limit)?;
    Ok((Arc::new(Database(tables)), coverage))
}

impl Session {
    /// `egdb_path`: loads the database of a directory (once: the same path and bound again
    /// load nothing); empty (or UGI's `<empty>`) turns it off. On error the engine goes on
    /// without a database.
    pub(super) fn set_egdb_path(&mut self, dir: &str) -> Result<(), SessionError> {
        let dir = if dir == "<empty>" { "" } else { dir };
        self.endgames.path = dir.to_string();
        self.reload_egdb()
    }

    pub(super) fn set_egdb_memory(&mut self, mib: u64) -> Result<(), SessionError> {
        self.endgames.memory_mib = mib;
        self.reload_egdb()
    }

    fn reload_egdb(&mut self) -> Result<(), SessionError> {
        let e = &mut self.endgames;
        let wanted = (e.path.clone(), e.memory_mib);
        if e.loaded.as_ref().is_some_and(|l| l.from == wanted) {
            return Ok(());
        }
        e.loaded = None;
        let result = if e.path.is_empty() {
            Ok(())
        } else {
            match load(&e.path, e.memory_mib) {
                Ok((oracle, coverage)) => {
                    log::info!(
                        "egdb: {} slices, {} bytes, longest distance to zeroing {}; {} left out",
                        coverage.slices.len(),
                        coverage.bytes,
                        coverage.max_dtz,
                        coverage.left_out.len()
                    );
                    e.loaded = Some(Loaded {
                        from: wanted,
                        oracle,
                    });
                    Ok(())
                }
                Err(err) => {
                    e.path.clear();
                    Err(SessionError::Egdb(err.into()))
                }
            }
        };
        self.give_oracle();
        result
    }

    /// Hands the current game the database (or takes it away); games it is not for refuse it.
    pub(super) fn give_oracle(&mut self) {
        let _ = self.game.set_oracle(self.endgames.oracle());
    }

    /// `egdb_probe`: the database's value of the current position for the side to move, as
    /// stored (no history applied): `win D`, `loss D` or `draw`.
    pub fn egdb_probe(&self) -> Result<String, SessionError> {
        if self.endgames.loaded.is_none() {
            return Err(EgdbFailure::NotLoaded.into());
        }
        if self.game.name() != Poddavki::default().name() {
            return Err(EgdbFailure::OtherGame(self.game.name()).into());
        }
        Ok(match self.game.oracle_probe() {
            Some(Verdict::Win(d)) => format!("win {d}"),
            Some(Verdict::Loss(d)) => format!("loss {d}"),
            Some(Verdict::Draw) => "draw".to_string(),
            None => return Err(EgdbFailure::NotCovered.into()),
        })
    }
}
