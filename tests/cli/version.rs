//! The build says which release it is: `tetrad --version`, GTP `version` and UGI `id version`
//! all give Cargo.toml's version, and a development version (`X.Y.Z-dev`) is newer than every
//! release in scripts/releases.txt (the version is bumped after each release).

use crate::common;

use std::path::Path;
use std::process::Command;

use common::Engine;

/// The `version` of Cargo.toml's `[package]`, read from the file (not from the build).
fn cargo_version() -> String {
    let toml = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.toml"))
        .expect("Cargo.toml");
    let mut section = "";
    toml.lines()
        .find_map(|l| {
            if l.starts_with('[') {
                section = l;
            }
            (section == "[package]").then(|| l.strip_prefix("version = \""))?
        })
        .and_then(|v| v.strip_suffix('"'))
        .expect("version line")
        .to_string()
}

/// `X.Y.Z` as numbers.
fn triple(v: &str) -> (u64, u64, u64) {
    let n: Vec<u64> = v
        .split('.')
        .map(|p| p.parse().unwrap_or_else(|_| panic!("{v}: not X.Y.Z")))
        .collect();
    assert_eq!(n.len(), 3, "{v}: not X.Y.Z");
    (n[0], n[1], n[2])
}

#[test]
fn command_line_gtp_and_ugi_give_cargo_tomls_version() {
    let version = cargo_version();

    let out = Command::new(common::binary())
        .arg("--version")
        .output()
        .expect("tetrad --version");
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim_end(),
        format!("tetrad {version}")
    );

    let mut e = Engine::start(&[]);
    assert_eq!(e.gtp("name"), "= tetrad");
    assert_eq!(e.gtp("version"), format!("= {version}"));

    let mut e = Engine::start(&[]);
    e.send("ugi");
    let lines = e.until("ugiok");
    assert_eq!(lines[0], "id name tetrad");
    let said: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("id version"))
        .collect();
    assert_eq!(said, [&format!("id version {version}")], "{lines:?}");
}

#[test]
fn a_development_version_is_newer_than_every_release() {
    let version = cargo_version();
    let releases =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/releases.txt"))
            .expect("scripts/releases.txt");
    let released: Vec<(u64, u64, u64)> = releases
        .lines()
        .filter_map(|l| l.strip_prefix('v')?.split(' ').next())
        .map(triple)
        .collect();
    assert!(!released.is_empty());
    match version.strip_suffix("-dev") {
        Some(next) => {
            let next = triple(next);
            assert!(
                released.iter().all(|r| *r < next),
                "{version} is not newer than every release in scripts/releases.txt: \
                 after a release, the version becomes the next one with -dev"
            );
        }
        // A release commit itself says the plain version (it is listed once it has a hash).
        None => {
            triple(&version);
        }
    }
}
