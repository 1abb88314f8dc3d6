//! The engine in-process (the library's games, search, protocol loop, fuzz entry points and
//! conformance kit) and the game-play acceptance tests, which also call the binary for their
//! suites. One test binary instead of one per file: each binary links the whole library and
//! compiles its generic code again for the games it uses.

mod baselines;
#[path = "../common/mod.rs"]
mod common;
mod pods_baselines;

mod diamond_play;
mod egdb;
mod fuzz_corpus;
mod fuzz_parsers;
mod oracle;
mod phutball_dense;
mod phutball_play;
mod poddavki_play;
mod pods_play;
mod selfplay;
mod soak;
mod toy_game;
