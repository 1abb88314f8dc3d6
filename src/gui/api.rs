//! The JSON API the page uses (docs/gui.md): `GET /` and its two files, and `POST /api/ACTION`
//! with a JSON object. Every field is typed and checked here or in [`Tab`]; whatever is not
//! understood is answered 4xx and changes nothing.

use std::sync::{Arc, Mutex};
use std::time::Instant;

use rand::Rng;
use serde_json::{json, Map, Value};

use super::engine::Control;
use super::tab::{Tab, TabError, MAX_MOVETIME};
use super::{Entry, Tabs};

const PAGE: &str = include_str!("page.html");
const STYLE: &str = include_str!("page.css");
/// The page's ES modules, served under `/js/`.
const MODULES: &[(&str, &str)] = &[
    ("main.js", include_str!("page/main.js")),
    ("app.js", include_str!("page/app.js")),
    ("state.js", include_str!("page/state.js")),
    ("api.js", include_str!("page/api.js")),
    ("board.js", include_str!("page/board.js")),
    ("game.js", include_str!("page/game.js")),
    ("analysis.js", include_str!("page/analysis.js")),
    ("review.js", include_str!("page/review.js")),
    ("records.js", include_str!("page/records.js")),
    ("clock.js", include_str!("page/clock.js")),
    ("options.js", include_str!("page/options.js")),
];

fn module(path: &str) -> Option<&'static str> {
    let name = path.strip_prefix("/js/")?;
    MODULES
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, text)| *text)
}

/// An HTTP answer: status, content type and body.
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub content_type: &'static str,
    pub body: Vec<u8>,
}

impl Reply {
    fn json(status: u16, value: &Value) -> Reply {
        Reply {
            status,
            content_type: "application/json",
            body: value.to_string().into_bytes(),
        }
    }
    pub fn error(status: u16, message: &str) -> Reply {
        Reply::json(status, &json!({ "error": message }))
    }
    fn text(content_type: &'static str, text: &str) -> Reply {
        Reply {
            status: 200,
            content_type,
            body: text.as_bytes().to_vec(),
        }
    }
}

/// A request refused, with its status.
struct Refusal(u16, String);

impl From<TabError> for Refusal {
    fn from(e: TabError) -> Refusal {
        let status = match e {
            TabError::Engine(_) | TabError::Restarted => 502,
            TabError::NotAllowed(_) => 403,
            _ => 422,
        };
        Refusal(status, e.to_string())
    }
}

fn bad(message: &str) -> Refusal {
    Refusal(400, message.to_string())
}

/// One request in, one reply out; never panics on what the client sends.
pub fn handle(tabs: &Tabs, method: &str, url: &str, body: &[u8]) -> Reply {
    let path = url.split('?').next().unwrap_or_default();
    match (method, path) {
        ("GET", "/") | ("GET", "/index.html") => Reply::text("text/html; charset=utf-8", PAGE),
        ("GET", "/page.css") => Reply::text("text/css; charset=utf-8", STYLE),
        ("GET", p) if module(p).is_some() => Reply::text(
            "text/javascript; charset=utf-8",
            module(p).unwrap_or_default(),
        ),
        ("POST", p) if p.starts_with("/api/") => match api(tabs, &p[5..], body) {
            Ok(v) => Reply::json(200, &v),
            Err(Refusal(status, message)) => Reply::error(status, &message),
        },
        (_, "/") | (_, "/page.css") => Reply::error(405, "method not allowed"),
        (_, p) if module(p).is_some() => Reply::error(405, "method not allowed"),
        (_, p) if p.starts_with("/api/") => Reply::error(405, "the API takes POST"),
        _ => Reply::error(404, "not found"),
    }
}

fn field<'a>(args: &'a Map<String, Value>, name: &str) -> Result<&'a Value, Refusal> {
    args.get(name)
        .ok_or_else(|| bad(&format!("missing field '{name}'")))
}

fn text<'a>(args: &'a Map<String, Value>, name: &str) -> Result<&'a str, Refusal> {
    field(args, name)?
        .as_str()
        .ok_or_else(|| bad(&format!("field '{name}' must be a string")))
}

fn number(args: &Map<String, Value>, name: &str, default: u64) -> Result<u64, Refusal> {
    match args.get(name) {
        None => Ok(default),
        Some(v) => v
            .as_u64()
            .ok_or_else(|| bad(&format!("field '{name}' must be a whole number"))),
    }
}

fn api(tabs: &Tabs, action: &str, body: &[u8]) -> Result<Value, Refusal> {
    let value: Value =
        serde_json::from_slice(body).map_err(|_| bad("the body must be a JSON object"))?;
    let Value::Object(args) = value else {
        return Err(bad("the body must be a JSON object"));
    };
    if action == "open" {
        return open(tabs);
    }
    let id = text(&args, "tab")?;
    if action == "close" {
        tabs.close(id);
        return Ok(json!({}));
    }
    let tab = tabs.get(id).ok_or_else(|| {
        Refusal(
            404,
            "no such tab (closed after being idle?): reload the page".into(),
        )
    })?;
    let mut tab = tab.lock().unwrap_or_else(|e| e.into_inner());
    match action {
        "state" => {}
        "new" => {
            let game = text(&args, "game")?.to_string();
            let mut options = Vec::new();
            if let Some(o) = args.get("options") {
                let o = o
                    .as_object()
                    .ok_or_else(|| bad("'options' must be an object"))?;
                for (name, v) in o {
                    let v = match v {
                        Value::String(s) => s.clone(),
                        Value::Bool(b) => b.to_string(),
                        Value::Number(n) => n.to_string(),
                        _ => return Err(bad("an option value is a string, number or boolean")),
                    };
                    options.push((name.clone(), v));
                }
            }
            tab.new_game(&game, &options)?;
        }
        "play" => tab.play(text(&args, "move")?)?,
        "engine" => {
            let clock = match args.get("clock") {
                None | Some(Value::Null) => None,
                Some(Value::Object(c)) => Some((number(c, "left", 0)?, number(c, "base", 0)?)),
                Some(_) => return Err(bad("'clock' must be an object {left, base}")),
            };
            let search = tab.engine_move(number(&args, "movetime", 500)?, clock)?;
            let mut state = tab.state();
            state["search"] = search.unwrap_or(Value::Null);
            return Ok(state);
        }
        "undo" => tab.undo()?,
        "position" => tab.set_position(text(&args, "position")?)?,
        "analyse" if args.contains_key("ply") => {
            let ply = number(&args, "ply", 0)?;
            return Ok(tab.analyse_at(
                usize::try_from(ply).unwrap_or(usize::MAX),
                number(&args, "depth", 8)?,
                number(&args, "multipv", 1)?,
                number(&args, "movetime", MAX_MOVETIME.min(2000))?,
            )?);
        }
        "load_record" => tab.load_record(text(&args, "record")?)?,
        "analyse" => {
            let lines = tab.analyse(
                number(&args, "depth", 8)?,
                number(&args, "multipv", 3)?,
                number(&args, "movetime", MAX_MOVETIME.min(2000))?,
            )?;
            return Ok(json!({ "lines": lines }));
        }
        "stream_start" => {
            tab.stream_start(number(&args, "multipv", 3)?)?;
            return Ok(tab.stream_poll());
        }
        "stream" => return Ok(tab.stream_poll()),
        "stream_stop" => {
            tab.stream_stop()?;
            return Ok(json!({}));
        }
        "record" => {
            let players = field(&args, "players")?
                .as_array()
                .filter(|p| p.len() == 2)
                .ok_or_else(|| bad("'players' must be two names"))?;
            let name = |i: usize| {
                players[i]
                    .as_str()
                    .ok_or_else(|| bad("'players' must be two names"))
            };
            let mut tags = vec![("Event", "tetrad gui")];
            if let Some(date) = args.get("date") {
                let date = date
                    .as_str()
                    .ok_or_else(|| bad("'date' must be a string"))?;
                tags.push(("Date", date));
            }
            if let Some(tc) = args.get("time_control") {
                let tc = tc
                    .as_str()
                    .ok_or_else(|| bad("'time_control' must be a string"))?;
                tags.push(("TimeControl", tc));
            }
            // Each move's mark and comment (a review's), as `mark_N` and `comment_N` fields.
            let mut notes = Vec::new();
            if let Some(list) = args.get("annotations") {
                let list = list
                    .as_array()
                    .ok_or_else(|| bad("'annotations' must be a list"))?;
                for (k, note) in list.iter().enumerate() {
                    for key in ["mark", "comment"] {
                        match note.get(key) {
                            None | Some(Value::Null) => {}
                            Some(Value::String(v)) if !v.is_empty() => {
                                notes.push((format!("{key}_{}", k + 1), v.clone()))
                            }
                            Some(Value::String(_)) => {}
                            Some(_) => {
                                return Err(bad("an annotation's mark and comment are strings"))
                            }
                        }
                    }
                }
            }
            tags.extend(notes.iter().map(|(k, v)| (k.as_str(), v.as_str())));
            return Ok(tab.record([name(0)?, name(1)?], &tags)?);
        }
        "view" => {
            let ply = number(&args, "ply", 0)?;
            return Ok(tab.view(usize::try_from(ply).unwrap_or(usize::MAX))?);
        }
        _ => {
            return Err(Refusal(
                404,
                format!(
                    "unknown action '{}'",
                    action.chars().take(40).collect::<String>()
                ),
            ))
        }
    }
    Ok(tab.state())
}

/// A new tab: its own engine process, while there is room. The room is counted before the
/// process starts, so requests at once cannot start more.
fn open(tabs: &Tabs) -> Result<Value, Refusal> {
    let slot = tabs.engines.take().or_else(|| {
        tabs.reap();
        tabs.engines.take()
    });
    let Some(slot) = slot else {
        return Err(Refusal(
            503,
            format!(
                "too many tabs open (at most {}): close one",
                tabs.config.max_tabs
            ),
        ));
    };
    let control = Control::new(slot);
    let tab = match Tab::start(&tabs.engine, Arc::clone(&control), Arc::clone(&tabs.policy)) {
        Ok(tab) => tab,
        Err(e) => {
            control.stop();
            return Err(e.into());
        }
    };
    let mut state = tab.state();
    let id = format!(
        "{:016x}{:016x}",
        rand::thread_rng().gen::<u64>(),
        rand::thread_rng().gen::<u64>()
    );
    let entry = Entry {
        tab: Arc::new(Mutex::new(tab)),
        control,
        seen: Mutex::new(Instant::now()),
    };
    tabs.lock().insert(id.clone(), Arc::new(entry));
    state["tab"] = json!(id);
    Ok(state)
}
