//! `tetrad egdb build / verify / info` through the binary.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tetrad-egdb-cli-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn egdb(args: &[&str], dir: &Path) -> Output {
    Command::new(common::binary())
        .arg("egdb")
        .args(args)
        .arg("--dir")
        .arg(dir)
        .output()
        .expect("the binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

#[test]
fn build_verify_info_and_a_rerun() {
    let dir = scratch("cycle");
    let built = egdb(
        &[
            "build",
            "--game",
            "poddavki",
            "--pieces",
            "3",
            "--threads",
            "2",
        ],
        &dir,
    );
    let err = text(&built.stderr);
    assert!(built.status.success(), "{err}");
    assert!(
        err.contains("slice 0101 (1/9)") && err.contains("M/s") && err.contains("ETA"),
        "{err}"
    );
    let info = egdb(&["info"], &dir);
    let out = text(&info.stdout);
    assert!(info.status.success());
    // 9 slices (each with its colour mirror), a header and a total.
    assert_eq!(out.lines().count(), 11, "{out}");
    // Two kings: white to move only (black to move is its mirror), 992 positions.
    assert!(out.contains("\n0101 992 "), "{out}");
    let verified = egdb(&["verify"], &dir);
    assert!(verified.status.success(), "{}", text(&verified.stdout));
    assert!(text(&verified.stdout).contains("verified 9 slices: ok"));
    let again = egdb(&["build", "--game", "Poddavki", "--pieces", "3"], &dir);
    assert_eq!(text(&again.stderr).matches("already built").count(), 9);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_corrupt_slice_fails_to_load_with_a_clear_error() {
    let dir = scratch("corrupt");
    assert!(
        egdb(&["build", "--game", "poddavki", "--pieces", "2"], &dir)
            .status
            .success()
    );
    let path = dir.join("poddavki-0101.egdb");
    let mut bytes = std::fs::read(&path).expect("slice file");
    let at = bytes.len() / 2;
    bytes[at] ^= 0x40;
    std::fs::write(&path, &bytes).expect("written");
    for args in [&["verify"][..], &["info"]] {
        let out = egdb(args, &dir);
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}");
        assert!(
            err.contains("poddavki-0101.egdb") && err.contains("checksum"),
            "{err}"
        );
    }
    // A rerun rebuilds the corrupt slice.
    assert!(
        egdb(&["build", "--game", "poddavki", "--pieces", "2"], &dir)
            .status
            .success()
    );
    assert!(egdb(&["verify"], &dir).status.success());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn only_poddavki_has_databases() {
    let dir = scratch("game");
    let out = egdb(&["build", "--game", "diamond", "--pieces", "2"], &dir);
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("only poddavki"));
}
