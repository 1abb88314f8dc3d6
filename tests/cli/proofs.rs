//! Proven positions through the binary: wins in one in every game, the Pods root solver's
//! proofs as mates at their true distance (quickest win, longest resistance, the game played
//! out as announced), and MultiPV/`analyze` giving every line asked for.

use crate::common::Engine;

const QUICK_WIN: &str = "2NH1B/m1LJKE/j1CDA1/h2I1f/1k1a1i/b1c2e b FGM dgln 0";
/// Lost in 6 plies, with moves that lose in 2, 4 and 6.
const LOST: &str = "1BE3/MGA2D/3id1/JlaknF/g2f1K/j2m1H w CILN bceh 90";
/// Won in 7 plies.
const WON: &str = "3E1C/G2D1N/1gA1LI/f2K1H/nk2ih/1lb1da w BFJM cejm 180";

fn ugi(game: &str) -> Engine {
    let mut e = Engine::start(&[]);
    e.send("uci");
    e.until("uciok");
    e.send(&format!("setoption name UCI_Variant value {game}"));
    e
}

fn gtp(game: &str) -> Engine {
    let mut e = Engine::start(&["--protocol", "gtp"]);
    assert_eq!(e.gtp(&format!("set_game {game}")), "=");
    e
}

/// The `info` lines and the move of one `go`.
fn go(e: &mut Engine, position: &str, go: &str) -> (Vec<String>, String) {
    e.send(&format!("position fen {position}"));
    e.send(go);
    let mut lines = e.until("bestmove");
    let best = lines.pop().unwrap_or_default();
    let best = best.split(' ').nth(1).unwrap_or_default().to_string();
    (lines, best)
}

fn field<'a>(line: &'a str, name: &str) -> Option<&'a str> {
    let mut it = line.split(' ');
    it.find(|w| *w == name)?;
    it.next()
}

/// `score mate N` as plies to the end (a win in N moves is 2N-1 plies, a loss 2N); `None` for
/// a `cp` score.
fn mate_plies(line: &str) -> Option<u32> {
    let rest = line.split(" score mate ").nth(1)?;
    let n: i32 = rest.split(' ').next()?.parse().ok()?;
    Some(if n > 0 {
        2 * n as u32 - 1
    } else {
        2 * n.unsigned_abs()
    })
}

#[test]
fn a_win_in_one_is_played_and_reported_as_mate_1_in_every_game() {
    for (game, fen, win) in [
        ("poddavki", "W:Wc3:Be5", "c3-d4"),
        ("pods-standard", QUICK_WIN, "G@e2"),
        (
            "pods-advanced",
            "2NH1B/m1LJKE/j1CDA1/h2I1f/1k1a1i/b1c2e b FGM d 0",
            "D@d1",
        ),
        (
            "phutball",
            "15/15/7X7/7X7/15/7X7/15/7X7/15/7X7/7O7/15/15/15/15/15/15/15/15/15/15 r",
            "",
        ),
        ("diamond", "7/8/1B6/1BB1W3/3WW3/8/8/7 b 9 9 0", ""),
    ] {
        let mut e = ugi(game);
        let (lines, best) = go(&mut e, fen, "go depth 4");
        let last = lines.last().cloned().unwrap_or_default();
        assert!(last.contains(" score mate 1 "), "{game}: {lines:?}");
        assert_eq!(field(&last, "pv"), Some(best.as_str()), "{game}: {last}");
        if !win.is_empty() {
            assert_eq!(best, win, "{game}");
        }
        // The move ends the game as announced: the winner's next turn never comes.
        let mut g = gtp(game);
        assert_eq!(g.gtp(&format!("set_position {fen}")), "=");
        let mover = g.gtp("side_to_move");
        assert_eq!(g.gtp(&format!("play {best}")), "=", "{game}");
        if game != "poddavki" {
            let result = g.gtp("game_result");
            assert!(result.starts_with(&mover), "{game}: {result} after {best}");
        }
    }
}

#[test]
fn pods_proofs_are_mates_and_the_quickest_win_is_played() {
    let mut e = ugi("pods-standard");
    let (lines, best) = go(&mut e, QUICK_WIN, "go depth 3");
    assert_eq!(best, "G@e2", "{lines:?}");
    assert!(
        lines.iter().all(|l| l.contains(" score mate 1 ")),
        "{lines:?}"
    );
    // GTP words the score alike; with the solver off the search finds the same win.
    for solver in ["100000", "0"] {
        let mut g = gtp("pods-standard");
        assert_eq!(
            g.gtp(&format!("set_option pods_solver_nodes {solver}")),
            "="
        );
        assert_eq!(g.gtp(&format!("set_position {QUICK_WIN}")), "=");
        let a = g.gtp("analyze depth 2");
        assert!(a.starts_with("= move G@e2 score mate 1 "), "{solver}: {a}");
    }
}

/// The opponent's announced distance after each of the loser's moves.
fn replies(fen: &str) -> Vec<(String, u32)> {
    let mut g = gtp("pods-standard");
    assert_eq!(g.gtp(&format!("set_position {fen}")), "=");
    let moves = g.gtp("legal_moves");
    let moves: Vec<String> = moves
        .trim_start_matches('=')
        .split_whitespace()
        .map(String::from)
        .collect();
    let mut out = Vec::new();
    for m in moves {
        assert_eq!(g.gtp(&format!("play {m}")), "=");
        let a = g.gtp("analyze nodes 1000");
        let plies = mate_plies(&a).unwrap_or_else(|| panic!("after {m}: {a}"));
        out.push((m, plies));
        assert_eq!(g.gtp("undo"), "=");
    }
    out
}

#[test]
fn a_lost_pods_position_plays_the_longest_resistance() {
    let mut e = ugi("pods-standard");
    let (lines, best) = go(&mut e, LOST, "go nodes 1000");
    let last = lines.last().cloned().unwrap_or_default();
    assert!(last.contains(" score mate -"), "{lines:?}");
    let plies = mate_plies(&last).unwrap_or(0);
    let after = replies(LOST);
    let longest = after.iter().map(|r| r.1).max().unwrap_or(0);
    let shortest = after.iter().map(|r| r.1).min().unwrap_or(0);
    assert!(shortest < longest, "every move holds out alike: {after:?}");
    assert_eq!(plies, longest + 1, "{last} / {after:?}");
    let chosen = after.iter().find(|r| r.0 == best).map(|r| r.1);
    assert_eq!(chosen, Some(longest), "{best}: {after:?}");
}

#[test]
fn pods_proven_games_last_as_long_as_announced() {
    for fen in [WON, LOST] {
        let mut e = ugi("pods-standard");
        let mut moves: Vec<String> = Vec::new();
        let mut announced = None;
        loop {
            let position = if moves.is_empty() {
                fen.to_string()
            } else {
                format!("{fen} moves {}", moves.join(" "))
            };
            let (lines, best) = go(&mut e, &position, "go nodes 1000");
            if best == "(none)" {
                break;
            }
            let last = lines.last().cloned().unwrap_or_default();
            let plies = mate_plies(&last).unwrap_or_else(|| panic!("{position}: {last}"));
            let left = announced.map(|a: u32| a - moves.len() as u32);
            assert!(left.is_none_or(|l| l == plies), "{position}: {last}");
            announced = announced.or(Some(plies));
            moves.push(best);
            assert!(moves.len() <= 36, "{moves:?}");
        }
        assert_eq!(Some(moves.len() as u32), announced, "{fen}: {moves:?}");
    }
}

#[test]
fn pods_multipv_gives_every_line_asked_for_when_the_root_is_proven() {
    let mut g = gtp("pods-standard");
    assert_eq!(g.gtp(&format!("set_position {QUICK_WIN}")), "=");
    let a = g.gtp("analyze depth 2 multipv 5");
    let lines: Vec<&str> = a.lines().collect();
    assert_eq!(lines.len(), 5, "{a}");
    assert!(
        lines[0].starts_with("= move G@e2 score mate 1 depth 2 "),
        "{a}"
    );
    let mut firsts: Vec<&str> = lines.iter().filter_map(|l| field(l, "move")).collect();
    firsts.sort_unstable();
    firsts.dedup();
    assert_eq!(firsts.len(), 5, "{a}");

    let mut e = ugi("pods-standard");
    e.send("setoption name MultiPV value 3");
    for limit in ["go depth 2", "go nodes 1", "go movetime 1"] {
        let (lines, best) = go(&mut e, LOST, limit);
        assert_eq!(lines.len() % 3, 0, "{limit}: {lines:?}");
        assert!(!lines.is_empty(), "{limit}");
        for (k, l) in lines.iter().enumerate() {
            assert_eq!(
                field(l, "multipv"),
                Some(&*((k % 3) + 1).to_string()),
                "{l}"
            );
        }
        assert!(lines[0].contains(" score mate -3 "), "{limit}: {lines:?}");
        assert_eq!(field(&lines[lines.len() - 3], "pv"), Some(best.as_str()));
    }
}

#[test]
fn multipv_lines_reach_depth_1_whatever_the_clock() {
    // A move time shorter than the move overhead leaves no time at all: the first iteration
    // still lists every line.
    let mut g = gtp("phutball");
    let a = g.gtp("analyze movetime 9 multipv 256");
    let lines: Vec<&str> = a.lines().collect();
    assert_eq!(lines.len(), 256, "{a}");
    assert!(lines.iter().all(|l| l.contains(" depth 1 ")), "{a}");
    let a = g.gtp("analyze nodes 1 multipv 4");
    assert_eq!(a.lines().count(), 4, "{a}");
}
