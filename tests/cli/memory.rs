//! The engine's memory: one hash table however the game, the threads or the size change, and a
//! table that cannot be had is an error, never an abort.

use std::process::Command;

use crate::common::{binary, game_names, Engine};

const HASH_MIB: u64 = 64;
/// The engine besides its table: code, Pods data, search threads and their stacks, buffers.
const MARGIN_MIB: u64 = 32;

fn peak_mib(e: &Engine) -> u64 {
    e.peak_rss_kib().expect("VmHWM readable") / 1024
}

/// Every game in turn, each searched with one thread then four, its game restarted in between:
/// the peak is one table and the engine, not two tables.
#[test]
fn game_switches_keep_one_table_in_gtp() {
    let mut e = Engine::start(&["--hash", &HASH_MIB.to_string()]);
    assert_eq!(e.gtp("set_option depth 2"), "=");
    for game in game_names().iter().chain(game_names().iter()) {
        assert_eq!(e.gtp(&format!("set_game {game}")), "=");
        assert!(e.gtp("genmove").starts_with("= "), "{game}");
        assert_eq!(e.gtp("set_option threads 4"), "=");
        assert_eq!(e.gtp("clear_board"), "=");
        assert!(e.gtp("genmove").starts_with("= "), "{game}");
        assert_eq!(e.gtp("set_option threads 1"), "=");
        assert_eq!(e.gtp(&format!("set_option game {game}")), "=");
    }
    let peak = peak_mib(&e);
    assert!(
        peak <= HASH_MIB + MARGIN_MIB,
        "peak RSS {peak} MiB with a {HASH_MIB} MiB table"
    );
}

#[test]
fn game_switches_keep_one_table_in_ugi() {
    let mut e = Engine::start(&[]);
    e.send("uci");
    e.until("uciok");
    e.send(&format!("setoption name Hash value {HASH_MIB}"));
    for game in game_names().iter().chain(game_names().iter()) {
        e.send(&format!("setoption name UCI_Variant value {game}"));
        e.send("isready");
        e.until("readyok");
        e.send("position startpos");
        e.send("go depth 2");
        e.until("bestmove");
        e.send("setoption name Threads value 4");
        e.send("ucinewgame");
        e.send("setoption name Clear Hash");
        e.send("position startpos");
        e.send("go depth 2");
        e.until("bestmove");
        e.send("setoption name Threads value 1");
    }
    e.send("isready");
    e.until("readyok");
    let peak = peak_mib(&e);
    assert!(
        peak <= HASH_MIB + MARGIN_MIB,
        "peak RSS {peak} MiB with a {HASH_MIB} MiB table"
    );
}

/// The engine under an address-space limit of 1 GiB (`ulimit -v`), where a 4096 MiB table
/// cannot be had: allocation fails at once, whatever the machine's memory.
fn limited() -> Engine {
    let mut sh = Command::new("sh");
    sh.args(["-c", "ulimit -v 1048576 && exec \"$0\"", binary()]);
    Engine::spawn(sh)
}

#[test]
fn a_table_too_large_for_the_memory_is_refused_in_ugi_and_the_engine_goes_on() {
    let mut e = limited();
    e.send("uci");
    e.until("uciok");
    e.send("setoption name Hash value 4096");
    e.send("isready");
    assert_eq!(
        e.until("readyok"),
        [
            "info string error: cannot allocate a 4096 MiB hash table; the hash table is 16 MiB",
            "readyok"
        ]
    );
    e.send("setoption name UCI_Variant value diamond");
    e.send("setoption name Threads value 4");
    e.send("position startpos");
    e.send("go depth 4");
    let answer = e.until("bestmove");
    assert!(answer.iter().all(|l| !l.contains("error")), "{answer:?}");
    assert_ne!(answer.last().map(String::as_str), Some("bestmove (none)"));
    e.send("setoption name Hash value 64");
    e.send("isready");
    assert_eq!(e.until("readyok"), ["readyok"]);
    assert!(e.alive());
}

#[test]
fn a_table_too_large_for_the_memory_is_refused_in_gtp_and_the_engine_goes_on() {
    let mut e = limited();
    assert_eq!(e.gtp("set_option hash 32"), "=");
    assert_eq!(
        e.gtp("set_option hash 4096"),
        "? cannot allocate a 4096 MiB hash table; the hash table is 32 MiB"
    );
    assert!(e.gtp("list_options").contains("\nhash 32 spin"));
    assert_eq!(e.gtp("set_game phutball"), "=");
    assert_eq!(e.gtp("set_option depth 3"), "=");
    assert!(e.gtp("genmove").starts_with("= "));
    assert!(e.alive());
}

/// A size asked for on the command line that cannot be had falls back to the largest that
/// fits, which the option then shows.
#[test]
fn a_start_up_table_too_large_for_the_memory_falls_back_to_one_that_fits() {
    let mut sh = Command::new("sh");
    sh.args([
        "-c",
        "ulimit -v 1048576 && exec \"$0\" --hash 4096",
        binary(),
    ]);
    let mut e = Engine::spawn(sh);
    let options = e.gtp("list_options");
    let hash: u64 = options
        .lines()
        .find_map(|l| {
            l.strip_prefix("hash ")
                .or_else(|| l.strip_prefix("= hash "))
        })
        .and_then(|rest| rest.split(' ').next())
        .and_then(|v| v.parse().ok())
        .expect("a hash value");
    assert!((16..=512).contains(&hash), "hash {hash}");
    assert!(hash.is_power_of_two(), "hash {hash}");
    assert!(e.gtp("genmove").starts_with("= "));
}
