//! `scripts/baseline.sh`, the release-baseline builder, answers its cheap questions (help,
//! resolving a release or a commit) without building anything.

use std::path::Path;
use std::process::{Command, Output};

fn baseline(args: &[&str]) -> Output {
    let root = env!("CARGO_MANIFEST_DIR");
    Command::new("bash")
        .arg(Path::new(root).join("scripts/baseline.sh"))
        .args(args)
        .current_dir(root)
        .output()
        .expect("bash runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).trim().to_string()
}

/// The releases the script knows, from its committed list.
fn releases() -> Vec<(String, String)> {
    let text =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/releases.txt"))
            .expect("scripts/releases.txt");
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let mut w = l.split_whitespace();
            let name = w.next().unwrap_or_default().to_string();
            let hash = w.next().unwrap_or_default().to_string();
            (name, hash)
        })
        .collect()
}

#[test]
fn help_explains_the_usage() {
    let o = baseline(&["--help"]);
    assert!(o.status.success());
    let text = stdout(&o);
    assert!(text.starts_with("Usage: scripts/baseline.sh"), "{text}");
    assert!(
        text.contains("--resolve") && text.contains("arena.py"),
        "{text}"
    );
    // No revision is a usage error, not a build.
    let o = baseline(&[]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn releases_resolve_without_git_tags() {
    let list = releases();
    assert!(list.iter().any(|(n, _)| n == "v0.1.0"), "{list:?}");
    for (name, hash) in &list {
        assert_eq!(hash.len(), 40, "{name}");
        assert!(hash
            .bytes()
            .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase()));
        let o = baseline(&["--resolve", name]);
        assert!(o.status.success(), "{name}: {o:?}");
        assert_eq!(&stdout(&o), hash, "{name}");
    }
}

#[test]
fn unknown_revisions_are_refused() {
    let o = baseline(&["--resolve", "no-such-release-or-commit"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&o.stderr).contains("unknown revision"));
    let o = baseline(&["--frobnicate", "v0.1.0"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn commits_resolve_through_git() {
    // Only in a git checkout (a source tarball has none).
    let root = env!("CARGO_MANIFEST_DIR");
    let head = Command::new("git")
        .args(["-C", root, "rev-parse", "--verify", "HEAD^{commit}"])
        .output();
    let Ok(head) = head else { return };
    if !head.status.success() {
        return;
    }
    let o = baseline(&["--resolve", "HEAD"]);
    assert!(o.status.success(), "{o:?}");
    assert_eq!(stdout(&o), stdout(&head));
}

/// A baseline is built in a worktree under `.baselines` inside this repository, whose root
/// manifest is a workspace: cargo must not take the old commit's package for a member of it
/// (it refuses to build one that is not listed). A stand-in package there is enough to ask.
#[test]
fn a_baseline_checkout_is_not_part_of_the_workspace() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let dir = root
        .join(".baselines")
        .join(format!("workspace-test-{}", std::process::id()))
        .join("src");
    std::fs::create_dir_all(dir.join("src")).expect("a scratch package");
    std::fs::write(
        dir.join("Cargo.toml"),
        "[package]\nname = \"old-tetrad\"\nversion = \"0.0.0\"\nedition = \"2021\"\n",
    )
    .expect("its manifest");
    std::fs::write(dir.join("src/lib.rs"), "").expect("its library");
    let o = Command::new(env!("CARGO"))
        .args([
            "metadata",
            "--no-deps",
            "--offline",
            "--format-version",
            "1",
        ])
        .current_dir(&dir)
        .output()
        .expect("cargo runs");
    let _ = std::fs::remove_dir_all(dir.parent().expect("the scratch directory"));
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}
