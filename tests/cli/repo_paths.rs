//! A clone of the repository must be complete on its own: nothing in the docs, sources or
//! scripts may point outside it (to a sibling `shared` directory) or to a path on some build
//! machine.

use std::path::{Path, PathBuf};

/// Text that must not appear. Each machine directory is written with its slashes apart, so that
/// this file does not match itself.
fn forbidden() -> Vec<String> {
    let mut v = vec![format!("..{}shared", '/'), format!("shared{}rules", '/')];
    for dir in ["work", "home", "root", "tmp", "Users", "mnt"] {
        v.push(format!("{s}{dir}{s}", s = '/'));
    }
    v.push(format!("C:{}", '\\'));
    v
}

fn walk(path: &Path, out: &mut Vec<PathBuf>) {
    if path.is_dir() {
        let name = path
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_default();
        // Fuzzing inputs are arbitrary bytes, not text anyone reads; AFL's output (git-ignored)
        // records where the fuzzer was installed.
        if ["target", "corpus", "regressions", "__pycache__"].contains(&name)
            || path.ends_with("fuzz/out")
        {
            return;
        }
        let mut entries: Vec<PathBuf> = std::fs::read_dir(path)
            .expect("readable directory")
            .flatten()
            .map(|e| e.path())
            .collect();
        entries.sort();
        for e in entries {
            walk(&e, out);
        }
    } else {
        out.push(path.to_path_buf());
    }
}

#[test]
fn nothing_points_outside_the_repository() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut files = Vec::new();
    for top in [
        "README.md",
        "protocol.md",
        "CHANGELOG.md",
        "Cargo.toml",
        "docs",
        "src",
        "scripts",
        "tests",
        "examples",
        ".ci",
        "fuzz",
    ] {
        let p = root.join(top);
        if p.exists() {
            walk(&p, &mut files);
        }
    }
    assert!(files.len() > 50, "walked {} files", files.len());
    let patterns = forbidden();
    let mut found = Vec::new();
    for f in &files {
        let Ok(text) = std::fs::read_to_string(f) else {
            continue; // not text
        };
        for (n, line) in text.lines().enumerate() {
            for p in &patterns {
                if line.contains(p.as_str()) {
                    let rel = f.strip_prefix(&root).unwrap_or(f);
                    found.push(format!("{}:{}: {p}: {line}", rel.display(), n + 1));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "paths outside the repository:\n{}",
        found.join("\n")
    );
}

#[test]
fn rules_pages_exist_and_readme_links_them() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let readme = std::fs::read_to_string(root.join("README.md")).expect("README");
    // README's table of games gives each game's protocol name.
    for game in crate::common::every_game() {
        if *game != tetrad::games::GameKind::Toy.name() {
            assert!(readme.contains(&format!("`{game}`")), "README names {game}");
        }
    }
    for page in crate::common::rules_pages() {
        assert!(root.join(&page).is_file(), "{page}");
        assert!(
            readme.contains(&format!("]({page})")),
            "README links {page}"
        );
    }
    for file in ["LICENSE", "CHANGELOG.md"] {
        assert!(root.join(file).is_file(), "{file}");
    }
}
