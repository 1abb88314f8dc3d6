//! Game-independent search: alpha-beta, transposition table, time management.

pub mod alphabeta;
mod movepick;
pub mod time;
pub mod tt;

pub use alphabeta::{search, uci_score, Info, Params, PvLine, SearchResult, MATE, MATE_BOUND};
pub use time::{Clock, Limits};
pub use tt::Table;
