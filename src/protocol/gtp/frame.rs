//! GTP's framing: an answer's `=`/`?` line and its end, and the command part of a line.

/// An answer: `=` or `?`, the id, the body (a line break first puts it on the lines below),
/// and the empty line that ends it; a failure is also logged on stderr.
pub(super) fn frame(ok: bool, id: Option<u64>, body: &str) -> String {
    if !ok {
        // Also on stderr: a runner that hides the protocol shows its engine's stderr.
        log::warn!("{}", body.trim());
    }
    unlogged_frame(ok, id, body)
}

/// An answer framed without the stderr line (the caller logs a fuller one).
pub(super) fn unlogged_frame(ok: bool, id: Option<u64>, body: &str) -> String {
    let mark = if ok { '=' } else { '?' };
    let id = id.map(|i| i.to_string()).unwrap_or_default();
    // A multi-line result must not contain an empty line (it would end the answer). A body
    // that starts with a line break (a diagram) starts on the line after the `=`.
    let block = body.starts_with('\n');
    let body: Vec<&str> = body.lines().filter(|l| !l.trim().is_empty()).collect();
    let body = body.join("\n");
    match (body.is_empty(), block) {
        (true, _) => format!("{mark}{id}\n\n"),
        (false, true) => format!("{mark}{id}\n{body}\n\n"),
        (false, false) => format!("{mark}{id} {body}\n\n"),
    }
}

/// The command part of a line: `#` starts a comment, except inside a `"..."` value (of
/// `game_record`, where `\"` and `\\` are escapes), so that a name may hold a `#`; what is
/// left may be empty (no answer then).
pub(super) fn command_text(line: &str) -> &str {
    let (mut quoted, mut escaped) = (false, false);
    for (at, c) in line.char_indices() {
        match c {
            _ if escaped => escaped = false,
            '\\' if quoted => escaped = true,
            '"' => quoted = !quoted,
            '#' if !quoted => return line[..at].trim(),
            _ => {}
        }
    }
    line.trim()
}
