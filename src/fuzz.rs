//! Entry points for coverage-guided fuzzing (`fuzz/`, driven by `scripts/fuzz.sh`) and for the
//! test that replays their seeds and every finding (`tests/engine/fuzz_corpus.rs`). Test support, like
//! the test kit: built only with the `testkit` feature (which `fuzz/Cargo.toml` turns on), never
//! part of the engine. Above the protocol layer, since the protocol target runs the whole loop.
//!
//! Each target takes raw bytes and must neither panic nor hang, whatever they are; the game and
//! data targets also check the round-trip properties that the proptests check on generated input.

use std::io::Cursor;

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

/// Byte 0 picks the game (its index in `GameKind::ALL`, modulo their number); the rest is text: the first line a position string (empty
/// means the start position), each further line a move to parse and play.
///
/// Properties: a parsed position formats to a string that parses to the same position and
/// hash; a parsed move formats to a string that parses to the same move; playing it gives a
/// position whose string round-trips too.
pub fn game_text(data: &[u8]) {
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let text = String::from_utf8_lossy(rest);
    let kind = GameKind::ALL[usize::from(pick) % GameKind::ALL.len()];
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
/// itself: every search and perft runs under [`FUZZ_CAP`], and inputs with more than a few
/// search commands are skipped, so that a slow input means a defect.
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
    let mut out = Vec::new();
    let code = protocol::run(
        Session::new().with_caps(FUZZ_CAP),
        dialect,
        Cursor::new(rest.to_vec()),
        &mut out,
    );
    assert_eq!(code, 0);
    let out = String::from_utf8(out).expect("the engine writes UTF-8");
    if dialect == Some(Dialect::Gtp) {
        check_gtp_framing(&out);
    }
}

/// What one search or perft of a fuzz input may cost: deep enough to exercise the search and
/// perft paths, small enough that an input takes well under AFL's 2 s.
pub const FUZZ_CAP: Caps = Caps {
    perft_depth: Some(3),
    nodes: Some(20_000),
    movetime: Some(250),
};

/// Searches are what an input may legitimately ask to take long (Pods first runs its bounded
/// root solver).
fn affordable(input: &[u8]) -> bool {
    let text = String::from_utf8_lossy(input).to_ascii_lowercase();
    let searches = text
        .split(['\n', '\r'])
        .filter(|line| line.contains("genmove") || line.contains("go"))
        .count();
    searches <= 4
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
