//! What the page may set: each option as the engine's `list_options` declares it, its value
//! checked against that declaration, then against the server's [`Policy`] (the command line's
//! limits on resources and files).

use std::path::{Component, Path, PathBuf};
use std::time::Duration;

use serde_json::{json, Value};

use super::tab::TabError;

/// What the page may ask of an engine, as the command line allows (`tetrad gui --max-hash`,
/// `--max-threads`, `--files`).
#[derive(Clone, Debug)]
pub struct Policy {
    /// Largest `hash` (MiB) a tab may set.
    pub max_hash: u64,
    /// Most `threads` a tab may set.
    pub max_threads: u64,
    /// The directory whose files options may name; none: no file at all.
    pub files: Option<PathBuf>,
    /// How long an ordinary command may take; searches get their own time on top.
    pub answer: Duration,
}

impl Policy {
    /// The value sent for `decl` = `value`, or why the page may not set it. A file is judged
    /// by its name before anything on disk is looked at, so a refusal tells nothing about
    /// files outside the directory.
    pub fn allow(&self, decl: &OptionDecl, value: &str) -> Result<String, TabError> {
        let name = decl.name.as_str();
        let cap = |flag: &str, max: u64, unit: &str| -> Result<String, TabError> {
            match value.parse::<u64>() {
                Ok(v) if v > max => Err(TabError::NotAllowed(format!(
                    "option {name} {v} is over this server's limit of {max}{unit} (tetrad gui {flag})"
                ))),
                _ => Ok(value.to_string()),
            }
        };
        if name.eq_ignore_ascii_case("hash") {
            return cap("--max-hash", self.max_hash, " MiB");
        }
        if name.eq_ignore_ascii_case("threads") {
            return cap("--max-threads", self.max_threads, "");
        }
        // A default (`builtin`, nothing) names no file the page chose.
        if !decl.path || value == decl.value || decl.defaults.iter().any(|(_, d)| d == value) {
            return Ok(value.to_string());
        }
        let Some(dir) = &self.files else {
            return Err(TabError::NotAllowed(format!(
                "option {name} names a file: the page may name files only when the server is \
                 started with `tetrad gui --files DIR`, and then only in DIR"
            )));
        };
        let outside = || {
            TabError::NotAllowed(format!(
                "option {name}: only files in the directory given to `tetrad gui --files` may be named"
            ))
        };
        let path = Path::new(value);
        if path
            .components()
            .any(|c| matches!(c, Component::ParentDir | Component::Prefix(_)))
        {
            return Err(outside());
        }
        let path = match path.strip_prefix(dir) {
            Ok(inside) => dir.join(inside),
            Err(_) if path.is_relative() => dir.join(path),
            Err(_) => return Err(outside()),
        };
        // Inside by name; a link inside may still lead out.
        let real = path.canonicalize().map_err(|_| {
            TabError::NotAllowed(format!(
                "option {name}: no such file in the directory given to `tetrad gui --files`"
            ))
        })?;
        if !real.starts_with(dir) {
            return Err(outside());
        }
        real.to_str()
            .filter(|p| !p.chars().any(|c| c.is_control() || c.is_whitespace()))
            .map(String::from)
            .ok_or_else(outside)
    }
}

/// One option as `list_options` declares it.
#[derive(Clone, Debug)]
pub struct OptionDecl {
    pub name: String,
    pub value: String,
    /// `check`, `spin`, `combo`, `string` or `button`.
    pub kind: String,
    /// A `string path`: the value names a file or directory the engine opens.
    pub path: bool,
    pub values: Vec<String>,
    pub range: Option<(i64, i64)>,
    /// The games whose own option it is (`list_options game`); none for the engine's.
    pub games: Vec<String>,
    /// Each of those games' value when the tab opened: its default, which the page shows when
    /// that game is chosen (one field serves every game that has the option).
    pub defaults: Vec<(String, String)>,
}

impl OptionDecl {
    /// `name value type [details]`, as `list_options` writes a line (a button has no value).
    pub fn parse(line: &str) -> Option<OptionDecl> {
        // Split at single spaces: an empty value (`egdb_path  string path`) is a word.
        let words: Vec<&str> = line.trim().split(' ').collect();
        let (name, value, kind, rest) = match words.as_slice() {
            [name, "button"] => (*name, "", "button", None),
            [name, value, kind] => (*name, *value, *kind, None),
            [name, value, kind, rest] => (*name, *value, *kind, Some(*rest)),
            _ => return None,
        };
        let mut decl = OptionDecl {
            name: name.to_string(),
            value: value.to_string(),
            kind: kind.to_string(),
            path: kind == "string" && rest == Some("path"),
            values: Vec::new(),
            range: None,
            games: Vec::new(),
            defaults: Vec::new(),
        };
        match (kind, rest) {
            ("combo", Some(r)) => decl.values = r.split('|').map(String::from).collect(),
            ("spin", Some(r)) => {
                let (lo, hi) = r.split_once("..")?;
                decl.range = Some((lo.parse().ok()?, hi.parse().ok()?));
            }
            _ => {}
        }
        Some(decl)
    }

    /// The value in the form the engine is sent, or why it is refused.
    pub fn check(&self, value: &str) -> Result<String, TabError> {
        let bad = |why: &str| TabError::BadValue(self.name.clone(), why.to_string());
        match self.kind.as_str() {
            "check" => match value {
                "true" | "false" => Ok(value.to_string()),
                _ => Err(bad("needs true or false")),
            },
            "spin" => {
                let v: i64 = value.parse().map_err(|_| bad("needs a whole number"))?;
                match self.range {
                    Some((lo, hi)) if v < lo || v > hi => Err(bad("out of range")),
                    _ => Ok(v.to_string()),
                }
            }
            "combo" if self.values.iter().any(|v| v == value) => Ok(value.to_string()),
            "combo" => Err(bad("not one of its values")),
            "string"
                if !value.is_empty()
                    && value.len() <= 256
                    && !value.chars().any(|c| c.is_control() || c.is_whitespace()) =>
            {
                Ok(value.to_string())
            }
            "string" => Err(bad("needs one word without control characters")),
            _ => Err(bad("cannot be set from the page")),
        }
    }

    pub fn json(&self) -> Value {
        json!({
            "name": self.name,
            "value": self.value,
            "type": self.kind,
            "path": self.path,
            "values": self.values,
            "min": self.range.map(|r| r.0),
            "max": self.range.map(|r| r.1),
            "games": self.games,
            "defaults": self
                .defaults
                .iter()
                .map(|(game, value)| (game.clone(), Value::from(value.as_str())))
                .collect::<serde_json::Map<String, Value>>(),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::OptionDecl;

    #[test]
    fn option_lines_and_their_checks() {
        let spin = OptionDecl::parse("hash 16 spin 1..4096").expect("a spin");
        assert_eq!(spin.check("32").ok().as_deref(), Some("32"));
        assert!(spin.check("0").is_err() && spin.check("1\nquit").is_err());
        let combo = OptionDecl::parse("pods_rotation 0 combo 0|90|180|270").expect("a combo");
        assert!(combo.check("90").is_ok() && combo.check("45").is_err());
        let check = OptionDecl::parse("ponder false check").expect("a check");
        assert!(check.check("true").is_ok() && check.check("yes please").is_err());
        let string = OptionDecl::parse("pods_data builtin string").expect("a string");
        assert!(string.check("x y").is_err() && string.check("a\u{7}").is_err());
        let button = OptionDecl::parse("clear_hash button").expect("a button");
        assert!(button.check("").is_err());
    }
}
