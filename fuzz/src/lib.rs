//! What the three AFL targets share: how each runs, under AFL or over files.

/// Runs `target` over the files named on the command line, each once, in one process and in
/// order, then returns true; with no file named, returns false (AFL's persistent loop follows).
///
/// Replaying a fixed list of inputs in one process measures what one input costs the fuzzer
/// (`valgrind --tool=callgrind TARGET FILES...`, less a run over one empty file for the start-up),
/// in instructions, whatever the load; it also re-runs a finding outside AFL.
pub fn replay_files(target: tetrad::fuzz::Target) -> bool {
    let files: Vec<String> = std::env::args().skip(1).collect();
    if files.is_empty() {
        return false;
    }
    for file in files {
        // An unreadable file is the caller's mistake, not a finding: say so and go on.
        match std::fs::read(&file) {
            Ok(data) => target(&data),
            Err(e) => eprintln!("{file}: {e}"),
        }
    }
    true
}
