//! A [`Picture`] as the `board_layout` JSON document (schema in protocol.md): one object,
//! one array element per line, no empty lines, keys in a fixed order.

use std::fmt::Write as _;

use std::collections::{BTreeMap, BTreeSet};

use super::{Hand, MoveInput, Picture};

fn string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\u{:04x}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn num(v: f64) -> String {
    let r = (v * 1000.0).round() / 1000.0;
    if r == r.trunc() {
        format!("{}", r as i64)
    } else {
        format!("{r}")
    }
}

fn list(items: &[String]) -> String {
    format!("[{}]", items.join(","))
}

fn names(items: &[String]) -> String {
    list(&items.iter().map(|s| string(s)).collect::<Vec<_>>())
}

/// Writes `"key": [` + one element per line + `]`.
fn array(out: &mut String, key: &str, items: Vec<String>, last: bool) {
    if items.is_empty() {
        let _ = writeln!(out, "  \"{key}\": []{}", if last { "" } else { "," });
        return;
    }
    let _ = writeln!(out, "  \"{key}\": [");
    let len = items.len();
    for (i, item) in items.into_iter().enumerate() {
        let _ = writeln!(out, "    {item}{}", if i + 1 < len { "," } else { "" });
    }
    let _ = writeln!(out, "  ]{}", if last { "" } else { "," });
}

/// The layout document of a picture.
pub fn layout(pic: &Picture) -> String {
    let b = &pic.board;
    let side = |i: usize| string(b.sides[i].name);
    let mut out = String::from("{\n");
    let _ = writeln!(out, "  \"game\": {},", string(b.game));
    let _ = writeln!(out, "  \"style\": {},", string(b.style.word()));
    let _ = writeln!(
        out,
        "  \"extent\": {},",
        list(&b.extent.iter().map(|&v| num(v)).collect::<Vec<_>>())
    );
    array(
        &mut out,
        "sides",
        b.sides
            .iter()
            .enumerate()
            .map(|(i, s)| {
                format!(
                    "{{\"name\":{},\"mover\":{},\"fill\":{},\"stroke\":{}}}",
                    string(s.name),
                    i + 1,
                    string(s.fill),
                    string(s.stroke)
                )
            })
            .collect(),
        false,
    );
    array(
        &mut out,
        "points",
        b.points
            .iter()
            .map(|p| {
                format!(
                    "{{\"name\":{},\"x\":{},\"y\":{}}}",
                    string(&p.name),
                    num(p.x),
                    num(p.y)
                )
            })
            .collect(),
        false,
    );
    array(
        &mut out,
        "lines",
        b.lines
            .iter()
            .map(|l| {
                format!(
                    "{{\"from\":{},\"to\":{},\"kind\":{}}}",
                    string(&l.from),
                    string(&l.to),
                    string(l.kind)
                )
            })
            .collect(),
        false,
    );
    array(
        &mut out,
        "cells",
        b.cells
            .iter()
            .map(|c| {
                let corners: Vec<String> = c
                    .corners
                    .iter()
                    .map(|&(x, y)| format!("[{},{}]", num(x), num(y)))
                    .collect();
                format!(
                    "{{\"kind\":{},\"point\":{},\"corners\":{}}}",
                    string(c.kind),
                    c.point.as_deref().map_or("null".to_string(), string),
                    list(&corners)
                )
            })
            .collect(),
        false,
    );
    array(
        &mut out,
        "groups",
        b.groups
            .iter()
            .map(|g| {
                format!(
                    "{{\"kind\":{},\"side\":{},\"points\":{}}}",
                    string(g.kind),
                    g.side.map_or("null".to_string(), side),
                    names(&g.points)
                )
            })
            .collect(),
        false,
    );
    array(
        &mut out,
        "pods",
        b.pods
            .iter()
            .map(|t| {
                let legs: Vec<String> = t
                    .legs
                    .iter()
                    .enumerate()
                    .map(|(i, legs)| {
                        let legs: Vec<String> = legs
                            .iter()
                            .map(|l| {
                                format!(
                                    "{{\"dir\":{},\"dx\":{},\"dy\":{},\"length\":{}}}",
                                    string(l.dir),
                                    l.dx,
                                    l.dy,
                                    string(if l.long { "long" } else { "short" })
                                )
                            })
                            .collect();
                        format!("{}:{}", side(i), list(&legs))
                    })
                    .collect();
                format!(
                    "{{\"letter\":{},\"legs\":{{{}}}}}",
                    string(&t.letter.to_string()),
                    legs.join(",")
                )
            })
            .collect(),
        false,
    );
    array(
        &mut out,
        "files",
        b.files
            .iter()
            .map(|(t, x)| format!("{{\"label\":{},\"x\":{}}}", string(t), num(*x)))
            .collect(),
        false,
    );
    array(
        &mut out,
        "ranks",
        b.ranks
            .iter()
            .map(|(t, y)| format!("{{\"label\":{},\"y\":{}}}", string(t), num(*y)))
            .collect(),
        false,
    );
    let _ = writeln!(out, "  \"position\": {},", string(&pic.position));
    let _ = writeln!(out, "  \"to_move\": {},", side(pic.to_move));
    let result = match &pic.result {
        None => "null".to_string(),
        Some((word, reason)) => format!(
            "{{\"outcome\":{},\"reason\":{}}}",
            string(word),
            string(reason)
        ),
    };
    let _ = writeln!(out, "  \"result\": {result},");
    let last = match &pic.last_move {
        None => "null".to_string(),
        Some((mv, pts)) => format!("{{\"move\":{},\"points\":{}}}", string(mv), names(pts)),
    };
    let _ = writeln!(out, "  \"last_move\": {last},");
    let hands = match &pic.hands {
        None => "null".to_string(),
        Some(h) => {
            let parts: Vec<String> = h
                .iter()
                .enumerate()
                .map(|(i, h)| {
                    let v = match h {
                        Hand::Count(c) => c.to_string(),
                        Hand::Pods(p) => string(p),
                    };
                    format!("{}:{v}", side(i))
                })
                .collect();
            format!("{{{}}}", parts.join(","))
        }
    };
    let _ = writeln!(out, "  \"hands\": {hands},");
    array(
        &mut out,
        "pieces",
        pic.pieces
            .iter()
            .map(|p| {
                format!(
                    "{{\"point\":{},\"kind\":{},\"side\":{},\"label\":{}}}",
                    string(&p.point),
                    string(p.kind),
                    p.side.map_or("null".to_string(), side),
                    p.label
                        .map_or("null".to_string(), |c| string(&c.to_string()))
                )
            })
            .collect(),
        true,
    );
    out.push('}');
    out
}

/// The `legal_moves_json` document (schema in protocol.md): each legal move with its click
/// sequence, flagged where clicks alone cannot tell it from another move, so that a GUI narrowing
/// the list click by click knows when to stop or to ask.
pub fn legal_moves(moves: &[(String, MoveInput)]) -> String {
    fn key(m: &MoveInput) -> (Option<&str>, &[String]) {
        (m.piece.as_deref(), &m.points)
    }
    // Ordered, not hashed: the same work on every run, whatever the process's hash keys.
    let mut count: BTreeMap<(Option<&str>, &[String]), usize> = BTreeMap::new();
    let mut prefixes: BTreeSet<(Option<&str>, &[String])> = BTreeSet::new();
    for (_, m) in moves.iter().filter(|(_, m)| !m.points.is_empty()) {
        *count.entry(key(m)).or_default() += 1;
        for k in 1..m.points.len() {
            prefixes.insert((m.piece.as_deref(), &m.points[..k]));
        }
    }
    let items = moves
        .iter()
        .map(|(text, m)| {
            let placed = !m.points.is_empty();
            format!(
                "{{\"move\":{},\"piece\":{},\"points\":{},\"no_points\":{},\"prefix\":{},\"shared\":{}}}",
                string(text),
                m.piece.as_deref().map_or("null".to_string(), string),
                names(&m.points),
                !placed,
                placed && prefixes.contains(&key(m)),
                placed && count.get(&key(m)).is_some_and(|&n| n > 1),
            )
        })
        .collect();
    let mut out = String::from("{\n");
    array(&mut out, "moves", items, true);
    out.push('}');
    out
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use rand::rngs::SmallRng;
    use rand::{Rng, SeedableRng};

    use crate::games::GameKind;

    /// Along seeded random games of every game: every legal move is listed once, names only
    /// layout points, and its click sequence is unique unless the flags say otherwise (checked
    /// pairwise here, apart from how the document computes them).
    #[test]
    fn legal_moves_json_is_enterable_by_clicks_in_every_game() {
        let mut longest = 0;
        for &kind in GameKind::all() {
            for seed in 0..3u64 {
                let mut rng = SmallRng::seed_from_u64(seed);
                let mut game = kind.new_state();
                for _ply in 0..80 {
                    let doc: serde_json::Value = serde_json::from_str(&super::legal_moves(
                        &game.legal_move_inputs_upto(usize::MAX).unwrap_or_default(),
                    ))
                    .expect("legal_moves_json is JSON");
                    let moves = doc["moves"].as_array().expect("a moves array").clone();
                    let texts: Vec<&str> =
                        moves.iter().filter_map(|m| m["move"].as_str()).collect();
                    assert_eq!(texts, game.legal_moves(), "{} moves", kind.name());
                    let layout: HashSet<String> = game
                        .picture()
                        .board
                        .points
                        .into_iter()
                        .map(|p| p.name)
                        .collect();
                    let seq = |m: &serde_json::Value| {
                        let pts: Vec<String> = m["points"]
                            .as_array()
                            .map(|a| {
                                a.iter()
                                    .filter_map(|p| p.as_str().map(String::from))
                                    .collect()
                            })
                            .unwrap_or_default();
                        (m["piece"].as_str().map(String::from), pts)
                    };
                    let seqs: Vec<_> = moves.iter().map(seq).collect();
                    for (i, (a, (piece, pts))) in moves.iter().zip(&seqs).enumerate() {
                        longest = longest.max(pts.len());
                        for p in pts {
                            assert!(
                                layout.contains(p),
                                "{}: {p} is no layout point",
                                kind.name()
                            );
                        }
                        assert_eq!(a["no_points"].as_bool(), Some(pts.is_empty()));
                        if pts.is_empty() {
                            continue;
                        }
                        let others = seqs
                            .iter()
                            .enumerate()
                            .filter(|&(j, (bp, _))| j != i && bp == piece);
                        let (mut shared, mut prefix) = (false, false);
                        for (_, (_, bpts)) in others {
                            shared |= bpts == pts;
                            prefix |= bpts.len() > pts.len() && bpts.starts_with(pts);
                        }
                        assert_eq!(a["shared"].as_bool(), Some(shared), "{a}");
                        assert_eq!(a["prefix"].as_bool(), Some(prefix), "{a}");
                    }
                    if texts.is_empty() {
                        break;
                    }
                    let pick = texts[rng.gen_range(0..texts.len())].to_string();
                    game.play(&pick).expect("a listed move is legal");
                }
            }
        }
        assert!(longest >= 3, "a capture chain or jump sequence came up");
    }
}
