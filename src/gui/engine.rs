//! One engine process spoken to over pipes in GTP, as any outside GUI would: a command line
//! out, an answer block (`=`/`?` line, body, empty line) back.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use super::http::Slot;

/// A tab's engine process, reachable while a request holds the tab, so that closing or reaping
/// the tab stops it mid-search. It holds the tab's engine [`Slot`], taken before the first
/// process starts and given back by [`Control::stop`] (or when the last holder drops it): at
/// most one process runs per slot, since a restart ends the old one before the new starts.
pub struct Control {
    child: Mutex<Option<Child>>,
    slot: Mutex<Option<Slot>>,
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // Kill, wait and take only: a panic elsewhere leaves the value whole.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Control {
    pub fn new(slot: Slot) -> Arc<Control> {
        Arc::new(Control {
            child: Mutex::new(None),
            slot: Mutex::new(Some(slot)),
        })
    }

    /// Ends the process and gives back the slot; no process starts under this control again.
    pub fn stop(&self) {
        let slot = lock(&self.slot).take();
        self.end_process();
        drop(slot);
    }

    pub(super) fn end_process(&self) {
        if let Some(mut child) = lock(&self.child).take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    /// True once the process has ended by itself (or was stopped).
    pub fn dead(&self) -> bool {
        match lock(&self.child).as_mut() {
            Some(child) => !matches!(child.try_wait(), Ok(None)),
            None => true,
        }
    }
}

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
    control: Arc<Control>,
    command: Vec<String>,
    stdin: ChildStdin,
    lines: Receiver<String>,
    /// An `analyze_stream` answer is open: its lines come until an empty line.
    streaming: bool,
}

/// An answer: `Ok(body)` for `=`, `Err(message)` for `?`.
pub type Answer<T = String> = Result<T, String>;

/// The text after an answer's `=`/`?` and id.
fn answer_head(first: &str) -> &str {
    let head = first
        .trim_start_matches(['=', '?'])
        .trim_start_matches(|c: char| c.is_ascii_digit());
    head.strip_prefix(' ').unwrap_or(head)
}

/// Starts `command` under `control`: its stdin and a channel of its stdout's lines.
fn spawn(
    command: &[String],
    control: &Control,
) -> Result<(ChildStdin, Receiver<String>), EngineError> {
    let (program, args) = command.split_first().ok_or(EngineError::NoCommand)?;
    // The slot is held while the process starts: a stopped control starts none.
    let slot = lock(&control.slot);
    if slot.is_none() {
        return Err(EngineError::Gone);
    }
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
    *lock(&control.child) = Some(child);
    drop(slot);
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
    Ok((stdin, lines))
}

impl Engine {
    pub fn start(command: &[String], control: Arc<Control>) -> Result<Engine, EngineError> {
        let (stdin, lines) = spawn(command, &control)?;
        Ok(Engine {
            control,
            command: command.to_vec(),
            stdin,
            lines,
            streaming: false,
        })
    }

    /// Ends the process and starts the command again: whatever the old one was doing (a
    /// search past its time, an answer on its way) is gone with it.
    pub fn restart(&mut self) -> Result<(), EngineError> {
        self.control.end_process();
        self.streaming = false;
        let (stdin, lines) = spawn(&self.command, &self.control)?;
        self.stdin = stdin;
        self.lines = lines;
        Ok(())
    }

    fn send(&mut self, command: &str) -> Result<(), EngineError> {
        if command.chars().any(char::is_control) {
            return Err(EngineError::Unsafe);
        }
        writeln!(self.stdin, "{command}").map_err(|_| EngineError::Gone)?;
        self.stdin.flush().map_err(|_| EngineError::Gone)
    }

    fn next_line(&self, timeout: Duration) -> Result<String, EngineError> {
        match self.lines.recv_timeout(timeout) {
            Ok(l) => Ok(l),
            Err(RecvTimeoutError::Timeout) => Err(EngineError::Timeout),
            Err(RecvTimeoutError::Disconnected) => Err(EngineError::Gone),
        }
    }

    /// Starts a streaming command (`analyze_stream`): `Ok(Ok(()))` once its answer has opened,
    /// `Ok(Err(message))` when the engine refused it.
    pub fn stream(&mut self, command: &str, timeout: Duration) -> Result<Answer<()>, EngineError> {
        self.end_stream(timeout)?;
        self.send(command)?;
        let first = loop {
            let line = self.next_line(timeout)?;
            if !line.trim().is_empty() {
                break line;
            }
        };
        if first.starts_with('=') {
            self.streaming = true;
            return Ok(Ok(()));
        }
        let mut why = vec![answer_head(&first).to_string()];
        loop {
            let line = self.next_line(timeout)?;
            if line.trim().is_empty() {
                break;
            }
            why.push(line);
        }
        Ok(Err(why.join("\n")))
    }

    /// The stream's lines that have come so far; the stream is over once `streaming()` is false.
    pub fn stream_lines(&mut self) -> Vec<String> {
        let mut out = Vec::new();
        while self.streaming {
            match self.lines.try_recv() {
                Ok(line) if line.trim().is_empty() => self.streaming = false,
                Ok(line) => out.push(line),
                Err(_) => break,
            }
        }
        out
    }

    pub fn streaming(&self) -> bool {
        self.streaming
    }

    /// Ends an open stream: any line does (an empty one asks nothing else), and the empty line
    /// that closes its answer comes once the search has stopped.
    pub fn end_stream(&mut self, timeout: Duration) -> Result<(), EngineError> {
        if !self.streaming {
            return Ok(());
        }
        self.send("")?;
        while self.streaming {
            if self.next_line(timeout)?.trim().is_empty() {
                self.streaming = false;
            }
        }
        Ok(())
    }

    /// Sends one command and waits for its answer block.
    pub fn ask(&mut self, command: &str, timeout: Duration) -> Result<Answer, EngineError> {
        self.end_stream(timeout)?;
        self.send(command)?;
        let mut first: Option<String> = None;
        let mut body: Vec<String> = Vec::new();
        loop {
            let line = self.next_line(timeout)?;
            match &first {
                None if line.trim().is_empty() => continue,
                None => first = Some(line),
                Some(_) if line.trim().is_empty() => break,
                Some(_) => body.push(line),
            }
        }
        let first = first.unwrap_or_default();
        let ok = first.starts_with('=');
        let mut text = answer_head(&first).to_string();
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
        self.control.end_process();
    }
}
