//! tetrad: one engine for Poddavki, Phutball, Diamond and Pods.
//!
//! Data flows one way: protocol front end → session → rules / search; answers flow back.

pub mod batch;
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
