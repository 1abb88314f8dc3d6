//! The learned-evaluation pipeline through the binary: `tetrad selfplay` → `tetrad train` → the
//! engine loading the weights (`eval_file`) and evaluating exactly as the trainer predicted; and
//! the shipped Poddavki, Diamond, Phutball and Pods weights against the trainer's held-out predictions kept beside them.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::Engine;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn tetrad(args: &[&str]) -> (String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_tetrad"))
        .args(args)
        .output()
        .expect("tetrad runs");
    let (stdout, stderr) = (
        String::from_utf8_lossy(&out.stdout).to_string(),
        String::from_utf8_lossy(&out.stderr).to_string(),
    );
    assert!(out.status.success(), "tetrad {args:?} failed: {stderr}");
    (stdout, stderr)
}

fn scratch(name: &str) -> PathBuf {
    let dir =
        Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("learn-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The engine's static evaluation of each position of `game` under the given game options (UGI
/// `eval`).
fn engine_evals_in(game: &str, options: &[(&str, &str)], positions: &[&str]) -> Vec<i32> {
    let mut e = Engine::start(&["--protocol", "ugi"]);
    e.send(&format!("setoption name UCI_Variant value {game}"));
    for (name, value) in options {
        e.send(&format!("setoption name {name} value {value}"));
    }
    positions
        .iter()
        .map(|p| {
            e.send(&format!("position fen {p}"));
            e.send("eval");
            let lines = e.until("Total evaluation:");
            let last = lines.last().expect("a line");
            assert!(lines.iter().all(|l| !l.contains("error")), "{p}: {lines:?}");
            last.split_whitespace()
                .nth(2)
                .and_then(|v| v.parse().ok())
                .unwrap_or_else(|| panic!("{p}: {last}"))
        })
        .collect()
}

/// `POSITION<TAB>EVAL` lines.
fn predictions(text: &str) -> Vec<(&str, i32)> {
    text.lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| {
            let (p, v) = l.split_once('\t').expect("POSITION<TAB>EVAL");
            (p, v.parse().expect("an evaluation"))
        })
        .collect()
}

const SELFPLAY: [&str; 12] = [
    "selfplay",
    "--game",
    "poddavki",
    "--games",
    "8",
    "--nodes",
    "300",
    "--random-plies",
    "4",
    "--seed",
    "7",
    "--max-plies=300",
];

#[test]
fn selfplay_is_seeded_and_writes_results_for_the_side_to_move() {
    let (a, progress) = tetrad(&SELFPLAY);
    let (b, _) = tetrad(&SELFPLAY);
    assert_eq!(a, b, "the same seed plays the same games");
    assert!(progress.contains("selfplay: 8 games"), "{progress}");
    let (other, _) = tetrad(&[&SELFPLAY[..10], &["8", "--max-plies=300"]].concat());
    assert_ne!(a, other, "another seed plays other games");
    assert!(
        a.starts_with("# command: tetrad selfplay --game poddavki --games 8"),
        "{a}"
    );
    let rows: Vec<Vec<&str>> = a
        .lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split('\t').collect())
        .collect();
    assert!(rows.len() > 100, "{} positions", rows.len());
    for pair in rows.windows(2) {
        let (r, s) = (&pair[0], &pair[1]);
        assert_eq!(r.len(), 5, "{r:?}");
        assert!(r[2].starts_with(['W', 'B']), "{r:?}");
        if r[0] == s[0] {
            // One game, consecutive plies: the result flips with the side to move.
            assert_eq!(s[1].parse::<u32>(), r[1].parse::<u32>().map(|p| p + 1));
            let flipped = match r[4] {
                "1" => "0",
                "0" => "1",
                _ => "0.5",
            };
            assert_eq!(s[4], flipped, "{r:?} then {s:?}");
        }
    }
}

/// The pipeline end to end in `game`: `selfplay` with `selfplay_args`, three epochs of
/// `train` (and, with `network`, two of a network on top), and the engine loading the file
/// through `eval_file` evaluates every held-out position exactly as the trainer predicted.
fn trained_and_loaded(game: &str, selfplay_args: &[&str], holdout_every: &str, network: bool) {
    let dir = scratch(&format!(
        "e2e-{game}-{}",
        if network { "net" } else { "linear" }
    ));
    let (data, _) = tetrad(selfplay_args);
    let data_path = dir.join("data.tsv");
    std::fs::write(&data_path, &data).expect("data written");
    let (weights, preds) = (dir.join("weights.txt"), dir.join("predictions.tsv"));
    let inputs = dir.join("inputs.tsv");
    let mut args = vec![
        "train",
        "--game",
        game,
        "--data",
        data_path.to_str().expect("utf-8"),
        "--out",
        weights.to_str().expect("utf-8"),
        "--predictions",
        preds.to_str().expect("utf-8"),
        "--inputs",
        inputs.to_str().expect("utf-8"),
        "--epochs",
        "3",
        "--holdout-every",
        holdout_every,
        "--learning-rate",
        "0.01",
    ];
    if network {
        args.extend([
            "--network",
            "--network-epochs",
            "2",
            "--network-batch",
            "64",
        ]);
    }
    let (_, report) = tetrad(&args);
    let file = read(&weights);
    assert!(
        file.starts_with(&format!("# tetrad learned evaluation of {game}\n")),
        "{file}"
    );
    assert!(
        file.contains(&format!("# command: tetrad train --game {game}")),
        "{file}"
    );
    assert!(report.contains("held-out positions"), "{report}");
    let preds_text = read(&preds);
    let expected = predictions(&preds_text);
    assert!(
        expected.len() >= 10,
        "{} held-out positions",
        expected.len()
    );
    let positions: Vec<&str> = expected.iter().map(|e| e.0).collect();
    let path = weights.to_str().expect("utf-8");
    let learned = engine_evals_in(
        game,
        &[("eval", "learned"), ("eval_file", path)],
        &positions,
    );
    let want: Vec<i32> = expected.iter().map(|e| e.1).collect();
    assert_eq!(learned, want, "the engine's evaluation is the trainer's");
    // Training moved the model off the hand-written evaluation it starts from, so the match
    // above is the loaded file's and not the classic evaluation's.
    let classic = engine_evals_in(
        game,
        &[("eval", "classic"), ("eval_file", path)],
        &positions,
    );
    assert_ne!(classic, want);
    if network {
        network_counts(&file, &report, game, &positions, &want, &dir);
    } else {
        inputs_give_the_predictions(&read(&inputs), &file, &report, &expected);
    }
}

/// A trained network is in the weight file after the linear weights, reported with its losses
/// (the held-out ones each epoch), and counts: without it the engine evaluates otherwise.
fn network_counts(
    file: &str,
    report: &str,
    game: &str,
    positions: &[&str],
    want: &[i32],
    dir: &Path,
) {
    assert!(
        file.lines().any(|l| l.starts_with("network ")),
        "no network section"
    );
    assert!(
        report.contains("loss with the network: training"),
        "{report}"
    );
    let epochs = report
        .lines()
        .find_map(|l| l.split("held out, by epoch: ").nth(1))
        .expect("the losses by epoch");
    assert_eq!(epochs.split(' ').count(), 2, "{epochs}");
    let linear: String = file
        .lines()
        .take_while(|l| !l.starts_with("network"))
        .map(|l| format!("{l}\n"))
        .collect();
    let linear_path = dir.join("linear.txt");
    std::fs::write(&linear_path, linear).expect("written");
    let path = linear_path.to_str().expect("utf-8");
    let without = engine_evals_in(game, &[("eval_file", path)], positions);
    assert_ne!(without, want, "the network changes the evaluation");
}

/// The `--inputs` file lists every quiet position the report counts, with the scale it
/// reports, a target in 0..=1, and inputs whose sum under the trained weights is each held-out
/// position's predicted evaluation.
fn inputs_give_the_predictions(text: &str, weights: &str, report: &str, held: &[(&str, i32)]) {
    let quiet: usize = report
        .split("data: ")
        .nth(1)
        .and_then(|r| r.split(' ').next())
        .and_then(|n| n.parse().ok())
        .expect("the report's count of quiet positions");
    let k = text
        .lines()
        .find_map(|l| l.strip_prefix("# K "))
        .expect("K in the header");
    let reported_k = format!("K = {:.1}", k.parse::<f64>().expect("a number"));
    assert!(report.contains(&reported_k), "{reported_k}: {report}");
    let w: Vec<i64> = weights
        .lines()
        .filter(|l| !l.starts_with('#'))
        .skip(1)
        .flat_map(|l| {
            l.split_whitespace()
                .map(|v| v.parse::<i64>().expect("a weight"))
        })
        .collect();
    let mut sums = std::collections::HashMap::new();
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines.len(), quiet);
    for line in lines {
        let fields: Vec<&str> = line.split('\t').collect();
        let target: f64 = fields[2].parse().expect("a target");
        assert!((0.0..=1.0).contains(&target), "{line}");
        let sum: i64 = fields[3..]
            .iter()
            .map(|iv| {
                let (i, v) = iv.split_once(':').expect("index:value");
                w[i.parse::<usize>().expect("an index")] * v.parse::<i64>().expect("a value")
            })
            .sum();
        sums.insert(fields[1], sum);
    }
    for &(position, eval) in held {
        assert_eq!(
            sums.get(position).copied(),
            Some(i64::from(eval)),
            "{position}"
        );
    }
}

#[test]
fn the_engine_evaluates_as_the_trained_model_predicts() {
    trained_and_loaded("poddavki", &SELFPLAY, "4", false);
}

#[test]
fn the_engine_evaluates_as_the_trained_network_predicts() {
    trained_and_loaded("poddavki", &SELFPLAY, "4", true);
}

#[test]
fn a_network_is_trained_only_for_a_game_that_reads_one() {
    let dir = scratch("no-network");
    let data = dir.join("data.tsv");
    std::fs::write(&data, "0\t0\tstart\t0\t1\n").expect("written");
    let out = Command::new(env!("CARGO_BIN_EXE_tetrad"))
        .args(["train", "--game", "phutball", "--network", "--out"])
        .arg(dir.join("w.txt"))
        .arg("--data")
        .arg(&data)
        .output()
        .expect("tetrad runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success());
    assert!(stderr.contains("reads no network"), "{stderr}");
    assert!(!dir.join("w.txt").exists());
}

#[test]
fn phutball_the_engine_evaluates_as_the_trained_model_predicts() {
    trained_and_loaded(
        "phutball",
        &[
            "selfplay",
            "--game",
            "phutball",
            "--games",
            "6",
            "--nodes",
            "200",
            "--random-plies",
            "4",
            "--seed",
            "7",
            "--max-plies=200",
        ],
        "3",
        false,
    );
}

#[test]
fn the_shipped_weights_evaluate_as_their_trainer_predicted() {
    for (game, dir) in [
        ("poddavki", "poddavki"),
        ("diamond", "diamond"),
        ("phutball", "phutball"),
        ("pods-advanced", "pods"),
    ] {
        let text = read(
            &Path::new(ROOT)
                .join("src/games")
                .join(dir)
                .join("learned-check.tsv"),
        );
        let expected = predictions(&text);
        assert!(
            expected.len() >= 100,
            "{game}: {} positions",
            expected.len()
        );
        let positions: Vec<&str> = expected.iter().map(|e| e.0).collect();
        let got = engine_evals_in(game, &[("eval", "learned")], &positions);
        let want: Vec<i32> = expected.iter().map(|e| e.1).collect();
        assert_eq!(got, want, "{game}");
        let classic = engine_evals_in(game, &[("eval", "classic")], &positions);
        assert_ne!(
            classic, want,
            "{game}: the learned weights are not the hand-written ones"
        );
    }
}

#[test]
fn a_bad_weight_file_is_refused_and_the_weights_stay() {
    let dir = scratch("bad");
    let bad = dir.join("bad.txt");
    std::fs::write(&bad, "diamond 3\n1 2 3\n").expect("written");
    let mut e = Engine::start(&["--protocol", "gtp"]);
    let answer = e.gtp(&format!("set_option eval_file {}", bad.display()));
    assert!(answer.starts_with("? "), "{answer}");
    assert!(answer.contains("not poddavki"), "{answer}");
    let answer = e.gtp(&format!("set_option eval_file {}", dir.display()));
    assert!(answer.contains("not a regular file"), "{answer}");
    let answer = e.gtp("set_option eval best");
    assert!(answer.starts_with("? "), "{answer}");
    let list = e.gtp("list_options");
    assert!(list.contains("eval_file"), "{list}");
    assert!(
        list.lines()
            .any(|l| l.contains("eval_file") && l.contains("builtin")),
        "{list}"
    );
}

/// Searches each of `wins` (a position and its distance in moves) in `variant` with the learned
/// evaluation to `depth` plies and requires the forced win reported at its distance.
fn finds_the_forced_wins(variant: &str, wins: &[(&str, u32)], depth: u32) {
    let mut e = Engine::start(&["--protocol", "ugi"]);
    e.send(&format!("setoption name UCI_Variant value {variant}"));
    e.send("setoption name eval value learned");
    for (fen, moves) in wins {
        e.send(&format!("position fen {fen}"));
        e.send(&format!("go depth {depth}"));
        let lines = e.until("bestmove");
        let last = &lines[lines.len() - 2];
        assert!(
            last.contains(&format!(" score mate {moves} ")),
            "{variant} {fen}: {last}"
        );
    }
}

/// Forced wins from the self-play data (positions the 1,500-node searches of the shipped
/// weights' data scored as mates), with their distance in moves.
const WINS: [(&str, u32); 6] = [
    ("B:WKc1,h4:Bf6", 1),
    ("W:Wf2:BKg1,f4,a7,g7,b8,d8,f8,h8", 1),
    ("B:We3:Be5", 1),
    ("B:Wh4,Kb8:Bd2,e5,g5,f6", 3),
    ("W:WKd2:Bd6,a7", 3),
    ("B:Wa1,f2,e3,f6:Bb4,c7,d8,f8,h8", 3),
];

#[test]
fn the_learned_evaluation_finds_the_forced_wins() {
    finds_the_forced_wins("poddavki", &WINS, 8);
}

/// Forced wins in Pods advanced from the shipped weights' self-play data (positions its
/// 2,000-node searches scored as mates), with their distance in moves.
const PODS_WINS: [(&str, u32); 9] = [
    ("A3K1/JhNC1F/1m1G1I/1L1Mef/jH1bn1/i1B1cl w E agk 0", 1),
    ("E1J1G1/1BIm1K/1i4/lF1Hn1/1c1C1L/M2N2 w D k 0", 1),
    ("1F1IK1/1imH1D/1M1Jn1/lELhgk/4aj/2NC1A w G f 0", 1),
    ("A3K1/JhNC2/1m1G1I/1L1Mef/jH1bn1/i1Bg1l w EF ack 0", 2),
    ("E1J1G1/1BIm1K/1i4/lF1Hn1/2cC1L/M3N1 w D k 0", 2),
    ("1F1IK1/1imH1D/1M1Jn1/l1Lhgk/5j/1ENC1A w G af 0", 2),
    ("n2gb1/1N1HE1/1j1h1K/eM3i/1lG1L1/1aIm2 b CD f 0", 3),
    ("1c1bG1/1nMC1I/L2l1E/em1HJ1/1kNh1i/1d1j1F w B af 0", 3),
    ("1i1Gmf/1I1j1n/1h3N/MH4/k2E1l/1K2bL w C ace 180", 3),
];

#[test]
fn the_learned_pods_evaluation_finds_the_forced_wins() {
    // Depth 8: with the weights fitted on 10,000 games the last win in 3 shows as a mate from
    // depth 8 (before it, as the rule's score of 10000: a pod placed for good, winning too);
    // pruning near the horizon cuts the mating line until then (docs/strength/pods.md).
    finds_the_forced_wins("pods-advanced", &PODS_WINS, 8);
}

#[test]
fn pods_advanced_alone_has_the_learned_evaluation() {
    let mut e = Engine::start(&["--protocol", "gtp"]);
    e.gtp("set_game pods-standard");
    let own = e.gtp("list_options game");
    assert!(!own.contains("eval"), "{own}");
    e.gtp("set_game pods-advanced");
    let own = e.gtp("list_options game");
    assert!(
        // Its default: the learned evaluation.
        own.lines().any(|l| l.contains("eval learned combo")),
        "{own}"
    );
    assert!(
        own.lines().any(|l| l.contains("eval_file builtin string")),
        "{own}"
    );
    let answer = e.gtp("set_option eval_file Cargo.toml");
    assert!(answer.starts_with("? "), "{answer}");
}

/// Forced wins from the self-play data of the shipped Phutball weights (positions its
/// 2,000-node searches scored as wins), with their distance in moves.
const PHUTBALL_WINS: [(&str, u32); 8] = [
    ("15/15/6X8/15/2X3X8/7XO6/10X4/15/13X1/1X13/15/15/15/4X10/15/15/15/15/15/X3X10/15 r", 1),
    ("15/7X7/10X1O2/7X3X3/X8X5/15/3X6X4/15/15/15/15/15/15/15/15/15/15/15/15/X14/15 r", 1),
    ("15/15/4X10/15/15/15/4X6X3/15/5X9/15/4X10/4X10/1X13/1X13/X14/2OX11/X4X9/6X8/X4X9/X5X8/15 b", 1),
    ("15/15/10X1O2/7X3X3/X8X5/15/3X6X4/15/15/15/15/15/15/15/15/15/15/15/15/15/15 r", 2),
    ("15/15/4X10/15/15/15/4X6X3/15/5X9/15/4X10/4X10/1X13/1X13/X14/2OX11/X4X9/6X8/X4X9/15/15 b", 2),
    ("15/15/6X8/15/2X12/6OX7/10X4/15/13X1/1X13/15/15/15/4X10/15/15/15/15/15/4X10/15 r", 3),
    ("15/1X13/7X7/6XX7/7X7/6X8/3O11/15/2X12/4XX9/5X9/7X7/7XX4X1/8X6/9XX4/8X1X4/7X1X5/15/5XX5X2/15/15 r", 3),
    ("15/15/4X10/15/15/15/4X6X3/15/5X9/15/4X10/4X10/1X13/1X13/X14/2OX11/X14/15/X4X9/15/15 b", 3),
];

#[test]
fn phutball_the_learned_evaluation_finds_the_forced_wins() {
    finds_the_forced_wins("phutball", &PHUTBALL_WINS, 6);
}

/// Diamond's forced wins from the self-play data of its shipped weights (positions the
/// 3,000-node searches scored as mates), with their distance in moves: wins in one, two, three.
const DIAMOND_WINS: [(&str, u32); 9] = [
    (
        "7/5W2/1WW3B1/1W4N1/1BWN1W2/2BN1BN1/NB1BNNB1/B1NB1B1 w 0 0 8",
        1,
    ),
    ("7/8/4W1W1/3BNWW1/BBNNBNNB/1N1N3B/1B2WNN1/3WB1B w 0 0 2", 1),
    (
        "B6/2B2B2/WB6/1BN3WB/W2B2B1/1WB1WWNW/1BW1W1W1/2W3B w 0 0 4",
        1,
    ),
    (
        "W6/WN2W2W/2N1WWN1/2NB4/1N2NNWN/3NN3/2B1W1N1/1BB1W2 w 0 0 7",
        2,
    ),
    (
        "5B1/3B1W1W/3WBB2/2WNBN1B/4N1BN/1B3N2/3WWWBW/4WN1 w 0 0 3",
        2,
    ),
    (
        "7/2BB1WW1/NWB1N3/B1N2B2/2N1BN2/W1BNB3/1BNW2W1/3W1B1 b 0 0 3",
        2,
    ),
    (
        "B3B2/1W3NWW/3B1B2/1N2BN2/1BB2NWN/1WW3W1/1B1BB3/1W1W3 b 0 0 1",
        3,
    ),
    (
        "4W2/5WW1/2B1WN1B/1B1WW1BW/NB4B1/B1N1W3/W1B2BB1/4BN1 w 0 0 0",
        3,
    ),
    (
        "B6/BN1W4/2B2W2/WW1N2BB/3WN3/1N1NBNB1/1BWN2B1/W1W4 b 0 0 5",
        3,
    ),
];

#[test]
fn diamonds_learned_evaluation_finds_the_forced_wins() {
    finds_the_forced_wins("diamond", &DIAMOND_WINS, 8);
}
