//! Move notation: canonical output and lenient input.

use proptest::prelude::*;

use super::{legal_strings, pos, random_positions};
use crate::games::poddavki::board::Position;
use crate::games::poddavki::movegen::legal_moves;
use crate::games::poddavki::notation::{capture_paths, format_move, parse_move, square_name};
use crate::games::RuleError;

fn parse(p: &Position, text: &str) -> Result<String, RuleError> {
    parse_move(p, text).map(|m| format_move(p, m))
}

#[test]
fn loop_capture_with_two_paths_is_one_move_named_by_the_smaller_path() {
    let p = pos("W:We3:Bd4,d6,f6,f4,Kh8");
    let canon = "e3:c5:e7:g5:e3";
    assert_eq!(legal_strings(&p), [canon]);
    for text in [
        canon,
        "e3:g5:e7:c5:e3",
        "E3xG5xE7xC5xE3",
        " e3xc5:e7xg5:e3\t",
        "e3:e3",
        "e3-e3",
    ] {
        assert_eq!(parse(&p, text), Ok(canon.to_string()), "{text}");
    }
}

#[test]
fn canonical_path_is_the_lexicographically_smallest() {
    // Landing on d4 or on e5 both continue over f6; d4 comes first.
    let p = pos("W:WKa1:Bc3,f6,Kh2");
    assert_eq!(legal_strings(&p), ["a1:d4:g7", "a1:d4:h8"]);
    assert_eq!(parse(&p, "a1:e5:g7"), Ok("a1:d4:g7".to_string()));
    assert_eq!(parse(&p, "a1xe5xh8"), Ok("a1:d4:h8".to_string()));
}

#[test]
fn no_majority_example_and_its_short_forms() {
    let p = pos("W:Wc3:Bb4,d4,f6,Kh2");
    assert_eq!(legal_strings(&p), ["c3:a5", "c3:e5:g7"]);
    assert_eq!(parse(&p, "c3:g7"), Ok("c3:e5:g7".to_string()));
    assert_eq!(parse(&p, "c3xg7"), Ok("c3:e5:g7".to_string()));
    assert_eq!(parse(&p, "c3-g7"), Ok("c3:e5:g7".to_string()));
    assert_eq!(parse(&p, "c3-a5"), Ok("c3:a5".to_string()));
    assert!(matches!(parse(&p, "c3:e5"), Err(RuleError::Illegal(_))));
}

#[test]
fn ambiguous_short_form_is_reported() {
    let p = pos("W:Wa1,d4,Kb8:BKb2,b4,Kg5,c7");
    let moves = legal_strings(&p);
    assert!(moves.contains(&"b8:f4:h6".to_string()), "{moves:?}");
    assert!(moves.contains(&"b8:d6:a3:c1:h6".to_string()), "{moves:?}");
    for text in ["b8:h6", "b8xh6", "B8-H6"] {
        assert_eq!(
            parse(&p, text),
            Err(RuleError::Ambiguous(text.to_lowercase()))
        );
    }
    assert_eq!(parse(&p, "b8:f4:h6"), Ok("b8:f4:h6".to_string()));
    // A two-square full path wins over the short form; with a dash it is only a short form.
    let p = pos("W:WKd4:Bb2,b4,h4,c5,c7,e7");
    assert_eq!(parse(&p, "d4:a1"), Ok("d4:a1".to_string()));
    assert!(matches!(parse(&p, "d4-a1"), Err(RuleError::Ambiguous(_))));
}

#[test]
fn errors_say_why() {
    let start = pos("W:Wa1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3:Bb6,d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8");
    let illegal = |p: &Position, text: &str, why: &str| match parse(p, text) {
        Err(RuleError::Illegal(msg)) => assert!(msg.contains(why), "{text}: {msg}"),
        other => panic!("{text}: {other:?}"),
    };
    illegal(&start, "c3-c5", "cannot move to c5");
    illegal(&start, "d4-e5", "no piece on d4");
    illegal(&start, "b6-a5", "not white's");
    illegal(&start, "b1-c2", "light square");
    illegal(&start, "c3:e5:c7", "nothing to capture");
    let p = pos("W:Wa1,c3:Bd4,h8");
    illegal(&p, "a1-b2", "capture is compulsory");
    illegal(&p, "c3-b4", "no capture from c3 ends on b4");
    illegal(&p, "c3:e5:g7", "not the path");
    for junk in [
        "", "   ", "c3", "c3-", "-d4", "c3--d4", "c3-d4-e5", "z9-a1", "c3d4", "c10-d4", "pass",
    ] {
        assert!(
            matches!(parse(&start, junk), Err(RuleError::Syntax(..))),
            "{junk:?}"
        );
    }
    let won = pos("W:W:Bc5");
    assert!(parse(&won, "c5-d4").is_err());
}

#[test]
fn every_legal_move_round_trips_in_every_accepted_form() {
    let mut moves = Vec::new();
    let (mut checked, mut ambiguous, mut long_paths) = (0, 0, 0);
    for p in random_positions(23, 3000) {
        moves.clear();
        legal_moves(&p, &mut moves);
        for &m in &moves {
            checked += 1;
            let text = format_move(&p, m);
            assert_eq!(parse_move(&p, &text), Ok(m), "{text}");
            assert_eq!(
                parse_move(&p, &format!("  {}\n", text.to_uppercase())),
                Ok(m)
            );
            let (from, to) = (square_name(m.from as usize), square_name(m.to as usize));
            if !m.is_capture() {
                assert_eq!(text, format!("{from}-{to}"));
                assert_eq!(parse_move(&p, &format!("{from}:{to}")), Ok(m));
                continue;
            }
            let paths: Vec<String> = capture_paths(&p, m.from as usize)
                .into_iter()
                .filter(|c| c.mv == m)
                .map(|c| {
                    c.squares
                        .iter()
                        .map(|&s| square_name(s))
                        .collect::<Vec<_>>()
                        .join(":")
                })
                .collect();
            assert_eq!(paths.iter().min(), Some(&text));
            for path in &paths {
                long_paths += (path.len() > 5) as u32;
                assert_eq!(parse_move(&p, path), Ok(m), "{path}");
                assert_eq!(parse_move(&p, &path.replace(':', "x")), Ok(m), "{path}");
            }
            let same_ends = moves
                .iter()
                .filter(|o| o.from == m.from && o.to == m.to)
                .count();
            for short in [
                format!("{from}:{to}"),
                format!("{from}x{to}"),
                format!("{from}-{to}"),
            ] {
                let got = parse_move(&p, &short);
                let is_path = !short.contains('-') && paths.iter().any(|s| s.len() == 5);
                if same_ends == 1 {
                    assert_eq!(got, Ok(m), "{short}");
                } else if !is_path {
                    ambiguous += 1;
                    assert_eq!(got, Err(RuleError::Ambiguous(short.clone())));
                }
            }
        }
    }
    assert!(
        checked > 10_000 && long_paths > 500 && ambiguous > 0,
        "{checked} {long_paths} {ambiguous}"
    );
}

fn sample_positions() -> Vec<Position> {
    let mut v = random_positions(99, 6);
    v.push(pos("W:WKh8:Bf2,d2,c7,Ke5"));
    v.push(pos("W:We3:Bd4,d6,f6,f4,Kh8"));
    v
}

proptest! {
    #[test]
    fn random_text_never_panics(text in "\\PC{0,40}") {
        for p in sample_positions() {
            let _ = parse_move(&p, &text);
        }
    }

    #[test]
    fn near_miss_text_never_panics(text in "[a-iA-I0-9xX:\\- kK]{0,24}") {
        for p in sample_positions() {
            if let Ok(m) = parse_move(&p, &text) {
                let mut legal = Vec::new();
                legal_moves(&p, &mut legal);
                prop_assert!(legal.contains(&m));
            }
        }
    }
}
