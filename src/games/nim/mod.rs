//! The toy game: a subtraction game (Nim with one pile). Each turn takes 1, 2 or 3 stones;
//! whoever cannot move (the pile is empty) loses, so the mover loses exactly when the pile is a
//! multiple of 4. Small enough to solve by hand, it stands in for "any game" in the kit's own
//! tests, the search tests and the registry tests.
//!
//! Notation: a move is the number of stones taken (`1`..`3`); a position is the pile and the
//! side to move, `21 first`.

use std::ops::ControlFlow;

use crate::games::prelude::*;
use crate::games::{Outcome, RuleError, Side, Terminal};

/// The game value; it starts with [`Nim::START`] stones.
#[derive(Clone, Copy, Debug, Default)]
pub struct Nim;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct NimPos {
    pub stones: u32,
    pub side: Side,
}

impl Nim {
    pub const START: u32 = 21;
    /// The largest pile a position string may give.
    pub const MAX_STONES: u32 = 1_000;
}

const SIDES: [&str; 2] = ["first", "second"];

impl Rules for Nim {
    type Pos = NimPos;
    type Move = u32;
    fn name(&self) -> &'static str {
        "nim"
    }
    fn side_names(&self) -> [&'static str; 2] {
        SIDES
    }
    fn start(&self) -> NimPos {
        NimPos {
            stones: Nim::START,
            side: Side::P1,
        }
    }
    fn side_to_move(&self, pos: &NimPos) -> Side {
        pos.side
    }
    fn for_each_move<F: FnMut(u32) -> ControlFlow<()>>(
        &self,
        pos: &NimPos,
        f: F,
    ) -> ControlFlow<()> {
        (1..=3).filter(|&t| t <= pos.stones).try_for_each(f)
    }
    fn make(&self, pos: &NimPos, mv: u32) -> NimPos {
        NimPos {
            stones: pos.stones - mv,
            side: pos.side.other(),
        }
    }
    fn hash(&self, pos: &NimPos) -> u64 {
        (u64::from(pos.stones) * 2 + pos.side.index() as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15)
    }
    fn terminal(&self, _pos: &NimPos) -> Option<Terminal> {
        None
    }
    fn no_moves(&self, pos: &NimPos) -> Terminal {
        Terminal::new(Outcome::Win(pos.side.other()), "no-moves")
    }
    fn is_progress(&self, _pos: &NimPos, _mv: u32) -> bool {
        true
    }
}

impl Notation for Nim {
    fn format_move(&self, _pos: &NimPos, mv: u32) -> String {
        mv.to_string()
    }
    fn parse_move(&self, pos: &NimPos, text: &str) -> Result<u32, RuleError> {
        let n: u32 = text
            .trim()
            .parse()
            .map_err(|_| RuleError::Syntax(text.to_string(), "1, 2 or 3"))?;
        if !(1..=3).contains(&n) {
            return Err(RuleError::Illegal("take 1, 2 or 3 stones".into()));
        }
        if n > pos.stones {
            return Err(RuleError::Illegal(format!("only {} left", pos.stones)));
        }
        Ok(n)
    }
    fn format_position(&self, pos: &NimPos) -> String {
        format!("{} {}", pos.stones, SIDES[pos.side.index()])
    }
    fn parse_position(&self, text: &str) -> Result<NimPos, RuleError> {
        let bad = || RuleError::InvalidPosition(format!("'{text}' is not 'STONES first|second'"));
        let mut words = text.split_whitespace();
        let (Some(stones), Some(side), None) = (words.next(), words.next(), words.next()) else {
            return Err(bad());
        };
        let stones: u32 = stones.parse().map_err(|_| bad())?;
        if stones > Nim::MAX_STONES {
            return Err(RuleError::InvalidPosition(format!(
                "at most {} stones",
                Nim::MAX_STONES
            )));
        }
        let side = match SIDES.iter().position(|s| s.eq_ignore_ascii_case(side)) {
            Some(0) => Side::P1,
            Some(_) => Side::P2,
            None => return Err(bad()),
        };
        Ok(NimPos { stones, side })
    }
    fn render(&self, pos: &NimPos) -> String {
        format!("stones {}\n{} to move", pos.stones, SIDES[pos.side.index()])
    }
}

impl SearchHooks for Nim {
    fn evaluate(&self, _pos: &NimPos) -> i32 {
        0
    }
}

impl FastPaths for Nim {}
impl GameOptions for Nim {}
impl Draw for Nim {}
impl Tunable for Nim {}
