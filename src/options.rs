//! What an option is: its type (check, spin, combo, string, button), how a value given as text
//! is checked against it, and how it is advertised. The engine's own options are declared in one
//! table in [`crate::session`], each game's in its [`crate::games::GameOptions::options`]; setting,
//! GTP `list_options` and the UGI `option` lines are all generated from those declarations.

/// The type of an option, with its range or choices.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A boolean (`true`/`false`; `on`/`off`, `yes`/`no`, `1`/`0` also accepted).
    Check,
    /// An integer in `min..=max`.
    Spin { min: u64, max: u64 },
    /// A search limit: an integer in `0..=max`, where 0 (also `none`, `off` or nothing) switches
    /// it off. Advertised as a spin from 0.
    Limit { max: u64 },
    /// One of the listed words (case-insensitive; the canonical spelling is kept).
    Combo(&'static [&'static str]),
    /// Free text.
    String,
    /// A file or directory the engine reads (free text): a UGI `type string`, a GTP `string
    /// path`, so that a GUI can tell the options that open files from the others.
    Path,
    /// An action without a value (UGI `type button`).
    Button,
}

/// A game option as the game declares it, with its current value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameOption {
    pub name: &'static str,
    pub kind: Kind,
    pub value: String,
    /// The game's own ([`GameOption::own`]): a value set while this game is selected is not
    /// carried to another game with an option of the same name.
    pub own: bool,
}

impl GameOption {
    pub fn new(name: &'static str, kind: Kind, value: impl ToString) -> GameOption {
        GameOption {
            name,
            kind,
            value: value.to_string(),
            own: false,
        }
    }

    /// Marks the option the game's own: several games may declare one of this name, each with
    /// its own meaning and default (`eval`, `eval_file`: one game's weight file is no use to
    /// another), so a value is kept for the game it was set in.
    pub fn own(self) -> GameOption {
        GameOption { own: true, ..self }
    }
}

/// A value that passed its option's type check.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Bool(bool),
    Int(u64),
    Text(String),
    Press,
}

impl Value {
    /// The canonical text of the value (what a game's `set_option` is given).
    pub fn text(&self) -> String {
        match self {
            Value::Bool(b) => b.to_string(),
            Value::Int(n) => n.to_string(),
            Value::Text(t) => t.clone(),
            Value::Press => String::new(),
        }
    }
    pub fn int(&self) -> u64 {
        match self {
            Value::Int(n) => *n,
            _ => 0,
        }
    }
    pub fn bool(&self) -> bool {
        matches!(self, Value::Bool(true))
    }
}

/// Why an option was not set.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OptionError {
    #[error("unknown option '{0}'")]
    Unknown(String),
    #[error("option {name} needs true or false, got '{value}'")]
    NotBool { name: String, value: String },
    #[error("option {name} needs a non-negative integer, got '{value}'")]
    NotNumber { name: String, value: String },
    #[error("option {name} must be {min}..{max}, got {value}")]
    OutOfRange {
        name: String,
        value: u64,
        min: u64,
        max: u64,
    },
    #[error("option {name} must be one of {choices}, got '{value}'")]
    NotChoice {
        name: String,
        value: String,
        choices: String,
    },
    /// An option each game has its own of, set while a game without one is selected.
    #[error("option {name} is each game's own and {game} has none: select the game first")]
    NotThisGame { name: String, game: &'static str },
}

/// The lookup key of an option name: case-insensitive, spaces and `_` ignored, so UGI's
/// `Move Overhead`, `MoveOverhead` and GTP's `move_overhead` are one option.
pub fn key(name: &str) -> String {
    name.chars()
        .filter(|c| *c != ' ' && *c != '_')
        .collect::<String>()
        .to_ascii_lowercase()
}

pub fn parse_bool(v: &str) -> Option<bool> {
    match v.trim().to_ascii_lowercase().as_str() {
        "true" | "on" | "1" | "yes" => Some(true),
        "false" | "off" | "0" | "no" => Some(false),
        _ => None,
    }
}

impl Kind {
    /// Checks `text` against the type; `name` is for the error message.
    pub fn parse(&self, name: &str, text: &str) -> Result<Value, OptionError> {
        let text = text.trim();
        let number = |text: &str| {
            text.parse::<u64>().map_err(|_| OptionError::NotNumber {
                name: name.to_string(),
                value: text.to_string(),
            })
        };
        let range = |value: u64, min: u64, max: u64| {
            if (min..=max).contains(&value) {
                Ok(Value::Int(value))
            } else {
                Err(OptionError::OutOfRange {
                    name: name.to_string(),
                    value,
                    min,
                    max,
                })
            }
        };
        match *self {
            Kind::Check => parse_bool(text)
                .map(Value::Bool)
                .ok_or_else(|| OptionError::NotBool {
                    name: name.to_string(),
                    value: text.to_string(),
                }),
            Kind::Spin { min, max } => range(number(text)?, min, max),
            Kind::Limit { max } => {
                if matches!(text.to_ascii_lowercase().as_str(), "none" | "off" | "") {
                    return Ok(Value::Int(0));
                }
                range(number(text)?, 0, max)
            }
            Kind::Combo(choices) => choices
                .iter()
                .find(|c| c.eq_ignore_ascii_case(text))
                .map(|c| Value::Text(c.to_string()))
                .ok_or_else(|| OptionError::NotChoice {
                    name: name.to_string(),
                    value: text.to_string(),
                    choices: choices.join(", "),
                }),
            Kind::String | Kind::Path => Ok(Value::Text(text.to_string())),
            Kind::Button => Ok(Value::Press),
        }
    }

    /// The UGI `option` line of an option of this type.
    pub fn ugi_line(&self, name: &str, value: &str) -> String {
        match *self {
            Kind::Check => format!("option name {name} type check default {value}"),
            Kind::Spin { min, max } => {
                format!("option name {name} type spin default {value} min {min} max {max}")
            }
            Kind::Limit { max } => {
                format!("option name {name} type spin default {value} min 0 max {max}")
            }
            Kind::Combo(choices) => format!(
                "option name {name} type combo default {value} var {}",
                choices.join(" var ")
            ),
            // UCI has no way to say "empty" but the word `<empty>`.
            Kind::String | Kind::Path if value.is_empty() => {
                format!("option name {name} type string default <empty>")
            }
            Kind::String | Kind::Path => {
                format!("option name {name} type string default {value}")
            }
            Kind::Button => format!("option name {name} type button"),
        }
    }

    /// The type as GTP `list_options` shows it after the value.
    pub fn gtp_type(&self) -> String {
        match *self {
            Kind::Check => "check".into(),
            Kind::Spin { min, max } => format!("spin {min}..{max}"),
            Kind::Limit { max } => format!("spin 0..{max} (0 = off)"),
            Kind::Combo(choices) => format!("combo {}", choices.join("|")),
            Kind::String => "string".into(),
            Kind::Path => "string path".into(),
            Kind::Button => "button".into(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_are_checked_against_their_type() {
        assert_eq!(Kind::Check.parse("x", "ON"), Ok(Value::Bool(true)));
        assert!(Kind::Check.parse("x", "maybe").is_err());
        let spin = Kind::Spin { min: 1, max: 8 };
        assert_eq!(spin.parse("x", " 8 "), Ok(Value::Int(8)));
        assert!(matches!(
            spin.parse("x", "9"),
            Err(OptionError::OutOfRange { value: 9, .. })
        ));
        assert!(matches!(
            spin.parse("x", "-1"),
            Err(OptionError::NotNumber { .. })
        ));
        assert_eq!(Kind::Limit { max: 5 }.parse("x", "off"), Ok(Value::Int(0)));
        assert_eq!(
            Kind::Combo(&["0", "90"]).parse("x", "90"),
            Ok(Value::Text("90".into()))
        );
        assert!(Kind::Combo(&["0", "90"]).parse("x", "45").is_err());
    }

    #[test]
    fn keys_ignore_case_spaces_and_underscores() {
        assert_eq!(key("Move Overhead"), key("move_overhead"));
        assert_eq!(key("UCI_Variant"), "ucivariant");
    }
}
