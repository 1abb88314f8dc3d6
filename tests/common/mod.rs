//! Runs the engine binary as a subprocess and talks to it line by line, with timeouts so a
//! hanging engine fails the test instead of hanging it.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

pub const TIMEOUT: Duration = Duration::from_secs(20);

/// The engine binary. Cargo names it to integration tests (built with `cfg(test)`) only; the
/// long-run programs (examples/long_runs) share this module but never start the engine.
#[cfg(test)]
pub fn binary() -> &'static str {
    env!("CARGO_BIN_EXE_tetrad")
}

#[cfg(not(test))]
pub fn binary() -> &'static str {
    unreachable!("only tests start the engine binary")
}

pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Engine {
    pub fn start(args: &[&str]) -> Engine {
        let mut cmd = Command::new(binary());
        cmd.args(args);
        Engine::spawn(cmd)
    }

    /// Like [`Engine::start`], for a command that ends up running the engine (a shell that sets
    /// limits, then `exec`s it).
    pub fn spawn(mut cmd: Command) -> Engine {
        let mut child = cmd
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("engine starts");
        let stdout = child.stdout.take().expect("stdout");
        let stdin = child.stdin.take();
        let (tx, rx) = channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                match line {
                    Ok(l) => {
                        if tx.send(l).is_err() {
                            break;
                        }
                    }
                    Err(_) => break,
                }
            }
        });
        Engine {
            child,
            stdin,
            lines: rx,
        }
    }

    pub fn send_bytes(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("write to engine");
        stdin.flush().expect("flush");
    }

    pub fn send(&mut self, line: &str) {
        self.send_bytes(format!("{line}\n").as_bytes());
    }

    /// Next output line, or `None` on timeout / end of output.
    pub fn line_within(&mut self, t: Duration) -> Option<String> {
        match self.lines.recv_timeout(t) {
            Ok(l) => Some(l),
            Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => None,
        }
    }

    pub fn line(&mut self) -> String {
        self.line_within(TIMEOUT).expect("engine answered in time")
    }

    /// One GTP answer: its lines up to (not including) the empty line that ends it.
    pub fn answer(&mut self) -> Vec<String> {
        let mut out = Vec::new();
        loop {
            let l = self.line();
            if l.is_empty() {
                return out;
            }
            out.push(l);
        }
    }

    /// Sends a GTP command and returns the whole answer joined by newlines.
    pub fn gtp(&mut self, cmd: &str) -> String {
        self.send(cmd);
        self.answer().join("\n")
    }

    /// Reads lines until one starts with `prefix`; returns all lines read.
    pub fn until(&mut self, prefix: &str) -> Vec<String> {
        let mut out = Vec::new();
        loop {
            let l = self.line();
            let done = l.starts_with(prefix);
            out.push(l);
            if done {
                return out;
            }
        }
    }

    /// Every line up to the end of the output (the engine exiting), with a timeout per line.
    pub fn rest(&mut self) -> Vec<String> {
        let mut out = Vec::new();
        while let Some(l) = self.line_within(TIMEOUT) {
            out.push(l);
        }
        out
    }

    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// Waits for the process to exit; returns its exit code and how long that took.
    pub fn wait_exit(&mut self, limit: Duration) -> Option<(i32, Duration)> {
        let start = Instant::now();
        while start.elapsed() < limit {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some((status.code().unwrap_or(-1), start.elapsed()));
            }
            thread::sleep(Duration::from_millis(5));
        }
        None
    }

    /// Resident memory of the engine process in KiB (Linux).
    pub fn rss_kib(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
        line.split_whitespace().nth(1)?.parse().ok()
    }

    /// Peak resident memory of the engine process so far in KiB (Linux `VmHWM`).
    pub fn peak_rss_kib(&self) -> Option<u64> {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id())).ok()?;
        let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
        line.split_whitespace().nth(1)?.parse().ok()
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    pub fn alive(&mut self) -> bool {
        matches!(self.child.try_wait(), Ok(None))
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The games the binary lists (`list_games`), in order: what a test that loops over the games
/// through the binary loops over, so that a game added to the registry is covered with no edit
/// here. Printed like [`every_game`]'s.
pub fn game_names() -> Vec<String> {
    let mut e = Engine::start(&[]);
    let list = e.gtp("list_games");
    let names: Vec<String> = list
        .strip_prefix("= ")
        .expect("a game list")
        .lines()
        .map(str::to_string)
        .collect();
    announce(&names);
    names
}

/// Prints the games a test covers on stderr, under the test's name (libtest names the thread
/// after the test): shown with `--nocapture`, and in a failure's output.
fn announce<S: AsRef<str>>(names: &[S]) {
    let names: Vec<&str> = names.iter().map(AsRef::as_ref).collect();
    let thread = std::thread::current();
    eprintln!(
        "{}: games {}",
        thread.name().unwrap_or("test"),
        names.join(" ")
    );
}

/// The games a test that loops over every game covers: the registry's (`GameKind::all`, what
/// the binary's `list_games` gives; with the toy-game variable set, the toy row too), printed
/// on stderr under the test's name, so that a run with `--nocapture`, or a failure's output,
/// shows which games it covered.
pub fn every_game() -> &'static [&'static str] {
    let names = tetrad::games::GameKind::names();
    announce(names);
    names
}

/// The games that have a rules page, `docs/rules/<family>.md` (the family is the name up to
/// its first `-`: `pods-standard` and `pods-advanced` share `pods.md`): every game of the
/// registry but the test kit's toy row, a row only in test runs, which has no page.
pub fn rules_pages() -> Vec<String> {
    let mut pages: Vec<String> = every_game()
        .iter()
        .filter(|&&g| g != tetrad::games::GameKind::Toy.name())
        .map(|g| format!("docs/rules/{}.md", g.split('-').next().unwrap_or(g)))
        .collect();
    pages.dedup();
    pages
}
