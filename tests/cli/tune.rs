//! The Texel tuning pipeline (`scripts/tune/tune.py`) end to end on a few Poddavki games at
//! depth 2, so that none of its stages can drift from the engine: self-play positions, the
//! engine's feature vectors, a fit that lowers the loss, and a weight table in the format the
//! build compiles (the writer given the current weights reproduces the checked-in file).

use std::path::{Path, PathBuf};
use std::process::Command;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn tune(args: &[&str]) -> String {
    let out = Command::new("python3")
        .arg(Path::new(ROOT).join("scripts/tune/tune.py"))
        .args(args)
        .current_dir(ROOT)
        .output()
        .expect("python3 runs");
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    assert!(
        out.status.success(),
        "tune.py {args:?} failed: {stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

fn scratch(name: &str) -> PathBuf {
    let dir =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("tune-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The self-play options of both runs: few games, shallow and deterministic.
const GAMES: [&str; 12] = [
    "--game",
    "poddavki",
    "--games",
    "6",
    "--depth",
    "2",
    "--random-plies",
    "4",
    "--skip-plies",
    "4",
    "--sample",
    "1",
];

#[test]
fn the_pipeline_runs_end_to_end() {
    let bin = env!("CARGO_BIN_EXE_tetrad");
    let dir = scratch("run");
    let d = dir.to_str().expect("utf-8 path");
    let mut args = vec!["run", "--engine", bin, "--dir", d, "--holdout-every", "3"];
    args.extend(GAMES);
    let log = tune(&args);

    // Positions: `POSITION RESULT` lines, the position one the engine accepts.
    let positions = read(&dir.join("positions.txt"));
    let rows: Vec<&str> = positions.lines().filter(|l| !l.starts_with('#')).collect();
    assert!(rows.len() >= 30, "{} positions:\n{log}", rows.len());
    for row in &rows {
        let (pos, result) = row.rsplit_once(' ').expect("POSITION RESULT");
        assert!(["1", "0", "0.5"].contains(&result), "{row}");
        assert!(pos.starts_with("W:") || pos.starts_with("B:"), "{row}");
    }
    assert_eq!(positions.matches("# game ").count(), 6, "{positions}");

    // The same options give the same games.
    let again = dir.join("again.txt");
    let mut args = vec![
        "generate",
        "--engine",
        bin,
        "--out",
        again.to_str().unwrap(),
    ];
    args.extend(GAMES);
    tune(&args);
    assert_eq!(read(&again), positions, "self-play is not deterministic");

    // Features: the header names the weight table's fields, every row has one value for each.
    let features = read(&dir.join("features.txt"));
    let mut lines = features.lines();
    assert_eq!(lines.next(), Some("# game poddavki"));
    let names: Vec<&str> = lines.next().expect("names").split(' ').skip(2).collect();
    assert_eq!(names[..3], ["man", "king", "man_mobility"]);
    let weights: Vec<&str> = lines.next().expect("weights").split(' ').skip(2).collect();
    assert_eq!(weights.len(), names.len());
    let data: Vec<&str> = lines.filter(|l| !l.starts_with('#')).collect();
    assert!(data.len() >= 10 && data.len() <= rows.len(), "{features}");
    for row in &data {
        let words: Vec<&str> = row.split(' ').collect();
        assert_eq!(words.len(), names.len() + 2, "{row}");
        assert!(["1", "0", "0.5"].contains(&words[1]), "{row}");
        assert!(words.iter().all(|w| w.parse::<f64>().is_ok()), "{row}");
    }

    // The fit lowers the loss it minimises.
    let fit: serde_json::Value =
        serde_json::from_str(&read(&dir.join("fit.json"))).expect("fit.json is JSON");
    let loss = |k: &str| fit["loss"][k].as_f64().unwrap_or(f64::NAN);
    assert!(
        loss("train_after") < loss("train_before"),
        "training loss {} -> {}\n{log}",
        loss("train_before"),
        loss("train_after")
    );
    assert!(loss("holdout_before").is_finite() && loss("holdout_after").is_finite());
    assert!(fit["holdout_positions"].as_u64().unwrap_or(0) > 0);
    assert!(log.contains("held-out loss"), "{log}");

    // The table: the checked-in file's layout with the fitted numbers.
    let checked_in = read(&Path::new(ROOT).join("src/games/poddavki/weights.rs"));
    let written = read(&dir.join("weights.rs"));
    let after: Vec<i64> = fit["after"]
        .as_array()
        .expect("after")
        .iter()
        .map(|v| v.as_i64().expect("integer weight"))
        .collect();
    assert_eq!(after.len(), names.len());
    let mut fields = 0;
    for (ours, theirs) in written.lines().zip(checked_in.lines()) {
        match (ours.split_once(": "), theirs.split_once(": ")) {
            (Some((name, value)), Some((name2, _))) if name.starts_with("    ") => {
                assert_eq!(name, name2);
                assert_eq!(name.trim(), names[fields]);
                assert_eq!(value, format!("{},", after[fields]));
                fields += 1;
            }
            _ => assert_eq!(ours, theirs),
        }
    }
    assert_eq!(fields, names.len());
    assert_eq!(written.lines().count(), checked_in.lines().count());

    // Given the weights before the fit, the writer reproduces the file the build uses.
    let current = dir.join("current.rs");
    let fit_path = dir.join("fit.json");
    tune(&[
        "write",
        "--fit",
        fit_path.to_str().unwrap(),
        "--current",
        "--out",
        current.to_str().unwrap(),
    ]);
    assert_eq!(read(&current), checked_in);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn features_through_the_binary() {
    let bin = env!("CARGO_BIN_EXE_tetrad");
    let run = |game: &str, input: &str| {
        let mut child = Command::new(bin)
            .args(["features", "--game", game])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .expect("tetrad runs");
        use std::io::Write;
        child
            .stdin
            .take()
            .expect("stdin")
            .write_all(input.as_bytes())
            .expect("write");
        child.wait_with_output().expect("output")
    };
    let out = run("diamond", "7/8/8/8/8/8/8/7 b 12 12 0\nnonsense\n");
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines[0], "# game diamond");
    assert_eq!(
        lines[1],
        "# names material square1 square2 square3 mobility capture_now hanging opp_threat \
         opp_fork_point tempo"
    );
    // The start: nothing on the board, both hands equal, Black places.
    assert_eq!(lines[3], "1 0 0 0 0 0 0 0 0 0 1");
    assert_eq!(lines[4], "- invalid");
    // Pods advanced: White to move places its last pod for good, a fixed score; with Black to
    // move that is a threat no Black move stops, fixed too.
    let out = run(
        "pods-advanced",
        "6/6/6/6/6/6 w A abcdefghijklmn 0\n6/6/6/6/6/6 b A abcdefghijklmn 0\n",
    );
    assert!(out.status.success());
    let text = String::from_utf8_lossy(&out.stdout);
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[1],
        "# names hand at_risk mobility stuck opp_stuck tempo idle_pods short exclusive threat \
         threats"
    );
    assert_eq!(lines[3], "- fixed");
    assert_eq!(lines[4], "- fixed");
    let out = run("phutball", "");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no tunable evaluation"));
}
