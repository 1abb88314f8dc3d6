//! Property tests: no input line makes the protocol parsers panic, parsed GTP frames keep
//! their id, and a refused command leaves the session as it was.

use std::io::Cursor;
use std::sync::{Arc, OnceLock};

use proptest::prelude::*;
use tetrad::protocol::parse::{gtp_command, gtp_frame, ugi_line};
use tetrad::protocol::reader::{clean, decode};
use tetrad::protocol::{self, Dialect};
use tetrad::registry::Registry;
use tetrad::session::Session;

const WORDS: &[&str] = &[
    "play",
    "genmove",
    "perft",
    "set_position",
    "time_settings",
    "time_left",
    "set_option",
    "kgs-time_settings",
    "position",
    "go",
    "setoption",
    "name",
    "value",
    "fen",
    "startpos",
    "moves",
    "wtime",
    "depth",
    "infinite",
    "canadian",
    "query",
    "-",
    "99999999999999999999",
    "0",
    "1.5",
    "c3-d4",
    "W:Wa1:Bb8",
];

fn line() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        prop::collection::vec(prop::sample::select(WORDS), 0..8).prop_map(|w| w.join(" ")),
        (
            any::<u16>(),
            prop::collection::vec(prop::sample::select(WORDS), 0..6)
        )
            .prop_map(|(id, w)| format!("{id} {}", w.join(" "))),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(3000))]

    #[test]
    fn parsers_never_panic(raw in line()) {
        let l = clean(&raw);
        if let Ok((id, cmd, args)) = gtp_frame(&l) {
            let _ = gtp_command(&cmd, args);
            if let Some(id) = id {
                prop_assert!(l.starts_with(&id.to_string()));
            }
        }
        let _ = ugi_line(&l);
    }

    #[test]
    fn decoding_bytes_never_panics(bytes in prop::collection::vec(any::<u8>(), 0..200)) {
        if let Ok(s) = decode(&bytes) {
            prop_assert!(!s.chars().any(|c| c.is_control()));
        }
    }
}

/// GTP answers of one whole session run in-process to end of input.
fn gtp_session(lines: &[String]) -> Vec<String> {
    let mut input = lines.join("\n");
    input.push('\n');
    let mut out = Vec::new();
    protocol::run(
        Session::with_registry(registry()),
        Some(Dialect::Gtp),
        Cursor::new(input.into_bytes()),
        &mut out,
    );
    String::from_utf8_lossy(&out)
        .trim_end()
        .split("\n\n")
        .map(str::to_string)
        .collect()
}

/// Every game of the registry, with the kit's toy row (see `toy_game`).
fn registry() -> Arc<Registry> {
    static REGISTRY: OnceLock<Arc<Registry>> = OnceLock::new();
    Arc::clone(REGISTRY.get_or_init(crate::toy_game::registry))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// Whatever the command, if it is refused, the position, side to move, result and options
    /// read the same before and after it.
    #[test]
    fn refused_commands_leave_the_session_unchanged(
        game in prop::sample::select(registry().names()),
        opening in 0usize..4,
        raw in line(),
    ) {
        let probe = ["get_position", "side_to_move", "game_result", "list_options"];
        let mut lines = vec![format!("set_game {game}"), "set_option nodes 50".to_string()];
        lines.extend((0..opening).map(|_| "genmove".to_string()));
        lines.extend(probe.iter().map(|p| p.to_string()));
        let cmd = tetrad::protocol::reader::clean(&raw);
        prop_assume!(!cmd.contains("quit") && !cmd.contains('#') && !cmd.is_empty());
        lines.push(cmd.clone());
        lines.extend(probe.iter().map(|p| p.to_string()));
        let answers = gtp_session(&lines);
        let n = answers.len();
        prop_assert_eq!(n, lines.len(), "{:?}", answers);
        let answer = &answers[n - probe.len() - 1];
        if answer.starts_with('?') {
            let before = &answers[n - 2 * probe.len() - 1..n - probe.len() - 1];
            let after = &answers[n - probe.len()..];
            prop_assert_eq!(before, after, "{:?} -> {:?}", cmd, answer);
        }
    }
}
