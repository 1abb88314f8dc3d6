//! Runs the Python test suites as part of `cargo test`, so the README's one test command covers
//! them: the tournament runner's (`tests/arena/`) and the GUI's browser suite (`tests/gui/`).
//! Both drive this build's release binary.
//!
//! Each `test_*.py` module runs as its own `python3 -m unittest` process, a few at a time:
//! most of the suites' time is spent waiting on engines, clocks and the browser, not computing,
//! so run one after another they were the longest tests of the whole run. The slowest modules
//! start first so that the small ones fill the gaps; a failing module's full output is printed.
//! The browser suite runs here, not among the GUI's unit tests: there it was the last test of
//! the unit-test binary, mostly waiting on the browser while the other core had nothing to do.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output};
use std::sync::{Arc, Mutex};
use std::thread;

/// The folders of Python test modules. The browser suite's run with a release build is the one
/// that counts: a debug engine is too slow for its move times.
const SUITES: &[&str] = if cfg!(debug_assertions) {
    &["tests/arena"]
} else {
    &["tests/arena", "tests/gui"]
};

/// The modules that take longest (measured), started first; the others follow by name.
const SLOWEST_FIRST: &[&str] = &[
    "test_fakes",
    "test_gui",
    "test_tetrad",
    "test_remote",
    "test_tournament",
    "test_browser",
    "test_shards",
];

/// Each suite's `test_*.py` modules as (folder, module).
fn modules(root: &Path) -> Vec<(&'static str, String)> {
    let mut found: Vec<(&'static str, String)> = SUITES
        .iter()
        .flat_map(|&dir| {
            std::fs::read_dir(root.join(dir))
                .unwrap_or_else(|e| panic!("{dir} is readable: {e}"))
                .filter_map(move |e| {
                    let name = e.ok()?.file_name().into_string().ok()?;
                    let module = name.strip_prefix("test_")?.strip_suffix(".py")?;
                    Some((dir, format!("test_{module}")))
                })
        })
        .collect();
    let rank = |m: &String| {
        SLOWEST_FIRST
            .iter()
            .position(|s| s == m)
            .unwrap_or(SLOWEST_FIRST.len())
    };
    found.sort_by(|a, b| rank(&a.1).cmp(&rank(&b.1)).then(a.cmp(b)));
    found
}

fn run_module(root: &str, dir: &str, module: &str) -> Output {
    Command::new("python3")
        .args(["-m", "unittest", "discover", "-s", dir, "-p"])
        .arg(format!("{module}.py"))
        .current_dir(root)
        .env("TETRAD_BIN", env!("CARGO_BIN_EXE_tetrad"))
        .output()
        .expect("python3 runs")
}

#[test]
fn python_suites() {
    let root = env!("CARGO_MANIFEST_DIR");
    let queue = modules(Path::new(root));
    assert!(
        queue
            .iter()
            .filter(|(dir, _)| *dir == "tests/arena")
            .count()
            >= 8,
        "the arena test modules are found: {queue:?}"
    );
    if cfg!(debug_assertions) {
        println!("browser suite skipped: it runs with the release build (cargo test --release)");
    } else {
        assert!(
            queue.contains(&("tests/gui", "test_gui".to_string())),
            "the browser suite is found: {queue:?}"
        );
    }
    // One more process than cores: a module waiting on its engines leaves its core free.
    let workers = thread::available_parallelism().map_or(2, |n| n.get() + 1);
    let queue = Arc::new(Mutex::new(queue.into_iter()));
    let results = Arc::new(Mutex::new(Vec::new()));
    let handles: Vec<_> = (0..workers)
        .map(|_| {
            let (queue, results) = (Arc::clone(&queue), Arc::clone(&results));
            thread::spawn(move || loop {
                let next = queue.lock().expect("queue lock").next();
                let Some((dir, module)) = next else { break };
                let out = run_module(root, dir, &module);
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
