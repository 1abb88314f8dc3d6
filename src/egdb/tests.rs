use std::path::PathBuf;

use super::build::build_slice_levels;
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
    build(&dir, &slices_upto(3), 2, Reads::Whole, &mut |_| {}).expect("built");
    let mut tables = Tables::open(&dir).expect("opened");
    let (bad, n) = tables.verify(2, 10, &mut |_, _| {}).expect("verified");
    assert_eq!((bad.len(), n), (0, 0), "{bad:?}");
    // White king a1 against black king h8, white to move: change its value.
    let p = pos("W:WKa1:BKh8");
    let (m, i) = index::locate(&p);
    let mut data = tables.get(m).expect("slice").to_vec();
    let i = i as usize;
    data[i] = if data[i] == 0 { 1 } else { 0 };
    tables.insert(m, data);
    let (bad, n) = tables.verify(1, 10, &mut |_, _| {}).expect("verified");
    assert!(
        n >= 1 && bad.iter().any(|b| b.position == "W:WKa1:BKh8"),
        "{bad:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// A build reads each slice's dependencies from its directory when it needs them, holding no
/// more: one missing there is an error naming it, a removed one is rebuilt, and reading
/// them a block at a time builds the same files.
#[test]
fn a_build_reads_what_each_slice_needs_from_its_directory() {
    let dir = scratch("deps");
    let top = Material::new(0, 1, 0, 2);
    let err = build(&dir, &[top], 1, Reads::Whole, &mut |_| {}).expect_err("a dependency missing");
    assert!(
        err.to_string().contains("slice 0102 needs slice 0101"),
        "{err}"
    );
    let slices = slices_upto(3);
    build(&dir, &slices, 1, Reads::Whole, &mut |_| {}).expect("built");
    let whole = Tables::open(&dir).expect("opened");
    let dep = dir.join(file::file_name(Material::new(0, 1, 0, 1)));
    std::fs::remove_file(&dep).expect("removed");
    let mut built = Vec::new();
    build(&dir, &slices, 1, Reads::Whole, &mut |p| {
        if !p.skipped {
            built.push(p.slice)
        }
    })
    .expect("rebuilt");
    built.dedup();
    assert_eq!(built, [Material::new(0, 1, 0, 1)]);
    let again = Tables::open(&dir).expect("opened");
    for m in whole.materials() {
        assert_eq!(again.get(m), whole.get(m), "{m}");
    }
    // Read a block at a time through the smallest cache (a block per shard: blocks dropped
    // all the time), the dependencies give the same slices.
    let blocks = scratch("deps-blocks");
    build(&blocks, &slices, 2, Reads::Blocks(0), &mut |_| {}).expect("built");
    for m in whole.materials() {
        let name = file::file_name(m);
        assert_eq!(
            std::fs::read(blocks.join(&name)).expect("built"),
            std::fs::read(dir.join(&name)).expect("built"),
            "{m}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&blocks);
}

#[test]
fn a_rerun_skips_finished_slices_and_a_corrupt_file_is_an_error() {
    let dir = scratch("rerun");
    let slices = slices_upto(2);
    build(&dir, &slices, 1, Reads::Whole, &mut |_| {}).expect("built");
    let mut skipped = 0;
    build(&dir, &slices, 1, Reads::Whole, &mut |p| {
        skipped += usize::from(p.skipped)
    })
    .expect("rebuilt");
    // 0101, 0110 (with its mirror 1001) and 1010.
    assert_eq!(skipped, 3);
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
    build(&dir, &slices_upto(3), 2, Reads::Whole, &mut |_| {}).expect("built");
    let tables = Tables::open(&dir).expect("opened");
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

#[test]
fn a_position_and_its_colour_mirror_share_one_stored_value() {
    let dir = scratch("mirror");
    build(&dir, &slices_upto(3), 2, Reads::Whole, &mut |_| {}).expect("built");
    let tables = Tables::open(&dir).expect("opened");
    for text in [
        "W:Wc3:Be5",
        "B:Wc3:Be5",
        "W:WKa1,b2:BKh8",
        "B:Wc3,Kd4:Bf6",
        "W:WKg7:BKh8",
    ] {
        let p = pos(text);
        let q = index::mirror(&p);
        assert_eq!(index::mirror(&q).pieces, p.pieces);
        assert_eq!(Material::of(&q), Material::of(&p).mirror());
        assert_eq!(index::locate(&p), index::locate(&q), "{text}");
        assert_eq!(tables.probe(&p).ok(), tables.probe(&q).ok(), "{text}");
    }
    // Only the stored one of a slice and its mirror has a file.
    assert!(dir.join("poddavki-0110.egdb").exists());
    assert!(!dir.join("poddavki-1001.egdb").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_flipped_or_cut_file_is_an_error_naming_it_never_a_value() {
    let dir = scratch("flips");
    let slices = slices_upto(3);
    build(&dir, &slices, 2, Reads::Whole, &mut |_| {}).expect("built");
    let tables = Tables::open(&dir).expect("opened");
    // Two kings against one: 29,760 values, two blocks.
    let m = Material::new(0, 1, 0, 2);
    let path = dir.join(file::file_name(m));
    let good = std::fs::read(&path).expect("file");
    let kings = index::Kings::of(m);
    let block = index::Block::new((0, 0), &kings);
    let positions: Vec<Position> = (0..m.block_len())
        .step_by(37)
        .map(|off| block.position(off))
        .collect();
    // Every byte flipped in turn (the header, the index, the blocks), and the file cut short at
    // every length: opening fails naming the file, or each probe gives the value built or an
    // error naming the file.
    let mut faults = 0;
    let cases = (0..good.len())
        .map(|at| {
            let mut b = good.clone();
            b[at] ^= 0x21;
            b
        })
        .chain((0..good.len()).step_by(7).map(|n| good[..n].to_vec()));
    for bytes in cases {
        std::fs::write(&path, &bytes).expect("written");
        let names_it = |e: &EgdbError| e.to_string().contains("poddavki-0102.egdb");
        match Tables::open_within(&dir, 1 << 20, u32::MAX) {
            Err(e) => {
                assert!(names_it(&e), "{e}");
                faults += 1;
            }
            Ok((files, _)) => {
                for p in &positions {
                    match files.probe(p) {
                        Ok(v) => assert_eq!(Ok(v), tables.probe(p).map_err(|e| e.to_string())),
                        Err(e) => {
                            assert!(names_it(&e), "{e}");
                            faults += 1;
                            break;
                        }
                    }
                }
            }
        }
    }
    assert!(
        faults >= good.len(),
        "{faults} faults found in {} bytes",
        good.len()
    );
    // A file of another format version is refused by name.
    let mut old = good.clone();
    old[8] = 1;
    std::fs::write(&path, &old).expect("written");
    let err = Tables::open(&dir).err().expect("refused");
    assert!(err.to_string().contains("format version 1"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// A slice build killed between two levels goes on from its checkpoint: each run below stops
/// after solving one level (as a kill would), so the slice is finished only because every run
/// takes the levels the runs before it recorded; a record cut short by a kill is dropped; and
/// the file is the one an uninterrupted build writes.
#[test]
fn a_killed_slice_build_resumes_from_its_last_level() {
    let clean = scratch("resume-clean");
    build(&clean, &slices_upto(3), 1, Reads::Whole, &mut |_| {}).expect("built");
    let dir = scratch("resume");
    std::fs::create_dir_all(&dir).expect("scratch directory");
    // A man against a man and a king: its levels are the men's advancement.
    let m = Material::new(1, 0, 1, 1);
    for entry in std::fs::read_dir(&clean).expect("built") {
        let path = entry.expect("entry").path();
        let name = path.file_name().expect("name").to_owned();
        if name != file::file_name(m).as_str() {
            std::fs::copy(&path, dir.join(name)).expect("copied");
        }
    }
    let partial = dir.join(format!("{}.partial", file::file_name(m)));
    let mut runs = 0;
    loop {
        runs += 1;
        assert!(
            runs <= 20,
            "no end: the runs do not take what the others recorded"
        );
        let done = build_slice_levels(&dir, m, 1, Reads::Whole, 1, &mut |_| {}).expect("a run");
        if done {
            break;
        }
        assert!(partial.exists());
        // The kill came while the next record was written.
        let mut bytes = std::fs::read(&partial).expect("checkpoint");
        bytes.extend([7, 0, 0, 0, 99, 0, 0, 0, 0, 0, 0, 0, 1, 2]);
        std::fs::write(&partial, bytes).expect("written");
    }
    assert!(runs >= 3, "{runs} runs: the slice has several levels");
    assert!(
        !partial.exists(),
        "the checkpoint goes once the file is written"
    );
    let name = file::file_name(m);
    assert_eq!(
        std::fs::read(dir.join(&name)).expect("built"),
        std::fs::read(clean.join(&name)).expect("built")
    );
    let _ = std::fs::remove_dir_all(&dir);
    let _ = std::fs::remove_dir_all(&clean);
}

/// The files this builder writes are byte for byte those of the builder that held a slice whole
/// and wrote its file in one piece (the lengths and CRC-32s of its files up to 4 pieces, taken
/// before the builder held only the levels a man move reaches and wrote from its checkpoint).
/// A change of the file format or of the compression changes them on purpose: take them again.
#[test]
fn the_files_are_those_the_whole_slice_builder_wrote() {
    const WHOLE: [(&str, usize, u32); 23] = [
        ("0101", 280, 0xC62DD11F),
        ("0102", 3587, 0xCFF8ADF5),
        ("0103", 26870, 0xBAC7CBFA),
        ("0110", 386, 0x2A38DDD4),
        ("0111", 11362, 0x7AF0C11F),
        ("0112", 123273, 0x5A953C72),
        ("0120", 4170, 0xBA140BD0),
        ("0121", 144892, 0xDAA7BCD4),
        ("0130", 35079, 0x928FF796),
        ("0202", 39348, 0x689E46E3),
        ("0210", 2863, 0x16FB7EA6),
        ("0211", 161690, 0x3EAF8493),
        ("0220", 48985, 0x8EA1E98B),
        ("0310", 21291, 0x5FA8FB6E),
        ("1010", 303, 0x2F3493B0),
        ("1011", 6753, 0x48CECFF8),
        ("1012", 74009, 0x3FBB98A3),
        ("1020", 3606, 0x45B090E4),
        ("1021", 74809, 0xFAC9E208),
        ("1030", 23476, 0x08D26E85),
        ("1111", 163523, 0x1A0700F8),
        ("1120", 113980, 0x50DC24CC),
        ("2020", 29794, 0xE5765DED),
    ];
    let dir = scratch("whole");
    // Most files are written in several batches.
    build(&dir, &slices_upto(4), 2, Reads::Whole, &mut |_| {}).expect("built");
    let mut built = file::slices_in(&dir).expect("listed");
    built.sort();
    let names: Vec<String> = built.iter().map(Material::to_string).collect();
    assert_eq!(names, WHOLE.map(|(m, _, _)| m));
    assert!(built
        .iter()
        .any(|m| m.stored_len() > 2 * file::BATCH_PER_THREAD as u64 * file::BLOCK_VALUES));
    for (m, len, crc) in WHOLE {
        let m = Material::parse(m).expect("a slice");
        let bytes = std::fs::read(dir.join(file::file_name(m))).expect("built");
        assert_eq!((bytes.len(), file::crc32(&bytes)), (len, crc), "slice {m}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// A slice's file written a batch at a time and stopped midway by an error leaves nothing
/// behind: no file, no temporary one.
#[test]
fn a_write_stopped_midway_leaves_no_file() {
    let dir = scratch("stopped-write");
    std::fs::create_dir_all(&dir).expect("made");
    let m = Material::parse("1111").expect("a slice");
    let mut batches = 0;
    let written = file::write_stream(&dir, m, m.stored_len(), 1, &mut |out| {
        batches += 1;
        if batches == 2 {
            return Err(EgdbError::Corrupt("stopped".into()));
        }
        out.fill(0);
        Ok(())
    });
    assert!(matches!(written, Err(EgdbError::Corrupt(_))), "{written:?}");
    assert_eq!(batches, 2, "the error came in the second batch");
    let left: Vec<_> = std::fs::read_dir(&dir).expect("listed").collect();
    assert!(left.is_empty(), "{left:?}");
    let _ = std::fs::remove_dir_all(&dir);
}
