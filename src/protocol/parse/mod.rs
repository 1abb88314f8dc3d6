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

mod gtp;
mod ugi;

pub use gtp::*;
pub use ugi::*;

#[cfg(test)]
mod tests;
