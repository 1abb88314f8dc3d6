//! The server's HTTP: one request per connection, every limit checked before the bytes it
//! bounds are read. A request head is read up to [`Limits::head`] bytes, a body only when its
//! `Content-Length` is within [`Limits::body`], and both within [`Limits::deadline`] of the
//! connection's start, each read within [`Limits::read`]. A connection reading its request holds
//! a place among [`Limits::connections`] (a newcomer ends the oldest reader's reads when all are
//! taken), and one read whole a [`Slot`] of [`Limits::working`] while it is answered; both are
//! guards given back on drop whatever happens in the thread, so no client can leave one taken,
//! and the accept loop never waits on a client. (tiny_http, used before, read header lines without a bound and allocated a whole
//! declared body when a request was dropped unread: docs/reliability.md.)

use std::io::{Read, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Bounds on one connection.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    /// Largest request head (request line and headers).
    pub head: usize,
    /// Largest body.
    pub body: usize,
    /// Longest wait for the next bytes.
    pub read: Duration,
    /// Longest time from accept to a whole request.
    pub deadline: Duration,
    /// Most connections reading their request at once: beyond, the one reading longest is
    /// dropped for the newcomer (a slow client cannot shut out the page).
    pub connections: usize,
    /// Most requests worked on at once (read whole, being answered): beyond, 503.
    pub working: usize,
}

impl Default for Limits {
    fn default() -> Limits {
        Limits {
            head: 16 * 1024,
            body: 64 * 1024,
            read: Duration::from_secs(5),
            deadline: Duration::from_secs(10),
            connections: 128,
            working: 64,
        }
    }
}

/// A counted resource (a connection, an engine process): at most `max` [`Slot`]s at once.
#[derive(Debug)]
pub struct Slots {
    used: AtomicUsize,
    max: usize,
}

/// One unit of a [`Slots`], given back when dropped.
#[derive(Debug)]
pub struct Slot(Arc<Slots>);

impl Slots {
    pub fn new(max: usize) -> Arc<Slots> {
        Arc::new(Slots {
            used: AtomicUsize::new(0),
            max,
        })
    }

    /// A slot, or `None` when all are taken.
    pub fn take(self: &Arc<Slots>) -> Option<Slot> {
        self.used
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |n| {
                (n < self.max).then_some(n + 1)
            })
            .ok()
            .map(|_| Slot(Arc::clone(self)))
    }

    pub fn used(&self) -> usize {
        self.used.load(Ordering::SeqCst)
    }
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.0.used.fetch_sub(1, Ordering::SeqCst);
    }
}

/// A request as read: method, target, headers (names in lower case), body.
#[derive(Debug, Default)]
pub struct Request {
    pub method: String,
    pub target: String,
    pub headers: Vec<(String, String)>,
    pub body: Vec<u8>,
}

impl Request {
    /// The value of the header `name` (lower case); `None` when absent or not valid text.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }
}

/// An answer: status, content type, body.
#[derive(Debug)]
pub struct Response {
    pub status: u16,
    pub content_type: &'static str,
    pub body: Vec<u8>,
}

impl Response {
    pub fn error(status: u16, message: &str) -> Response {
        Response {
            status,
            content_type: "application/json",
            body: serde_json::json!({ "error": message })
                .to_string()
                .into_bytes(),
        }
    }
}

pub type Handler = dyn Fn(&Request) -> Response + Send + Sync;

/// The connections still reading their request, oldest first, each with a handle that can
/// end its reads from outside.
#[derive(Default)]
struct Readers {
    next: u64,
    open: std::collections::VecDeque<(u64, TcpStream)>,
}

/// A connection's place among the [`Readers`], left when dropped (the request read, or not).
struct Reading {
    id: u64,
    readers: Arc<std::sync::Mutex<Readers>>,
}

impl Drop for Reading {
    fn drop(&mut self) {
        let mut readers = self.readers.lock().unwrap_or_else(|e| e.into_inner());
        readers.open.retain(|(id, _)| *id != self.id);
    }
}

/// Accepts connections until the listener fails for good, each served on a thread of its own.
/// The accept loop never waits on a client: at most `limits.connections` read at once (a new
/// one ends the oldest reader's reads), and a request read whole needs one of
/// `limits.working` slots to be worked on (else 503).
pub fn serve(listener: TcpListener, limits: Limits, handler: Arc<Handler>) {
    let working = Slots::new(limits.working);
    let readers = Arc::new(std::sync::Mutex::new(Readers::default()));
    for stream in listener.incoming() {
        let stream = match stream {
            Ok(s) => s,
            // Out of file descriptors, or a connection reset before accept: wait a little
            // rather than spin.
            Err(_) => {
                std::thread::sleep(Duration::from_millis(20));
                continue;
            }
        };
        let Ok(handle) = stream.try_clone() else {
            continue;
        };
        let reading = {
            let mut r = readers.lock().unwrap_or_else(|e| e.into_inner());
            while r.open.len() >= limits.connections {
                if let Some((_, oldest)) = r.open.pop_front() {
                    let _ = oldest.shutdown(Shutdown::Both);
                }
            }
            r.next += 1;
            let id = r.next;
            r.open.push_back((id, handle));
            Reading {
                id,
                readers: Arc::clone(&readers),
            }
        };
        let (handler, working) = (Arc::clone(&handler), Arc::clone(&working));
        // A failed spawn drops the closure, and with it the connection's place.
        let _ = std::thread::Builder::new()
            .name("gui-connection".into())
            .stack_size(256 * 1024)
            .spawn(move || connection(stream, limits, reading, &working, &*handler));
    }
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        411 => "Length Required",
        413 => "Content Too Large",
        415 => "Unsupported Media Type",
        421 => "Misdirected Request",
        422 => "Unprocessable Content",
        431 => "Request Header Fields Too Large",
        502 => "Bad Gateway",
        503 => "Service Unavailable",
        _ => "Status",
    }
}

fn encode(response: &Response) -> Vec<u8> {
    let head = format!(
        "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nConnection: close\r\n\
         Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n\
         Content-Security-Policy: default-src 'self'; img-src 'self' data:; style-src 'self' \
         'unsafe-inline'; script-src 'self'; frame-ancestors 'none'\r\n\r\n",
        response.status,
        reason(response.status),
        response.content_type,
        response.body.len()
    );
    let mut bytes = head.into_bytes();
    bytes.extend_from_slice(&response.body);
    bytes
}

/// Why a request was not read whole.
enum Unread {
    /// Answer this, then close.
    Refuse(Response),
    /// The client went away (or sent nothing): close without a word.
    Gone,
}

fn connection(
    mut stream: TcpStream,
    limits: Limits,
    reading: Reading,
    working: &Arc<Slots>,
    handler: &Handler,
) {
    let start = Instant::now();
    if stream.set_read_timeout(Some(limits.read)).is_err()
        || stream.set_write_timeout(Some(limits.read)).is_err()
    {
        return;
    }
    let read = read_request(&mut stream, &limits, start);
    drop(reading);
    let response = match read {
        // The slot is held while the handler works, given back whatever happens in it.
        Ok(request) => match working.take() {
            Some(_slot) => handler(&request),
            None => Response::error(503, "server busy, try again"),
        },
        Err(Unread::Refuse(r)) => r,
        Err(Unread::Gone) => return,
    };
    let _ = stream.write_all(&encode(&response));
    let _ = stream.flush();
    // Closing with unread bytes pending would reset the connection, and the client could lose
    // the answer: read (and drop) what still comes, within a bound.
    let _ = stream.shutdown(Shutdown::Write);
    let _ = stream.set_read_timeout(Some(Duration::from_millis(200)));
    let (mut sink, mut drained, drain) = ([0u8; 4096], 0, Instant::now());
    while drained < 256 * 1024 && drain.elapsed() < Duration::from_millis(500) {
        match stream.read(&mut sink) {
            Ok(0) | Err(_) => break,
            Ok(n) => drained += n,
        }
    }
}

/// Reads more bytes, within the deadline.
fn fill(
    stream: &mut TcpStream,
    buf: &mut Vec<u8>,
    limits: &Limits,
    start: Instant,
) -> Result<usize, Unread> {
    if start.elapsed() >= limits.deadline {
        return Err(Unread::Refuse(Response::error(408, "request too slow")));
    }
    let mut chunk = [0u8; 4096];
    match stream.read(&mut chunk) {
        Ok(0) => Err(Unread::Gone),
        Ok(n) => {
            buf.extend_from_slice(&chunk[..n]);
            Ok(n)
        }
        Err(e)
            if matches!(
                e.kind(),
                std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
            ) =>
        {
            Err(Unread::Refuse(Response::error(408, "request too slow")))
        }
        Err(e) if e.kind() == std::io::ErrorKind::Interrupted => Ok(0),
        Err(_) => Err(Unread::Gone),
    }
}

fn read_request(
    stream: &mut TcpStream,
    limits: &Limits,
    start: Instant,
) -> Result<Request, Unread> {
    let refuse = |status, message: &str| Unread::Refuse(Response::error(status, message));
    let mut buf = Vec::with_capacity(2048);
    // Each byte is searched once or twice: the search goes on from where the last one ended.
    let mut searched = 0;
    let head_end = loop {
        if let Some(at) = buf[searched..].windows(4).position(|w| w == b"\r\n\r\n") {
            break searched + at + 4;
        }
        if buf.len() > limits.head {
            return Err(refuse(431, "request head too large"));
        }
        searched = buf.len().saturating_sub(3);
        fill(stream, &mut buf, limits, start)?;
    };
    if head_end > limits.head {
        return Err(refuse(431, "request head too large"));
    }
    let mut fields = [httparse::EMPTY_HEADER; 48];
    let mut parsed = httparse::Request::new(&mut fields);
    match parsed.parse(&buf[..head_end]) {
        Ok(httparse::Status::Complete(_)) => {}
        Err(httparse::Error::TooManyHeaders) => return Err(refuse(431, "too many headers")),
        _ => return Err(refuse(400, "malformed request")),
    }
    let mut request = Request {
        method: parsed.method.unwrap_or_default().to_string(),
        target: parsed.path.unwrap_or_default().to_string(),
        headers: Vec::new(),
        body: Vec::new(),
    };
    for h in parsed.headers.iter() {
        let Ok(value) = std::str::from_utf8(h.value) else {
            return Err(refuse(400, "a header value is not text"));
        };
        request
            .headers
            .push((h.name.to_ascii_lowercase(), value.trim().to_string()));
    }
    if request.header("transfer-encoding").is_some() {
        return Err(refuse(411, "a body needs a Content-Length"));
    }
    let lengths: Vec<&str> = request
        .headers
        .iter()
        .filter(|(n, _)| n == "content-length")
        .map(|(_, v)| v.as_str())
        .collect();
    let length = match lengths.as_slice() {
        [] => 0,
        [one] => match one.parse::<u64>() {
            Ok(n) => n,
            Err(_) => return Err(refuse(400, "malformed Content-Length")),
        },
        _ => return Err(refuse(400, "more than one Content-Length")),
    };
    // Checked before a byte of the body is read (or room made for it).
    if length > limits.body as u64 {
        return Err(refuse(413, "request body too large"));
    }
    let length = length as usize;
    if length > 0
        && request
            .header("expect")
            .is_some_and(|e| e.eq_ignore_ascii_case("100-continue"))
    {
        let _ = stream.write_all(b"HTTP/1.1 100 Continue\r\n\r\n");
    }
    let mut body = buf.split_off(head_end);
    while body.len() < length {
        fill(stream, &mut body, limits, start)?;
    }
    if body.len() > length {
        // Bytes after the body: a second request on a connection that serves one.
        body.truncate(length);
    }
    request.body = body;
    Ok(request)
}
