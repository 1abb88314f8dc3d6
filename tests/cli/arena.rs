//! Runs the tournament runner's Python test suite (`tests/arena/`) as part of `cargo test`, so
//! the README's one test command covers it. The suite drives this build's release binary.

use std::process::Command;

#[test]
fn arena_python_suite() {
    let root = env!("CARGO_MANIFEST_DIR");
    let status = Command::new("python3")
        .args(["-m", "unittest", "discover", "-s", "tests/arena"])
        .current_dir(root)
        .env("TETRAD_BIN", env!("CARGO_BIN_EXE_tetrad"))
        .status()
        .expect("python3 runs");
    assert!(status.success(), "arena tests failed: {status}");
}
