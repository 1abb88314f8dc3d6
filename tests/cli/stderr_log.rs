//! Every error the engine answers on the protocol is also logged on stderr (a runner that hides
//! the protocol shows its engine's stderr), at warn level by default; `RUST_LOG=off` silences it.

use std::io::Write;
use std::process::{Command, Stdio};

use crate::common::binary;

/// Runs `input` through the engine with `RUST_LOG` as given: (stdout, stderr).
fn run(input: &str, rust_log: Option<&str>) -> (String, String) {
    let mut cmd = Command::new(binary());
    cmd.stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .env_remove("RUST_LOG");
    if let Some(level) = rust_log {
        cmd.env("RUST_LOG", level);
    }
    let mut child = cmd.spawn().expect("the engine starts");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(input.as_bytes())
        .expect("input sent");
    let out = child.wait_with_output().expect("the engine ends");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn protocol_errors_are_logged_on_stderr_in_both_dialects() {
    let gtp = "list_games\nset_option hash 16MB\nfrobnicate\nset_position nonsense\nquit\n";
    let ugi = "ugi\nsetoption name Hash value 16MB\nfrobnicate\nposition fen nonsense\nquit\n";
    for (input, refusals) in [
        (
            gtp,
            ["option hash", "unknown command 'frobnicate'", "nonsense"],
        ),
        (
            ugi,
            ["option Hash", "unknown command 'frobnicate'", "nonsense"],
        ),
    ] {
        let (out, err) = run(input, None);
        let warnings: Vec<&str> = err.lines().filter(|l| l.contains("WARN")).collect();
        assert_eq!(warnings.len(), 3, "{input}\nstdout:\n{out}\nstderr:\n{err}");
        for (line, want) in warnings.iter().zip(refusals) {
            assert!(line.contains(want), "{line}: wanted {want}");
            // The same words as the protocol's own error answer (GTP's standard "unknown
            // command" does not name the command: its log line adds the name).
            let why = line.split("] ").nth(1).expect("a message");
            let answered = why.strip_suffix(" 'frobnicate'").filter(|_| input == gtp);
            assert!(out.contains(answered.unwrap_or(why)), "{why} not in\n{out}");
        }
        let (quiet_out, quiet) = run(input, Some("off"));
        assert_eq!(quiet, "", "{input}");
        assert_eq!(quiet_out, out);
    }
}
