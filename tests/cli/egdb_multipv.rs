//! MultiPV on a root the endgame database covers: every line from the database, without a
//! search (docs/egdb.md, "In play").

use rand::rngs::SmallRng;
use rand::SeedableRng;
use tetrad::egdb::{Tables, Value};
use tetrad::games::poddavki::Poddavki;
use tetrad::games::prelude::*;

use crate::common::Engine;
use crate::egdb_play::{built, path, random_position, search, word_after};

#[test]
fn multipv_on_a_covered_root_is_answered_from_the_database() {
    let db = built(3, "multipv");
    let tables = Tables::open(&db.0).expect("loads");
    let game = Poddavki::default();
    let mut u = Engine::start(&["--protocol", "ugi"]);
    u.send("uci");
    u.until("uciok");
    u.send(&format!("setoption name EgdbPath value {}", path(&db.0)));
    u.send("setoption name MultiPV value 3");
    let mut rng = SmallRng::seed_from_u64(12);
    // The best first, each move's score its successor's value (a won successor is a lost
    // line).
    let mut multi = 0;
    while multi < 20 {
        let p = random_position(&mut rng, 3);
        let pos = game.parse_position(&p).expect("parses");
        let mut moves = Vec::new();
        game.legal_moves(&pos, &mut moves);
        if moves.len() < 2 || tables.probe(&pos).is_err() {
            continue;
        }
        let lines = search(&mut u, &p, "go depth 9");
        let n = moves.len().min(3);
        assert_eq!(lines.len(), n + 1, "{p}: {lines:?}");
        let mut firsts = Vec::new();
        let mut last_score = i32::MAX;
        for (k, line) in lines[..n].iter().enumerate() {
            assert!(
                line.starts_with("info depth 1 ")
                    && line.contains(&format!(" multipv {} ", k + 1))
                    && line.contains(" tbhits "),
                "{p}: {lines:?}"
            );
            let first = word_after(line, "pv").expect("a pv").to_string();
            let mv = moves
                .iter()
                .copied()
                .find(|&m| game.format_move(&pos, m) == first)
                .expect("a legal move");
            let score: i32 = word_after(line, "cp")
                .and_then(|w| w.parse().ok())
                .expect("a cp score");
            let expected = match tables.probe(&game.make(&pos, mv)).expect("covered") {
                Value::Loss(_) => 28500,
                Value::Draw => 0,
                Value::Win(_) => -28500,
            };
            assert_eq!(score, expected, "{p}: {line}");
            assert!(score <= last_score, "{p}: {lines:?}");
            last_score = score;
            firsts.push(first);
        }
        firsts.sort();
        firsts.dedup();
        assert_eq!(firsts.len(), n, "{p}: {lines:?}");
        multi += 1;
    }
}
