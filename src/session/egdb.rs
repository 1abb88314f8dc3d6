//! The endgame databases in play (docs/egdb.md, "In play"): the `egdb_path` and `egdb_memory`
//! options, the oracle they hand the games, and `egdb_probe`. Generic: which game a directory's
//! databases are for is `crate::egdb`'s business, and the game they are not for refuses the
//! oracle.

use std::path::Path;

use super::{Session, SessionError};
use crate::egdb::{self, EgdbError, Opened};
use crate::search::Verdict;

/// The default of `egdb_memory`, in MiB: the bound of the decompressed blocks kept.
pub const DEFAULT_EGDB_MIB: u64 = 512;
pub const MAX_EGDB_MIB: u64 = 65_536;

/// Why the database could not be opened or asked.
#[derive(Debug, thiserror::Error)]
pub enum EgdbFailure {
    #[error("egdb_path: {0}; no endgame database in use")]
    Load(#[from] EgdbError),
    #[error("no endgame database loaded (set egdb_path)")]
    NotLoaded,
    #[error("the endgame database covers {covers} only, not {game}")]
    OtherGame {
        covers: &'static str,
        game: &'static str,
    },
    #[error("position not covered by the endgame database")]
    NotCovered,
    #[error("egdb_path: {0}")]
    Fault(String),
}

/// The option values and the database they opened.
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
    /// The path and memory bound it was opened under: set again, they open nothing.
    from: (String, u64),
    db: Opened,
}

impl Endgames {
    pub(super) fn path(&self) -> &str {
        &self.path
    }
}

/// Whether the options of the endgame databases concern `game` (they are listed while it is
/// the game).
pub(super) fn concerns(game: &str) -> bool {
    egdb::has_databases(game)
}

impl Session {
    /// `egdb_path`: opens the database of a directory (once: the same path and bound again
    /// open nothing); empty (or UGI's `<empty>`) turns it off. On error the engine goes on
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
            match egdb::open(Path::new(&e.path), e.memory_mib << 20) {
                Ok(db) => {
                    let c = db.coverage();
                    log::info!(
                        "egdb: {} slices, {} bytes, longest distance to zeroing {}; {} left out",
                        c.slices.len(),
                        c.bytes,
                        c.max_dtz,
                        c.left_out.len()
                    );
                    e.loaded = Some(Loaded { from: wanted, db });
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
        let oracle = self.endgames.loaded.as_ref().map(|l| l.db.oracle());
        let _ = self.game.set_oracle(oracle);
    }

    /// `egdb_probe`: the database's value of the current position for the side to move, as
    /// stored (no history applied): `win D`, `loss D` or `draw`.
    pub fn egdb_probe(&self) -> Result<String, SessionError> {
        let Some(loaded) = &self.endgames.loaded else {
            return Err(EgdbFailure::NotLoaded.into());
        };
        if self.game.name() != loaded.db.game() {
            return Err(EgdbFailure::OtherGame {
                covers: loaded.db.game(),
                game: self.game.name(),
            }
            .into());
        }
        Ok(match self.game.oracle_probe() {
            Some(Verdict::Win(d)) => format!("win {d}"),
            Some(Verdict::Loss(d)) => format!("loss {d}"),
            Some(Verdict::Draw) => "draw".to_string(),
            None => {
                return Err(match loaded.db.fault() {
                    Some(f) => EgdbFailure::Fault(f),
                    None => EgdbFailure::NotCovered,
                }
                .into())
            }
        })
    }

    /// What UGI's `d` shows of the database: [`Session::egdb_probe`]'s answer, `not covered`,
    /// or nothing when no database is open for this game.
    pub fn egdb_status(&self) -> Option<String> {
        match self.egdb_probe() {
            Ok(v) => Some(v),
            Err(SessionError::Egdb(EgdbFailure::NotCovered)) => Some("not covered".into()),
            Err(_) => None,
        }
    }
}
