//! tetrad: one engine for Poddavki, Phutball, Diamond and Pods.
//!
//! Data flows one way: protocol front end → session → rules / search; answers flow back.

/// The crate's version, the one place every front end takes it from (`tetrad --version`, GTP
/// `version`, UGI `id version`). A release is `X.Y.Z` (scripts/releases.txt lists their commits);
/// every build after release X.Y.Z and before the next one says `X.(Y+1).0-dev`.
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

pub mod bench;
pub mod egdb;
pub mod engine;
#[cfg(any(test, feature = "testkit"))]
pub mod fuzz;
pub mod games;
pub mod gui;
pub mod learn;
pub mod options;
pub mod protocol;
pub mod registry;
pub mod render;
pub mod search;
pub mod session;
#[cfg(any(test, feature = "testkit"))]
pub mod testkit;
