//! Property tests: no input line makes the protocol parsers panic, and parsed GTP frames keep
//! their id.

use proptest::prelude::*;
use tetrad::protocol::parse::{gtp_command, gtp_frame, ugi_line};
use tetrad::protocol::reader::{clean, decode};

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
