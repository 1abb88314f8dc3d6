//! The GTP commands: each described once in [`GTP_COMMANDS`], with its parser.

use super::*;
use nom::bytes::complete::{escaped_transform, take_while, take_while_m_n};
use nom::character::complete::{char, none_of};
use nom::combinator::{map, value};
use nom::multi::separated_list0;
use nom::sequence::{delimited, separated_pair};

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
    /// `analyze_stream [...]`: `analyze`'s lines after every depth, until a limit or the next
    /// line (no limit: only the next line or the end of input ends it).
    AnalyzeStream(Analyze),
    LastSearch,
    Undo,
    LegalMoves,
    /// `legal_moves_json`: every legal move with how a person enters it, as JSON.
    LegalMovesJson,
    /// `game_record [NAME=VALUE ...]`: the game so far as a PGN (or the game's own) record.
    GameRecord(Vec<(String, String)>),
    /// `load_record RECORD`: a PGN/PDN record on one line, set up (game, position, moves).
    LoadRecord(String),
    /// `hand_svg`: each piece in hand as an SVG picture, for a GUI's hand buttons.
    HandSvg,
    Perft(u32),
    GameResult,
    SideToMove,
    Showboard,
    /// `showboard svg`: the board as an SVG document.
    ShowboardSvg,
    /// `board_layout`: the board's geometry and the position as JSON.
    BoardLayout,
    /// `egdb_probe`: the endgame database's value of the position.
    EgdbProbe,
    SetOption {
        name: String,
        value: String,
    },
    /// `list_options [game]`: every option, or (`game`) the current game's own.
    ListOptions {
        game_only: bool,
    },
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
    asynchronous(
        "analyze_stream",
        "analyze_stream [movetime N] [depth N] [nodes N] [multipv K]: the K best moves after every depth, until the next command",
        |a| analyze(a).map(Gtp::AnalyzeStream),
    ),
    sync(
        "last_search",
        "the last finished search's final line: depth D score cp S|mate N pv ...; empty once a move, undo or new position follows it",
        |a| no_args(Gtp::LastSearch, a),
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
    sync(
        "game_record",
        "game_record [NAME=VALUE ...]: the game as a PGN record (PDN for draughts), for files",
        |a| Ok(Gtp::GameRecord(whole(a, record_fields, "NAME=VALUE ...")?)),
    ),
    sync(
        "load_record",
        "load_record RECORD: sets up a PGN record (PDN for draughts) given on one line: its game, position and moves",
        |a| match a {
            "" => Err(ParseError::Expected("a record")),
            a => Ok(Gtp::LoadRecord(a.to_string())),
        },
    ),
    sync(
        "hand_svg",
        "each piece in hand as an SVG picture, one a line: SIDE PIECE SVG",
        |a| no_args(Gtp::HandSvg, a),
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
        "egdb_probe",
        "the endgame database's value of the position: win D, loss D or draw (D: plies to zeroing)",
        |a| no_args(Gtp::EgdbProbe, a),
    ),
    sync(
        "set_option",
        "set_option NAME [VALUE]: sets an option (a button takes no value)",
        set_option,
    ),
    sync(
        "list_options",
        "list_options [game]: every option (or the current game's own): name, value and type",
        |a| match a {
            "" => Ok(Gtp::ListOptions { game_only: false }),
            a if a.eq_ignore_ascii_case("game") => Ok(Gtp::ListOptions { game_only: true }),
            _ => Err(ParseError::Syntax("list_options takes no argument or 'game'")),
        },
    ),
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

/// `NAME=VALUE` pairs: a name of letters, digits and `_` (a letter first), a value of one word
/// or a `"..."` string in which `\"` and `\\` stand for `"` and `\`.
fn record_fields(i: &str) -> IResult<&str, Vec<(String, String)>> {
    let name = recognize(pair(
        take_while_m_n(1, 1, |c: char| c.is_ascii_alphabetic()),
        take_while(|c: char| c.is_ascii_alphanumeric() || c == '_'),
    ));
    let escaped = escaped_transform(
        none_of("\\\""),
        '\\',
        alt((value("\\", tag("\\")), value("\"", tag("\"")))),
    );
    let quoted = delimited(
        char('"'),
        map(opt(escaped), Option::unwrap_or_default),
        char('"'),
    );
    let plain = map(take_till1(|c: char| c == ' ' || c == '"'), String::from);
    let field = separated_pair(map(name, String::from), char('='), alt((quoted, plain)));
    terminated(separated_list0(space1, field), space0)(i)
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
