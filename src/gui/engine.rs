//! One engine process spoken to over pipes in GTP, as any outside GUI would: a command line
//! out, an answer block (`=`/`?` line, body, empty line) back.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Duration;

/// Why the engine could not answer at all (as opposed to a `?` refusal).
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    #[error("cannot start the engine: {0}")]
    Start(std::io::Error),
    #[error("the engine command is empty")]
    NoCommand,
    #[error("the engine is gone")]
    Gone,
    #[error("the engine did not answer in time")]
    Timeout,
    /// The server built a command that is not one protocol line (a bug, refused rather than sent).
    #[error("refused to send a command with control characters")]
    Unsafe,
}

/// A running engine; dropping it ends the process.
pub struct Engine {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

/// An answer: `Ok(body)` for `=`, `Err(message)` for `?`.
pub type Answer = Result<String, String>;

impl Engine {
    pub fn start(command: &[String]) -> Result<Engine, EngineError> {
        let (program, args) = command.split_first().ok_or(EngineError::NoCommand)?;
        let mut child = Command::new(program)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(EngineError::Start)?;
        let (stdin, stdout) = match (child.stdin.take(), child.stdout.take()) {
            (Some(i), Some(o)) => (i, o),
            _ => {
                let _ = child.kill();
                let _ = child.wait();
                return Err(EngineError::Gone);
            }
        };
        // A reader thread, so that a silent engine costs a timeout and not a stuck request.
        let (tx, lines) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(Engine {
            child,
            stdin,
            lines,
        })
    }

    /// Sends one command and waits for its answer block.
    pub fn ask(&mut self, command: &str, timeout: Duration) -> Result<Answer, EngineError> {
        if command.chars().any(char::is_control) {
            return Err(EngineError::Unsafe);
        }
        writeln!(self.stdin, "{command}").map_err(|_| EngineError::Gone)?;
        self.stdin.flush().map_err(|_| EngineError::Gone)?;
        let mut first: Option<String> = None;
        let mut body: Vec<String> = Vec::new();
        loop {
            let line = match self.lines.recv_timeout(timeout) {
                Ok(l) => l,
                Err(RecvTimeoutError::Timeout) => return Err(EngineError::Timeout),
                Err(RecvTimeoutError::Disconnected) => return Err(EngineError::Gone),
            };
            match &first {
                None if line.trim().is_empty() => continue,
                None => first = Some(line),
                Some(_) if line.trim().is_empty() => break,
                Some(_) => body.push(line),
            }
        }
        let first = first.unwrap_or_default();
        let ok = first.starts_with('=');
        let head = first
            .trim_start_matches(['=', '?'])
            .trim_start_matches(|c: char| c.is_ascii_digit());
        let head = head.strip_prefix(' ').unwrap_or(head);
        let mut text = head.to_string();
        for l in body {
            if !text.is_empty() {
                text.push('\n');
            }
            text.push_str(&l);
        }
        Ok(if ok { Ok(text) } else { Err(text) })
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        let _ = writeln!(self.stdin, "quit");
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
