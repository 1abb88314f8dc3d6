//! Hand-built positions for search tests: a win in one (placement or step) and a single
//! three-corner threat to block. The expected moves are not written down: [`winning_moves`]
//! and [`blocking_moves`] find them by brute force, so the data cannot drift from the rules.

use super::movegen::{legal_moves, make, Move};
use super::notation::format_move;
use super::playout::terminal;
use super::position::Pos;
use crate::games::{Outcome, RuleError};

pub struct Case {
    /// What the position is about.
    pub note: &'static str,
    pub fen: &'static str,
}

fn moves_of(pos: &Pos) -> Vec<Move> {
    let mut v = Vec::new();
    legal_moves(pos, &mut v);
    v
}

fn is_win_for_mover(pos: &Pos, mv: Move) -> bool {
    let after = make(pos, mv);
    let mover = super::playout::side_of(pos.stm);
    matches!(terminal(&after), Some(t) if t.outcome == Outcome::Win(mover))
}

/// The legal moves of `pos` that win at once.
pub fn winning(pos: &Pos) -> Vec<Move> {
    moves_of(pos)
        .into_iter()
        .filter(|&m| is_win_for_mover(pos, m))
        .collect()
}

/// The points the side not to move would fill to win at once if it were its turn.
pub fn threat_points(pos: &Pos) -> u64 {
    let mut flipped = *pos;
    flipped.stm ^= 1;
    flipped.hash = flipped.compute_hash();
    let mut out = 0;
    for m in winning(&flipped) {
        if let Move::Place(t) | Move::Step(_, t) = m {
            out |= 1u64 << t;
        }
    }
    out
}

/// The legal moves after which the opponent has no win at once.
pub fn blocking(pos: &Pos) -> Vec<Move> {
    moves_of(pos)
        .into_iter()
        .filter(|&m| {
            let after = make(pos, m);
            terminal(&after).is_some() || winning(&after).is_empty()
        })
        .collect()
}

/// Canonical notation of the moves that win at once in the position `fen`.
pub fn winning_moves(fen: &str) -> Result<Vec<String>, RuleError> {
    let pos = Pos::from_fen(fen)?;
    Ok(winning(&pos)
        .into_iter()
        .map(|m| format_move(&pos, m))
        .collect())
}

/// Canonical notation of the moves that stop every immediate win of the opponent.
pub fn blocking_moves(fen: &str) -> Result<Vec<String>, RuleError> {
    let pos = Pos::from_fen(fen)?;
    Ok(blocking(&pos)
        .into_iter()
        .map(|m| format_move(&pos, m))
        .collect())
}

pub const WIN_IN_ONE: &[Case] = &[
    Case {
        note: "placement: c6 completes b5-c5-c6-b6",
        fen: "7/8/1B6/1BB1W3/3WW3/8/8/7 b 9 9 0",
    },
    Case {
        note: "placement: e2 completes d1-e1-e2-d2",
        fen: "7/W7/8/8/5WW1/8/3B4/3BB2 b 9 9 0",
    },
    Case {
        note: "placement: g8 completes f7-g7-g8-f8",
        fen: "4W2/5WW1/8/8/3B4/1B6/1BB5/7 w 8 9 0",
    },
    Case {
        note: "placement: b3 wins although White threatens g6",
        fen: "7/3B4/5W2/5WWB/2WW4/B1W5/BB6/4B2 b 6 6 0",
    },
    Case {
        note: "placement: d5 wins although Black threatens g4",
        fen: "B5B/8/8/2W5/2WW1B2/5BB1/8/W6 w 7 8 0",
    },
    Case {
        note: "placement: h7 completes the rim square g6-h6-h7-g7",
        fen: "7/6B1/6BB/8/8/8/8/WWW4 b 9 9 0",
    },
    Case {
        note: "placement: a7 completes a6-b6-b7-a7",
        fen: "1WW4/1BW5/BB6/8/8/8/8/7 b 9 9 0",
    },
    Case {
        note: "placement: b2 completes b1-c1-c2-b2",
        fen: "7/5B2/4B3/4BB2/8/8/2W5/1WW4 w 8 9 0",
    },
    Case {
        note: "placement: e7 completes e6-f6-f7-e7",
        fen: "7/3W1BW1/3WBB2/8/8/8/8/7 b 9 9 0",
    },
    Case {
        note: "placement: e4 wins; White threatens b3",
        fen: "6B/1B6/8/4W1B1/1WWB1W2/2WBBW2/2B3W1/B5W b 4 4 0",
    },
    Case {
        note: "placement: g3 wins although Black threatens b5",
        fen: "7/8/8/B7/BB1B4/7W/6WW/7 w 8 9 0",
    },
    Case {
        note: "placement: d7 completes c6-d6-d7-c7",
        fen: "7/1WB1W3/1WBB4/8/8/8/8/7 b 9 9 0",
    },
    Case {
        note: "placement: g2 completes f1-g1-g2-f2",
        fen: "7/8/8/8/8/8/4WB1W/4WBB b 9 9 0",
    },
    Case {
        note: "placement: e8 completes d7-e7-e8-d8",
        fen: "2W1B2/2BWWB2/2B5/8/8/8/8/7 w 8 9 0",
    },
    Case {
        note: "placement: a5 completes a4-b4-b5-a5",
        fen: "7/8/WW6/1BW5/BB6/8/8/7 b 9 9 0",
    },
    Case {
        note: "placement: f3 completes e2-f2-f3-e3",
        fen: "7/8/8/8/5W2/3WB1W1/4BB2/7 b 9 9 0",
    },
    Case {
        note: "placement: b4 completes b3-c3-c4-b4",
        fen: "1B4B/8/4WWB1/3BBB2/2W4W/1WW5/3B4/B5W w 4 5 0",
    },
    Case {
        note: "step: c7-c6 completes b5-c5-c6-b6",
        fen: "7/2B5/1B6/1BB1W3/3WW3/8/5W2/7 b 0 0 0",
    },
    Case {
        note: "step along the diagonal: b7-c6* (and captures)",
        fen: "7/1BW5/1B1W4/1BB1W3/8/8/8/7 b 0 0 0",
    },
    Case {
        note: "step: g5-f5* completes e4-f4-f5-e5 (and captures)",
        fen: "7/8/8/3BW1W1/3BWWB1/5B2/8/7 w 0 0 0",
    },
    Case {
        note: "winning step that also captures: f6-e5*",
        fen: "7/8/4BW2/3B1WB1/4WW2/8/8/7 w 0 0 0",
    },
    Case {
        note: "step on the 50th quiet ply wins: c3-b3",
        fen: "7/8/8/4W3/8/B1BW4/BB1W4/7 b 0 0 49",
    },
    Case {
        note: "step: h8-h7; c4-c5-d5 is spoilt by the neutral on d4",
        fen: "6W/6W1/6WW/2WW4/2WN4/4BB2/8/BB5 w 0 0 0",
    },
    Case {
        note: "diagonal winning capture: e1-f2*",
        fen: "7/8/8/8/8/5W2/4W1B1/3WBBB b 0 0 0",
    },
    Case {
        note: "step: c5-b5 wins although Black threatens d7",
        fen: "7/2B1B3/2BB4/W1W5/WW6/6W1/6B1/7 w 0 0 0",
    },
    Case {
        note: "two winning steps: g7-f7 and f8-f7",
        fen: "4B2/3WB1B1/3WBB2/7W/8/8/8/7 b 0 0 0",
    },
    Case {
        note: "step: b3-c2* wins and captures",
        fen: "7/8/8/8/8/1WB5/BW1B4/BWW4 w 0 0 0",
    },
    Case {
        note: "step: d5-e4* wins; White threatens f7",
        fen: "6B/4W1W1/4WW2/3BW3/2WB1W2/2WBB3/8/N6 b 0 0 0",
    },
    Case {
        note: "step: f5-f4* wins and captures e3",
        fen: "7/8/8/5W2/4B1W1/4BWW1/B7/7 w 0 0 0",
    },
    Case {
        note: "step: b8-b7* completes a6-b6-b7-a7 (and captures)",
        fen: "B6/B1W5/BBW5/3W4/8/8/8/7 b 0 0 0",
    },
    Case {
        note: "step: f8-e8 among neutral pieces",
        fen: "1BW1WN1/2BWWN2/1B6/8/8/8/8/7 w 0 0 30",
    },
    Case {
        note: "step: h6-h5 completes g4-h4-h5-g5",
        fen: "7/8/6WB/5WB1/5WBB/8/8/7 b 0 0 0",
    },
    Case {
        note: "step: e2-d3* wins and captures d4",
        fen: "7/8/8/8/3B4/2W1B3/2WWW3/B6 w 0 0 0",
    },
    Case {
        note: "step: b5-c4*; g6-h6-h7 is spoilt by the neutral on g7",
        fen: "7/6NB/6BB/1BW1W3/1B1W4/1BB5/8/W6 b 0 0 0",
    },
    Case {
        note: "step: a4-a3* completes a2-b2-b3-a3 (and captures)",
        fen: "7/8/8/8/WB6/1WB5/WWB5/7 w 0 0 0",
    },
];

pub const BLOCK_ONE: &[Case] = &[
    Case {
        note: "placement: block c6",
        fen: "7/8/1W6/1WW1B3/3BB3/8/8/7 b 9 9 0",
    },
    Case {
        note: "placement: block e2",
        fen: "6B/W7/8/8/5WW1/8/3B4/3BB2 w 8 9 0",
    },
    Case {
        note: "placement: block g8",
        fen: "4W2/5WW1/8/8/8/1B6/1BB5/7 b 9 9 0",
    },
    Case {
        note: "placement: block d5",
        fen: "7/8/5B2/2W5/2WW4/8/6B1/B6 b 9 9 0",
    },
    Case {
        note: "placement: block h7",
        fen: "7/6B1/6BB/8/8/4B3/8/WWW4 w 8 9 0",
    },
    Case {
        note: "placement: block a7",
        fen: "1BB4/1WB5/WW6/8/8/8/8/7 b 9 9 0",
    },
    Case {
        note: "placement: block b2",
        fen: "7/8/4W3/4WW2/B7/8/2B5/1BB4 w 8 9 0",
    },
    Case {
        note: "placement: block e7",
        fen: "7/5WB1/3BWW2/3B4/8/8/8/7 b 9 9 0",
    },
    Case {
        note: "placement: block e4 in a crowded position",
        fen: "6W/1W6/8/4B1WB/2BW1B2/2BWWB2/2W3B1/W5B b 4 4 0",
    },
    Case {
        note: "placement: block g3",
        fen: "7/8/8/3B4/WW1W4/7B/6BB/7 w 8 9 0",
    },
    Case {
        note: "placement: block d7",
        fen: "7/1BW1B3/1BWW4/8/8/8/8/7 b 9 9 0",
    },
    Case {
        note: "placement: block g2",
        fen: "7/8/8/3B4/8/8/4WB1W/4WBB w 8 9 0",
    },
    Case {
        note: "placement: block e8",
        fen: "2W4/2BWWB2/2B5/8/8/8/8/7 b 9 9 0",
    },
    Case {
        note: "placement: block a5",
        fen: "7/8/WW6/1BW5/BB6/8/8/6B w 8 9 0",
    },
    Case {
        note: "placement: block f3",
        fen: "7/8/8/8/5B2/3BW1B1/4WW2/7 b 9 9 0",
    },
    Case {
        note: "placement: block b4",
        fen: "7/8/4BBW1/3WWW2/2B4B/1BB5/3W4/W5B w 5 6 0",
    },
    Case {
        note: "placement: block g6",
        fen: "7/8/5W2/3B1WW1/2B5/2B5/8/7 b 9 9 0",
    },
    Case {
        note: "step: d6-c6 blocks",
        fen: "7/2W5/1W1B4/1WW1B3/4B3/8/8/7 b 0 0 0",
    },
    Case {
        note: "step: e3-e2 blocks",
        fen: "7/W7/8/7W/8/4W3/3B1B2/3BB2 w 0 0 0",
    },
    Case {
        note: "diagonal block: e7-f8",
        fen: "3W1W1/4BWW1/8/2B5/8/8/B7/7 b 0 0 0",
    },
    Case {
        note: "step: d6-d5 blocks",
        fen: "7/8/3W4/2B1B3/2BB4/7W/6W1/W6 w 0 0 0",
    },
    Case {
        note: "step: f7-g7 blocks",
        fen: "5W1/5B1W/6WW/8/8/2B5/8/B6 b 0 0 0",
    },
    Case {
        note: "diagonal block: b6-a5",
        fen: "7/8/BW6/1B6/BB6/5W2/3W4/7 w 0 0 0",
    },
    Case {
        note: "block b2 from b3 or a1",
        fen: "7/8/8/4BB2/8/1B6/W1W5/1WW4 b 0 0 0",
    },
    Case {
        note: "block e7 from e8 or f8",
        fen: "3W3/3B1B2/4BB2/8/8/8/7W/W6 w 0 0 0",
    },
    Case {
        note: "step: e5-e4 blocks (safe between two White pieces)",
        fen: "6W/1W6/8/4B3/3W1W2/2BWW3/6B1/W5B b 0 0 0",
    },
    Case {
        note: "block g3 from f3",
        fen: "7/8/8/WW6/6B1/5W1B/6BB/7 w 0 0 0",
    },
    Case {
        note: "block d7 from d8 or e6",
        fen: "2B4/2W1W3/2WW4/8/7B/B7/8/7 b 0 0 0",
    },
    Case {
        note: "block g2 from g3",
        fen: "7/8/2WW4/8/8/6W1/5B1B/5BB w 0 0 20",
    },
    Case {
        note: "diagonal block: c7-d8",
        fen: "1W1W3/2BWW3/8/8/8/6B1/8/B6 b 0 0 0",
    },
    Case {
        note: "block b5 from b6",
        fen: "7/8/1W6/B1B5/BB6/7W/6W1/7 w 0 0 0",
    },
    Case {
        note: "block f3 from f4",
        fen: "1B5/1B6/8/8/5B2/4W1W1/4WW2/7 b 0 0 0",
    },
    Case {
        note: "block by capturing the only feeder: e8-d8*",
        fen: "3W3/2BW4/1B6/1BB5/8/8/8/6W w 0 0 0",
    },
    Case {
        note: "two feeders, one point: e3-f4 blocks",
        fen: "7/8/8/5W2/4W1W1/4BWW1/8/BB5 b 0 0 0",
    },
];
