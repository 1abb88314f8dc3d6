//! Runs the tournament runner's Python test suite (`tests/arena/`) as part of `cargo test`, so
//! the README's one test command covers it. The suite drives this build's release binary.
//!
//! Each `test_*.py` module runs as its own `python3 -m unittest` process, a few at a time:
//! most of the suite's time is spent waiting on engines and clocks, not computing, so run one
//! after another it was the longest test of the whole run. The slowest modules start first
//! so that the small ones fill the gaps; a failing module's full output is printed.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output};
use std::sync::{Arc, Mutex};
use std::thread;

/// The modules that take longest (measured), started first; the others follow by name.
const SLOWEST_FIRST: &[&str] = &[
    "test_fakes",
    "test_tetrad",
    "test_remote",
    "test_tournament",
    "test_browser",
    "test_shards",
];

fn modules(dir: &Path) -> Vec<String> {
    let mut found: Vec<String> = std::fs::read_dir(dir)
        .expect("tests/arena is readable")
        .filter_map(|e| {
            let name = e.ok()?.file_name().into_string().ok()?;
            let module = name.strip_prefix("test_")?.strip_suffix(".py")?;
            Some(format!("test_{module}"))
        })
        .collect();
    let rank = |m: &String| {
        SLOWEST_FIRST
            .iter()
            .position(|s| s == m)
            .unwrap_or(SLOWEST_FIRST.len())
    };
    found.sort_by(|a, b| rank(a).cmp(&rank(b)).then(a.cmp(b)));
    found
}

fn run_module(root: &str, module: &str) -> Output {
    Command::new("python3")
        .args(["-m", "unittest", "discover", "-s", "tests/arena", "-p"])
        .arg(format!("{module}.py"))
        .current_dir(root)
        .env("TETRAD_BIN", env!("CARGO_BIN_EXE_tetrad"))
        .output()
        .expect("python3 runs")
}

#[test]
fn arena_python_suite() {
    let root = env!("CARGO_MANIFEST_DIR");
    let queue = modules(&Path::new(root).join("tests/arena"));
    assert!(
        queue.len() >= 8,
        "the arena test modules are found: {queue:?}"
    );
    // One more process than cores: a module waiting on its engines leaves its core free.
    let workers = thread::available_parallelism().map_or(2, |n| n.get() + 1);
    let queue = Arc::new(Mutex::new(queue.into_iter()));
    let results = Arc::new(Mutex::new(Vec::new()));
    let handles: Vec<_> = (0..workers)
        .map(|_| {
            let (queue, results) = (Arc::clone(&queue), Arc::clone(&results));
            thread::spawn(move || loop {
                let next = queue.lock().expect("queue lock").next();
                let Some(module) = next else { break };
                let out = run_module(root, &module);
                results.lock().expect("results lock").push((module, out));
            })
        })
        .collect();
    for h in handles {
        h.join().expect("a runner thread");
    }
    let results = results.lock().expect("results lock");
    let mut failed = Vec::new();
    for (module, out) in results.iter() {
        let err = String::from_utf8_lossy(&out.stderr);
        // Straight to the terminal, past the test harness's capture, as when the suite's
        // output was not captured: a test skipped for a missing tool must not go unnoticed.
        for line in err.lines().filter(|l| l.starts_with("skipped ")) {
            let _ = writeln!(std::io::stderr(), "{module}: {line}");
        }
        if !out.status.success() {
            eprintln!(
                "==== {module}: {}\n{}{err}",
                out.status,
                String::from_utf8_lossy(&out.stdout),
            );
            failed.push(module.as_str());
        }
    }
    assert!(failed.is_empty(), "arena test modules failed: {failed:?}");
}
