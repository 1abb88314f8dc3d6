//! Position strings (PDN FEN style, `W:Wa1,Kc3:Bb6`) and the text diagram.

use super::board::{square_at, Bits, Position, Squares, BLACK, PROMO_RANK, WHITE};
use super::notation::square_name;
use crate::games::RuleError;

const MAX_PIECES: u32 = 12;

fn invalid(why: String) -> RuleError {
    RuleError::InvalidPosition(why)
}

fn side_letter(side: usize) -> char {
    if side == WHITE {
        'W'
    } else {
        'B'
    }
}

/// Canonical string: squares in index order (a1, c1, ..., h8), kings marked in place.
pub fn format_position(p: &Position) -> String {
    let mut s = String::new();
    s.push(side_letter(p.stm));
    for side in [WHITE, BLACK] {
        s.push(':');
        s.push(side_letter(side));
        let list: Vec<String> = Squares(p.pieces[side])
            .map(|q| {
                let k = if p.kings >> q & 1 != 0 { "K" } else { "" };
                format!("{k}{}", square_name(q))
            })
            .collect();
        s.push_str(&list.join(","));
    }
    s
}

fn parse_side(tok: &str) -> Option<usize> {
    match tok {
        "w" => Some(WHITE),
        "b" => Some(BLACK),
        _ => None,
    }
}

/// One list entry: an optional `k` and a square, already lower-case and without spaces.
fn parse_entry(entry: &str) -> Result<(usize, bool), RuleError> {
    let (king, sq) = match entry.strip_prefix('k') {
        Some(rest) => (true, rest),
        None => (false, entry),
    };
    let &[f @ b'a'..=b'h', r @ b'1'..=b'8'] = sq.as_bytes() else {
        return Err(invalid(format!("'{entry}' is not a square")));
    };
    let s = square_at((f - b'a') as i32, (r - b'1') as i32)
        .ok_or_else(|| invalid(format!("{sq} is a light square")))?;
    Ok((s, king))
}

/// Parses `<side>:W<list>:B<list>` (lists in either order, case-insensitive, spaces ignored,
/// an optional final `.`) and checks the position can be played.
pub fn parse_position(text: &str) -> Result<Position, RuleError> {
    if text.len() > 1000 {
        return Err(invalid("the position string is too long".into()));
    }
    let t: String = text
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_ascii_lowercase();
    let t = t.strip_suffix('.').unwrap_or(&t);
    let mut parts = t.split(':');
    let stm = parts
        .next()
        .and_then(parse_side)
        .ok_or_else(|| invalid(format!("'{}': expected W or B to move first", text.trim())))?;
    let mut lists: [Option<&str>; 2] = [None, None];
    for part in parts {
        let mut chars = part.chars();
        let side = chars
            .next()
            .and_then(|c| parse_side(c.encode_utf8(&mut [0; 4])))
            .ok_or_else(|| invalid(format!("'{part}': a piece list starts with W or B")))?;
        if lists[side].replace(chars.as_str()).is_some() {
            return Err(invalid(format!(
                "two piece lists for {}",
                side_letter(side)
            )));
        }
    }
    let mut pieces = [0 as Bits; 2];
    let mut kings: Bits = 0;
    for side in [WHITE, BLACK] {
        let list = lists[side]
            .ok_or_else(|| invalid(format!("no piece list for {}", side_letter(side))))?;
        if list.is_empty() {
            continue;
        }
        for entry in list.split(',') {
            let (s, king) = parse_entry(entry)?;
            if (pieces[0] | pieces[1]) >> s & 1 != 0 {
                return Err(invalid(format!("{} is named twice", square_name(s))));
            }
            if !king && PROMO_RANK[side] >> s & 1 != 0 {
                return Err(invalid(format!(
                    "a {} man cannot stand on {} (its far rank)",
                    if side == WHITE { "white" } else { "black" },
                    square_name(s)
                )));
            }
            pieces[side] |= 1 << s;
            if king {
                kings |= 1 << s;
            }
        }
        if pieces[side].count_ones() > MAX_PIECES {
            return Err(invalid(format!(
                "{} has {} pieces (at most {MAX_PIECES})",
                side_letter(side),
                pieces[side].count_ones()
            )));
        }
    }
    Ok(Position::new(pieces[0], pieces[1], kings, stm))
}

/// Diagram with rank 8 on top: `w`/`b` men, `W`/`B` kings, `.` empty dark squares, blank light
/// squares; the side to move on the last line.
pub fn render(p: &Position) -> String {
    let mut lines = Vec::new();
    for rank in (0..8).rev() {
        let mut line = format!("{} ", rank + 1);
        for file in 0..8 {
            let c = match square_at(file, rank) {
                None => ' ',
                Some(s) => {
                    let king = p.kings >> s & 1 != 0;
                    match (p.pieces[WHITE] >> s & 1, p.pieces[BLACK] >> s & 1, king) {
                        (1, _, false) => 'w',
                        (1, _, true) => 'W',
                        (_, 1, false) => 'b',
                        (_, 1, true) => 'B',
                        _ => '.',
                    }
                }
            };
            line.push(' ');
            line.push(c);
        }
        lines.push(line.trim_end().to_string());
    }
    lines.push("   a b c d e f g h".to_string());
    let who = if p.stm == WHITE { "white" } else { "black" };
    lines.push(format!("{who} to move"));
    lines.push("legend: w white man, W white king, b black man, B black king, . empty".to_string());
    lines.join("\n")
}
