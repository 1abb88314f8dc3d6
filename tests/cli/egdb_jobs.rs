//! The endgame database built as one job per slice: `egdb plan`, `egdb build --slice`, and the
//! GNU parallel recipe of docs/egdb.md run as written (local jobs), whose files must equal a
//! one-command build's byte for byte.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::common;

/// The line before the recipe's block in docs/egdb.md.
const MARKER: &str = "<!-- recipe: gnu-parallel -->";

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tetrad-egdb-jobs-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn tetrad(args: &[&str]) -> Output {
    Command::new(common::binary())
        .args(args)
        .output()
        .expect("the binary runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// The shell block after [`MARKER`].
fn recipe() -> String {
    let doc = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/egdb.md");
    let doc = std::fs::read_to_string(doc).expect("docs/egdb.md");
    let after = doc
        .split_once(MARKER)
        .expect("docs/egdb.md marks the GNU parallel recipe")
        .1;
    let block = after
        .split_once("```sh\n")
        .expect("a sh block after the marker")
        .1;
    block
        .split_once("```")
        .expect("the block ends")
        .0
        .to_string()
}

/// Files of a directory by name, with their bytes.
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<_> = std::fs::read_dir(dir)
        .expect("directory")
        .map(|e| {
            let path = e.expect("entry").path();
            let name = path
                .file_name()
                .expect("name")
                .to_string_lossy()
                .into_owned();
            (name, std::fs::read(&path).expect("file"))
        })
        .collect();
    out.sort();
    out
}

#[test]
fn the_gnu_parallel_recipe_builds_what_one_command_builds() {
    if Command::new("parallel").arg("--version").output().is_err() {
        let why = "GNU parallel is not installed (.ci/run installs it)";
        assert!(
            std::env::var("ARENA_REQUIRE_TEST_DEPS").as_deref() != Ok("1"),
            "{why}; ARENA_REQUIRE_TEST_DEPS=1 makes a skip a failure"
        );
        eprintln!("skipped the_gnu_parallel_recipe_builds_what_one_command_builds: {why}");
        return;
    }
    let work = scratch("recipe");
    std::fs::create_dir_all(&work).expect("scratch directory");
    let script = recipe();
    let sized = "N=6 DIR=egdb\n";
    assert!(script.starts_with(sized), "{script}");
    let script = script.replacen(sized, "N=3 DIR=egdb\n", 1);
    let bin = Path::new(common::binary())
        .parent()
        .expect("the binary's folder");
    let path = std::env::join_paths(std::iter::once(bin.to_path_buf()).chain(
        std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default()),
    ))
    .expect("a PATH");
    let run = Command::new("bash")
        .args(["-c", &script])
        .current_dir(&work)
        .env("PATH", path)
        .output()
        .expect("bash runs");
    let (out, err) = (text(&run.stdout), text(&run.stderr));
    assert!(run.status.success(), "{out}\n{err}");
    assert!(out.contains("verified 9 slices: ok"), "{out}");
    let one = work.join("one");
    let one_dir = one.display().to_string();
    let built = tetrad(&[
        "egdb", "build", "--game", "poddavki", "--pieces", "3", "--dir", &one_dir,
    ]);
    assert!(built.status.success(), "{}", text(&built.stderr));
    let (jobs, single) = (files(&work.join("egdb")), files(&one));
    // 16 slices up to 3 pieces, of which 9 are stored (the others are their mirrors).
    assert_eq!(jobs.len(), 9);
    let names = |f: &[(String, Vec<u8>)]| f.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
    assert_eq!(names(&jobs), names(&single));
    for ((name, a), (_, b)) in jobs.iter().zip(&single) {
        assert!(a == b, "{name} differs from the one-command build's");
    }
    let _ = std::fs::remove_dir_all(&work);
}

#[test]
fn a_slice_job_names_the_slice_it_still_needs() {
    let dir = scratch("needs");
    let d = dir.display().to_string();
    let args = |slice| {
        [
            "egdb", "build", "--game", "poddavki", "--slice", slice, "--dir", &d,
        ]
    };
    // Man against man and king needs, among others, the two kings of the promotion.
    let out = tetrad(&args("1011"));
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(
        err.contains("slice 1011 needs slice 0101") && err.contains("egdb plan"),
        "{err}"
    );
    assert!(!dir.join("poddavki-1011.egdb").exists());
    let plan = tetrad(&["egdb", "plan", "--pieces", "3"]);
    let levels = text(&plan.stdout);
    for line in levels.lines() {
        for slice in line.split(' ').skip(1) {
            let out = tetrad(&args(slice));
            assert!(out.status.success(), "{slice}: {}", text(&out.stderr));
        }
    }
    let out = tetrad(&args("1011"));
    assert!(text(&out.stderr).contains("already built"));
    // A verify job checks its slice from the slices it leads to, and needs them too.
    let verify = tetrad(&["egdb", "verify", "--slice", "1011", "--dir", &d]);
    let said = text(&verify.stdout);
    assert!(verify.status.success(), "{said}");
    assert_eq!(said, "slice 1011: ok\nverified 1 slices: ok\n");
    // Its dependencies read a block at a time (--memory): the same file.
    let built = dir.join("poddavki-1011.egdb");
    let whole = std::fs::read(&built).expect("built");
    std::fs::remove_file(&built).expect("removed");
    let mut blocks = args("1011").to_vec();
    blocks.extend(["--memory", "1"]);
    let out = tetrad(&blocks);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(std::fs::read(&built).expect("rebuilt"), whole);
    std::fs::remove_file(dir.join("poddavki-0111.egdb")).expect("a dependency removed");
    let verify = tetrad(&["egdb", "verify", "--slice", "1011", "--dir", &d]);
    assert_eq!(verify.status.code(), Some(1));
    assert!(text(&verify.stderr).contains("needs slice 0111"));
    for bad in ["1000", "10x1", "10111"] {
        let out = tetrad(&args(bad));
        assert_eq!(out.status.code(), Some(2), "{bad}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_plan_lists_every_slice_once_by_level() {
    let out = tetrad(&["egdb", "plan", "--pieces", "4"]);
    assert!(out.status.success());
    let text = text(&out.stdout);
    let mut slices = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let mut words = line.split(' ');
        assert_eq!(words.next(), Some(i.to_string().as_str()), "{text}");
        slices.extend(words.map(String::from));
    }
    // 41 slices up to 4 pieces: 23 stored, each with its colour mirror (3 are their own).
    assert_eq!(slices.len(), 23, "{text}");
    slices.sort();
    slices.dedup();
    assert_eq!(slices.len(), 23, "{text}");
    // A king each: every capture leaves a side without pieces, so it needs no other slice.
    assert!(text.starts_with("0 0101\n"), "{text}");
}

#[test]
fn a_plan_whose_reader_has_gone_ends_quietly() {
    // The reading end closed before the plan is written (`egdb plan | head -1` once head has
    // its line): every write meets a closed pipe.
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    let out = Command::new(common::binary())
        .args(["egdb", "plan", "--pieces", "8"])
        .stdout(writer)
        .output()
        .expect("the binary runs");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert!(out.stderr.is_empty(), "{}", text(&out.stderr));
}
