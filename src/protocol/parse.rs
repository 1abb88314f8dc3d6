//! nom parsers for both dialects: a cleaned line in, a typed command (or why not) out.
//! No game knowledge here: moves and positions stay strings for the session.

use nom::branch::alt;
use nom::bytes::complete::{tag, tag_no_case, take_till1, take_while1};
use nom::character::complete::{digit1, space0, space1};
use nom::combinator::{all_consuming, map_res, opt, rest};
use nom::multi::many0;
use nom::sequence::{preceded, terminated};
use nom::IResult;

fn word(i: &str) -> IResult<&str, &str> {
    take_till1(|c: char| c == ' ')(i)
}

fn uint<T: std::str::FromStr>(i: &str) -> IResult<&str, T> {
    map_res(digit1, str::parse::<T>)(i)
}

/// Why a command line could not be read. `Display` is the reason the front end words its
/// refusal with (GTP puts it after `?`, UGI after `info string error:`).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParseError {
    #[error("empty command")]
    Empty,
    /// A GTP command word that is not one (GTP's standard wording).
    #[error("unknown command")]
    UnknownGtp,
    #[error("unknown command '{0}'")]
    UnknownUgi(String),
    #[error("syntax error: this command takes no arguments")]
    NoArguments,
    #[error("'{0}' takes no arguments")]
    UgiNoArguments(String),
    /// The arguments do not have the shape the command takes (the shape is given).
    #[error("syntax error: expected {0}")]
    Expected(&'static str),
    #[error("syntax error: {0}")]
    Syntax(&'static str),
    /// Text that is not even words (`go` parameters).
    #[error("syntax error")]
    Unreadable,
    #[error("invalid position: missing position string")]
    MissingPosition,
    #[error("go {0} needs a number")]
    GoNumber(String),
    #[error("go {0} value too large")]
    GoTooLarge(String),
    #[error("unknown go parameter '{0}'")]
    UnknownGoParameter(String),
    #[error("go perft needs a depth")]
    PerftDepth,
    #[error("syntax error: unknown analyze parameter '{0}' (movetime, depth, nodes, multipv)")]
    AnalyzeParameter(String),
    #[error("syntax error: analyze {0} needs a number")]
    AnalyzeNumber(String),
    #[error("syntax error: analyze {0} given twice")]
    AnalyzeTwice(String),
}

/// A number of seconds or milliseconds; GTP controllers sometimes send decimals.
fn number(i: &str) -> IResult<&str, f64> {
    map_res(
        take_while1(|c: char| c.is_ascii_digit() || c == '.' || c == '-'),
        str::parse::<f64>,
    )(i)
}

/// `[id] command rest`: GTP's optional numeric id, the command word, the argument text.
pub fn gtp_frame(line: &str) -> Result<(Option<u64>, String, &str), ParseError> {
    let parsed: IResult<&str, (Option<u64>, &str)> = (|i| {
        let (i, id) = opt(terminated(uint::<u64>, space1))(i)?;
        let (i, cmd) = word(i)?;
        let (i, _) = space0(i)?;
        Ok((i, (id, cmd)))
    })(line);
    match parsed {
        Ok((args, (id, cmd))) => Ok((id, cmd.to_ascii_lowercase(), args)),
        Err(_) => Err(ParseError::Empty),
    }
}

/// The id of a line that could not otherwise be read, so the error can still carry it.
pub fn gtp_id(line: &str) -> Option<u64> {
    gtp_frame(line).ok().and_then(|(id, _, _)| id)
}

#[derive(Clone, Debug, PartialEq)]
pub enum Gtp {
    ProtocolVersion,
    Name,
    Version,
    KnownCommand(String),
    ListCommands,
    Help,
    Quit,
    ListGames,
    SetGame(String),
    ClearBoard,
    SetPosition(String),
    GetPosition,
    /// `play MOVE` or `play SIDE MOVE`; `extra` is anything after that (an error, but whether
    /// the first word was a side or a move only the session can tell).
    Play {
        side: Option<String>,
        mv: String,
        extra: Option<String>,
    },
    Genmove {
        side: Option<String>,
        commit: bool,
    },
    /// `analyze [movetime N] [depth N] [nodes N] [multipv K]`: the best moves, not played.
    Analyze(Analyze),
    Undo,
    LegalMoves,
    /// `legal_moves_json`: every legal move with how a person enters it, as JSON.
    LegalMovesJson,
    Perft(u32),
    GameResult,
    SideToMove,
    Showboard,
    /// `showboard svg`: the board as an SVG document.
    ShowboardSvg,
    /// `board_layout`: the board's geometry and the position as JSON.
    BoardLayout,
    SetOption {
        name: String,
        value: String,
    },
    ListOptions,
    TimeSettings {
        main: f64,
        byo: f64,
        stones: u32,
    },
    TimeLeft {
        side: String,
        time: f64,
        stones: u32,
    },
    KgsTimeSettings(KgsTime),
    Boardsize(String),
    Komi(String),
}

/// The arguments of GTP `analyze`, each given at most once; the range checks are the front
/// end's.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Analyze {
    pub movetime: Option<u64>,
    pub depth: Option<u64>,
    pub nodes: Option<u64>,
    pub multipv: Option<u64>,
}

#[derive(Clone, Debug, PartialEq)]
pub enum KgsTime {
    None,
    Absolute(f64),
    Byoyomi {
        main: f64,
        period: f64,
        periods: u32,
    },
    Canadian {
        main: f64,
        byo: f64,
        stones: u32,
    },
}

/// Every GTP command with its one-line description: `list_commands` prints the names, `help`
/// the names with their descriptions.
pub const GTP_COMMANDS: &[(&str, &str)] = &[
    ("protocol_version", "the GTP version, 2"),
    ("name", "the engine's name"),
    ("version", "the engine's version"),
    ("known_command", "known_command C: whether C is a command"),
    ("list_commands", "every command, one per line"),
    ("help", "every command with a one-line description"),
    (
        "quit",
        "ends the session once the commands before it are answered",
    ),
    ("list_games", "every game, one per line"),
    (
        "set_game",
        "set_game NAME: selects a game and starts a new game of it",
    ),
    ("clear_board", "starts a new game of the current game"),
    (
        "set_position",
        "set_position POS: sets up a position string; history cleared",
    ),
    ("get_position", "the current position string"),
    ("play", "play [SIDE] MOVE: plays a move"),
    (
        "genmove",
        "genmove [SIDE]: searches, plays and answers a move",
    ),
    (
        "reg_genmove",
        "reg_genmove [SIDE]: searches and answers a move without playing it",
    ),
    (
        "analyze",
        "analyze [movetime N] [depth N] [nodes N] [multipv K]: the K best moves, not played",
    ),
    ("undo", "takes back the last move"),
    ("legal_moves", "every legal move, sorted"),
    (
        "legal_moves_json",
        "every legal move with the points clicked to enter it, as JSON, for GUIs",
    ),
    (
        "perft",
        "perft N: the number of leaf positions N plies ahead",
    ),
    (
        "game_result",
        "ongoing, draw or the winner, with the reason",
    ),
    ("side_to_move", "the side to move"),
    (
        "showboard",
        "showboard [svg]: a diagram of the position (text, or an SVG picture)",
    ),
    ("board_layout", "the board's geometry as JSON, for GUIs"),
    ("set_option", "set_option NAME VALUE: sets an option"),
    ("list_options", "every option: name, value and type"),
    (
        "time_settings",
        "time_settings MAIN BYO_YOMI STONES: the clock, in seconds",
    ),
    (
        "time_left",
        "time_left SIDE TIME STONES: time left on a side's clock",
    ),
    (
        "kgs-time_settings",
        "kgs-time_settings none|absolute M|byoyomi M P N|canadian M B S",
    ),
    ("boardsize", "compatibility only: no size is acceptable"),
    ("komi", "compatibility only: ignored"),
];

/// Whether `name` (lower case) is a GTP command.
pub fn is_gtp_command(name: &str) -> bool {
    GTP_COMMANDS.iter().any(|(c, _)| *c == name)
}

fn no_args(cmd: Gtp, args: &str) -> Result<Gtp, ParseError> {
    if args.is_empty() {
        Ok(cmd)
    } else {
        Err(ParseError::NoArguments)
    }
}

fn one_word(args: &str) -> Result<String, ParseError> {
    match all_consuming(word)(args) {
        Ok((_, w)) => Ok(w.to_string()),
        Err(_) => Err(ParseError::Expected("one argument")),
    }
}

fn whole<'a, T>(
    args: &'a str,
    p: impl FnMut(&'a str) -> IResult<&'a str, T>,
    what: &'static str,
) -> Result<T, ParseError> {
    match all_consuming(p)(args) {
        Ok((_, v)) => Ok(v),
        Err(_) => Err(ParseError::Expected(what)),
    }
}

/// Parses the argument text of GTP command `cmd`.
pub fn gtp_command(cmd: &str, args: &str) -> Result<Gtp, ParseError> {
    use Gtp::*;
    match cmd {
        "protocol_version" => no_args(ProtocolVersion, args),
        "name" => no_args(Name, args),
        "version" => no_args(Version, args),
        "known_command" => Ok(KnownCommand(one_word(args)?)),
        "list_commands" => no_args(ListCommands, args),
        "help" => no_args(Help, args),
        "quit" => Ok(Quit), // quitting never fails
        "list_games" => no_args(ListGames, args),
        "set_game" => Ok(SetGame(one_word(args)?)),
        "clear_board" => no_args(ClearBoard, args),
        "set_position" if !args.is_empty() => Ok(SetPosition(args.to_string())),
        "set_position" => Err(ParseError::MissingPosition),
        "get_position" => no_args(GetPosition, args),
        "play" => {
            let words: Vec<&str> = args.split(' ').filter(|w| !w.is_empty()).collect();
            match words.as_slice() {
                [] => Err(ParseError::Expected("[SIDE] MOVE")),
                [mv] => Ok(Play {
                    side: None,
                    mv: mv.to_string(),
                    extra: None,
                }),
                [side, mv, rest @ ..] => Ok(Play {
                    side: Some(side.to_string()),
                    mv: mv.to_string(),
                    extra: (!rest.is_empty()).then(|| rest.join(" ")),
                }),
            }
        }
        "genmove" | "reg_genmove" => {
            let side = if args.is_empty() {
                None
            } else {
                Some(one_word(args)?)
            };
            Ok(Genmove {
                side,
                commit: cmd == "genmove",
            })
        }
        "analyze" => analyze(args).map(Analyze),
        "undo" => no_args(Undo, args),
        "legal_moves" => no_args(LegalMoves, args),
        "legal_moves_json" => no_args(LegalMovesJson, args),
        "perft" => Ok(Perft(whole(args, uint::<u32>, "a depth")?)),
        "game_result" => no_args(GameResult, args),
        "side_to_move" => no_args(SideToMove, args),
        "showboard" if args.eq_ignore_ascii_case("svg") => Ok(ShowboardSvg),
        "showboard" if !args.is_empty() => {
            Err(ParseError::Syntax("showboard takes no argument or 'svg'"))
        }
        "showboard" => Ok(Showboard),
        "board_layout" => no_args(BoardLayout, args),
        "set_option" => {
            let (name, value) = whole(
                args,
                |i| {
                    let (i, name) = word(i)?;
                    let (i, _) = space1(i)?;
                    let (i, value) = rest(i)?;
                    Ok((i, (name, value)))
                },
                "NAME VALUE",
            )?;
            Ok(SetOption {
                name: name.to_ascii_lowercase(),
                value: value.trim().to_string(),
            })
        }
        "list_options" => no_args(ListOptions, args),
        "time_settings" => {
            let (main, byo, stones) = whole(
                args,
                |i| {
                    let (i, m) = number(i)?;
                    let (i, b) = preceded(space1, number)(i)?;
                    let (i, s) = preceded(space1, uint::<u32>)(i)?;
                    Ok((i, (m, b, s)))
                },
                "MAIN BYO_YOMI STONES",
            )?;
            Ok(TimeSettings { main, byo, stones })
        }
        "time_left" => {
            let (side, time, stones) = whole(
                args,
                |i| {
                    let (i, side) = word(i)?;
                    let (i, t) = preceded(space1, number)(i)?;
                    let (i, s) = preceded(space1, uint::<u32>)(i)?;
                    Ok((i, (side, t, s)))
                },
                "SIDE TIME STONES",
            )?;
            Ok(TimeLeft {
                side: side.to_string(),
                time,
                stones,
            })
        }
        "kgs-time_settings" => Ok(KgsTimeSettings(whole(args, kgs_time, "a KGS time system")?)),
        "boardsize" => Ok(Boardsize(one_word(args)?)),
        "komi" => Ok(Komi(one_word(args)?)),
        _ => Err(ParseError::UnknownGtp),
    }
}

/// `analyze`'s `KEY N` pairs.
fn analyze(args: &str) -> Result<Analyze, ParseError> {
    let words: Vec<&str> = args.split(' ').filter(|w| !w.is_empty()).collect();
    let mut a = Analyze::default();
    for pair in words.chunks(2) {
        let key = pair[0].to_ascii_lowercase();
        let slot = match key.as_str() {
            "movetime" => &mut a.movetime,
            "depth" => &mut a.depth,
            "nodes" => &mut a.nodes,
            "multipv" => &mut a.multipv,
            _ => return Err(ParseError::AnalyzeParameter(pair[0].to_string())),
        };
        let value = pair
            .get(1)
            .and_then(|v| whole(v, uint::<u64>, "").ok())
            .ok_or_else(|| ParseError::AnalyzeNumber(key.clone()))?;
        if slot.replace(value).is_some() {
            return Err(ParseError::AnalyzeTwice(key));
        }
    }
    Ok(a)
}

fn arg(i: &str) -> IResult<&str, f64> {
    preceded(space1, number)(i)
}

fn count(i: &str) -> IResult<&str, u32> {
    preceded(space1, uint::<u32>)(i)
}

fn kgs_time(i: &str) -> IResult<&str, KgsTime> {
    alt((
        |i| tag_no_case("none")(i).map(|(i, _)| (i, KgsTime::None)),
        |i| {
            let (i, _) = tag_no_case("absolute")(i)?;
            let (i, m) = arg(i)?;
            Ok((i, KgsTime::Absolute(m)))
        },
        |i| {
            let (i, _) = tag_no_case("byoyomi")(i)?;
            let (i, main) = arg(i)?;
            let (i, period) = arg(i)?;
            let (i, periods) = count(i)?;
            Ok((
                i,
                KgsTime::Byoyomi {
                    main,
                    period,
                    periods,
                },
            ))
        },
        |i| {
            let (i, _) = tag_no_case("canadian")(i)?;
            let (i, main) = arg(i)?;
            let (i, byo) = arg(i)?;
            let (i, stones) = count(i)?;
            Ok((i, KgsTime::Canadian { main, byo, stones }))
        },
    ))(i)
}

// ---------------------------------------------------------------- UGI

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
}

/// Clock values may be negative when a GUI's clock has run out; they count as zero.
fn clock_ms(i: &str) -> IResult<&str, u64> {
    let (i, neg) = opt(tag("-"))(i)?;
    let (i, v) = uint::<u64>(i)?;
    Ok((i, if neg.is_some() { 0 } else { v }))
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
        let value = |r| -> Result<(&str, u64), ParseError> {
            preceded(space1, clock_ms)(r)
                .map_err(|_: nom::Err<nom::error::Error<&str>>| ParseError::GoNumber(key.clone()))
        };
        let (r, v) = value(r)?;
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
        "stop" => bare(Ugi::Stop),
        "ponderhit" => bare(Ugi::PonderHit),
        "query" => Ok(Ugi::Query(one_word(args)?.to_ascii_lowercase())),
        "debug" => Ok(Ugi::Debug),
        "quit" => Ok(Ugi::Quit),
        _ => Err(ParseError::UnknownUgi(cmd.to_string())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gtp_frames_with_and_without_id() {
        assert_eq!(
            gtp_frame("12 play c3-d4"),
            Ok((Some(12), "play".into(), "c3-d4"))
        );
        assert_eq!(gtp_frame("NAME"), Ok((None, "name".into(), "")));
        assert_eq!(gtp_id("7 bogus"), Some(7));
        assert!(gtp_frame("").is_err());
    }

    #[test]
    fn gtp_arguments() {
        assert_eq!(
            gtp_command("play", "b c5:e3"),
            Ok(Gtp::Play {
                side: Some("b".into()),
                mv: "c5:e3".into(),
                extra: None,
            })
        );
        assert!(gtp_command("play", "").is_err());
        assert_eq!(
            gtp_command("play", "a b c d"),
            Ok(Gtp::Play {
                side: Some("a".into()),
                mv: "b".into(),
                extra: Some("c d".into()),
            })
        );
        assert_eq!(gtp_command("perft", "3"), Ok(Gtp::Perft(3)));
        assert!(gtp_command("perft", "-3").is_err());
        assert!(gtp_command("perft", "99999999999").is_err());
        assert_eq!(
            gtp_command("time_settings", "300 5.5 0"),
            Ok(Gtp::TimeSettings {
                main: 300.0,
                byo: 5.5,
                stones: 0
            })
        );
        assert_eq!(
            gtp_command("kgs-time_settings", "canadian 60 30 5"),
            Ok(Gtp::KgsTimeSettings(KgsTime::Canadian {
                main: 60.0,
                byo: 30.0,
                stones: 5
            }))
        );
        assert_eq!(
            gtp_command("set_option", "MoveTime 100"),
            Ok(Gtp::SetOption {
                name: "movetime".into(),
                value: "100".into()
            })
        );
        assert!(gtp_command("name", "x").is_err());
        assert!(gtp_command("frobnicate", "").is_err());
    }

    #[test]
    fn ugi_position_and_go() {
        assert_eq!(
            ugi_line("position startpos moves c3-d4 f6-e5"),
            Ok(Ugi::Position {
                fen: None,
                moves: vec!["c3-d4".into(), "f6-e5".into()]
            })
        );
        assert_eq!(
            ugi_line("position fen 7/8/8/8/8/8/8/7 b 12 12 0 moves e4"),
            Ok(Ugi::Position {
                fen: Some("7/8/8/8/8/8/8/7 b 12 12 0".into()),
                moves: vec!["e4".into()]
            })
        );
        assert!(ugi_line("position").is_err());
        assert!(ugi_line("position fen").is_err());
        assert!(ugi_line("position startpos c3-d4").is_err());
        let Ok(Ugi::Go(go)) = ugi_line("go wtime 1000 btime -5 winc 10 binc 10 movestogo 3") else {
            panic!("go did not parse");
        };
        assert_eq!(
            (go.wtime, go.btime, go.winc),
            (Some(1000), Some(0), Some(10))
        );
        assert_eq!(go.movestogo, Some(3));
        assert!(ugi_line("go depth").is_err());
        assert!(ugi_line("go sideways 3").is_err());
        assert_eq!(
            ugi_line("go infinite"),
            Ok(Ugi::Go(Go {
                infinite: true,
                ..Go::default()
            }))
        );
    }

    #[test]
    fn ugi_setoption_with_spaces() {
        assert_eq!(
            ugi_line("setoption name Move Overhead value 30"),
            Ok(Ugi::SetOption {
                name: "Move Overhead".into(),
                value: "30".into()
            })
        );
        assert_eq!(
            ugi_line("setoption name UCI_Variant value diamond"),
            Ok(Ugi::SetOption {
                name: "UCI_Variant".into(),
                value: "diamond".into()
            })
        );
        assert!(ugi_line("setoption value 3").is_err());
    }
}
