//! The endgame databases in play, through the binary: `egdb_path` and `egdb_memory`, load
//! errors, `egdb_probe`, the score form and `tbhits`, and games from database positions
//! played to the end by tetrad with the database against itself (docs/egdb.md, "In play").

use std::path::{Path, PathBuf};
use std::process::Command;

use rand::rngs::SmallRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use tetrad::egdb::{Tables, Value};
use tetrad::games::poddavki::Poddavki;
use tetrad::games::prelude::*;

use crate::common::Engine;

/// A database built into a temporary directory, removed when dropped.
pub struct Built(pub PathBuf);

impl Drop for Built {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Builds the slices up to `pieces` with the binary.
pub(crate) fn built(pieces: u32, name: &str) -> Built {
    let dir = std::env::temp_dir().join(format!("tetrad-egdb-play-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let out = Command::new(crate::common::binary())
        .args(["egdb", "build", "--game", "poddavki", "--pieces"])
        .arg(pieces.to_string())
        .arg("--dir")
        .arg(&dir)
        .output()
        .expect("the binary runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    Built(dir)
}

pub(crate) fn path(dir: &Path) -> &str {
    dir.to_str().expect("a UTF-8 temporary path")
}

/// The dark squares' names, a1 first.
fn square(s: usize) -> String {
    let rank = s / 4;
    let file = 2 * (s % 4) + rank % 2;
    format!("{}{}", (b'a' + file as u8) as char, rank + 1)
}

/// A random position with this many pieces, each side with one at least, as a position string.
pub(crate) fn random_position(rng: &mut SmallRng, pieces: usize) -> String {
    loop {
        let mut squares: Vec<usize> = (0..32).collect();
        squares.shuffle(rng);
        let mut sides: [Vec<String>; 2] = [Vec::new(), Vec::new()];
        for &s in &squares[..pieces] {
            let side = rng.gen_range(0..2);
            let rank = s / 4;
            // A man never stands on its promotion rank.
            let man_allowed = rank != if side == 0 { 7 } else { 0 };
            let king = !man_allowed || rng.gen_bool(0.5);
            let k = if king { "K" } else { "" };
            sides[side].push(format!("{k}{}", square(s)));
        }
        if sides.iter().all(|s| !s.is_empty()) {
            let stm = if rng.gen_bool(0.5) { "W" } else { "B" };
            return format!("{stm}:W{}:B{}", sides[0].join(","), sides[1].join(","));
        }
    }
}

/// `egdb_probe`'s answer read back as a value.
fn probe(e: &mut Engine) -> Option<Value> {
    let answer = e.gtp("egdb_probe");
    let words: Vec<&str> = answer.split_whitespace().collect();
    let d = |w: &str| w.parse::<u8>().ok();
    match words[..] {
        ["=", "draw"] => Some(Value::Draw),
        ["=", "win", n] => d(n).map(Value::Win),
        ["=", "loss", n] => d(n).map(Value::Loss),
        _ => None,
    }
}

/// How games from database positions ended, against what the database and the no-progress
/// count said of the start.
#[derive(Debug, Default)]
pub struct Tally {
    /// Wins (sure: count + D ≤ 30) played out, and those of them with plies already counted.
    pub wins: usize,
    pub counted_wins: usize,
    /// Database wins the count cut off (count + D > 30): draws in play.
    pub cut_wins: usize,
    pub draws: usize,
    pub losses: usize,
    /// Moves where the side with a sure win or loss did not keep to the distance to zeroing.
    pub off_distance: Vec<String>,
    /// Games that did not end as the database said.
    pub wrong: Vec<String>,
}

const NO_PROGRESS: u32 = 30;

/// Plays games from random positions of up to `pieces` pieces, by one engine with the
/// database in `dir` on both sides: `games` sure wins for the side to move (half of them after
/// a walk of king moves without a capture that puts plies on the no-progress count), `games` database
/// draws, `games` sure losses and a tenth as many database wins the count cuts off (draws in
/// play). Checks every game's end and every move of a sure win or loss against the database.
pub fn play_from_database(
    e: &mut Engine,
    dir: &Path,
    pieces: usize,
    games: usize,
    seed: u64,
) -> Tally {
    let game = Poddavki::default();
    assert_eq!(e.gtp(&format!("set_option egdb_path {}", path(dir))), "=");
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut tally = Tally::default();
    // Sure wins without and with plies on the count, draws, cut-off wins, sure losses.
    let mut wanted = [
        games - games / 2,
        games / 2,
        games,
        games.div_ceil(10),
        games,
    ];
    let tables = Tables::open(dir).expect("the database loads");
    let mut tries = 0;
    while wanted.iter().any(|&w| w > 0) {
        tries += 1;
        assert!(
            tries < 1000 * games + 1000,
            "too few positions of each kind: {wanted:?}"
        );
        let n = rng.gen_range(2..=pieces);
        let start = random_position(&mut rng, n);
        let Ok(mut pos) = game.parse_position(&start) else {
            continue;
        };
        // A walk, when plies on the count are wanted, ends at the first position of a kind
        // still wanted after at least `least` plies.
        let walk = wanted[1] + wanted[3] > 0 && rng.gen_bool(0.5);
        let least = rng.gen_range(1..=24);
        let mut moves = Vec::new();
        let mut seen = vec![game.format_position(&pos)];
        let kind_of = |v: Value, count: u32| {
            let in_play = |d: u8| count + u32::from(d) <= NO_PROGRESS;
            match v {
                Value::Win(d) if in_play(d) => usize::from(count > 0),
                Value::Win(_) => 3,
                Value::Loss(d) if in_play(d) => 4,
                _ => 2,
            }
        };
        let mut v = tables.probe(&pos).expect("covered");
        while walk && moves.len() < NO_PROGRESS as usize - 1 {
            let k = kind_of(v, moves.len() as u32);
            if moves.len() >= least && [1, 3].contains(&k) && wanted[k] > 0 {
                break;
            }
            let Some(m) = quiet_step(&game, &pos, &seen, &mut rng) else {
                break;
            };
            moves.push(game.format_move(&pos, m));
            pos = game.make(&pos, m);
            seen.push(game.format_position(&pos));
            v = tables.probe(&pos).expect("covered");
        }
        let count = moves.len() as u32;
        let kind = kind_of(v, count);
        if wanted[kind] == 0 || !game.has_legal_move(&pos) || (walk && count == 0) {
            continue;
        }
        assert_eq!(e.gtp(&format!("set_position {start}")), "=", "{start}");
        for m in &moves {
            assert_eq!(e.gtp(&format!("play {m}")), "=", "{start} {moves:?}");
        }
        assert_eq!(probe(e), Some(v));
        wanted[kind] -= 1;
        let first = e.gtp("side_to_move").trim_start_matches("= ").to_string();
        let label = format!("{start} after {moves:?}: {v}");
        let result = play_out(e, &game, count, &label, &mut tally.off_distance);
        let expected = match kind {
            0 | 1 => first.clone(),
            2 | 3 => "draw".into(),
            _ => if first == "white" { "black" } else { "white" }.into(),
        };
        if result != expected {
            tally
                .wrong
                .push(format!("{label}: {result}, expected {expected}"));
        }
        match kind {
            0 | 1 => {
                tally.wins += 1;
                tally.counted_wins += kind;
            }
            2 => tally.draws += 1,
            3 => tally.cut_wins += 1,
            _ => tally.losses += 1,
        }
    }
    tally
}

fn game_over(e: &mut Engine) -> bool {
    e.gtp("game_result") != "= ongoing"
}

/// A random king move without a capture (a move that leaves the no-progress count running)
/// to a position not yet seen, one that leaves the most such moves after it.
fn quiet_step(
    game: &Poddavki,
    pos: &<Poddavki as Rules>::Pos,
    seen: &[String],
    rng: &mut SmallRng,
) -> Option<<Poddavki as Rules>::Move> {
    let mut moves = Vec::new();
    game.legal_moves(pos, &mut moves);
    moves.retain(|&m| {
        !game.is_progress(pos, m) && !seen.contains(&game.format_position(&game.make(pos, m)))
    });
    moves.shuffle(rng);
    moves.into_iter().max_by_key(|&m| {
        let child = game.make(pos, m);
        let mut next = Vec::new();
        game.legal_moves(&child, &mut next);
        next.iter()
            .filter(|&&r| !game.is_progress(&child, r))
            .count()
    })
}

/// Plays the game out with `genmove` on both sides; returns the winner's name or `draw`.
fn play_out(
    e: &mut Engine,
    game: &Poddavki,
    mut count: u32,
    label: &str,
    off: &mut Vec<String>,
) -> String {
    for _ in 0..1000 {
        let result = e.gtp("game_result");
        if result != "= ongoing" {
            return result
                .trim_start_matches("= ")
                .split(' ')
                .next()
                .unwrap_or("")
                .into();
        }
        let text = e.gtp("get_position");
        let pos = game
            .parse_position(text.trim_start_matches("= "))
            .expect("the engine's position string parses");
        let before = probe(e);
        let answer = e.gtp("genmove");
        let mv = answer.trim_start_matches("= ");
        let m = game.parse_move(&pos, mv).expect("genmove's move is legal");
        let zeroing = game.is_progress(&pos, m);
        let after = probe(e);
        // A sure win keeps to the least distance to zeroing, a sure loss to the greatest: the
        // move is the zeroing one at distance 1, else the distance falls by one.
        let kept = match before {
            Some(Value::Win(d)) if count + u32::from(d) <= NO_PROGRESS => {
                if zeroing {
                    d == 1
                } else {
                    d > 1 && after == Some(Value::Loss(d - 1))
                }
            }
            Some(Value::Loss(d)) if count + u32::from(d) <= NO_PROGRESS => {
                if zeroing {
                    d == 1
                } else {
                    after == Some(Value::Win(d - 1)) || (d == 1 && game_over(e))
                }
            }
            _ => true,
        };
        if !kept {
            off.push(format!("{label}: {text} {mv}: {before:?} then {after:?}"));
        }
        count = if zeroing { 0 } else { count + 1 };
    }
    panic!("{label}: no end in 1000 plies");
}

#[test]
fn database_positions_are_played_to_their_value() {
    let db = built(4, "games");
    let mut e = Engine::start(&[]);
    // The search is bounded for the positions the database does not decide at the root.
    assert_eq!(e.gtp("set_option nodes 20000"), "=");
    let t = play_from_database(&mut e, &db.0, 4, 20, 26);
    assert!(t.wrong.is_empty(), "{:#?}", t.wrong);
    assert!(t.off_distance.is_empty(), "{:#?}", t.off_distance);
    // Every kind was played: the checks are not empty.
    assert_eq!(
        (t.wins, t.counted_wins, t.draws, t.cut_wins, t.losses),
        (20, 10, 20, 2, 20)
    );

    // Bounded memory: egdb_memory bounds the cache of decompressed blocks, not what is
    // covered. With 1 MiB (64 blocks) every slice still answers, as the library reads it.
    assert_eq!(e.gtp("set_option egdb_memory 1"), "=");
    let tables = Tables::open(&db.0).expect("loads");
    let mut rng = SmallRng::seed_from_u64(7);
    let mut asked = 0;
    while asked < 300 {
        let p = random_position(&mut rng, 4);
        let pos = Poddavki::default().parse_position(&p).expect("parses");
        let Ok(value) = tables.probe(&pos) else {
            continue;
        };
        asked += 1;
        assert_eq!(e.gtp(&format!("set_position {p}")), "=");
        assert_eq!(e.gtp("egdb_probe"), format!("= {value}"), "{p}");
    }
}

#[test]
fn the_options_are_poddavki_s_and_load_once() {
    let db = built(2, "options");
    let mut e = Engine::start(&[]);
    let listed = e.gtp("list_options");
    assert!(
        listed.contains("\negdb_path  string")
            && listed.contains("\negdb_memory 512 spin 1..65536"),
        "{listed}"
    );
    assert_eq!(
        e.gtp("egdb_probe"),
        "? no endgame database loaded (set egdb_path)"
    );
    assert_eq!(e.gtp(&format!("set_option egdb_path {}", path(&db.0))), "=");
    assert_eq!(e.gtp("set_position W:WKa1:BKh8"), "=");
    let value = e.gtp("egdb_probe");
    assert!(value.starts_with("= "), "{value}");
    // Loaded once: the same path again reads nothing (the files are gone, the answers stay).
    let kept = db.0.with_extension("kept");
    std::fs::rename(&db.0, &kept).expect("moved away");
    assert_eq!(e.gtp(&format!("set_option egdb_path {}", path(&db.0))), "=");
    assert_eq!(e.gtp("egdb_probe"), value);
    std::fs::rename(&kept, &db.0).expect("moved back");
    // Empty: off.
    assert_eq!(e.gtp("set_option egdb_path"), "=");
    assert_eq!(
        e.gtp("egdb_probe"),
        "? no endgame database loaded (set egdb_path)"
    );
    // Other games do not list them, nor answer from the database.
    assert_eq!(e.gtp(&format!("set_option egdb_path {}", path(&db.0))), "=");
    assert_eq!(e.gtp("set_game diamond"), "=");
    assert!(!e.gtp("list_options").contains("egdb"));
    assert_eq!(
        e.gtp("egdb_probe"),
        "? the endgame database covers poddavki only, not diamond"
    );
    assert_eq!(e.gtp("set_game poddavki"), "=");
    assert_eq!(e.gtp("set_position W:WKa1:BKh8"), "=");
    assert_eq!(e.gtp("egdb_probe"), value);

    let mut u = Engine::start(&["--protocol", "ugi"]);
    u.send("uci");
    let lines = u.until("uciok");
    assert!(lines.contains(&"option name EgdbPath type string default <empty>".to_string()));
    assert!(
        lines.contains(&"option name EgdbMemory type spin default 512 min 1 max 65536".to_string())
    );
    u.send(&format!("setoption name EgdbPath value {}", path(&db.0)));
    u.send("position fen W:WKa1:BKh8");
    u.send("d");
    let shown = u.until("Endgame database:");
    let last = shown.last().map(String::as_str).unwrap_or("");
    assert_eq!(
        last.trim_start_matches("Endgame database: "),
        value.trim_start_matches("= ")
    );
}

#[test]
fn a_missing_corrupt_or_truncated_database_is_a_clear_error_and_play_goes_on() {
    let db = built(2, "broken");
    let mut e = Engine::start(&[]);
    let missing = db.0.join("nothing-here");
    let answer = e.gtp(&format!("set_option egdb_path {}", path(&missing)));
    assert!(
        answer.starts_with("? egdb_path: ") && answer.ends_with("; no endgame database in use"),
        "{answer}"
    );
    let empty = db.0.join("empty");
    std::fs::create_dir_all(&empty).expect("made");
    let answer = e.gtp(&format!("set_option egdb_path {}", path(&empty)));
    assert!(
        answer.contains("no endgame database slice files"),
        "{answer}"
    );

    let slice = db.0.join("poddavki-0101.egdb");
    let good = std::fs::read(&slice).expect("slice file");
    // A byte of the block index flipped: the header's checksum fails at once.
    let mut flipped = good.clone();
    flipped[52] ^= 0x10;
    for (bytes, why) in [
        (flipped, "checksum"),
        (good[..good.len() - 9].to_vec(), "bytes of data"),
    ] {
        std::fs::write(&slice, &bytes).expect("written");
        let answer = e.gtp(&format!("set_option egdb_path {}", path(&db.0)));
        assert!(
            answer.starts_with("? egdb_path: ")
                && answer.contains("poddavki-0101.egdb")
                && answer.contains(why),
            "{answer}"
        );
        // No database, and the engine plays on.
        assert_eq!(
            e.gtp("egdb_probe"),
            "? no endgame database loaded (set egdb_path)"
        );
        assert!(e.gtp("list_options").contains("egdb_path  string"));
        assert_eq!(e.gtp("set_position W:Wc3:Bf6"), "=");
        assert!(e.gtp("genmove").starts_with("= "));
    }
    let mut u = Engine::start(&["--protocol", "ugi"]);
    u.send(&format!("setoption name EgdbPath value {}", path(&db.0)));
    u.send("isready");
    let lines = u.until("readyok");
    assert!(
        lines[0].starts_with("info string error: egdb_path: ")
            && lines[0].contains("bytes of data"),
        "{lines:?}"
    );
    // A byte of the last block flipped: the file opens (blocks are checked when read), and a
    // position of that block is an error naming the file, never a value; the search takes it
    // as not covered.
    let mut flipped = good.clone();
    let last = flipped.len() - 1;
    flipped[last] ^= 0x10;
    std::fs::write(&slice, &flipped).expect("written");
    assert_eq!(e.gtp(&format!("set_option egdb_path {}", path(&db.0))), "=");
    assert_eq!(e.gtp("set_position W:WKa1:BKh8"), "=");
    let answer = e.gtp("egdb_probe");
    assert!(
        answer.starts_with("? egdb_path: ")
            && answer.contains("poddavki-0101.egdb")
            && answer.contains("checksum"),
        "{answer}"
    );
    assert!(e.gtp("genmove").starts_with("= "));
}

/// The database's value of a position string, read with the library.
fn stored(tables: &Tables, text: &str) -> Value {
    let pos = Poddavki::default().parse_position(text).expect("parses");
    tables.probe(&pos).expect("covered")
}

#[test]
fn egdb_probe_answers_the_stored_value() {
    let db = built(3, "probe");
    let tables = Tables::open(&db.0).expect("loads");
    let mut e = Engine::start(&[]);
    assert_eq!(e.gtp(&format!("set_option egdb_path {}", path(&db.0))), "=");
    let mut rng = SmallRng::seed_from_u64(3);
    let mut kinds = [0; 3];
    for _ in 0..300 {
        let n = rng.gen_range(2..=3);
        let p = random_position(&mut rng, n);
        assert_eq!(e.gtp(&format!("set_position {p}")), "=");
        let v = stored(&tables, &p);
        let expected = match v {
            Value::Win(d) => format!("= win {d}"),
            Value::Loss(d) => format!("= loss {d}"),
            Value::Draw => "= draw".into(),
        };
        assert_eq!(e.gtp("egdb_probe"), expected, "{p}");
        kinds[match v {
            Value::Win(_) => 0,
            Value::Loss(_) => 1,
            Value::Draw => 2,
        }] += 1;
    }
    assert!(kinds.iter().all(|&k| k > 0), "{kinds:?}");
    assert_eq!(e.gtp("set_position W:Wc3,e3,g3,a1:Bf6"), "=");
    assert_eq!(
        e.gtp("egdb_probe"),
        "? position not covered by the endgame database"
    );
}

/// The `info` lines of a UGI search of `fen`, up to its `bestmove`.
pub(crate) fn search(u: &mut Engine, fen: &str, go: &str) -> Vec<String> {
    u.send(&format!("position fen {fen}"));
    u.send(go);
    u.until("bestmove")
}

pub(crate) fn word_after<'a>(line: &'a str, key: &str) -> Option<&'a str> {
    let words: Vec<&str> = line.split_whitespace().collect();
    words.iter().position(|w| *w == key).map(|i| words[i + 1])
}

#[test]
fn the_search_takes_database_values_and_reports_them() {
    let db = built(3, "search");
    let tables = Tables::open(&db.0).expect("loads");
    let game = Poddavki::default();
    let mut u = Engine::start(&["--protocol", "ugi"]);
    u.send("uci");
    u.until("uciok");
    // 4 pieces where every move captures: each reply is a 3-piece position the database holds,
    // so the search scores the root from them, whatever the depth.
    let mut rng = SmallRng::seed_from_u64(11);
    let mut checked = [0; 3];
    let mut plain_done = false;
    while checked.contains(&0) {
        let p = random_position(&mut rng, 4);
        let pos = game.parse_position(&p).expect("parses");
        let mut moves = Vec::new();
        game.legal_moves(&pos, &mut moves);
        if moves.is_empty()
            || !moves
                .iter()
                .all(|&m| game.is_progress(&pos, m) && game.format_move(&pos, m).contains(':'))
        {
            continue;
        }
        if !plain_done {
            // Without a database: no tbhits.
            let lines = search(&mut u, &p, "go depth 2");
            assert!(lines.iter().all(|l| !l.contains("tbhits")), "{lines:?}");
            u.send(&format!("setoption name EgdbPath value {}", path(&db.0)));
            plain_done = true;
        }
        let values: Vec<Value> = moves
            .iter()
            .map(|&m| tables.probe(&game.make(&pos, m)).expect("covered"))
            .collect();
        let (expected, kind) = if values.iter().any(|v| matches!(v, Value::Loss(_))) {
            ("cp 28499", 0)
        } else if values.contains(&Value::Draw) {
            ("cp 0", 1)
        } else {
            ("cp -28499", 2)
        };
        let lines = search(&mut u, &p, "go depth 3");
        let info = lines
            .iter()
            .rev()
            .find(|l| l.starts_with("info depth"))
            .expect("an info line");
        assert!(info.contains(&format!("score {expected} ")), "{p}: {info}");
        let hits: u64 = word_after(info, "tbhits")
            .and_then(|w| w.parse().ok())
            .expect("tbhits");
        assert!(hits >= moves.len() as u64, "{p}: {info}");
        checked[kind] += 1;
    }
    // A covered root is decided without a search: the database's score at the root.
    let mut kinds = [0; 3];
    while kinds.contains(&0) {
        let p = random_position(&mut rng, 3);
        let pos = game.parse_position(&p).expect("parses");
        if !game.has_legal_move(&pos) {
            continue;
        }
        let (score, kind) = match tables.probe(&pos).expect("covered") {
            Value::Win(_) => ("cp 28500", 0),
            Value::Draw => ("cp 0", 1),
            Value::Loss(_) => ("cp -28500", 2),
        };
        let lines = search(&mut u, &p, "go depth 9");
        assert_eq!(lines.len(), 2, "{p}: {lines:?}");
        assert!(
            lines[0].starts_with("info depth 1 seldepth ")
                && lines[0].contains(&format!(" score {score} "))
                && lines[0].contains(" tbhits "),
            "{p}: {lines:?}"
        );
        kinds[kind] += 1;
    }
}
