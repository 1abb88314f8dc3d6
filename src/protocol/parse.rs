//! nom parsers for both dialects: a cleaned line in, a typed command (or why not) out.
//! No game knowledge here: moves and positions stay strings for the session.

use nom::branch::alt;
use nom::bytes::complete::{tag, tag_no_case, take_till1, take_while1};
use nom::character::complete::{digit1, space0, space1};
use nom::combinator::{all_consuming, map_res, opt, recognize, rest};
use nom::multi::many0;
use nom::sequence::{pair, preceded, terminated};
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
    /// A UGI handshake once GTP has been chosen: the dialect is fixed for the session.
    #[error(
        "unknown command: this session speaks GTP; '{0}' chooses UGI only as the first command, \
         or start tetrad with --protocol ugi"
    )]
    HandshakeInGtp(String),
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
    /// A depth, node count, move time or move count that leaves nothing to search.
    #[error("go {0} must be at least 1, got {1}")]
    GoNotPositive(String, String),
    #[error("go {0} must not be negative, got {1}")]
    GoNegative(String, String),
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

/// One GTP command, described once: `list_commands`, `help`, `known_command` and the parser
/// all read this.
pub struct GtpCommand {
    pub name: &'static str,
    /// The one-line description `help` prints.
    pub help: &'static str,
    /// Reads the argument text (after the command word and its spaces).
    pub parse: fn(&str) -> Result<Gtp, ParseError>,
    /// Answered when the search worker is done (a search or perft), not at once.
    pub asynchronous: bool,
}

const fn sync(
    name: &'static str,
    help: &'static str,
    parse: fn(&str) -> Result<Gtp, ParseError>,
) -> GtpCommand {
    GtpCommand {
        name,
        help,
        parse,
        asynchronous: false,
    }
}

const fn asynchronous(
    name: &'static str,
    help: &'static str,
    parse: fn(&str) -> Result<Gtp, ParseError>,
) -> GtpCommand {
    GtpCommand {
        name,
        help,
        parse,
        asynchronous: true,
    }
}

/// Every GTP command, in the order `list_commands` and `help` print them.
pub static GTP_COMMANDS: &[GtpCommand] = &[
    sync("protocol_version", "the GTP version, 2", |a| {
        no_args(Gtp::ProtocolVersion, a)
    }),
    sync("name", "the engine's name", |a| no_args(Gtp::Name, a)),
    sync("version", "the engine's version", |a| {
        no_args(Gtp::Version, a)
    }),
    sync(
        "known_command",
        "known_command C: whether C is a command",
        |a| Ok(Gtp::KnownCommand(one_word(a)?)),
    ),
    sync("list_commands", "every command, one per line", |a| {
        no_args(Gtp::ListCommands, a)
    }),
    sync("help", "every command with a one-line description", |a| {
        no_args(Gtp::Help, a)
    }),
    // Quitting never fails.
    sync(
        "quit",
        "ends the session once the commands before it are answered",
        |_| Ok(Gtp::Quit),
    ),
    sync("list_games", "every game, one per line", |a| {
        no_args(Gtp::ListGames, a)
    }),
    sync(
        "set_game",
        "set_game NAME: selects a game and starts a new game of it",
        |a| Ok(Gtp::SetGame(one_word(a)?)),
    ),
    sync(
        "clear_board",
        "starts a new game of the current game",
        |a| no_args(Gtp::ClearBoard, a),
    ),
    sync(
        "set_position",
        "set_position POS: sets up a position string; history cleared",
        |a| match a {
            "" => Err(ParseError::MissingPosition),
            a => Ok(Gtp::SetPosition(a.to_string())),
        },
    ),
    sync("get_position", "the current position string", |a| {
        no_args(Gtp::GetPosition, a)
    }),
    sync("play", "play [SIDE] MOVE: plays a move", play),
    asynchronous(
        "genmove",
        "genmove [SIDE]: searches, plays and answers a move",
        |a| genmove(a, true),
    ),
    asynchronous(
        "reg_genmove",
        "reg_genmove [SIDE]: searches and answers a move without playing it",
        |a| genmove(a, false),
    ),
    asynchronous(
        "analyze",
        "analyze [movetime N] [depth N] [nodes N] [multipv K]: the K best moves, not played",
        |a| analyze(a).map(Gtp::Analyze),
    ),
    sync("undo", "takes back the last move", |a| {
        no_args(Gtp::Undo, a)
    }),
    sync("legal_moves", "every legal move, sorted", |a| {
        no_args(Gtp::LegalMoves, a)
    }),
    sync(
        "legal_moves_json",
        "every legal move with the points clicked to enter it, as JSON, for GUIs",
        |a| no_args(Gtp::LegalMovesJson, a),
    ),
    asynchronous(
        "perft",
        "perft N: the number of leaf positions N plies ahead",
        |a| Ok(Gtp::Perft(whole(a, uint::<u32>, "a depth")?)),
    ),
    sync(
        "game_result",
        "ongoing, draw or the winner, with the reason",
        |a| no_args(Gtp::GameResult, a),
    ),
    sync("side_to_move", "the side to move", |a| {
        no_args(Gtp::SideToMove, a)
    }),
    sync(
        "showboard",
        "showboard [svg]: a diagram of the position (text, or an SVG picture)",
        |a| match a {
            "" => Ok(Gtp::Showboard),
            a if a.eq_ignore_ascii_case("svg") => Ok(Gtp::ShowboardSvg),
            _ => Err(ParseError::Syntax("showboard takes no argument or 'svg'")),
        },
    ),
    sync(
        "board_layout",
        "the board's geometry as JSON, for GUIs",
        |a| no_args(Gtp::BoardLayout, a),
    ),
    sync(
        "set_option",
        "set_option NAME [VALUE]: sets an option (a button takes no value)",
        set_option,
    ),
    sync("list_options", "every option: name, value and type", |a| {
        no_args(Gtp::ListOptions, a)
    }),
    sync(
        "time_settings",
        "time_settings MAIN BYO_YOMI STONES: the clock, in seconds",
        time_settings,
    ),
    sync(
        "time_left",
        "time_left SIDE TIME STONES: time left on a side's clock",
        time_left,
    ),
    sync(
        "kgs-time_settings",
        "kgs-time_settings none|absolute M|byoyomi M P N|canadian M B S",
        |a| {
            Ok(Gtp::KgsTimeSettings(whole(
                a,
                kgs_time,
                "a KGS time system",
            )?))
        },
    ),
    sync(
        "boardsize",
        "compatibility only: no size is acceptable",
        |a| Ok(Gtp::Boardsize(one_word(a)?)),
    ),
    sync("komi", "compatibility only: ignored", |a| {
        Ok(Gtp::Komi(one_word(a)?))
    }),
];

/// The command named `name` (lower case).
pub fn gtp_lookup(name: &str) -> Option<&'static GtpCommand> {
    GTP_COMMANDS.iter().find(|c| c.name == name)
}

/// Whether `name` (lower case) is a GTP command.
pub fn is_gtp_command(name: &str) -> bool {
    gtp_lookup(name).is_some()
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
    (gtp_find(cmd)?.parse)(args)
}

/// The GTP command named `cmd`, or why there is none (a UGI handshake gets a hint).
pub fn gtp_find(cmd: &str) -> Result<&'static GtpCommand, ParseError> {
    if matches!(cmd, "ugi" | "uci" | "uai") {
        return Err(ParseError::HandshakeInGtp(cmd.to_string()));
    }
    gtp_lookup(cmd).ok_or(ParseError::UnknownGtp)
}

fn play(args: &str) -> Result<Gtp, ParseError> {
    let words: Vec<&str> = args.split(' ').filter(|w| !w.is_empty()).collect();
    match words.as_slice() {
        [] => Err(ParseError::Expected("[SIDE] MOVE")),
        [mv] => Ok(Gtp::Play {
            side: None,
            mv: mv.to_string(),
            extra: None,
        }),
        [side, mv, rest @ ..] => Ok(Gtp::Play {
            side: Some(side.to_string()),
            mv: mv.to_string(),
            extra: (!rest.is_empty()).then(|| rest.join(" ")),
        }),
    }
}

fn genmove(args: &str, commit: bool) -> Result<Gtp, ParseError> {
    let side = if args.is_empty() {
        None
    } else {
        Some(one_word(args)?)
    };
    Ok(Gtp::Genmove { side, commit })
}

fn set_option(args: &str) -> Result<Gtp, ParseError> {
    // A button (`clear_hash`) is pressed with no value.
    let (name, value) = whole(
        args,
        |i| {
            let (i, name) = word(i)?;
            let (i, value) = opt(preceded(space1, rest))(i)?;
            Ok((i, (name, value.unwrap_or_default())))
        },
        "NAME [VALUE]",
    )?;
    Ok(Gtp::SetOption {
        name: name.to_ascii_lowercase(),
        value: value.trim().to_string(),
    })
}

fn time_settings(args: &str) -> Result<Gtp, ParseError> {
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
    Ok(Gtp::TimeSettings { main, byo, stones })
}

fn time_left(args: &str) -> Result<Gtp, ParseError> {
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
    Ok(Gtp::TimeLeft {
        side: side.to_string(),
        time,
        stones,
    })
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
    fn go_limits_below_one_are_refused_and_negative_clocks_noted() {
        let refused = |line: &str| match ugi_line(line) {
            Err(e) => e.to_string(),
            Ok(c) => panic!("{line} accepted: {c:?}"),
        };
        assert_eq!(
            refused("go depth -3"),
            "go depth must be at least 1, got -3"
        );
        assert_eq!(refused("go nodes 0"), "go nodes must be at least 1, got 0");
        assert_eq!(
            refused("go binc -1"),
            "go binc must not be negative, got -1"
        );
        assert_eq!(refused("go depth --3"), "go depth needs a number");
        let Ok(Ugi::Go(go)) = ugi_line("go p1time -7 p2time 0 p1inc 0") else {
            panic!("go did not parse");
        };
        assert_eq!(
            (go.p1time, go.p2time, go.p1inc),
            (Some(0), Some(0), Some(0))
        );
        assert_eq!(go.overdrawn, vec![("p1time".to_string(), "-7".to_string())]);
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
