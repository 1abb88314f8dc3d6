//! Search checked on small games whose values are known exactly.

use std::sync::atomic::AtomicBool;

use super::*;
use crate::games::{RuleError, Side};

/// Subtraction game: take 1–3 stones, whoever cannot move loses. The mover loses iff n % 4 == 0.
#[derive(Clone, Default)]
struct Nim;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct NimPos {
    stones: u32,
    side: Side,
}

impl Game for Nim {
    type Pos = NimPos;
    type Move = u32;
    fn name(&self) -> &'static str {
        "nim"
    }
    fn side_names(&self) -> [&'static str; 2] {
        ["first", "second"]
    }
    fn start(&self) -> NimPos {
        NimPos {
            stones: 21,
            side: Side::P1,
        }
    }
    fn side_to_move(&self, pos: &NimPos) -> Side {
        pos.side
    }
    fn legal_moves(&self, pos: &NimPos, out: &mut Vec<u32>) {
        out.extend((1..=3).filter(|&t| t <= pos.stones));
    }
    fn make(&self, pos: &NimPos, mv: u32) -> NimPos {
        NimPos {
            stones: pos.stones - mv,
            side: pos.side.other(),
        }
    }
    fn hash(&self, pos: &NimPos) -> u64 {
        u64::from(pos.stones) * 2 + pos.side.index() as u64
    }
    fn terminal(&self, _pos: &NimPos) -> Option<Terminal> {
        None
    }
    fn no_moves(&self, pos: &NimPos) -> Terminal {
        Terminal::new(Outcome::Win(pos.side.other()), "no-moves")
    }
    fn format_move(&self, _pos: &NimPos, mv: u32) -> String {
        mv.to_string()
    }
    fn parse_move(&self, _pos: &NimPos, text: &str) -> Result<u32, RuleError> {
        text.parse().map_err(|_| RuleError::Syntax(text.into()))
    }
    fn format_position(&self, pos: &NimPos) -> String {
        pos.stones.to_string()
    }
    fn parse_position(&self, text: &str) -> Result<NimPos, RuleError> {
        Err(RuleError::InvalidPosition(text.into()))
    }
    fn render(&self, pos: &NimPos) -> String {
        pos.stones.to_string()
    }
    fn evaluate(&self, _pos: &NimPos) -> i32 {
        0
    }
}

fn run(stones: u32, limits: Limits) -> SearchResult<u32> {
    let game = Nim;
    let pos = NimPos {
        stones,
        side: Side::P1,
    };
    let mut tt = Table::new(1);
    let stop = AtomicBool::new(false);
    let params = Params {
        limits,
        ..Params::default()
    };
    search(
        &game,
        &pos,
        &DrawTracker::new(game.hash(&pos)),
        &mut tt,
        &stop,
        &params,
        |_| {},
    )
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

#[test]
fn finds_the_winning_take_and_its_distance() {
    for stones in 1..=15u32 {
        let r = run(stones, depth(20));
        if stones % 4 == 0 {
            assert!(r.score < -MATE_BOUND, "{stones}: {}", r.score);
        } else {
            assert_eq!(r.best, Some(stones % 4), "stones {stones}");
            assert!(r.score > MATE_BOUND);
            // The winner makes ceil(stones / 4) moves, the loser one fewer, then has none.
            let plies = 2 * stones.div_ceil(4) as i32 - 1;
            assert_eq!(r.score, MATE - plies, "stones {stones}");
        }
    }
}

#[test]
fn node_limited_search_is_deterministic() {
    let limits = Limits {
        nodes: Some(500),
        ..Limits::default()
    };
    let a = run(21, limits);
    let b = run(21, limits);
    assert_eq!((a.best, a.nodes), (b.best, b.nodes));
    assert!(a.nodes <= 500 + 1);
}

#[test]
fn stop_flag_still_yields_a_move() {
    let game = Nim;
    let pos = game.start();
    let mut tt = Table::new(1);
    let stop = AtomicBool::new(true);
    let r = search(
        &game,
        &pos,
        &DrawTracker::new(game.hash(&pos)),
        &mut tt,
        &stop,
        &Params::default(),
        |_| {},
    );
    assert!(r.best.is_some());
}

#[test]
fn uci_scores() {
    assert_eq!(uci_score(35), "cp 35");
    assert_eq!(uci_score(MATE - 1), "mate 1");
    assert_eq!(uci_score(MATE - 3), "mate 2");
    assert_eq!(uci_score(-(MATE - 2)), "mate -1");
}

fn run_lines(stones: u32, multipv: usize) -> SearchResult<u32> {
    let game = Nim;
    let pos = NimPos {
        stones,
        side: Side::P1,
    };
    let mut tt = Table::new(1);
    let stop = AtomicBool::new(false);
    let params = Params {
        limits: depth(20),
        multipv,
        ..Params::default()
    };
    search(
        &game,
        &pos,
        &DrawTracker::new(game.hash(&pos)),
        &mut tt,
        &stop,
        &params,
        |_| {},
    )
}

#[test]
fn multipv_scores_every_root_move_exactly() {
    // Five stones: taking one wins in three plies; taking two or three lets the opponent win
    // with its next move.
    let r = run_lines(5, 3);
    let firsts: Vec<u32> = r.lines.iter().map(|l| l.pv[0]).collect();
    let scores: Vec<i32> = r.lines.iter().map(|l| l.score).collect();
    assert_eq!(firsts[0], 1);
    assert_eq!(scores, [MATE - 3, -(MATE - 2), -(MATE - 2)]);
    let mut rest = firsts[1..].to_vec();
    rest.sort_unstable();
    assert_eq!(rest, [2, 3]);
    assert_eq!((r.best, r.score), (Some(1), MATE - 3));
    // More lines than moves: one per move.
    assert_eq!(run_lines(5, 10).lines.len(), 3);
    // One line is the single-PV search.
    let (one, plain) = (run_lines(21, 1), run(21, depth(20)));
    assert_eq!((one.best, one.nodes), (plain.best, plain.nodes));
    assert_eq!(one.lines.len(), 1);
}
