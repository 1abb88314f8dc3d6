use std::path::PathBuf;

use super::*;
use crate::games::poddavki::Position;
use crate::games::Notation;

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tetrad-egdb-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    dir
}

fn pos(text: &str) -> Position {
    crate::games::poddavki::Poddavki::default()
        .parse_position(text)
        .expect("a valid position")
}

#[test]
fn a_built_database_verifies_and_a_changed_value_does_not() {
    let dir = scratch("verify");
    let mut tables = build(&dir, &slices_upto(3), 2, &mut |_| {}).expect("built");
    let (bad, n) = tables.verify(2, 10, &mut |_, _| {}).expect("verified");
    assert_eq!((bad.len(), n), (0, 0), "{bad:?}");
    // White king a1 against black king h8, white to move: change its value.
    let p = pos("W:WKa1:BKh8");
    let m = Material::of(&p);
    let mut data = tables.get(m).expect("slice").to_vec();
    let i = m.index(&p) as usize;
    data[i] = if data[i] == 0 { 1 } else { 0 };
    tables.insert(m, data);
    let (bad, n) = tables.verify(1, 10, &mut |_, _| {}).expect("verified");
    assert!(
        n >= 1 && bad.iter().any(|b| b.position == "W:WKa1:BKh8"),
        "{bad:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_rerun_skips_finished_slices_and_a_corrupt_file_is_an_error() {
    let dir = scratch("rerun");
    let slices = slices_upto(2);
    build(&dir, &slices, 1, &mut |_| {}).expect("built");
    let mut skipped = 0;
    build(&dir, &slices, 1, &mut |p| skipped += usize::from(p.skipped)).expect("rebuilt");
    assert_eq!(skipped, slices.len());
    let path = dir.join(file::file_name(slices[0]));
    let mut bytes = std::fs::read(&path).expect("file");
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(&path, bytes).expect("written");
    let err = Tables::open(&dir)
        .err()
        .expect("a corrupt file fails to load");
    assert!(err.to_string().contains("checksum"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn known_endings() {
    let dir = scratch("known");
    let tables = build(&dir, &slices_upto(3), 2, &mut |_| {}).expect("built");
    let probe = |t: &str| tables.probe(&pos(t)).expect("covered");
    // The black king is walled in: no legal move, so Black has won.
    assert_eq!(probe("B:Wb2,c3:BKa1"), Value::Win(0));
    // c3-d4 (a man move: zeroing) forces e5:c3, which leaves White without a piece: won.
    assert_eq!(probe("W:Wc3:Be5"), Value::Win(1));
    // Any king move along the long diagonal is taken, the capture being the zeroing move.
    assert_eq!(probe("W:WKa1:BKh8"), Value::Win(2));
    assert_eq!(probe("B:WKg7:BKh8"), Value::Loss(1));
    // Without pieces: the side to move has won; facing none, it loses with its first move.
    assert_eq!(probe("W:W:BKh8"), Value::Win(0));
    assert_eq!(probe("B:W:BKh8"), Value::Loss(1));
    let _ = std::fs::remove_dir_all(&dir);
}
