//! The committed pictures of README.md and docs/rules/ are exactly what `tetrad render` makes
//! today (list: docs/pictures.txt). Set TETRAD_UPDATE_PICTURES=1 to rewrite them.

use crate::common;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `(path, tetrad render arguments)` for every line of the list.
fn pictures() -> Vec<(String, Vec<String>)> {
    let list =
        std::fs::read_to_string(root().join("docs/pictures.txt")).expect("docs/pictures.txt");
    list.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.split('|').collect();
            assert_eq!(f.len(), 4, "path|game|position|moves: {l}");
            let mut args = vec!["render".to_string(), "--game".into(), f[1].into()];
            if !f[2].is_empty() {
                args.extend(["--position".to_string(), f[2].to_string()]);
            }
            let moves: Vec<String> = f[3]
                .split(' ')
                .filter(|m| !m.is_empty())
                .map(String::from)
                .collect();
            if !moves.is_empty() {
                args.push("--moves".into());
                args.extend(moves);
            }
            (f[0].to_string(), args)
        })
        .collect()
}

fn svgs_under(dir: &Path, out: &mut BTreeSet<String>) {
    for entry in std::fs::read_dir(dir).expect("docs directory").flatten() {
        let path = entry.path();
        if path.is_dir() {
            svgs_under(&path, out);
        } else if path.extension().is_some_and(|e| e == "svg") {
            let rel = path.strip_prefix(root()).expect("under the repository");
            out.insert(rel.to_string_lossy().replace('\\', "/"));
        }
    }
}

#[test]
fn committed_pictures_are_up_to_date() {
    let update = std::env::var_os("TETRAD_UPDATE_PICTURES").is_some();
    let mut stale = Vec::new();
    let mut listed = BTreeSet::new();
    for (path, args) in pictures() {
        let out = Command::new(env!("CARGO_BIN_EXE_tetrad"))
            .args(&args)
            .output()
            .expect("tetrad runs");
        assert!(
            out.status.success(),
            "{path}: tetrad {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let file = root().join(&path);
        if update {
            std::fs::write(&file, &out.stdout).expect("write picture");
        } else if std::fs::read(&file).ok().as_deref() != Some(out.stdout.as_slice()) {
            stale.push(path.clone());
        }
        listed.insert(path);
    }
    assert!(
        stale.is_empty(),
        "stale pictures (TETRAD_UPDATE_PICTURES=1 cargo test --release --test cli docs_pictures): {stale:?}"
    );
    let mut present = BTreeSet::new();
    svgs_under(&root().join("docs"), &mut present);
    let unlisted: Vec<_> = present.difference(&listed).collect();
    assert!(
        unlisted.is_empty(),
        "pictures not in docs/pictures.txt: {unlisted:?}"
    );
}

/// Every picture a page shows exists, and README shows one of each game.
#[test]
fn pages_show_listed_pictures() {
    let listed: BTreeSet<String> = pictures().into_iter().map(|(p, _)| p).collect();
    let mut pages = vec![("README.md".to_string(), root())];
    // One rules page per family of the registry's games (`common::rules_pages`).
    for page in common::rules_pages() {
        pages.push((page, root().join("docs/rules")));
    }
    for (page, dir) in pages {
        let text = std::fs::read_to_string(root().join(&page)).expect("page exists");
        let mut shown = 0;
        for part in text.split("](").skip(1) {
            let target = part.split(')').next().unwrap_or_default();
            if target.ends_with(".svg") {
                let full = dir.join(target);
                let rel = full
                    .strip_prefix(root())
                    .expect("inside")
                    .to_string_lossy()
                    .to_string();
                assert!(
                    listed.contains(&rel),
                    "{page} shows {target}, not in docs/pictures.txt"
                );
                shown += 1;
            }
        }
        assert!(
            shown >= if page == "README.md" { 4 } else { 2 },
            "{page}: {shown} pictures"
        );
    }
}
