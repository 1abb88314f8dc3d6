//! Poddavki endgame databases (docs/egdb.md): for every position with few pieces, its value for
//! the side to move (repetition draw only) and its distance to zeroing. Retrograde builder,
//! file format, probing and verification; uses only the game's public face.

mod build;
/// Test support: checks that share no code with the builder.
#[cfg(any(test, feature = "testkit"))]
pub mod check;
mod checkpoint;
mod file;
mod index;
mod load;
mod plan;
mod play;
mod probe;
#[cfg(test)]
mod tests;

use std::path::PathBuf;

pub use build::{build, build_slice, Progress, Reads};
pub use index::{slices_upto, Material};
pub use load::Coverage;
pub use plan::plan;
pub use play::{game, has_databases, open, Opened};
pub use probe::{Inconsistency, SliceInfo, Tables};

/// The greatest distance to zeroing a byte can hold.
pub const MAX_DTZ: u32 = 126;

/// A position's value for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Value {
    /// Wins; the next capture or man move comes this many plies on (0: no legal move, won).
    Win(u8),
    /// Loses; the loser delays the next capture or man move this many plies.
    Loss(u8),
    Draw,
}

/// Byte marking an index that names no position (two men on one square).
pub(crate) const INVALID: u8 = 255;

impl Value {
    pub(crate) fn encode(self) -> u8 {
        match self {
            Value::Draw => 0,
            Value::Win(d) => 1 + d,
            Value::Loss(d) => 128 + d,
        }
    }

    pub(crate) fn decode(b: u8) -> Option<Value> {
        match b {
            0 => Some(Value::Draw),
            1..=127 => Some(Value::Win(b - 1)),
            INVALID => None,
            _ => Some(Value::Loss(b - 128)),
        }
    }
}

impl std::fmt::Display for Value {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Value::Win(d) => write!(f, "win {d}"),
            Value::Loss(d) => write!(f, "loss {d}"),
            Value::Draw => write!(f, "draw"),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum EgdbError {
    #[error("{path}: {source}")]
    Io {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("{path}: {why}")]
    BadFile { path: PathBuf, why: String },
    #[error("slice {0} is missing (build the smaller slices first)")]
    Missing(Material),
    #[error(
        "slice {slice} needs slice {missing}, which is not in {}: build the slices of the lower \
         levels first (`tetrad egdb plan`)",
        dir.display()
    )]
    Needs {
        slice: Material,
        missing: Material,
        dir: PathBuf,
    },
    #[error("slice {0} leaves a side without pieces: it is not stored")]
    Unstored(Material),
    #[error("the database covers Poddavki only, not '{0}'")]
    Game(String),
    #[error("{0}")]
    TooLarge(String),
    #[error("{0}")]
    Corrupt(String),
}
