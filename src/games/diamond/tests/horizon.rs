//! A win next move found at the search horizon is searched, not scored: the search sees a true
//! mate distance. Positions from a lost game (the square c2-c3-d3-d2 came too late to see).

use super::*;
use crate::search::{self, Limits, Params, Root, SearchResult, Table, MATE};

fn searched(p: &Pos, depth: u32) -> SearchResult<Move> {
    let g = Diamond;
    let params = Params {
        limits: Limits {
            depth: Some(depth),
            ..Limits::default()
        },
        ..Params::default()
    };
    let mut tt = Table::new(16);
    search::run(&g, Root::new(p).table(&mut tt), &params)
}

/// Black has two three-corner squares (open at b2 and d2); White places and can fill one.
const TWO_THREATS: &str = "1W4B/W7/4W2W/8/6W1/W7/2B1B3/1BBBB2 w 5 6 0";

#[test]
fn a_threat_at_the_horizon_scores_as_a_mate() {
    let p = fen(TWO_THREATS);
    assert_eq!(side_view(&p, 0).threats, pts("b2 d2"));
    assert!(
        Diamond.is_forcing(&play(&p, "b2")),
        "Black completes d2 next"
    );
    assert!(!Diamond.is_forcing(&p), "White has no square to complete");
    // One ply deep the replies sit at the horizon: their square is searched, not scored
    // WIN_NEXT, so the loss in two plies is a mate score.
    let r = searched(&p, 1);
    assert_eq!(r.score, -(MATE - 2), "{r:?}");
}

/// White to move in the game, four moves before Black's square: lost in twelve plies (the
/// binary's test searches it whole). Six plies on, along the losing line, it is lost in six.
const LOST_GAME: &str = "2BWWB1/4N1WW/5BWN/1B2N1W1/2BWWNW1/2WB4/2B1NB2/1B5 w 0 0 1";

#[test]
fn the_lost_game_is_a_mate_score_not_a_static_one() {
    let mut p = fen(LOST_GAME);
    for m in ["f8-f7*", "b5-b4", "c3-b3", "c4-c3", "d4-c4", "d3-d4*"] {
        p = play(&p, m);
    }
    // Depth 5 reaches Black's completed threats at its horizon; scored statically, every line
    // was -WIN_NEXT and the search could not prefer the longest defence.
    let r = searched(&p, 5);
    assert_eq!(r.score, -(MATE - 6), "{r:?}");
    let shallow = searched(&p, 2);
    assert!(shallow.score.abs() < WIN_NEXT, "{shallow:?}");
}
