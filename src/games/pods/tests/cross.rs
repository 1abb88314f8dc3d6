//! Cross-checks against the plain implementation in `naive.rs`: perft and every move and
//! successor along random games, in both rule sets and all rotations.

use super::{game, move_strings, random_positions};
use crate::games::pods::naive::{self, Naive};
use crate::games::pods::*;

#[test]
fn perft_reference_counts() {
    let want = [
        (false, 0, 70, 27768),
        (false, 90, 68, 26552),
        (false, 180, 70, 27706),
        (false, 270, 68, 26510),
        (true, 0, 72, 29048),
        (true, 90, 72, 29100),
        (true, 180, 72, 28986),
        (true, 270, 72, 29058),
    ];
    for (adv, deg, p1, p2) in want {
        let g = game(adv);
        let start = g.start_rotated(deg).unwrap_or_else(|| g.start());
        assert_eq!(
            (g.perft(&start, 1), g.perft(&start, 2)),
            (p1, p2),
            "{} {deg}",
            g.name()
        );
        // The generic perft over the trait agrees.
        assert_eq!(crate::games::generic_perft(&g, &start, 2), p2);
    }
}

#[test]
fn perft_matches_the_plain_rules() {
    for adv in [false, true] {
        let g = game(adv);
        for deg in [0, 90, 180, 270] {
            let n = Naive::new(g.data(), adv, deg);
            let start = g.start_rotated(deg).unwrap_or_else(|| g.start());
            let plain = naive::parse(&g.format_position(&start));
            assert_eq!(n.perft(&plain, 2), g.perft(&start, 2), "{} {deg}", g.name());
        }
    }
}

/// One level deeper (several seconds with the plain rules).
#[test]
#[ignore]
fn perft3_matches_the_plain_rules() {
    for (adv, deg) in [(false, 90), (true, 270)] {
        let g = game(adv);
        let start = g.start_rotated(deg).unwrap_or_else(|| g.start());
        let n = Naive::new(g.data(), adv, deg);
        let plain = naive::parse(&g.format_position(&start));
        assert_eq!(
            n.perft(&plain, 3),
            g.perft(&start, 3),
            "{} {deg} depth 3",
            g.name()
        );
    }
}

#[test]
fn moves_and_successors_match_the_plain_rules() {
    for adv in [false, true] {
        let g = game(adv);
        let positions = random_positions(&g, 17, 8, if adv { 70 } else { 40 });
        assert!(positions.len() > 150);
        for pos in positions {
            let text = g.format_position(&pos);
            let deg = u32::from(pos.rot) * 90;
            let n = Naive::new(g.data(), adv, deg);
            let plain = naive::parse(&text);
            assert_eq!(naive::format(&plain), text);
            if g.terminal(&pos).is_some() {
                assert!(n.over(&plain));
                continue;
            }
            assert!(!n.over(&plain));
            let fast = move_strings(&g, &pos);
            assert_eq!(fast, n.moves(&plain), "{text}");
            for m in &fast {
                let next = g.make(
                    &pos,
                    g.parse_move(&pos, m)
                        .unwrap_or(PodsMove::Step { from: 0, to: 0 }),
                );
                assert_eq!(
                    g.format_position(&next),
                    naive::format(&n.play(&plain, m)),
                    "{text} {m}"
                );
                assert_eq!(next.hash, next.compute_hash());
            }
        }
    }
}

#[test]
fn attacks_match_the_plain_walks() {
    let g = game(false);
    for pos in random_positions(&g, 23, 4, 30) {
        let deg = u32::from(pos.rot) * 90;
        let n = Naive::new(g.data(), false, deg);
        let plain = naive::parse(&g.format_position(&pos));
        let geo = g.tables.geo(&pos);
        for p in 0..36 {
            for colour in 0..2 {
                for letter in 0..14 {
                    let fast = g.tables.attacks_from(geo, colour, letter, p, pos.all());
                    let pt = ((p % 6) as i32, (p / 6) as i32);
                    let slow = n
                        .attacked_from(&plain, pt, colour, letter)
                        .iter()
                        .fold(0u64, |m, q| m | 1 << (q.1 * 6 + q.0));
                    assert_eq!(fast, slow);
                }
            }
        }
    }
}

/// Move generation speed (run with --ignored --nocapture; figures for the report).
#[test]
#[ignore]
fn perft_bench() {
    for adv in [false, true] {
        let g = game(adv);
        for depth in [3, 4] {
            let t0 = std::time::Instant::now();
            let n = g.perft(&g.start(), depth);
            let dt = t0.elapsed();
            println!(
                "{} perft({depth}) = {n} in {:.3} s ({:.1} Mleaves/s)",
                g.name(),
                dt.as_secs_f64(),
                n as f64 / dt.as_secs_f64() / 1e6
            );
        }
        let mut rng = rand::SeedableRng::seed_from_u64(1);
        let t0 = std::time::Instant::now();
        let mut white = 0;
        let games = 20_000;
        for _ in 0..games {
            if g.playout(&g.start(), &mut rng, 400)
                == crate::games::Outcome::Win(crate::games::Side::P1)
            {
                white += 1;
            }
        }
        let dt = t0.elapsed();
        println!(
            "{} {games} playouts in {:.3} s ({:.0}/s), white won {white}",
            g.name(),
            dt.as_secs_f64(),
            games as f64 / dt.as_secs_f64()
        );
    }
}
