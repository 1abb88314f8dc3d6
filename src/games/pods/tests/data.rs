//! The data file: the built-in set, replacements, and every kind of broken file.

use super::game;
use crate::games::pods::data::{Leg, BUILTIN_TEXT, MAX_FILE_BYTES};
use crate::games::pods::*;

/// The rules file: B, D, F, H, J, L, N mirror A, C, E, G, I, K, M left to right.
#[test]
fn builtin_data_is_the_rules_table() {
    let d = PodsData::parse(BUILTIN_TEXT, "builtin").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(d.missing.len(), 12);
    assert_eq!(d.leg_string(0), "--L---s-");
    assert_eq!(d.leg_string(13), "LsssssLL");
    let legs = |l: usize| d.pods[l].iter().filter(|&&x| x != Leg::None).count();
    assert_eq!(legs(0), 2);
    assert_eq!(legs(2), 3);
    assert_eq!(legs(12), 8);
    // Mirror: N NE E SE S SW W NW -> N NW W SW S SE E NE.
    let mirror = [0usize, 7, 6, 5, 4, 3, 2, 1];
    for l in (0..14).step_by(2) {
        for (dir, &m) in mirror.iter().enumerate() {
            assert_eq!(d.pods[l][dir], d.pods[l + 1][m], "pod {l}");
        }
    }
    assert_eq!(
        game(false).data(),
        &PodsData {
            source: "builtin".into(),
            ..d
        }
    );
}

fn temp_file(name: &str, text: &str) -> String {
    let path = std::env::temp_dir().join(format!("tetrad-pods-{}-{name}", std::process::id()));
    std::fs::write(&path, text).unwrap_or_else(|e| panic!("{e}"));
    path.to_string_lossy().into_owned()
}

fn perft1(g: &Pods) -> u64 {
    g.perft(&g.start(), 1)
}

#[test]
fn replacement_data_file_is_loaded_and_kept_until_replaced() {
    // Same pods, every line present: a2 no longer blocks the bipods.
    let all_lines = BUILTIN_TEXT
        .replace("orthogonal: a2-b2 c1-c2 b4-c4 d3-e3 e4-e5 c5-c6", "")
        .replace("diagonal:   b1-c2 d2-e3 a4-b5 c4-d5 e5-f6 d6-e5", "");
    let path = temp_file("full.dat", &all_lines);
    let mut g = game(false);
    assert_eq!(perft1(&g), 70);
    assert_eq!(g.set_option("pods_data", &path), Ok(true));
    assert_eq!(perft1(&g), 72);
    assert!(g
        .options()
        .iter()
        .any(|o| o.name == "pods_data" && o.value == path));
    // A broken file is refused and the loaded data stays.
    let broken = temp_file(
        "broken.dat",
        &BUILTIN_TEXT.replace("A  --L---s-", "A  --L---s"),
    );
    match g.set_option("pods_data", &broken) {
        Err(RuleError::Option(msg)) => assert!(msg.contains("not 8"), "{msg}"),
        other => panic!("accepted a broken file: {other:?}"),
    }
    assert_eq!(perft1(&g), 72);
    assert!(g.load_data_file("/nonexistent/pods.dat").is_err());
    assert_eq!(perft1(&g), 72);
    assert_eq!(g.set_option("pods_data", "builtin"), Ok(true));
    assert_eq!(perft1(&g), 70);
    // The same through the CLI entry points.
    let mut g = game(true);
    assert!(g.load_data_file(&path).is_ok());
    assert_eq!(g.data().missing.len(), 0);
    let from_str = Pods::from_data_str(PodsRules::Standard, &all_lines).map(|g| perft1(&g));
    assert_eq!(from_str.ok(), Some(72));
    let _ = std::fs::remove_file(path);
    let _ = std::fs::remove_file(broken);
}

#[test]
fn alternative_pod_syntax_names_directions() {
    let text = BUILTIN_TEXT.replace("A  --L---s-", "A  E=L W=s");
    let d = PodsData::parse(&text, "t").unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(d.leg_string(0), "--L---s-");
}

#[test]
fn broken_data_files_are_rejected_with_the_reason() {
    let cases: Vec<(String, &str)> = vec![
        (
            BUILTIN_TEXT.replace("orthogonal:", "sideways:"),
            "unknown direction",
        ),
        (
            BUILTIN_TEXT.replace("A  --L---s-", "A  E=L WW=s"),
            "unknown direction",
        ),
        (BUILTIN_TEXT.replace("A  --L---s-", "A  --L---s"), "not 8"),
        (BUILTIN_TEXT.replace("A  --L---s-", "A  --L---s--"), "not 8"),
        (
            BUILTIN_TEXT.replace("A  --L---s-", "A  --X---s-"),
            "unknown leg",
        ),
        (
            BUILTIN_TEXT.replace("B  --s---L-", "A  --s---L-"),
            "duplicate pod letter",
        ),
        (BUILTIN_TEXT.replace("N  LsssssLL", ""), "expected 14 pods"),
        (
            BUILTIN_TEXT.replace("N  LsssssLL", "N  LsssssLL\nO  LsssssLL"),
            "not a pod letter",
        ),
        (
            BUILTIN_TEXT.replace("N  LsssssLL", "N  --------"),
            "no legs",
        ),
        (BUILTIN_TEXT.replace("a2-b2", "a1-c3"), "non-adjacent"),
        (BUILTIN_TEXT.replace("a2-b2", "a2-g2"), "off the board"),
        (BUILTIN_TEXT.replace("a2-b2", "a2b2"), "not a line"),
        (
            BUILTIN_TEXT.replace("a2-b2", "a1-b2"),
            "diagonal but listed as orthogonal",
        ),
        (BUILTIN_TEXT.replace("c1-c2", "a2-b2"), "listed twice"),
        (BUILTIN_TEXT.replace("[pods]", "[pod]"), "unknown section"),
        (BUILTIN_TEXT.replace("[pods]", ""), "not a line"),
        (
            BUILTIN_TEXT.replace("[missing-lines]", ""),
            "before the first section",
        ),
        (format!("{BUILTIN_TEXT}\n[pods]\n"), "twice"),
        ("[missing-lines]\n".to_string(), "no [pods] section"),
        (String::new(), "no [missing-lines] section"),
    ];
    for (text, why) in &cases {
        match PodsData::parse(text, "t") {
            Err(e) => assert!(e.to_string().contains(why), "'{e}' lacks '{why}'"),
            Ok(_) => panic!("accepted data that should fail with '{why}'"),
        }
    }
    // A file that is not text at all.
    let path = std::env::temp_dir().join(format!("tetrad-pods-{}-bin", std::process::id()));
    let _ = std::fs::write(&path, [0xffu8, 0xfe, 0, 1, 2]);
    let err = PodsData::load(&path.to_string_lossy())
        .err()
        .map(|e| e.to_string());
    assert!(err.unwrap_or_default().contains("not UTF-8"));
    let _ = std::fs::remove_file(path);
}

#[test]
fn data_paths_that_are_not_regular_files_are_refused_at_once() {
    // `/dev/zero` never ends and a FIFO blocks on open: both must be refused, not read.
    let dir = std::env::temp_dir();
    for path in ["/dev/zero", "/dev/null", &dir.to_string_lossy()] {
        let err = PodsData::load(path).err().map(|e| e.to_string());
        assert!(
            err.as_deref()
                .unwrap_or_default()
                .contains("not a regular file"),
            "{path}: {err:?}"
        );
    }
    let big = dir.join(format!("tetrad-pods-{}-big", std::process::id()));
    let _ = std::fs::write(&big, vec![b'#'; (MAX_FILE_BYTES + 1) as usize]);
    let err = PodsData::load(&big.to_string_lossy())
        .err()
        .map(|e| e.to_string());
    assert!(err.unwrap_or_default().contains("too large"));
    let _ = std::fs::remove_file(big);
}
