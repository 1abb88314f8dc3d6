//! Notation, position strings, the diagram, and round trips.

use super::*;
use crate::testkit;

#[test]
fn notation_is_lenient_and_errors_do_not_panic() {
    let p = pos("h10", "h11", 'r');
    assert_eq!(
        g().parse_move(&p, " H12 ").unwrap(),
        Move::Place(point(7, 12) as u16)
    );
    assert_eq!(
        g().format_move(&p, g().parse_move(&p, "H10-h12").unwrap()),
        "h10-h12"
    );
    for bad in [
        "",
        "-",
        "h",
        "h100",
        "z5",
        "h10-",
        "h10--h12",
        "h09",
        "h10-h11",
        "g10-g12",
        "h10-h14",
        "\u{0}",
        "ä1",
        "h10-h12-h12",
    ] {
        assert!(g().parse_move(&p, bad).is_err(), "{bad:?}");
    }
    for bad in [
        "",
        "r",
        "15 r",
        "15/15/15/15/15/15/15/15/15/15/7O7/15/15/15/15/15/15/15/15/15/15",
        "15/15/15/15/15/15/15/15/15/15/7O7/15/15/15/15/15/15/15/15/15/15 x",
        "15/15/15/15/15/15/15/15/15/15/7O8/15/15/15/15/15/15/15/15/15/15 r",
        "15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15/15 r",
        "15/15/15/15/15/15/15/15/15/15/7OO6/15/15/15/15/15/15/15/15/15/15 r",
        "15/15/15/15/15/15/15/15/15/15/7O7/15/15/15/15/15/15/15/15/15/15/15 r",
        "15/15/15/15/15/15/15/15/15/15/0O14/15/15/15/15/15/15/15/15/15/15 r",
        "15/15/15/15/15/15/15/15/15/15/99O/15/15/15/15/15/15/15/15/15/15 r",
        "15/15/15/15/15/15/15/15/15/15/7O7/15/15/15/15/15/15/15/15/15/15 r extra",
    ] {
        assert!(
            matches!(g().parse_position(bad), Err(RuleError::InvalidPosition(_))),
            "{bad:?}"
        );
    }
    let lower = "15/15/15/15/15/15/15/15/15/15/7o7/15/15/15/15/15/15/15/15/15/15 R";
    assert_eq!(g().parse_position(lower).unwrap(), g().start());
}

#[test]
fn render_has_no_empty_lines() {
    let p = pos("h10", "h11 c3", 'b');
    let r = g().render(&p);
    assert!(r.lines().all(|l| !l.trim().is_empty()));
    assert!(r.contains('O') && r.contains('X') && r.contains("blue to move"));
    assert_eq!(r.lines().count(), 21 + 4);
}

#[test]
fn round_trips_over_random_positions() {
    let game = g();
    let mut rng = SmallRng::seed_from_u64(7);
    let mut moves = Vec::new();
    let mut checked = 0;
    for i in 0..3000 {
        let density = [0.05, 0.12, 0.18, 0.24][i % 4];
        let p = random_pos(&mut rng, density);
        let s = game.format_position(&p);
        assert_eq!(p.hash, p.scratch_hash());
        if game.count_moves_upto(&p, 3000).is_none() {
            continue;
        }
        // Position and move round trips, distinct move names, the move-listing variants.
        testkit::check_position(&game, &p, &mut moves);
        for &m in &moves {
            let child = game.make(&p, m);
            assert_eq!(child.hash, child.scratch_hash(), "{s}: {m:?}");
            checked += 1;
        }
    }
    assert!(checked > 100_000, "{checked}");
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(3000))]

    #[test]
    fn parsers_survive_any_text(text in "\\PC{0,90}") {
        let game = g();
        let _ = game.parse_position(&text);
        let _ = game.parse_move(&game.start(), &text);
    }

    #[test]
    fn parsers_survive_mutated_strings(at in 0usize..80, byte in 0u8..=255, mv in 0usize..3) {
        let game = g();
        let p = pos("h10", "h11 i11 g9 h13", 'r');
        let mut texts = vec![game.format_position(&p).into_bytes()];
        texts.push(b"h10-h12-h14".to_vec());
        texts.push(b"h10-j12".to_vec());
        for mut t in texts {
            let i = at % t.len();
            match mv {
                0 => t[i] = byte,
                1 => t.insert(i, byte),
                _ => { t.remove(i); }
            }
            let s = String::from_utf8_lossy(&t);
            if let Ok(q) = game.parse_position(&s) {
                proptest::prop_assert_eq!(game.parse_position(&game.format_position(&q)), Ok(q));
            }
            if let Ok(m) = game.parse_move(&p, &s) {
                let mut legal = Vec::new();
                game.legal_moves(&p, &mut legal);
                proptest::prop_assert!(legal.contains(&m));
            }
        }
    }
}
