//! An engine whose driver has gone: with no one to read its answers, it stops working and
//! exits, also in the middle of work that writes nothing (a GTP `genmove`, a `perft`); and work
//! left at the end of input runs only so long (`--after-eof`).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdout, Command, Stdio};
use std::thread;
use std::time::{Duration, Instant};

use crate::common::{binary, Engine};

/// Far more than the engine needs to notice (it is woken at once): a loaded machine may be slow
/// to schedule it, and a process that was going to run for hours is either gone by then or not.
const GONE_WITHIN: Duration = Duration::from_secs(20);

fn start(args: &[&str]) -> (Child, BufReader<ChildStdout>) {
    let mut child = Command::new(binary())
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("engine starts");
    let out = BufReader::new(child.stdout.take().expect("stdout"));
    (child, out)
}

/// Sends `input`, reads the output up to a line starting with `started` (the work is under
/// way), then closes both pipes as a dead driver's would. Whether the process ended in time.
fn orphaned(args: &[&str], input: &str, started: &str) -> bool {
    let (mut child, mut out) = start(args);
    let mut stdin = child.stdin.take().expect("stdin");
    stdin.write_all(input.as_bytes()).expect("input written");
    stdin.flush().expect("input flushed");
    let mut line = String::new();
    while !line.starts_with(started) {
        line.clear();
        if out.read_line(&mut line).expect("output read") == 0 {
            panic!("the engine ended before {started:?}");
        }
    }
    drop(stdin);
    drop(out);
    let deadline = Instant::now() + GONE_WITHIN;
    while Instant::now() < deadline {
        if let Ok(Some(_)) = child.try_wait() {
            return true;
        }
        thread::sleep(Duration::from_millis(20));
    }
    let _ = child.kill();
    let _ = child.wait();
    false
}

#[test]
fn an_orphaned_gtp_genmove_of_depth_100_ends_the_engine() {
    // `name` is answered before the search starts: the search runs when the pipes close.
    let input = "set_game diamond\nset_option threads 2\nset_option depth 100\nname\ngenmove\n";
    assert!(orphaned(&[], input, "= tetrad"));
}

#[test]
fn an_orphaned_perft_ends_the_engine_in_both_dialects() {
    assert!(orphaned(
        &[],
        "set_game poddavki\nname\nperft 20\n",
        "= tetrad"
    ));
    assert!(orphaned(
        &[],
        "uci\nsetoption name UCI_Variant value pods-standard\nisready\ngo perft 20\n",
        "readyok"
    ));
}

#[test]
fn an_orphaned_ugi_search_of_depth_100_ends_the_engine() {
    let input = "uci\nsetoption name Threads value 2\nposition startpos\ngo depth 100\n";
    assert!(orphaned(&[], input, "info depth"));
}

/// End of input lets what was read run, for `--after-eof` seconds: then the running search
/// answers what it has, and every later search and perft is cut short at once.
#[test]
fn work_left_at_the_end_of_input_runs_only_so_long() {
    let mut e = Engine::start(&["--after-eof", "1"]);
    e.send("set_option depth 100");
    e.send("genmove");
    e.send("perft 20");
    e.send("genmove");
    e.close_stdin();
    let rest = e.rest();
    let answers: Vec<String> = rest
        .split(|l| l.is_empty())
        .map(|a| a.join("\n"))
        .filter(|a| !a.is_empty())
        .collect();
    assert_eq!(answers.len(), 4, "{rest:?}");
    assert_eq!(answers[0], "=");
    assert!(
        answers[1].starts_with("= ") && answers[1].len() > 2,
        "{rest:?}"
    );
    assert_eq!(answers[2], "? perft interrupted");
    assert!(
        answers[3].starts_with("= ") && answers[3].len() > 2,
        "{rest:?}"
    );
    assert_eq!(e.wait_exit(GONE_WITHIN).map(|(code, _)| code), Some(0));

    let mut e = Engine::start(&["--after-eof", "1"]);
    e.send("uci");
    e.send("go depth 100");
    e.close_stdin();
    let rest = e.rest();
    let last = rest.last().map(String::as_str).unwrap_or_default();
    assert!(
        last.starts_with("bestmove ") && last != "bestmove (none)",
        "{rest:?}"
    );
    assert_eq!(e.wait_exit(GONE_WITHIN).map(|(code, _)| code), Some(0));
}

/// A search without limits, then a line that will only get an error, then the end of input:
/// no `stop` can come any more, so the search answers at once (it waited for ever with no
/// `--after-eof` cap; found by the protocol fuzz target).
#[test]
fn an_unbounded_search_behind_a_refused_line_ends_at_the_end_of_input() {
    let mut e = Engine::start(&["--after-eof", "0"]);
    e.send("uci");
    e.send("position startpos");
    e.send("go infinite");
    e.send("foo");
    e.close_stdin();
    let rest = e.rest();
    let best = rest.iter().position(|l| l.starts_with("bestmove "));
    assert!(
        best.is_some_and(|i| rest[i] != "bestmove (none)"),
        "{rest:?}"
    );
    assert!(
        rest.iter().any(|l| l.contains("foo")),
        "the refused line gets its error: {rest:?}"
    );
    assert_eq!(e.wait_exit(GONE_WITHIN).map(|(code, _)| code), Some(0));
}
