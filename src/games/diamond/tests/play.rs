//! The suites, evaluation, ordering, shallow search and playouts.

use super::*;
use crate::testkit::negamax;

#[test]
fn win_suite_positions_are_valid_and_winnable() {
    let g = Diamond;
    assert!(WIN_IN_ONE.len() >= 30);
    let (mut placements, mut steps) = (0, 0);
    for case in WIN_IN_ONE {
        let p = fen(case.fen);
        assert_eq!(p.to_fen(), case.fen, "canonical: {}", case.note);
        assert_eq!(g.terminal(&p), None, "{}", case.note);
        let wins = suites::winning(&p);
        assert!(!wins.is_empty(), "no win: {}", case.note);
        assert!(wins.len() < move_strings(&p).len(), "{}", case.note);
        match wins[0] {
            Move::Place(_) => placements += 1,
            _ => steps += 1,
        }
        let texts = suites::winning_moves(case.fen).unwrap();
        assert_eq!(texts.len(), wins.len());
        // The ordering hint puts a winning move first and the evaluation sees the win.
        let mut moves = Vec::new();
        legal_moves(&p, &mut moves);
        let best = moves.iter().max_by_key(|&&m| order_hint(&p, m)).unwrap();
        assert!(wins.contains(best), "{}", case.note);
        assert_eq!(evaluate(&p), WIN_NEXT, "{}", case.note);
    }
    assert!(placements >= 10 && steps >= 10, "{placements} {steps}");
}

#[test]
fn block_suite_positions_have_one_threat_and_a_defence() {
    let g = Diamond;
    assert!(BLOCK_ONE.len() >= 30);
    let (mut placements, mut steps) = (0, 0);
    for case in BLOCK_ONE {
        let p = fen(case.fen);
        assert_eq!(p.to_fen(), case.fen, "canonical: {}", case.note);
        assert_eq!(g.terminal(&p), None, "{}", case.note);
        assert!(suites::winning(&p).is_empty(), "mover wins: {}", case.note);
        assert_eq!(
            suites::threat_points(&p).count_ones(),
            1,
            "not a single threat: {}",
            case.note
        );
        let saving = suites::blocking(&p);
        let all = move_strings(&p).len();
        assert!(!saving.is_empty(), "no defence: {}", case.note);
        assert!(
            saving.len() * 2 <= all,
            "too easy: {} ({} of {all})",
            case.note,
            saving.len()
        );
        match saving[0] {
            Move::Place(_) => placements += 1,
            _ => steps += 1,
        }
        assert_eq!(
            suites::blocking_moves(case.fen).unwrap().len(),
            saving.len()
        );
        let mut moves = Vec::new();
        legal_moves(&p, &mut moves);
        let best = moves.iter().max_by_key(|&&m| order_hint(&p, m)).unwrap();
        assert!(saving.contains(best), "ordering: {}", case.note);
    }
    assert!(placements >= 10 && steps >= 10, "{placements} {steps}");
}

#[test]
fn evaluation_is_bounded_and_colour_symmetric() {
    let positions = random_positions(5, 30, 500);
    for p in &positions {
        let v = evaluate(p);
        assert!(v.abs() < EVAL_LIMIT, "{v} at {}", p.to_fen());
        let mut q = *p;
        q.pieces = [p.pieces[1], p.pieces[0]];
        q.hand = [p.hand[1], p.hand[0]];
        q.stm ^= 1;
        q.hash = q.compute_hash();
        assert_eq!(evaluate(&q), v, "{}", p.to_fen());
    }
}

#[test]
fn square_features_match_a_plain_loop_over_the_squares() {
    for p in &random_positions(9, 30, 400) {
        for side in 0..2 {
            let v = side_view(p, side);
            let own = p.pieces[side];
            let spoil = p.pieces[side ^ 1] | p.neutral;
            let mut squares = [0; 3];
            let mut threats = 0u64;
            for &q in TABLES.squares.iter().filter(|&&q| q & spoil == 0) {
                let n = (q & own).count_ones() as usize;
                if (1..=3).contains(&n) {
                    squares[n - 1] += 1;
                }
                if n == 3 {
                    let e = q & !own;
                    let feeder = Bits(own & !q).any(|f| adj(f) & e != 0);
                    if p.hand[side] > 0 || feeder {
                        threats |= e;
                    }
                }
            }
            assert_eq!(v.squares, squares, "{}", p.to_fen());
            assert_eq!(v.threats, threats, "{}", p.to_fen());
            // The threats are exactly the winning points when it is that side's turn.
            let mut q = *p;
            q.stm = side;
            q.hash = q.compute_hash();
            if Diamond.terminal(&q).is_none() {
                let mut wins = 0u64;
                for m in suites::winning(&q) {
                    if let Move::Place(t) | Move::Step(_, t) = m {
                        wins |= 1 << t;
                    }
                }
                assert_eq!(v.threats, wins, "{}", p.to_fen());
            }
        }
    }
}

#[test]
fn shallow_search_wins_and_blocks_in_the_suites() {
    let g = Diamond;
    for case in WIN_IN_ONE {
        let p = fen(case.fen);
        let (_, m) = negamax(&g, &p, 2);
        assert!(suites::winning(&p).contains(&m.unwrap()), "{}", case.note);
    }
    for case in BLOCK_ONE {
        let p = fen(case.fen);
        let (v, m) = negamax(&g, &p, 2);
        assert!(suites::blocking(&p).contains(&m.unwrap()), "{}", case.note);
        assert!(v > -20_000, "{}: {v}", case.note);
    }
}

#[test]
fn evaluation_values_material_and_threats() {
    // Same shape, White a piece down (captured, now neutral).
    let even = setup("b2 d4 f6", "c3 e5 g7", "", 'b', [0, 0], 0);
    let up = setup("b2 d4 f6", "c3 e5", "a1", 'b', [0, 0], 0);
    assert!(evaluate(&up) > evaluate(&even) + 50);
    // Two open threats for the opponent while we must place: lost.
    let lost = setup("a1 h8 b1 g8", "b5 c5 b6 e4 f4 e5", "", 'b', [6, 6], 0);
    assert!(evaluate(&lost) < -5000, "{}", evaluate(&lost));
}

#[test]
fn playouts_end_with_plausible_results() {
    let g = Diamond;
    let mut rng = SmallRng::seed_from_u64(3);
    let mut tally = [0; 3];
    for _ in 0..2000 {
        match g.playout(&g.start(), &mut rng, 10_000) {
            Outcome::Win(Side::P1) => tally[0] += 1,
            Outcome::Win(Side::P2) => tally[1] += 1,
            Outcome::Draw => tally[2] += 1,
        }
    }
    assert!(tally.iter().all(|&n| n > 20), "{tally:?}");
    // A finished position stays finished.
    let won = play(&fen(WIN_IN_ONE[0].fen), "c6");
    assert_eq!(g.playout(&won, &mut rng, 100), Outcome::Win(Side::P1));
}

#[test]
fn playout_result_distribution_matches_the_generic_playout() {
    // Same rules, different move sampling: the win/draw shares must agree closely.
    let g = Diamond;
    let n = 3000;
    let mut rng = SmallRng::seed_from_u64(17);
    let mut fast = [0i32; 3];
    let mut slow = [0i32; 3];
    let idx = |o: Outcome| match o {
        Outcome::Win(Side::P1) => 0,
        Outcome::Win(Side::P2) => 1,
        Outcome::Draw => 2,
    };
    for _ in 0..n {
        fast[idx(g.playout(&g.start(), &mut rng, 10_000))] += 1;
        slow[idx(crate::games::generic_playout(
            &g,
            &g.start(),
            &mut rng,
            10_000,
        ))] += 1;
    }
    for k in 0..3 {
        assert!((fast[k] - slow[k]).abs() < n / 20, "{fast:?} vs {slow:?}");
    }
}

/// CPU seconds used by this thread (the machine is shared, so wall time overstates the cost).
fn thread_cpu_seconds() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    let rest = &stat[stat.rfind(')')? + 2..];
    let f: Vec<&str> = rest.split_whitespace().collect();
    let ticks: f64 = f.get(11)?.parse::<f64>().ok()? + f.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

#[test]
#[ignore]
fn diamond_speed() {
    let g = Diamond;
    let mut rng = SmallRng::seed_from_u64(1);
    let t = std::time::Instant::now();
    let cpu0 = thread_cpu_seconds();
    let mut n = 0u64;
    while t.elapsed().as_secs_f64() < 3.0 {
        for _ in 0..1000 {
            let _ = g.playout(&g.start(), &mut rng, 100_000);
        }
        n += 1000;
    }
    let secs = t.elapsed().as_secs_f64();
    println!(
        "diamond playouts: {n} in {secs:.2}s = {:.0}/s",
        n as f64 / secs
    );
    if let (Some(a), Some(b)) = (cpu0, thread_cpu_seconds()) {
        println!(
            "  per CPU second of this thread: {:.0}/s",
            n as f64 / (b - a)
        );
    }
    let positions = random_positions(2, 50, 2000);
    let t = std::time::Instant::now();
    let mut sum = 0i64;
    for _ in 0..100 {
        for p in &positions {
            sum += evaluate(p) as i64;
        }
    }
    let secs = t.elapsed().as_secs_f64();
    println!(
        "diamond evaluate: {:.0} calls/s (checksum {sum})",
        (100 * positions.len()) as f64 / secs
    );
    let t = std::time::Instant::now();
    let leaves = g.perft(&g.start(), 5);
    let secs = t.elapsed().as_secs_f64();
    println!(
        "diamond perft(5) = {leaves} in {secs:.2}s = {:.0} leaves/s",
        leaves as f64 / secs
    );
}

#[test]
#[ignore]
fn diamond_random_game_lengths() {
    let g = Diamond;
    let mut rng = SmallRng::seed_from_u64(1);
    let mut total = 0u64;
    let mut hist = [0u32; 8];
    let n = 20000;
    let mut moves = Vec::new();
    for _ in 0..n {
        let mut p = g.start();
        let mut plies = 0;
        loop {
            if g.terminal(&p).is_some() {
                break;
            }
            moves.clear();
            g.legal_moves(&p, &mut moves);
            if moves.is_empty() {
                break;
            }
            p = g.make(&p, moves[rng.gen_range(0..moves.len())]);
            plies += 1;
            if plies > 5000 {
                break;
            }
        }
        total += plies;
        hist[(plies as usize / 50).min(7)] += 1;
    }
    println!("avg plies {} hist {:?}", total as f64 / n as f64, hist);
}

#[test]
#[ignore]
fn diamond_show_board() {
    let p = setup(
        "f3 c5 b6 a5 d6",
        "e3 g3 g4 e5 f5 e2 f2",
        "b2",
        'w',
        [0, 0],
        0,
    );
    println!("{}", Diamond.render(&p));
}

/// Plays `games` games of a `depth`-ply search against uniformly random moves, alternating
/// colours; returns (search wins, draws, losses).
fn search_vs_random(depth: u32, games: u32, seed: u64) -> (u32, u32, u32) {
    let g = Diamond;
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut tally = (0, 0, 0);
    for i in 0..games {
        let engine = (i % 2) as usize;
        let mut p = g.start();
        let mut tracker = DrawTracker::new(p.hash);
        let result = loop {
            if let Some(t) = outcome(&g, &p, &tracker) {
                break t.outcome;
            }
            let mut moves = Vec::new();
            g.legal_moves(&p, &mut moves);
            let m = if p.stm == engine {
                negamax(&g, &p, depth).1.unwrap()
            } else {
                moves[rng.gen_range(0..moves.len())]
            };
            let progress = g.is_progress(&p, m);
            p = g.make(&p, m);
            tracker.push(p.hash, progress);
        };
        match result {
            Outcome::Draw => tally.1 += 1,
            Outcome::Win(s) if s.index() == engine => tally.0 += 1,
            Outcome::Win(_) => tally.2 += 1,
        }
    }
    tally
}

#[test]
fn one_ply_search_beats_random_play() {
    let (w, d, l) = search_vs_random(1, 20, 4);
    assert!(w >= 18 && l == 0, "{w} {d} {l}");
}

#[test]
#[ignore]
fn diamond_search_vs_random() {
    for depth in 1..=3 {
        println!("depth {depth}: {:?}", search_vs_random(depth, 20, 8));
    }
}

#[test]
#[ignore]
fn diamond_deeper_beats_shallower() {
    let g = Diamond;
    let mut rng = SmallRng::seed_from_u64(21);
    let (deep, shallow) = (3, 1);
    let mut tally = (0, 0, 0);
    for i in 0..20 {
        let deep_side = i % 2;
        let mut p = g.start();
        // Two random opening placements (no swap) so that the games differ.
        for _ in 0..2 {
            let e: Vec<usize> = Bits(p.empty()).collect();
            p = g.make(&p, Move::Place(e[rng.gen_range(0..e.len())] as u8));
        }
        let mut tracker = DrawTracker::new(p.hash);
        let mut plies = 0;
        let result = loop {
            if let Some(t) = outcome(&g, &p, &tracker) {
                break t.outcome;
            }
            let d = if p.stm == deep_side { deep } else { shallow };
            let m = negamax(&g, &p, d).1.unwrap();
            let progress = g.is_progress(&p, m);
            p = g.make(&p, m);
            tracker.push(p.hash, progress);
            plies += 1;
        };
        match result {
            Outcome::Draw => tally.1 += 1,
            Outcome::Win(s) if s.index() == deep_side => tally.0 += 1,
            Outcome::Win(_) => tally.2 += 1,
        }
        println!("game {i}: {result:?} after {plies} plies (deep plays {deep_side})");
    }
    println!("depth {deep} vs {shallow}: {tally:?}");
}

/// A fixed amount of work, for `perf stat` comparisons (cycles rather than shared wall time).
#[test]
#[ignore]
fn diamond_fixed_playouts() {
    let g = Diamond;
    let mut rng = SmallRng::seed_from_u64(1);
    let mut wins = 0;
    for _ in 0..100_000 {
        wins += matches!(g.playout(&g.start(), &mut rng, 100_000), Outcome::Win(_)) as u32;
    }
    println!("{wins} decisive of 100000");
}

#[test]
fn searched_swap_decision_follows_the_first_piece() {
    let g = Diamond;
    for (first, swap) in [("d4", true), ("e5", true), ("a1", false), ("h8", false)] {
        let p = g.make(&g.start(), g.parse_move(&g.start(), first).unwrap());
        for depth in [1, 2, 3] {
            let m = negamax(&g, &p, depth).1.unwrap();
            assert_eq!(m == Move::Swap, swap, "after {first}, depth {depth}: {m:?}");
        }
    }
}

#[test]
#[ignore]
fn diamond_suites_at_depth_four() {
    let g = Diamond;
    for case in WIN_IN_ONE.iter().chain(BLOCK_ONE) {
        let p = fen(case.fen);
        let (v, m) = negamax(&g, &p, 4);
        let m = m.unwrap();
        let ok = suites::winning(&p).contains(&m) || suites::blocking(&p).contains(&m);
        println!("{:>7} {ok} {} | {}", v, g.format_move(&p, m), case.note);
    }
}
