//! Replays every seed and every saved finding of the coverage-guided fuzzers (`fuzz/seeds/`,
//! `fuzz/regressions/`; see `scripts/fuzz.sh`) through the same entry points, so that a fixed
//! crash or hang stays fixed.

use std::path::Path;
use std::time::Instant;

use tetrad::fuzz::TARGETS;

fn inputs(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<_> = entries
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.is_file() && !p.ends_with("README.md"))
        .collect();
    files.sort();
    files
        .into_iter()
        .filter_map(|p| Some((p.display().to_string(), std::fs::read(&p).ok()?)))
        .collect()
}

#[test]
fn fuzz_seeds_and_findings_replay_cleanly() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let mut seeds = 0;
    for (name, target) in TARGETS {
        for kind in ["seeds", "regressions"] {
            for (path, data) in inputs(&root.join(kind).join(name)) {
                let t = Instant::now();
                target(&data);
                // A hang check, not a timing test: AFL runs these with a 2 s limit.
                let secs = t.elapsed().as_secs_f64();
                assert!(secs < 20.0, "{path} took {secs:.1} s");
                seeds += usize::from(kind == "seeds");
            }
        }
    }
    assert!(
        seeds >= 20,
        "only {seeds} seeds found under {}",
        root.display()
    );
}
