//! Random-play soak (short version) across all five game names: after every move, the
//! invariants every game must keep. The long version: `cargo test --release --test soak -- --ignored`.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};
use tetrad::games::{diamond, phutball, poddavki, pods, DrawTracker, Game};

/// At most this many of the previous position's moves are asked about in the next one.
const STALE_SAMPLE: usize = 64;

/// `moves` holds the previous position's moves on entry (stale here: some are legal, some not)
/// and this position's on return.
fn check_position<G: Game>(game: &G, pos: &G::Pos, moves: &mut Vec<G::Move>) {
    // Asked before this position's moves are listed (a game may keep what its last listing
    // learnt, and must not need it).
    let step = moves.len().div_ceil(STALE_SAMPLE).max(1);
    let stale: Vec<(G::Move, bool)> = moves
        .iter()
        .step_by(step)
        .map(|&m| (m, game.is_legal(pos, m)))
        .collect();
    let text = game.format_position(pos);
    let again = game.parse_position(&text).unwrap_or_else(|e| {
        panic!(
            "{}: own position string {text:?} rejected: {e}",
            game.name()
        )
    });
    assert_eq!(
        &again,
        pos,
        "{}: position string round-trip {text}",
        game.name()
    );
    assert_eq!(game.format_position(&again), text);
    // The incrementally kept hash equals the hash of the position built from scratch.
    assert_eq!(
        game.hash(pos),
        game.hash(&again),
        "{}: hash drift at {text}",
        game.name()
    );
    moves.clear();
    game.legal_moves(pos, moves);
    for (m, legal) in stale {
        assert_eq!(
            legal,
            moves.contains(&m),
            "{}: is_legal({m:?}) at {text}",
            game.name()
        );
    }
    assert_eq!(
        game.has_legal_move(pos),
        !moves.is_empty(),
        "{}: has_legal_move at {text}",
        game.name()
    );
    let n = moves.len();
    assert_eq!(game.count_moves_upto(pos, n), Some(n), "{}", game.name());
    assert_eq!(
        game.count_moves_upto(pos, n + 10),
        Some(n),
        "{}",
        game.name()
    );
    if n > 0 {
        assert_eq!(game.count_moves_upto(pos, n - 1), None, "{}", game.name());
        assert!(
            moves.iter().all(|&m| game.is_legal(pos, m)),
            "{}",
            game.name()
        );
    }
    let mut from_string = Vec::new();
    game.legal_moves(&again, &mut from_string);
    assert_eq!(
        *moves,
        from_string,
        "{}: move list differs after reparse",
        game.name()
    );
    let mut names: Vec<String> = moves.iter().map(|&m| game.format_move(pos, m)).collect();
    for (&m, name) in moves.iter().zip(&names) {
        let parsed = game
            .parse_move(pos, name)
            .unwrap_or_else(|e| panic!("{}: {name} at {text}: {e}", game.name()));
        assert_eq!(parsed, m, "{}: {name} at {text}", game.name());
    }
    names.sort();
    let before = names.len();
    names.dedup();
    assert_eq!(
        before,
        names.len(),
        "{}: two moves share a name at {text}",
        game.name()
    );
}

fn soak<G: Game>(game: &G, games: u32, seed: u64, max_plies: u32) -> u64 {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut moves = Vec::new();
    let mut checked = 0;
    for _ in 0..games {
        moves.clear();
        let mut pos = game.start();
        let mut tracker = DrawTracker::new(game.hash(&pos));
        for _ in 0..max_plies {
            check_position(game, &pos, &mut moves);
            checked += 1;
            if tetrad::games::outcome(game, &pos, &tracker).is_some() {
                break;
            }
            let m = moves[rng.gen_range(0..moves.len())];
            let before = pos.clone();
            let next = game.make(&pos, m);
            // Copy-make: the old position is untouched (this is the engine's "undo").
            assert_eq!(before, pos);
            tracker.push(game.hash(&next), game.is_progress(&pos, m));
            pos = next;
        }
    }
    checked
}

fn all(games: u32, max_plies: u32) {
    let n = soak(&poddavki::Poddavki::default(), games, 1, max_plies)
        // Random Phutball fills the board; dense boards have millions of distinct ball moves
        // (deciding them is NP-hard), so its games stay short here.
        + soak(&phutball::Phutball, games / 4 + 1, 2, max_plies.min(60))
        + soak(&diamond::Diamond, games, 3, max_plies)
        + soak(&pods::Pods::new(false), games, 4, max_plies)
        + soak(&pods::Pods::new(true), games, 5, max_plies);
    eprintln!("soak: {n} positions checked");
    assert!(n > u64::from(games));
}

#[test]
fn soak_short() {
    all(40, 200);
}

#[test]
#[ignore]
fn soak_long() {
    all(4000, 400);
}
