//! The shipped binary from outside: both protocol dialects, batch input, the conventions users
//! expect, the command line, the samples and pictures in the documents, and the scripts that
//! drive the binary (the arena's Python suite, tuning, release baselines). One test binary
//! instead of one per file: each binary links the whole library and is compiled optimised,
//! which costs more than the tests' own code.

#[path = "../common/mod.rs"]
mod common;

mod arena;
mod baseline_script;
mod batch;
mod conventions;
mod doc_links;
mod doc_samples;
mod docs_pictures;
mod egdb;
mod egdb_jobs;
mod egdb_multipv;
mod egdb_play;
mod eval_options;
mod gtp;
mod gui_commands;
mod hostile;
mod learn;
mod memory;
mod orphan;
mod pictures;
mod proofs;
mod record;
mod repo_paths;
mod rules_examples;
mod stderr_log;
mod threads;
mod torture;
mod tune;
mod ugi;
mod version;
