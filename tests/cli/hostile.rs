//! `scripts/hostile.py`, the hostile-sessions runner, in small: eight seeded sessions in both
//! dialects (junk lines, option changes, stopped and abandoned searches, `quit`, end of input and
//! killed drivers), each answer checked, peak memory bounded, no engine left behind. The run of
//! a thousand sessions and its figures are in docs/reliability.md.

use std::process::Command;

use crate::common::binary;

#[test]
fn eight_hostile_sessions_pass_every_check() {
    let root = env!("CARGO_MANIFEST_DIR");
    let out = Command::new("python3")
        .arg(format!("{root}/scripts/hostile.py"))
        .args(["--engine", binary(), "--sessions", "8", "--seed", "1"])
        .args(["--max-hash", "64", "--jobs", "2"])
        .current_dir(root)
        .output()
        .expect("python3 runs");
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(text.contains("\nfailures: 0\n"), "{text}");
    assert!(text.contains("sessions: 8 ("), "{text}");
}
