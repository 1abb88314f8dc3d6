//! Phutball positions full of men, where the ball has up to millions (or far more) of distinct
//! moves: every move's notation must stay cheap to find and must round-trip, and listing all
//! moves must cost no more than the list itself.
//!
//! Through the binary, no command on such a position may hang or run out of memory.
//!
//! Long checks (the random-play soak, listing times on the densest positions, the slowest
//! search hooks) are a program, examples/long_runs:
//! `cargo run --release --features long-runs --example long_runs -- phutball_dense::`

use crate::common;

use std::time::{Duration, Instant};

use common::Engine;

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tetrad::games::phutball::board::{Bits, BLUE_LAST_MEN, RED_LAST_MEN};
use tetrad::games::phutball::movegen::{self, Visit, Walk, ORDER_ANY};
use tetrad::games::phutball::notation::{parse_point, point_name};
use tetrad::games::phutball::paths::{canonical_path, Canonical};
use tetrad::games::phutball::tactics::{root_urgency, Urgency};
use tetrad::games::phutball::{tree, Move, Phutball, Pos};
use tetrad::games::prelude::*;
use tetrad::games::Side;

/// Long chains from random play (position | end point | removed men) whose canonical name an
/// unpruned name-order search only found after 4 million states or more.
pub(crate) const LONG_CHAINS: [&str; 2] = [
    "15/X1X6X2XX1/1XX5XXXX2X/X1X2X3X1XX1X/XXXX3XX1XX2X/1XX1XX1X3XXXX/XXX1XXX3XX3/1X1X1X1XXX3XX/XX1XX2X1X1X1XX/1XX1XXX1XX1XXX1/2X2XX1X1X4/XX2XX7X1/1XX2XXX1X1X2X/1XX4X4X2/X1X2X1XXX4X/1XX1XX3X3OX/X1XX3XXX1XX2/X1X3X1XX1X1XX/3XX4X4X/XXXXXXX1XXXX1XX/15 r | c11 | a1 b1 d1 e1 g1 i1 k1 l1 d2 j2 a3 c3 i3 j3 l3 n3 a4 c4 d4 i4 j4 m4 b5 c5 e5 f5 j5 o5 c6 f6 h6 i6 j6 o6 c7 h7 c8 f8 g8 h8 j8 l8 o8 f9 n9 c10 f10 g10 k10 b11 c11 e11 f11 g11 i11 j11 b12 d12 e12 h12 j12 l12 n12 o12 b13 d13 f13 h13 i13 o13 b14 c14 e14 f14 g14 k14 l14 b15 c15 e15 f15 h15 l15 o15 b16 d16 h16 i16 l16 o16 c17 l17 o17 b18 c18 l18 o18 c19 m19 n19",
    "15/1X2XXXX1X1X1X1/XX2XXX1X1X3X/2XX2X1XX3X1/1XXX2XX1XX2O1/XXXX1XX1XX2X1X/X1XXX7XX1/1X3X1X3X1XX/2XXXXX1X2XXXX/X1X1XX1XXX1X3/1XXXXXX2X3X1/1X1XXX2X3X1X/XX2XXX2XXXX1X/1X1X5XXX1X1/1XXX1XXX1X2X2/2XXX1XX3XX1X/XXXXXX2X2X1X1/8X1X1XXX/X3X1XXX3X2/1XXXX4X3XX/15 b | f3 | b1 c1 d1 e1 a2 e2 h2 i2 m2 k3 m3 n3 b4 c4 d4 e4 f4 i4 l4 n4 c5 d5 e5 g5 h5 l5 m5 c6 d6 f6 g6 h6 j6 m6 b7 d7 j7 l7 b8 e8 g8 j8 k8 b9 d9 e9 f9 i9 b10 c10 d10 e10 f10 g10 j10 c11 e11 f11 j11 c12 d12 e12 g12 i12 f13 h13 d14 e14 m14 n14 d15 f15 g15 i15 j15 m15 o15 d16 g16 h16 k16 d17 g17 i17 j17 n17 i18 e19 g19 j19 l19",
];

/// Positions reached by random play with 4.7, 28 and 7.5 million distinct ball moves.
pub(crate) const DENSEST: [&str; 3] = [
    "15/2X4X3X2X/X1X1XXXX1X4X/X5X1X6/1X3X4X1X2/2X2X2X1X4/2XX1X3XXX1XX/2XXXX1X1XX3X/X1X1X1X1X1X3X/1X1X1X3XXX1X1/X3XX1OXX1XX1X/4X2X1X2XX1/1XX6X5/1XXX2X2XXXX2/10X4/X1X4X3X1X1/6X1X2X1X1/4X1X2X2XX1/X2XXXX2X3X1/2X1X2X3X2X/15 r",
    "15/XX3XX4X2X/3X1XXX2X3X/2X2X1XXXXXX1X/2XXXX1X2X1X1X/X5X4X2X/2X3XX7/X1XX1XXX3XX2/8X1X2XX/XXX2X2X3O2/1XX1X7XX1/X6X3XX2/X1X2X8X/2X4XX1X2X1/XX13/XX1X5XXX3/1XXX1XX5X2/X2XXXXXX1XXX2/2XX2X1X4X1/3XX1X3X1X2/15 r",
    "15/13XX/1XX5XXXXXXX/X6X4X2/2XOX5X3X/3X6XX1XX/3X2XX1X1XXXX/X3XXXXX2XXX1/XXX2X1XX2X3/X1X2X5X1XX/X3X4X1XX1X/7X3X3/2XX7X2X/5X5X3/1X1XXX3XXXXX1/X1X1X2X4XXX/XXXXX4XXX1X1/3XX1XX1X1XXXX/X12X1/2X10XX/15 b",
];

/// From random play: a walk of 100 million distinct ball moves did not exhaust this one's.
const HUGE: &str = "15/XX5X1XXXX1X/XX7XXX1XX/XXXX1X3XX4/XX1XX1XXX1X3X/4XXX2X3X1/5X2XXX2X1/X4XX4XX2/3XX1X2XX1XXX/X2X1X4XX1X1/X1XX1X1O2XX1X1/2XX1X1X3XX1X/1X2XX1XXXXX1X1/X3XXX8/8X2X1X1/11X1X1/XX1X2XXXX2XXX/1X1XXXX2XX1XXX/1XX2XXX2XX3/X1XXX4X1X1XX/15 b";

pub(crate) fn g() -> Phutball {
    Phutball::default()
}

pub(crate) fn parse_case(line: &str) -> (Pos, Move) {
    let mut parts = line.split(" | ");
    let mut next = || parts.next().expect("three fields").trim();
    let pos = g().parse_position(next()).expect("position");
    let to = parse_point(next()).expect("end point");
    let mut removed = Bits::EMPTY;
    for s in next().split_whitespace() {
        removed.set(parse_point(s).expect("man") as usize);
    }
    (pos, Move::Jump { to, removed })
}

fn path_text(pos: &Pos, path: &[u16]) -> String {
    let mut s = point_name(pos.ball as usize);
    for &q in path {
        s.push('-');
        s.push_str(&point_name(q as usize));
    }
    s
}

/// Forgets this thread's tree of canonical paths, so that the next `format_move` searches.
fn forget_tree() {
    let mut v = Vec::new();
    g().legal_moves(&g().start(), &mut v);
}

/// Ball moves of `pos`, or `None` when there are more than `cap`.
fn count_jumps_upto(pos: &Pos, cap: usize) -> Option<usize> {
    let mut n = 0;
    let walk = movegen::walk_jumps(&pos.men, pos.ball, &ORDER_ANY, cap, |_, _| {
        n += 1;
        Visit::Expand
    });
    (walk != Walk::OutOfBudget).then_some(n)
}

#[derive(Default, Debug)]
pub(crate) struct Stats {
    positions: u64,
    /// Positions whose every move was listed, formatted and parsed back.
    full: u64,
    /// Positions with more ball moves than the cap (moves sampled instead).
    huge: u64,
    moves_checked: u64,
    most_jumps_listed: usize,
    /// Moves named by a direct search (cold) and compared or parsed back.
    direct_checked: u64,
    pub(crate) direct_out_of_budget: u64,
}

/// States a direct search may visit in these checks.
const DIRECT_BUDGET: usize = 2_000_000;

/// A direct search names `m` with a path that parses back to `m`; returns the text.
fn check_direct(pos: &Pos, m: Move, st: &mut Stats, text: &str) -> Option<String> {
    let Move::Jump { to, removed } = m else {
        return None;
    };
    st.direct_checked += 1;
    match canonical_path(&pos.men, pos.ball, to, &removed, DIRECT_BUDGET) {
        Canonical::Path(p) => {
            let s = path_text(pos, &p);
            assert_eq!(g().parse_move(pos, &s).ok(), Some(m), "{s} at {text}");
            Some(s)
        }
        Canonical::Illegal => panic!("a generated move is illegal at {text}"),
        Canonical::OutOfBudget => {
            st.direct_out_of_budget += 1;
            None
        }
    }
}

/// Checks `pos`; returns the moves to choose the next one from: all of them when the ball has
/// at most `cap` moves, else the placements and the first ball moves of a bounded walk.
fn check(pos: &Pos, cap: usize, rng: &mut SmallRng, st: &mut Stats) -> Vec<Move> {
    let game = g();
    st.positions += 1;
    let text = game.format_position(pos);
    let again = game.parse_position(&text).expect("own position string");
    assert_eq!(again, *pos, "{text}");
    assert_eq!(game.format_position(&again), text);

    let Some(count) = count_jumps_upto(pos, cap) else {
        st.huge += 1;
        let mut moves = Vec::new();
        movegen::push_placements(pos, &mut moves);
        let start = moves.len();
        movegen::push_jumps_limited(pos, 5_000, &mut moves);
        for _ in 0..20 {
            let m = moves[rng.gen_range(start..moves.len())];
            check_direct(pos, m, st, &text);
        }
        return moves;
    };
    st.full += 1;
    st.most_jumps_listed = st.most_jumps_listed.max(count);
    let mut moves = Vec::new();
    game.legal_moves(pos, &mut moves);
    assert_eq!(moves.len(), pos.empty_placeable().count() as usize + count);
    assert_eq!(game.perft(pos, 1), moves.len() as u64, "{text}");
    let mut names: Vec<String> = moves.iter().map(|&m| game.format_move(pos, m)).collect();
    for (&m, name) in moves.iter().zip(&names) {
        let parsed = game
            .parse_move(pos, name)
            .unwrap_or_else(|e| panic!("{name} at {text}: {e}"));
        assert_eq!(parsed, m, "{name} at {text}");
    }
    st.moves_checked += moves.len() as u64;
    // Names read off the tree of the listing equal those of a direct search, on a sample.
    let jumps: Vec<usize> = (0..moves.len())
        .filter(|&i| matches!(moves[i], Move::Jump { .. }))
        .collect();
    forget_tree();
    for _ in 0..jumps.len().min(10) {
        let i = jumps[rng.gen_range(0..jumps.len())];
        assert_eq!(game.format_move(pos, moves[i]), names[i], "cold at {text}");
        if let Some(s) = check_direct(pos, moves[i], st, &text) {
            assert_eq!(s, names[i], "direct at {text}");
        }
    }
    names.sort_unstable();
    let n = names.len();
    names.dedup();
    assert_eq!(n, names.len(), "two moves share a name at {text}");
    moves
}

/// Uniformly random play (among the moves `check` returns) from the start.
pub(crate) fn soak(games: u64, plies: u32, cap: usize) -> Stats {
    let mut st = Stats::default();
    for seed in 0..games {
        let mut rng = SmallRng::seed_from_u64(seed);
        let mut pos = g().start();
        for _ in 0..plies {
            if g().terminal(&pos).is_some() {
                break;
            }
            let moves = check(&pos, cap, &mut rng, &mut st);
            pos = g().make(&pos, moves[rng.gen_range(0..moves.len())]);
        }
    }
    st
}

#[test]
fn phutball_dense_random_play_short() {
    let st = soak(3, 200, 100_000);
    eprintln!("{st:?}");
    assert!(st.full > 300 && st.most_jumps_listed > 10_000, "{st:?}");
    assert_eq!(st.direct_out_of_budget, 0);
}

/// Every ball move of a few dense positions: the name from the tree of the listing (one walk
/// in name order) equals the name a direct, pruned search finds for that move alone. Catches an
/// unsound cut in the search as well as a wrong tree.
#[test]
fn phutball_tree_and_direct_search_name_every_move_alike() {
    let mut rng = SmallRng::seed_from_u64(11);
    let mut pos = g().start();
    let mut checked_positions = 0;
    let mut moves = Vec::new();
    while checked_positions < 4 {
        if g().terminal(&pos).is_some() {
            pos = g().start();
        }
        moves.clear();
        movegen::push_placements(&pos, &mut moves);
        let jumps = count_jumps_upto(&pos, 20_000);
        if jumps.is_some_and(|n| n >= 500) {
            checked_positions += 1;
            let mut all = Vec::new();
            g().legal_moves(&pos, &mut all);
            let names: Vec<String> = all.iter().map(|&m| g().format_move(&pos, m)).collect();
            for (&m, name) in all.iter().zip(&names) {
                if let Move::Jump { to, removed } = m {
                    match canonical_path(&pos.men, pos.ball, to, &removed, usize::MAX) {
                        Canonical::Path(p) => assert_eq!(&path_text(&pos, &p), name),
                        other => panic!("{name}: {other:?}"),
                    }
                }
            }
        }
        movegen::push_jumps_limited(&pos, 20_000, &mut moves);
        pos = g().make(&pos, moves[rng.gen_range(0..moves.len())]);
    }
}

/// Chains of ~60 jumps over ~100 men in positions with millions of ball moves: the direct
/// search names them within a bounded number of states (its sound cut), and the names parse
/// back to the same moves. The unpruned search needed over 4 million states for each.
#[test]
fn phutball_long_chains_are_named_by_a_bounded_search() {
    for case in LONG_CHAINS {
        let (pos, m) = parse_case(case);
        let Move::Jump { to, removed } = m else {
            unreachable!()
        };
        assert!(removed.count() > 90);
        let Canonical::Path(p) = canonical_path(&pos.men, pos.ball, to, &removed, 400_000) else {
            panic!("not named within the bound: {case}");
        };
        assert!(p.len() > 50);
        let text = path_text(&pos, &p);
        assert_eq!(g().parse_move(&pos, &text).ok(), Some(m));
        forget_tree();
        assert_eq!(g().format_move(&pos, m), text);
    }
}

/// The tree of one listing serves that position only, and knows which moves are not legal.
#[test]
fn phutball_move_tree_belongs_to_the_last_listing() {
    let (dense, long) = parse_case(LONG_CHAINS[1]);
    let start = g().start();
    let mut rng = SmallRng::seed_from_u64(3);
    let mut p = start;
    while count_jumps_upto(&p, 1000).is_none_or(|n| n < 20) {
        let mut v = Vec::new();
        movegen::push_placements(&p, &mut v);
        p = g().make(&p, v[rng.gen_range(0..v.len())]);
        if p.men.count() > 150 {
            p = start;
        }
    }
    let mut moves = Vec::new();
    g().legal_moves(&p, &mut moves);
    let jump = *moves
        .iter()
        .find(|m| matches!(m, Move::Jump { .. }))
        .expect("a ball move");
    let Move::Jump { to, removed } = jump else {
        unreachable!()
    };
    let from_tree = tree::cached_path(&p, to, &removed);
    assert!(matches!(from_tree, Some(Some(_))));
    let Move::Jump {
        to: lto,
        removed: lrem,
    } = long
    else {
        unreachable!()
    };
    // Not a move of `p`: the tree says so.
    assert_eq!(tree::cached_path(&p, lto, &lrem), Some(None));
    // Another position's tree is no answer for `p`, nor for `dense`.
    forget_tree();
    assert_eq!(tree::cached_path(&p, to, &removed), None);
    assert_eq!(tree::cached_path(&dense, lto, &lrem), None);
    let Some(Some(path)) = from_tree else {
        unreachable!()
    };
    assert_eq!(g().format_move(&p, jump), path_text(&p, &path));
}

/// Parsing reads the text once: a long path is checked jump by jump, however many there are.
#[test]
fn phutball_parse_move_is_linear() {
    let (pos, m) = parse_case(LONG_CHAINS[0]);
    let name = g().format_move(&pos, m);
    assert_eq!(g().parse_move(&pos, &name).ok(), Some(m));
    // The same path, then jumps back and forth that are not there.
    let long = format!("{name}{}", "-a1-a3".repeat(50_000));
    assert!(g().parse_move(&pos, &long).is_err());
    assert!(g().parse_move(&pos, &"-".repeat(300_000)).is_err());
    assert!(g().parse_move(&pos, &"h10".repeat(100_000)).is_err());
}

/// `text` with the other side to move, and the men that side would need to score (those next
/// to its goal rows) gone: it cannot score, the other side can, so the root must find the
/// moves that stop the threat among millions of ball moves.
fn threatened(text: &str) -> String {
    let p = g().parse_position(text).expect("position");
    let side = p.side.other();
    let last = match side {
        Side::P1 => &RED_LAST_MEN,
        Side::P2 => &BLUE_LAST_MEN,
    };
    let q = Pos::new(p.men.andnot(last), p.ball, side);
    assert!(matches!(root_urgency(&q), Urgency::Threatened(_)));
    g().format_position(&q)
}

/// The result word the engine must give for `pos` (these games have no history).
fn result_of(pos: &Pos) -> &'static str {
    match g().terminal(pos).map(|t| t.outcome) {
        None => "= ongoing",
        Some(tetrad::games::Outcome::Win(Side::P1)) => "= red goal",
        Some(_) => "= blue goal",
    }
}

/// Every command of a game on `text` answers, framed, and the engine's move is legal.
fn gtp_case(e: &mut Engine, text: &str, too_many: bool) {
    let pos = g().parse_position(text).expect("position");
    let here = format!("= {text}");
    assert_eq!(e.gtp(&format!("set_position {text}")), "=");
    assert_eq!(e.gtp("get_position"), here);
    assert_eq!(e.gtp("game_result"), "= ongoing");
    if too_many {
        assert_eq!(
            e.gtp("legal_moves"),
            "? too many legal moves to list (more than 1000000)"
        );
        assert_eq!(e.gtp("get_position"), here);
        // perft counts exactly: it refuses rather than walk (and remember) millions of moves.
        for depth in [1, 3] {
            assert_eq!(
                e.gtp(&format!("perft {depth}")),
                "? too many moves to count (a position has more than 2000000)"
            );
        }
        assert_eq!(e.gtp("get_position"), here);
    }
    assert!(e.gtp("showboard").starts_with("=\n"));
    let answer = e.gtp("genmove");
    let name = answer.strip_prefix("= ").expect("a move");
    let mv = g()
        .parse_move(&pos, name)
        .unwrap_or_else(|err| panic!("{name} at {text}: {err}"));
    assert_eq!(g().format_move(&pos, mv), name, "canonical");
    let after = g().make(&pos, mv);
    assert_eq!(
        e.gtp("get_position"),
        format!("= {}", g().format_position(&after))
    );
    assert_eq!(e.gtp("game_result"), result_of(&after));
    assert_eq!(e.gtp("undo"), "=");
    assert_eq!(e.gtp("get_position"), here);
    assert_eq!(e.gtp(&format!("play {name}")), "=");
    assert_eq!(e.gtp("game_result"), result_of(&after));
    assert_eq!(e.gtp("undo"), "=");
    // No time bound here: a hang is caught by the harness's per-answer timeout, and how long
    // the refusals above take depends on the machine's load.
    assert_eq!(e.gtp("get_position"), here);
}

fn gtp_engine() -> Engine {
    let mut e = Engine::start(&[]);
    assert_eq!(e.gtp("set_game phutball"), "=");
    assert_eq!(e.gtp("set_option movetime 200"), "=");
    e
}

/// The densest positions found by random play (where the side to move scores), and one with
/// over 100 million ball moves.
#[test]
fn phutball_dense_positions_through_gtp() {
    let mut e = gtp_engine();
    for text in DENSEST.iter().chain([&HUGE]) {
        gtp_case(&mut e, text, true);
    }
}

/// The same boards where the side to move must stop a threat.
#[test]
fn phutball_dense_threats_through_gtp() {
    let mut e = gtp_engine();
    for text in DENSEST.iter().chain([&HUGE]) {
        gtp_case(&mut e, &threatened(text), false);
    }
}

#[test]
fn phutball_dense_threat_through_ugi() {
    let text = threatened(HUGE);
    let pos = g().parse_position(&text).expect("position");
    let mut e = Engine::start(&[]);
    e.send("ugi");
    e.until("ugiok");
    e.send("setoption name UCI_Variant value phutball");
    e.send(&format!("position fen {text}"));
    e.send("query gameover");
    assert_eq!(e.line(), "response false");
    let t = Instant::now();
    e.send("go movetime 200");
    let lines = e.until("bestmove");
    assert!(t.elapsed() < Duration::from_secs(10));
    let best = lines.last().and_then(|l| l.strip_prefix("bestmove "));
    let best = best.expect("a move");
    assert!(g().parse_move(&pos, best).is_ok(), "{best}");
    e.send("isready");
    assert_eq!(e.line(), "readyok");
}
