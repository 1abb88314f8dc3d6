//! The stdin reader thread: raw bytes in, clean lines (or the reason a line was refused) out.
//! It never blocks the session, so `stop`, `isready`, `quit` and end of input arrive while a
//! search runs.

use std::io::{BufRead, BufReader, Read};
use std::sync::mpsc::Sender;
use std::thread;
use std::time::Instant;

use super::Event;

/// Longest line accepted; longer lines are refused whole (and read to their end, not buffered).
pub const MAX_LINE: usize = 256 * 1024;

/// Why a line could not be turned into text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineError {
    TooLong(usize),
    InvalidUtf8,
}

impl std::fmt::Display for LineError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LineError::TooLong(n) => write!(f, "line too long ({n} bytes, limit {MAX_LINE})"),
            LineError::InvalidUtf8 => write!(f, "input is not valid UTF-8"),
        }
    }
}

/// Control characters go, tabs become spaces, CR and surrounding blanks are dropped, and so
/// does the byte-order mark an editor may put before a command file's first line.
pub fn clean(raw: &str) -> String {
    raw.chars()
        .filter_map(|c| match c {
            '\t' => Some(' '),
            c if c.is_control() || c == '\u{feff}' => None,
            c => Some(c),
        })
        .collect::<String>()
        .trim()
        .to_string()
}

/// Decodes one raw line (without its `\n`).
pub fn decode(bytes: &[u8]) -> Result<String, LineError> {
    std::str::from_utf8(bytes)
        .map(clean)
        .map_err(|_| LineError::InvalidUtf8)
}

/// Reads lines until end of input, then sends `Event::Eof`. Stops quietly when the session has
/// gone (its receiver dropped). Each line is stamped with the moment its end was read: a move
/// time is measured from then.
pub fn spawn(input: impl Read + Send + 'static, tx: Sender<Event>) -> thread::JoinHandle<()> {
    thread::Builder::new()
        .name("stdin-reader".into())
        .spawn(move || read_all(input, &tx))
        .expect("spawning the reader thread")
}

/// What the reader thread does, on the caller's thread: every line of `input`, then
/// `Event::Eof` (unless the receiver has gone).
pub fn read_all(input: impl Read, tx: &Sender<Event>) {
    let mut reader = BufReader::with_capacity(64 * 1024, input);
    let mut line: Vec<u8> = Vec::new();
    let mut dropped = 0usize; // bytes of an over-long line seen so far
    loop {
        let (consumed, ended) = match reader.fill_buf() {
            Ok([]) => break,
            Ok(buf) => match buf.iter().position(|&b| b == b'\n') {
                Some(i) => {
                    take(&mut line, &mut dropped, &buf[..i]);
                    (i + 1, true)
                }
                None => {
                    take(&mut line, &mut dropped, buf);
                    (buf.len(), false)
                }
            },
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => {
                log::warn!("stdin read error: {e}");
                break;
            }
        };
        reader.consume(consumed);
        if ended && !emit(tx, &mut line, &mut dropped) {
            return;
        }
    }
    if (!line.is_empty() || dropped > 0) && !emit(tx, &mut line, &mut dropped) {
        return;
    }
    let _ = tx.send(Event::Eof);
}

fn take(line: &mut Vec<u8>, dropped: &mut usize, bytes: &[u8]) {
    if *dropped > 0 || line.len() + bytes.len() > MAX_LINE {
        *dropped += line.len() + bytes.len();
        line.clear();
    } else {
        line.extend_from_slice(bytes);
    }
}

fn emit(tx: &Sender<Event>, line: &mut Vec<u8>, dropped: &mut usize) -> bool {
    let item = if *dropped > 0 {
        Err(LineError::TooLong(*dropped))
    } else {
        decode(line)
    };
    line.clear();
    *dropped = 0;
    tx.send(Event::Line(Instant::now(), item)).is_ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc::channel;

    /// The lines read, without their time stamps; `None` for the end of input.
    fn lines(input: Vec<u8>) -> Vec<Option<Result<String, LineError>>> {
        let (tx, rx) = channel();
        spawn(std::io::Cursor::new(input), tx)
            .join()
            .expect("reader");
        rx.into_iter()
            .map(|e| match e {
                Event::Line(_, l) => Some(l),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn splits_cleans_and_ends_with_eof() {
        let ev = lines(b"\xef\xbb\xbfname\r\n\tplay  c3-d4\x07\nlast".to_vec());
        assert_eq!(
            ev,
            vec![
                Some(Ok("name".into())),
                Some(Ok("play  c3-d4".into())),
                Some(Ok("last".into())),
                None
            ]
        );
    }

    #[test]
    fn refuses_bad_utf8_and_huge_lines_then_goes_on() {
        let mut input = vec![0xff, 0xfe, b'\n'];
        input.extend(std::iter::repeat_n(b'a', MAX_LINE + 10));
        input.extend_from_slice(b"\nname\n");
        let ev = lines(input);
        assert_eq!(ev[0], Some(Err(LineError::InvalidUtf8)));
        assert_eq!(ev[1], Some(Err(LineError::TooLong(MAX_LINE + 10))));
        assert_eq!(ev[2], Some(Ok("name".into())));
        assert_eq!(ev[3], None);
    }
}
