//! The worked examples of docs/rules/*.md are real: every fenced block with typed lines
//! (`> command`) is replayed through the binary and must give exactly the answers shown.

use std::io::Write;
use std::process::{Command, Stdio};

/// `(typed commands, expected output)` of every example block of a page.
fn sessions(page: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut block: Option<Vec<&str>> = None;
    for line in page.lines() {
        match (&mut block, line.starts_with("```")) {
            (None, true) => block = Some(Vec::new()),
            (Some(lines), true) => {
                if lines.iter().any(|l| l.starts_with("> ")) {
                    let typed: String = lines
                        .iter()
                        .filter_map(|l| l.strip_prefix("> "))
                        .map(|l| format!("{l}\n"))
                        .collect();
                    let answers: String = lines
                        .iter()
                        .filter(|l| !l.starts_with("> "))
                        .map(|l| format!("{l}\n"))
                        .collect();
                    out.push((typed, answers));
                }
                block = None;
            }
            (Some(lines), false) => lines.push(line),
            (None, false) => {}
        }
    }
    out
}

fn replay(input: &str) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tetrad"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("tetrad starts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("write");
    let out = child.wait_with_output().expect("tetrad ends");
    String::from_utf8(out.stdout).expect("utf-8")
}

#[test]
fn rules_pages_examples_are_real_output() {
    for game in crate::common::rules_pages() {
        let path = format!("{}/{game}", env!("CARGO_MANIFEST_DIR"));
        let page = std::fs::read_to_string(&path).expect("rules page");
        let sessions = sessions(&page);
        assert!(sessions.len() >= 2, "{game}: {} examples", sessions.len());
        for (typed, expected) in sessions {
            assert_eq!(replay(&typed), expected, "{game}: replaying\n{typed}");
        }
    }
}
