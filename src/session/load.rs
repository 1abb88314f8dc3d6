//! `load_record`: a game record read back and set up, so that a GUI needs to know no record
//! format. It reads what `game_record` and the arena write (PGN, or the game's own format: PDN
//! for Poddavki) and what other programs write in the same common form (pydraughts' PDN): tag
//! pairs, movetext with move numbers, `{comments}`, `;` comments, `$` annotations and the marks
//! `!`, `?`, `!?`, `?!`, `!!`, `??` after a move, and a result. As the arena's `--pgn-in` does, a
//! parenthesised word without spaces is a move (Diamond's `(c3)`), not a variation.

use super::{Session, SessionError};

/// A record's tags and its moves as the file spells them (the first game of the text).
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Parsed {
    pub tags: Vec<(String, String)>,
    pub moves: Vec<String>,
}

impl Parsed {
    fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
    }
}

const RESULTS: &[&str] = &["1-0", "0-1", "1/2-1/2", "*", "2-0", "0-2", "1-1", "0-0"];

/// Reads the first game of `text`; `Err` says what is malformed.
pub fn parse(text: &str) -> Result<Parsed, String> {
    let mut out = Parsed::default();
    let mut chars = text.char_indices().peekable();
    while let Some(&(at, c)) = chars.peek() {
        match c {
            c if c.is_whitespace() => {
                chars.next();
            }
            '[' => {
                if !out.moves.is_empty() {
                    // The next game's tags: only the first game is read.
                    break;
                }
                chars.next();
                let mut name = String::new();
                while let Some(&(_, c)) = chars.peek() {
                    if c.is_whitespace() || c == '"' || c == ']' {
                        break;
                    }
                    name.push(c);
                    chars.next();
                }
                while chars.next_if(|&(_, c)| c.is_whitespace()).is_some() {}
                if chars.next().map(|(_, c)| c) != Some('"') {
                    return Err(format!("tag {name}: no quoted value"));
                }
                let mut value = String::new();
                loop {
                    match chars.next().map(|(_, c)| c) {
                        Some('\\') => value.extend(chars.next().map(|(_, c)| c)),
                        Some('"') => break,
                        Some(c) => value.push(c),
                        None => return Err(format!("tag {name}: unterminated value")),
                    }
                }
                while chars.next_if(|&(_, c)| c.is_whitespace()).is_some() {}
                if chars.next().map(|(_, c)| c) != Some(']') {
                    return Err(format!("tag {name}: no closing ]"));
                }
                out.tags.push((name, value));
            }
            '{' => {
                if !chars.by_ref().any(|(_, c)| c == '}') {
                    return Err(format!("a comment at byte {at} has no closing }}"));
                }
            }
            ';' => while chars.next_if(|&(_, c)| c != '\n').is_some() {},
            _ => {
                let mut token = String::new();
                while let Some(&(_, c)) = chars.peek() {
                    if c.is_whitespace() || c == '{' || c == ';' || c == '[' {
                        break;
                    }
                    token.push(c);
                    chars.next();
                }
                if RESULTS.contains(&token.as_str()) {
                    break;
                }
                if let Some(mv) = move_of(&token)? {
                    out.moves.push(mv);
                }
            }
        }
    }
    Ok(out)
}

/// The move in a movetext token: without its move number (`12.`, `1...`) and marks; `None`
/// for a token that is only a number or an annotation.
fn move_of(token: &str) -> Result<Option<String>, String> {
    if token.starts_with('$') && token[1..].chars().all(|c| c.is_ascii_digit()) {
        return Ok(None);
    }
    let digits = token.len() - token.trim_start_matches(|c: char| c.is_ascii_digit()).len();
    let rest = &token[digits..];
    let rest = if digits > 0 && rest.starts_with('.') {
        rest.trim_start_matches('.')
    } else {
        token
    };
    let mv = rest.trim_end_matches(['!', '?']);
    if mv.starts_with('(') && !(mv.ends_with(')') && mv.len() > 2) {
        return Err(format!("variations are not read ('{token}')"));
    }
    Ok((!mv.is_empty()).then(|| mv.to_string()))
}

impl Session {
    /// Reads a record (`load_record`) and sets up its game: the game its `Variant` tag names,
    /// else the one whose format's own tags (PDN's `GameType`) it carries, else the current
    /// one; its `FEN` position, or the start; its moves, each checked. All or nothing. Returns
    /// the game's name and the moves in canonical notation.
    pub fn load_record(&mut self, text: &str) -> Result<(&'static str, Vec<String>), SessionError> {
        let bad = |why: String| SessionError::LoadRecord(why);
        let parsed = parse(text).map_err(bad)?;
        let name = match parsed.tag("Variant") {
            Some(v) => self.registry.find(v)?.new_state().name(),
            None => self.game_by_format(&parsed).unwrap_or(self.game.name()),
        };
        let mut game = self.fresh_game(name)?;
        let spelling = game.history().format.spelling;
        let fen = match parsed.tag("SetUp") {
            Some("0") => None,
            _ => parsed.tag("FEN"),
        };
        if let Some(fen) = fen {
            game.set_position(fen)
                .map_err(|e| bad(format!("the FEN tag: {e}")))?;
        }
        let mut moves = Vec::with_capacity(parsed.moves.len());
        for (k, mv) in parsed.moves.iter().enumerate() {
            let text: String = mv
                .chars()
                .map(|c| spelling.iter().find(|p| p.1 == c).map_or(c, |p| p.0))
                .collect();
            let played = game
                .play(&text)
                .map_err(|e| bad(format!("ply {} ({mv}): {e}", k + 1)))?;
            moves.push(played);
        }
        self.install(game);
        Ok((name, moves))
    }

    /// The game whose record format's own tags the record carries with their values, the
    /// most of them (pydraughts writes PDN's `GameType` but not Poddavki's `Rules`).
    fn game_by_format(&self, parsed: &Parsed) -> Option<&'static str> {
        let matches = |name: &str| {
            self.registry.find(name).map_or(0, |entry| {
                let tags = entry.new_state().history().format.tags;
                tags.iter()
                    .filter(|(k, v)| parsed.tag(k) == Some(*v))
                    .count()
            })
        };
        let best = self
            .registry
            .names()
            .iter()
            .copied()
            .max_by_key(|n| matches(n))?;
        (matches(best) > 0).then_some(best)
    }
}

#[cfg(test)]
mod tests {
    use super::parse;

    #[test]
    fn records_are_read_as_their_writers_write_them() {
        let p = parse(
            "[Event \"x\"]\n[FEN \"W:Wa1:Bb8\"]\n\n1. c3-d4 {+0.35/12 0.512s} f6-e5?! 2. d4xf6 $2 \
             g7xe5?? ; rest\n3.h2-g3 (c3) 1-0 [Event \"next\"] 1. a1-b2",
        )
        .expect("a record");
        assert_eq!(p.tags[1], ("FEN".to_string(), "W:Wa1:Bb8".to_string()));
        assert_eq!(
            p.moves,
            ["c3-d4", "f6-e5", "d4xf6", "g7xe5", "h2-g3", "(c3)"]
        );
        let black_first = parse("1... b6-a5 2. c3-d4 *").expect("a record");
        assert_eq!(black_first.moves, ["b6-a5", "c3-d4"]);
        assert!(parse("[Event \"x").is_err());
        assert!(parse("1. c3-d4 {open").is_err());
        assert!(parse("1. c3-d4 (1... f6-e5 2. d4-c5)").is_err());
    }
}
