//! The UGI (UCI family) command lines.

use super::*;

#[derive(Clone, Debug, PartialEq)]
pub enum Ugi {
    /// `ugi`, `uci` or `uai`: the word, to answer `ugiok`/`uciok`/`uaiok`.
    Hello(String),
    IsReady,
    SetOption {
        name: String,
        value: String,
    },
    NewGame,
    Position {
        fen: Option<String>,
        moves: Vec<String>,
    },
    Go(Go),
    Stop,
    PonderHit,
    Query(String),
    Debug,
    Quit,
    /// Stockfish's `d`: the board and its position string.
    Display,
    /// Stockfish's `eval`: the static evaluation.
    Eval,
    /// `legalmovesjson`: GTP's `legal_moves_json` on one line.
    LegalMovesJson,
    /// `go perft N`: perft split by root move.
    Perft(u32),
}

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Go {
    pub p1time: Option<u64>,
    pub p2time: Option<u64>,
    pub p1inc: Option<u64>,
    pub p2inc: Option<u64>,
    pub wtime: Option<u64>,
    pub btime: Option<u64>,
    pub winc: Option<u64>,
    pub binc: Option<u64>,
    pub movestogo: Option<u32>,
    pub movetime: Option<u64>,
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub infinite: bool,
    /// `go ponder`: search the position (the expected reply already played) until
    /// `ponderhit` or `stop`.
    pub ponder: bool,
    /// Clocks given as negative (`wtime -100`), as written: they count as zero, and the front
    /// end says so.
    pub overdrawn: Vec<(String, String)>,
}

/// A number with an optional minus sign: whether it had one, its size, and the text.
fn signed(i: &str) -> IResult<&str, (bool, u64, &str)> {
    let (r, text) = recognize(pair(opt(tag("-")), digit1))(i)?;
    let (_, v) = preceded(opt(tag("-")), uint::<u64>)(text)?;
    Ok((r, (text.starts_with('-'), v, text)))
}

fn go_params(mut i: &str) -> Result<Go, ParseError> {
    let mut go = Go::default();
    loop {
        let (r, _) = space0::<_, nom::error::Error<&str>>(i).map_err(|_| ParseError::Unreadable)?;
        if r.is_empty() {
            return Ok(go);
        }
        let (r, key) =
            word(r).map_err(|_: nom::Err<nom::error::Error<&str>>| ParseError::Unreadable)?;
        let key = key.to_ascii_lowercase();
        if key == "infinite" {
            go.infinite = true;
            i = r;
            continue;
        }
        if key == "ponder" {
            go.ponder = true;
            i = r;
            continue;
        }
        let (r, (negative, v, text)) = preceded(space1, signed)(r)
            .map_err(|_: nom::Err<nom::error::Error<&str>>| ParseError::GoNumber(key.clone()))?;
        match key.as_str() {
            // A GUI that lets a clock run past zero (a time margin) still wants a move.
            "p1time" | "p2time" | "wtime" | "btime" if negative => {
                go.overdrawn.push((key.clone(), text.to_string()));
            }
            "p1inc" | "p2inc" | "winc" | "binc" if negative => {
                return Err(ParseError::GoNegative(key, text.to_string()));
            }
            "movestogo" | "movetime" | "depth" | "nodes" | "mate" if negative || v == 0 => {
                return Err(ParseError::GoNotPositive(key, text.to_string()));
            }
            _ => {}
        }
        let v = if negative { 0 } else { v };
        let small = || u32::try_from(v).map_err(|_| ParseError::GoTooLarge(key.clone()));
        match key.as_str() {
            "p1time" => go.p1time = Some(v),
            "p2time" => go.p2time = Some(v),
            "p1inc" => go.p1inc = Some(v),
            "p2inc" => go.p2inc = Some(v),
            "wtime" => go.wtime = Some(v),
            "btime" => go.btime = Some(v),
            "winc" => go.winc = Some(v),
            "binc" => go.binc = Some(v),
            "movestogo" => go.movestogo = Some(small()?),
            "movetime" => go.movetime = Some(v),
            "depth" => go.depth = Some(small()?),
            "nodes" => go.nodes = Some(v),
            "mate" => go.depth = Some(small()?.saturating_mul(2)),
            _ => return Err(ParseError::UnknownGoParameter(key)),
        }
        i = r;
    }
}

fn moves_list(i: &str) -> IResult<&str, Vec<String>> {
    let (i, words) = many0(preceded(space1, word))(i)?;
    Ok((i, words.into_iter().map(str::to_string).collect()))
}

fn position(args: &str) -> Result<Ugi, ParseError> {
    let bad = |_: nom::Err<nom::error::Error<&str>>| {
        ParseError::Expected("position startpos|fen POS [moves ...]")
    };
    let (i, kind): (&str, &str) =
        alt((tag_no_case("startpos"), tag_no_case("fen")))(args).map_err(bad)?;
    let (fen, tail) = if kind.eq_ignore_ascii_case("fen") {
        // The position string runs up to the word `moves` or the end of the line.
        let body = i.trim_start();
        let (fen, tail) = match find_word(body, "moves") {
            Some(at) => (body[..at].trim_end(), &body[at..]),
            None => (body.trim_end(), ""),
        };
        if fen.is_empty() {
            return Err(ParseError::MissingPosition);
        }
        (Some(fen.to_string()), tail)
    } else {
        (None, i.trim_start())
    };
    let moves = if tail.is_empty() {
        Vec::new()
    } else {
        let (_, moves) = all_consuming(preceded(tag_no_case("moves"), moves_list))(tail).map_err(
            |_: nom::Err<nom::error::Error<&str>>| {
                ParseError::Expected("'moves' after the position")
            },
        )?;
        moves
    };
    Ok(Ugi::Position { fen, moves })
}

/// Byte offset of `w` as a whole space-separated word in `s`.
fn find_word(s: &str, w: &str) -> Option<usize> {
    let mut at = 0;
    for part in s.split(' ') {
        if part.eq_ignore_ascii_case(w) {
            return Some(at);
        }
        at += part.len() + 1;
    }
    None
}

fn setoption(args: &str) -> Result<Ugi, ParseError> {
    // `name` runs up to the word `value`; names and values may contain spaces.
    let body = args
        .strip_prefix("name ")
        .or_else(|| args.strip_prefix("NAME "))
        .ok_or(ParseError::Expected("setoption name NAME [value VALUE]"))?;
    let (name, value) = match find_word(body, "value") {
        Some(at) => (body[..at].trim(), body[at + 5..].trim()),
        None => (body.trim(), ""),
    };
    if name.is_empty() {
        return Err(ParseError::Syntax("missing option name"));
    }
    Ok(Ugi::SetOption {
        name: name.to_string(),
        value: value.to_string(),
    })
}

/// Parses one UGI line.
pub fn ugi_line(line: &str) -> Result<Ugi, ParseError> {
    let (args, cmd) = match terminated(word, space0)(line) {
        Ok(v) => v,
        Err(nom::Err::Error(_)) | Err(nom::Err::Failure(_)) | Err(nom::Err::Incomplete(_)) => {
            return Err(ParseError::Empty)
        }
    };
    let bare = |c: Ugi| {
        if args.is_empty() {
            Ok(c)
        } else {
            Err(ParseError::UgiNoArguments(cmd.to_string()))
        }
    };
    match cmd.to_ascii_lowercase().as_str() {
        c @ ("ugi" | "uci" | "uai") => bare(Ugi::Hello(c.to_string())),
        "isready" => bare(Ugi::IsReady),
        "uginewgame" | "ucinewgame" | "uainewgame" => bare(Ugi::NewGame),
        "setoption" => setoption(args),
        "position" => position(args),
        "go" => match args.split_once(' ') {
            Some((p, depth)) if p.eq_ignore_ascii_case("perft") => depth
                .trim()
                .parse::<u32>()
                .map(Ugi::Perft)
                .map_err(|_| ParseError::PerftDepth),
            None if args.eq_ignore_ascii_case("perft") => Err(ParseError::PerftDepth),
            _ => go_params(args).map(Ugi::Go),
        },
        "d" => bare(Ugi::Display),
        "eval" => bare(Ugi::Eval),
        "legalmovesjson" => bare(Ugi::LegalMovesJson),
        "stop" => bare(Ugi::Stop),
        "ponderhit" => bare(Ugi::PonderHit),
        // Never a parse error: an arbiter waits for the `response` every query gets.
        "query" => Ok(Ugi::Query(args.trim_end().to_ascii_lowercase())),
        "debug" => Ok(Ugi::Debug),
        "quit" => Ok(Ugi::Quit),
        _ => Err(ParseError::UnknownUgi(cmd.to_string())),
    }
}
