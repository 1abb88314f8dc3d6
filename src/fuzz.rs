//! Entry points for coverage-guided fuzzing (`fuzz/`, driven by `scripts/fuzz.sh`) and for the
//! test that replays their seeds and every finding (`tests/engine/fuzz_corpus.rs`). Test support, like
//! the test kit: built only with the `testkit` feature (which `fuzz/Cargo.toml` turns on), never
//! part of the engine. Above the protocol layer, since the protocol target runs the whole loop.
//!
//! Each target takes raw bytes and must neither panic nor hang, whatever they are; the game and
//! data targets also check the round-trip properties that the proptests check on generated input.

use crate::games::pods::data::PodsData;
use crate::games::pods::{Pods, PodsRules};
use crate::games::prelude::*;
use crate::games::{GameKind, GameVisitor};
use crate::protocol::{self, Dialect};
use crate::session::{Caps, Session};
use crate::testkit::round_trip;

/// A fuzz target: any bytes in, no panic and no hang out.
pub type Target = fn(&[u8]);

/// The targets by name, as `scripts/fuzz.sh` and the corpus test know them.
pub const TARGETS: [(&str, Target); 3] = [
    ("game_text", game_text),
    ("protocol", protocol),
    ("pods_data", pods_data),
];

/// Moves tried per input: enough to reach any position the fuzzer can name, few enough that an
/// input stays fast.
const MAX_MOVES: usize = 64;

/// Byte 0 picks the game (its index in `GameKind::all()`, modulo their number); the rest is
/// text: the first line a position string (empty means the start position), each further line
/// a move to parse and play.
///
/// Properties: a parsed position formats to a string that parses to the same position and
/// hash; a parsed move formats to a string that parses to the same move; playing it gives a
/// position whose string round-trips too.
pub fn game_text(data: &[u8]) {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let kind = GameKind::all()[usize::from(pick) % GameKind::all().len()];
    kind.visit(Lines(&text));
}

struct Lines<'a>(&'a str);

impl GameVisitor for Lines<'_> {
    type Output = ();
    fn visit<G: Game>(self, game: G) {
        game_lines(&game, self.0);
    }
}

fn game_lines<G: Game>(game: &G, text: &str) {
    let mut lines = text.split('\n');
    let first = lines.next().unwrap_or_default();
    let mut pos = if first.trim().is_empty() {
        game.start()
    } else {
        match game.parse_position(first) {
            Ok(p) => p,
            Err(_) => game.start(),
        }
    };
    round_trip(game, &pos);
    for line in lines.take(MAX_MOVES) {
        let Ok(mv) = game.parse_move(&pos, line) else {
            continue;
        };
        let name = game.format_move(&pos, mv);
        assert_eq!(
            game.parse_move(&pos, &name),
            Ok(mv),
            "{}: move '{line}' formats as '{name}', which does not parse back",
            game.name()
        );
        if game.terminal(&pos).is_some() {
            continue;
        }
        pos = game.make(&pos, mv);
        round_trip(game, &pos);
    }
}

/// Byte 0 picks the dialect (detected from the first line, GTP, or UGI); the rest is the
/// engine's whole input, run through the real protocol loop to end of input.
///
/// End of input lets every command finish, as a user's would, so the target bounds the work
/// itself, by count and never by the clock ([`FUZZ_CAP`]): an input does the same work on every
/// run, however loaded the machine, and inputs with more than a few searches or perfts are
/// skipped, so that a slow input means a defect.
///
/// AFL runs input after input in one process, so a run must also leave nothing behind that the
/// next one meets: the input is read whole before the loop starts (no reader thread), each
/// search or perft works to its end before the next line ([`Caps::sequential`]), and the loop
/// runs on a thread of its own, joined with the search thread before this returns, so that the
/// caches the games keep per thread start empty every time.
///
/// Checks: no panic (nor one caught on the search thread and answered as an internal error),
/// UTF-8 output, GTP answers framed.
pub fn protocol(data: &[u8]) {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    if !affordable(rest) {
        return;
    }
    let dialect = match pick % 3 {
        0 => None,
        1 => Some(Dialect::Gtp),
        _ => Some(Dialect::Ugi),
    };
    let run = || {
        let mut out = Vec::new();
        let session = Session::new().with_caps(FUZZ_CAP);
        let code = protocol::run_read_first(session, dialect, rest, &mut out);
        (code, out)
    };
    let (code, out) = std::thread::scope(|s| s.spawn(run).join())
        .unwrap_or_else(|panic| std::panic::resume_unwind(panic));
    assert_eq!(code, 0);
    let out = String::from_utf8(out).expect("the engine writes UTF-8");
    check_no_internal_error(&out);
    if dialect == Some(Dialect::Gtp) {
        check_gtp_framing(&out);
    }
}

/// Plays a game of every kind from the start and runs the protocol target over a session of
/// each dialect in every game, searching and counting, so that what the engine makes once per
/// process or thread (the game registry and its option lists, the reduction table, learned
/// weights, the move lists the games keep per thread at the size they grow to) is made. AFL's
/// persistent mode runs many inputs per process, and an input that ran first would cover that
/// one-time code too (hundreds of edges): the targets call this before the fuzzing loop so that
/// an input covers the same code wherever it comes. The Pods data that the game is built from
/// is read back and played too (the data target's first input covered 1,552 edges of the
/// built-in data and the next ones 1,433).
pub fn warm_up() {
    for kind in GameKind::all() {
        kind.visit(WarmUp);
    }
    pods_data(PodsData::builtin().to_text().as_bytes());
    for name in Session::new().game_names() {
        let gtp = format!(
            "\u{1}list_commands\nset_game {name}\nshowboard\ngenmove\nperft 2\nlegal_moves_json\n"
        );
        let ugi = format!(
            "\u{2}uci\nsetoption name UCI_Variant value {name}\nisready\nposition startpos\ngo nodes 250\nd\n"
        );
        protocol(gtp.as_bytes());
        protocol(ugi.as_bytes());
    }
}

struct WarmUp;

impl GameVisitor for WarmUp {
    type Output = ();
    fn visit<G: Game>(self, game: G) {
        let mut pos = game.start();
        let mut moves = Vec::new();
        for ply in 0..MAX_MOVES {
            if game.terminal(&pos).is_some() {
                break;
            }
            moves.clear();
            game.legal_moves(&pos, &mut moves);
            let Some(&mv) = moves.get(ply * 7 % moves.len().max(1)) else {
                break;
            };
            for &m in &moves {
                let _ = game.parse_move(&pos, &game.format_move(&pos, m));
            }
            pos = game.make(&pos, mv);
            round_trip(&game, &pos);
        }
    }
}

/// A search or perft that panicked is answered as an internal error (GTP `? internal error:
/// ...`, UGI `info string error: internal error: ...`) and the engine goes on: right for a user,
/// but a bug all the same, which the fuzzer must see. No error message starts with the text of
/// the input, so only the engine writes these.
fn check_no_internal_error(out: &str) {
    for line in out.lines() {
        let gtp = line
            .strip_prefix('?')
            .map(|rest| rest.trim_start_matches(|c: char| c.is_ascii_digit()))
            .is_some_and(|rest| rest.starts_with(" internal error:"));
        let ugi = line.starts_with("info string error: internal error:");
        assert!(!(gtp || ugi), "internal error: {line:?} in {out:?}");
    }
}

/// What a fuzz input may cost: deep enough to exercise the search and perft paths, small enough
/// that an input stays in the milliseconds. Counted, not timed (a time limit made the same input
/// cover different code from run to run). The searches of one input share 100 nodes, and one
/// past them has 16: an input paid the cap once per search, and the corpus fills with inputs
/// that search (with no node at all, later searches left about 850 edges of a round-5 corpus
/// unreached; 16 nodes reach all but about 160 of them). MultiPV gives two lines at most: its first
/// iteration runs to its end whatever the node limit, a sweep of the root per line (256 lines
/// of Phutball's ~280 moves). A table of 16 KiB (1,024 slots, plenty for 100 nodes: allocating
/// and zeroing even the least `Hash`, 1 MiB, was a fifth of an input's instructions, and the 4
/// GiB an input may ask for far more than the search) and one thread (helpers search in a
/// timing-dependent order).
pub const FUZZ_CAP: Caps = Caps {
    nodes: Some(100),
    session_nodes: Some(100),
    least_nodes: 16,
    perft_depth: Some(2),
    hash_kib: Some(16),
    multipv: Some(2),
    threads: Some(1),
    untimed: true,
    sequential: true,
    game_options: &[("pods_solver_nodes", 100)],
};

/// The commands that search or count (Pods first runs its bounded root solver): what an input
/// may legitimately ask to take long. Lines are read as the engine reads them, control
/// characters and CR dropped (`gen\rmove` is `genmove`).
fn affordable(input: &[u8]) -> bool {
    let text = String::from_utf8_lossy(input).to_ascii_lowercase();
    let work = text
        .split('\n')
        .map(protocol::reader::clean)
        .filter(|line| {
            ["go", "genmove", "analyze", "perft"]
                .iter()
                .any(|w| line.contains(w))
        })
        .count();
    work <= 6
}

/// Every GTP answer is `=` or `?`, an optional id, then a body ending in an empty line.
fn check_gtp_framing(out: &str) {
    if out.is_empty() {
        return;
    }
    assert!(out.ends_with("\n\n"), "unterminated GTP answer: {out:?}");
    for answer in out.trim_end_matches('\n').split("\n\n") {
        assert!(
            answer.starts_with('=') || answer.starts_with('?'),
            "badly framed GTP answer {answer:?} in {out:?}"
        );
    }
}

/// The whole input is a Pods data file. Accepted data must write back as text that parses to
/// the same data, and give a playable game: a few plies of both variants from the start.
pub fn pods_data(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(parsed) = PodsData::parse(text, "fuzz") else {
        return;
    };
    assert_eq!(
        PodsData::parse(&parsed.to_text(), "fuzz").as_ref(),
        Ok(&parsed)
    );
    for rules in [PodsRules::Standard, PodsRules::Advanced] {
        let game = Pods::with_data(rules, parsed.clone());
        let mut pos = game.start();
        let mut moves = Vec::new();
        for ply in 0..6 {
            if game.terminal(&pos).is_some() {
                break;
            }
            moves.clear();
            game.legal_moves(&pos, &mut moves);
            let Some(&mv) = moves.get(ply * 7 % moves.len().max(1)) else {
                break;
            };
            let name = game.format_move(&pos, mv);
            assert_eq!(game.parse_move(&pos, &name), Ok(mv));
            pos = game.make(&pos, mv);
            round_trip(&game, &pos);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{Clock, Limits};

    /// What the engine answers to `input` under the fuzz caps.
    fn capped_run(dialect: Dialect, input: &str) -> String {
        let mut out = Vec::new();
        let session = Session::new().with_caps(FUZZ_CAP);
        protocol::run_read_first(session, Some(dialect), input.as_bytes(), &mut out);
        String::from_utf8_lossy(&out).into_owned()
    }

    #[test]
    fn the_warm_up_searches_every_game_in_both_dialects_without_a_finding() {
        warm_up();
        let pods = capped_run(
            Dialect::Ugi,
            "uci\nsetoption name UCI_Variant value pods\nisready\nposition startpos\ngo nodes 250\n",
        );
        assert!(pods.contains("bestmove "), "{pods}");
    }

    #[test]
    fn under_the_fuzz_caps_no_option_or_limit_buys_more_work() {
        let mut s = Session::new().with_caps(FUZZ_CAP);
        for (name, value) in [
            ("Hash", "4096"),
            ("Threads", "256"),
            ("pods_solver_nodes", "2147483647"),
            ("MultiPV", "256"),
        ] {
            s.set_option(name, value).expect("a valid option value");
        }
        assert_eq!(s.options.hash_mib, 4096, "the option as set");
        assert_eq!(
            (s.table_kib(s.options.hash_mib), s.search_threads()),
            (16, 1)
        );
        assert_eq!(s.search_lines(None), FUZZ_CAP.multipv.unwrap_or(256));
        assert_eq!(s.search_lines(Some(100)), FUZZ_CAP.multipv.unwrap_or(100));
        s.set_game("pods").expect("pods");
        let solver = s
            .option_list()
            .into_iter()
            .find(|o| o.gtp == "pods_solver_nodes");
        assert_eq!(solver.map(|o| o.value), Some("100".to_string()));
        let asked = Limits {
            depth: Some(100),
            nodes: Some(u64::MAX),
            movetime: Some(86_400_000),
            clock: Some(Clock {
                remaining: u64::MAX,
                increment: u64::MAX,
                movestogo: Some(1),
            }),
            infinite: true,
        };
        let capped = s.capped(asked);
        assert_eq!(capped.nodes, FUZZ_CAP.nodes);
        assert_eq!(
            (capped.movetime, capped.clock, capped.infinite),
            (None, None, false)
        );
    }

    #[test]
    fn under_the_fuzz_caps_every_search_stops_by_count_and_answers() {
        let cap = FUZZ_CAP.nodes.expect("a node cap");
        let out = capped_run(
            Dialect::Ugi,
            "ugi\nsetoption name Threads value 8\ngo infinite\ngo movetime 600000\n\
             go wtime 600000 btime 600000\ngo ponder\n",
        );
        assert_eq!(out.matches("bestmove").count(), 4, "{out}");
        let nodes: Vec<u64> = out
            .lines()
            .filter_map(|l| l.split(" nodes ").nth(1))
            .filter_map(|rest| rest.split(' ').next()?.parse().ok())
            .collect();
        assert!(!nodes.is_empty(), "{out}");
        // An iteration's root is counted before the limit is checked: one node over, at most.
        assert!(nodes.iter().all(|&n| n <= cap + 1), "{nodes:?} above {cap}");
    }

    /// Per search of a UGI session (split at each `bestmove`): the nodes of its last report
    /// (0 without one), and the move it answered.
    fn searches(out: &str) -> Vec<(u64, String)> {
        let mut nodes = 0;
        let mut found = Vec::new();
        for line in out.lines() {
            if let Some(n) = line.split(" nodes ").nth(1) {
                nodes = n
                    .split(' ')
                    .next()
                    .and_then(|n| n.parse().ok())
                    .unwrap_or(nodes);
            }
            if let Some(best) = line.strip_prefix("bestmove ") {
                found.push((nodes, best.to_string()));
                nodes = 0;
            }
        }
        found
    }

    #[test]
    fn under_the_fuzz_caps_the_searches_of_an_input_share_one_budget_and_all_answer() {
        let budget = FUZZ_CAP.session_nodes.expect("a node budget per input");
        let input = "ugi
go nodes 100000
go depth 50
go infinite
stop
                     setoption name UCI_Variant value phutball
go
";
        let shared = searches(&capped_run(Dialect::Ugi, input));
        assert_eq!(shared.len(), 4, "{shared:?}");
        assert!(
            shared.iter().all(|(_, best)| !best.starts_with("(none)")),
            "{shared:?}"
        );
        assert!(shared.iter().all(|s| s.0 > 0), "{shared:?}");
        // An iteration's root is counted before the limit is checked: one node over, at most.
        let most = budget + 3 * FUZZ_CAP.least_nodes + 4;
        let spent: u64 = shared.iter().map(|s| s.0).sum();
        assert!(spent <= most, "{spent} nodes: {shared:?}");

        // Per search alone, the same input costs more than the budget.
        let mut out = Vec::new();
        let caps = Caps {
            session_nodes: None,
            ..FUZZ_CAP
        };
        let session = Session::new().with_caps(caps);
        protocol::run_read_first(session, Some(Dialect::Ugi), input.as_bytes(), &mut out);
        let alone: u64 = searches(&String::from_utf8_lossy(&out))
            .iter()
            .map(|s| s.0)
            .sum();
        assert!(alone > most, "{alone}");

        // A GTP search past the budget answers a move, framed, like any other.
        let out = capped_run(
            Dialect::Gtp,
            "1 genmove
2 genmove
3 genmove
",
        );
        for id in 1..=3 {
            let answer = format!("={id} ");
            assert!(out.contains(&answer), "{out}");
        }
        assert!(!out.contains("pass") && !out.contains("resign"), "{out}");
    }

    #[test]
    fn under_the_fuzz_caps_multipv_searches_give_at_most_the_capped_lines() {
        let cap = FUZZ_CAP.multipv.expect("a cap on MultiPV lines");
        assert!(cap >= 2, "MultiPV paths need two lines at least");
        // Poddavki's start has seven moves: seven lines uncapped.
        let out = capped_run(Dialect::Gtp, "analyze depth 2 multipv 256\n");
        let lines = out.lines().filter(|l| l.contains(" pv ")).count();
        assert_eq!(lines, cap, "{out}");
    }

    /// `out` without what the clock decides (`time`, `nps`).
    fn untimed(out: &str) -> String {
        let mut words = out.split(' ');
        let mut kept = Vec::new();
        while let Some(w) = words.next() {
            match w {
                "time" | "nps" => {
                    words.next();
                }
                w => kept.push(w),
            }
        }
        kept.join(" ")
    }

    #[test]
    fn under_the_fuzz_caps_stop_and_quit_come_after_the_work() {
        // Read at once, `stop` would cut the search at whatever node it had reached by then.
        let alone = untimed(&capped_run(Dialect::Ugi, "ugi\ngo nodes 100000\n"));
        assert!(alone.contains("bestmove"), "{alone}");
        for then in ["stop\n", "isready\nstop\n", "quit\n"] {
            let out = capped_run(Dialect::Ugi, &format!("ugi\ngo nodes 100000\n{then}"));
            assert_eq!(untimed(&out.replace("readyok\n", "")), alone, "{then}");
        }
        let perft = "ugi\nsetoption name UCI_Variant value phutball\ngo perft 2\n";
        let alone = capped_run(Dialect::Ugi, perft);
        assert!(alone.contains("Nodes searched: "), "{alone}");
        assert_eq!(capped_run(Dialect::Ugi, &format!("{perft}stop\n")), alone);
    }

    #[test]
    fn a_search_that_panicked_is_a_finding() {
        check_no_internal_error("? unknown command\n\ninfo string error: unknown command 'x'\n");
        for answer in [
            "?12 internal error: search failed: bug\n\n",
            "info string error: internal error: perft failed: bug\n",
        ] {
            let caught = std::panic::catch_unwind(|| check_no_internal_error(answer));
            assert!(caught.is_err(), "{answer}");
        }
    }

    #[test]
    fn searches_and_perfts_hidden_by_control_characters_count_as_work() {
        assert!(affordable(b"go\ngenmove\nanalyze\nperft 2\ngo\ngo\n"));
        assert!(!affordable(b"go\ngenmove\nanalyze\nperft 2\ngo\ngo\ngo\n"));
        assert!(!affordable(
            b"g\x01o\ngen\rmove\nana\x00lyze\nper\x7fft 2\ngo\ngo\ngo\n"
        ));
    }
}
