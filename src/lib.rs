//! tetrad: one engine for Poddavki, Phutball, Diamond and Pods.
//!
//! Data flows one way: protocol front end → session → rules / search.

pub mod games;
