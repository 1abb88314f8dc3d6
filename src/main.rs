//! Command line: flags, `bench`, then the protocol loop on stdin/stdout.

use std::io::Write;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use tetrad::games::GameKind;
use tetrad::protocol::{self, Dialect};
use tetrad::registry::Registry;
use tetrad::session::Session;

mod cli {
    //! Subcommands with enough flags and output of their own to fill a file.
    pub mod egdb;
}

#[derive(Parser, Debug)]
#[command(
    name = "tetrad",
    version = tetrad::VERSION,
    about = "Poddavki, Phutball, Diamond and Pods engine (GTP / UGI)"
)]
struct Cli {
    /// Starting game, any case (as GTP `list_games` lists them; `pods` is `pods-standard`).
    #[arg(long, default_value = "poddavki")]
    game: String,
    /// Force a dialect (gtp or ugi, any case) instead of choosing it from the first command.
    #[arg(long, value_enum, ignore_case = true)]
    protocol: Option<ProtocolArg>,
    /// Seed ordering root moves of equal merit (option `seed`; 0 = the game's own order).
    #[arg(long)]
    seed: Option<u64>,
    /// Search threads (option `threads`).
    #[arg(long)]
    threads: Option<u64>,
    /// Transposition table size in MiB (option `hash`).
    #[arg(long)]
    hash: Option<u64>,
    /// Seconds the commands read before the end of input may still run after it; then every
    /// search and perft is cut short (answering what it has). 0: no limit.
    #[arg(long, value_name = "SECONDS", default_value_t = 60)]
    after_eof: u64,
    /// Pods board/pod data file replacing the built-in one.
    #[arg(long, value_name = "FILE")]
    pods_data: Option<String>,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
enum ProtocolArg {
    Gtp,
    Ugi,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Fixed workload (perft, fixed-depth searches, random playouts) with rates.
    Bench {
        /// A smaller workload (seconds instead of a minute).
        #[arg(long)]
        quick: bool,
        /// Only this game (any case).
        #[arg(long)]
        game: Option<String>,
        /// Above 1: only the fixed-depth searches, each with 1 thread and with N, and the
        /// time-to-depth speed-up.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=256))]
        threads: u16,
        /// Search depth of every search item (default: each game's own).
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=100))]
        depth: Option<u32>,
        /// With --threads: each search this many times with each thread count, the median time
        /// taken (times with several threads vary from run to run).
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=100))]
        repeat: u16,
    },
    /// Writes a picture of a position as SVG (see protocol.md, `showboard svg`).
    Render {
        #[command(flatten)]
        at: At,
        /// Output file (default: stdout).
        #[arg(short, long, value_name = "FILE")]
        output: Option<String>,
    },
    /// Reads position strings (one a line) and writes the evaluation's raw feature vectors, for
    /// the tuner (`scripts/tune/`; format in `tetrad::games::tune::features`).
    Features {
        /// A game with a tunable evaluation (any case).
        #[arg(long)]
        game: String,
    },
    /// Plays seeded self-play games at fixed nodes (or depth) and writes training data:
    /// `GAME PLY POSITION SCORE RESULT` lines, tab-separated (docs/strength/engine.md).
    Selfplay {
        /// The game (any case).
        #[arg(long)]
        game: String,
        #[command(flatten)]
        settings: tetrad::learn::selfplay::Settings,
        /// A game option, NAME=VALUE (e.g. eval=learned); repeatable.
        #[arg(long = "option", value_name = "NAME=VALUE")]
        options: Vec<String>,
    },
    /// Trains a game's learned evaluation on self-play data and writes its weight file.
    Train {
        #[arg(long)]
        game: String,
        /// Data files (from `selfplay`).
        #[arg(long, num_args = 1.., required = true, value_name = "FILE")]
        data: Vec<std::path::PathBuf>,
        /// The weight file to write.
        #[arg(long, value_name = "FILE")]
        out: std::path::PathBuf,
        /// Where to write the held-out positions with the trained evaluation.
        #[arg(long, value_name = "FILE")]
        predictions: Option<std::path::PathBuf>,
        /// Where to write every quiet position's inputs and target (for a network's trainer).
        #[arg(long, value_name = "FILE")]
        inputs: Option<std::path::PathBuf>,
        #[command(flatten)]
        settings: tetrad::learn::train::Settings,
    },
    /// Serves a web page to play and analyse every game in a browser (see docs/gui.md).
    Gui {
        /// Port to listen on (0: any free port).
        #[arg(long, default_value_t = 8080)]
        port: u16,
        /// Address to listen on; anything but a loopback address is reachable by others.
        #[arg(long, default_value = "127.0.0.1")]
        host: String,
        /// Engine command (program and arguments, split at spaces) speaking GTP; default: this
        /// binary.
        #[arg(long, value_name = "CMD")]
        engine: Option<String>,
        /// The directory whose files the page may name in options that open files (`eval_file`,
        /// `pods_data`, `egdb_path`); without it the page may name no file.
        #[arg(long, value_name = "DIR")]
        files: Option<std::path::PathBuf>,
        /// Largest hash (MiB) a tab may set (default: a quarter of the memory over 8 tabs).
        #[arg(long, value_name = "MIB")]
        max_hash: Option<u64>,
        /// Most search threads a tab may set (default: the cores).
        #[arg(long, value_name = "N")]
        max_threads: Option<u64>,
    },
    /// Endgame databases: build, verify, list (see docs/egdb.md).
    Egdb {
        #[command(subcommand)]
        action: cli::egdb::EgdbAction,
    },
    /// Writes the board layout of a position as JSON (see protocol.md, `board_layout`).
    Layout {
        #[command(flatten)]
        at: At,
        /// Output file (default: stdout).
        #[arg(short, long, value_name = "FILE")]
        output: Option<String>,
    },
}

/// The position a `render` or `layout` shows.
#[derive(clap::Args, Debug)]
struct At {
    /// Game, any case (as GTP `list_games` lists them; `pods` is `pods-standard`).
    #[arg(long, default_value = "poddavki")]
    game: String,
    /// Position string (default: the start position).
    #[arg(long, value_name = "POS")]
    position: Option<String>,
    /// Moves played from the position, in order (the last one is marked).
    #[arg(long, num_args = 1.., value_name = "MOVE")]
    moves: Vec<String>,
}

/// `render` / `layout`: sets the position up in a session and writes its picture.
fn picture_command(mut session: Session, at: &At, svg: bool, output: Option<&str>) -> ExitCode {
    if let Err(e) = session.set_game(&at.game) {
        eprintln!("tetrad: --game: {e}");
        return ExitCode::from(2);
    }
    if let Err(e) = session.setup(at.position.as_deref(), &at.moves) {
        eprintln!("tetrad: {e}");
        return ExitCode::from(2);
    }
    let pic = session.picture();
    let mut text = if svg {
        tetrad::render::svg::svg(&pic)
    } else {
        tetrad::render::json::layout(&pic)
    };
    if !text.ends_with('\n') {
        text.push('\n');
    }
    let written = match output {
        Some(path) => std::fs::write(path, text).map_err(|e| format!("{path}: {e}")),
        None => std::io::stdout()
            .write_all(text.as_bytes())
            .map_err(|e| e.to_string()),
    };
    match written {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("tetrad: cannot write: {e}");
            ExitCode::from(1)
        }
    }
}

/// `tetrad selfplay` and `tetrad train`.
fn learn_command(command: &Command) -> anyhow::Result<()> {
    use anyhow::Context;
    use tetrad::learn;
    // The provenance names the program, not where it was built.
    let args: Vec<String> = std::env::args().skip(1).collect();
    let line = format!("tetrad {}", args.join(" "));
    match command {
        Command::Selfplay {
            game,
            settings,
            options,
        } => {
            let options = options
                .iter()
                .map(|o| {
                    o.split_once('=')
                        .map(|(n, v)| (n.to_string(), v.to_string()))
                })
                .collect::<Option<Vec<_>>>()
                .context("--option: expected NAME=VALUE")?;
            let mut out = std::io::BufWriter::new(std::io::stdout().lock());
            writeln!(out, "# command: {line}")?;
            let err = &mut std::io::stderr();
            let sum = learn::selfplay_kind(game.parse()?, settings, &options, &mut out, err)?;
            let (g, p, d) = (sum.games, sum.positions, sum.dropped);
            eprintln!("selfplay: {g} games, {p} positions, {d} dropped");
        }
        Command::Train {
            game,
            data,
            out,
            predictions,
            inputs,
            settings,
        } => {
            let settings = &tetrad::learn::train::Settings {
                list_inputs: inputs.is_some(),
                ..settings.clone()
            };
            let mut text = String::new();
            for path in data {
                let read = std::fs::read_to_string(path);
                text += &read.with_context(|| format!("--data {}", path.display()))?;
            }
            let trained = learn::train_kind(game.parse()?, &text, settings, &line)?;
            let files = [
                (Some(out), &trained.file),
                (predictions.as_ref(), &trained.predictions),
                (inputs.as_ref(), &trained.inputs),
            ];
            for (path, text) in files {
                if let Some(path) = path {
                    std::fs::write(path, text).with_context(|| path.display().to_string())?;
                }
            }
            for line in &trained.report {
                eprintln!("train: {line}");
            }
        }
        _ => {}
    }
    Ok(())
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = Cli::parse();
    if let Some(Command::Bench {
        quick,
        game,
        threads,
        depth,
        repeat,
    }) = &cli.command
    {
        let registry = Registry::builtin();
        let games: Vec<GameKind> = match game.as_deref().map(|name| registry.find(name)) {
            None => registry.kinds().to_vec(),
            Some(Ok(kind)) => vec![kind],
            Some(Err(e)) => {
                eprintln!("tetrad: bench --game: {e}");
                return ExitCode::from(2);
            }
        };
        let stdout = std::io::stdout();
        let mut out = stdout.lock();
        let settings = tetrad::bench::Settings {
            quick: *quick,
            threads: usize::from(*threads),
            depth: *depth,
            repeat: usize::from(*repeat),
        };
        return match tetrad::registry::bench(games, settings, &mut out) {
            Ok(_) => ExitCode::SUCCESS,
            // The reader has seen enough (`tetrad bench | head`): not a failure.
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("tetrad: bench failed: {e:#}");
                ExitCode::from(1)
            }
        };
    }
    if let Some(Command::Features { game }) = &cli.command {
        use tetrad::games::tune::FeaturesError;
        use tetrad::registry::RegistryFeaturesError as Error;
        let stdout = std::io::stdout();
        let mut out = std::io::BufWriter::new(stdout.lock());
        let mut input = std::io::stdin().lock();
        return match Registry::builtin().features(game, &mut input, &mut out) {
            Ok(()) => ExitCode::SUCCESS,
            Err(Error::Features(FeaturesError::Io(e)))
                if e.kind() == std::io::ErrorKind::BrokenPipe =>
            {
                ExitCode::SUCCESS
            }
            Err(Error::Unknown(e)) => {
                eprintln!("tetrad: features --game: {e}");
                ExitCode::from(2)
            }
            Err(e @ Error::Features(FeaturesError::NotTunable { .. })) => {
                eprintln!("tetrad: features: {e}");
                ExitCode::from(2)
            }
            Err(e) => {
                eprintln!("tetrad: features: {e}");
                ExitCode::from(1)
            }
        };
    }
    if let Some(c @ (Command::Selfplay { .. } | Command::Train { .. })) = &cli.command {
        return match learn_command(c) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("tetrad: {e:#}");
                ExitCode::from(1)
            }
        };
    }
    if let Some(Command::Egdb { action }) = &cli.command {
        return match cli::egdb::run(action) {
            Ok(code) => code,
            Err(e) => {
                eprintln!("tetrad: egdb: {e:#}");
                ExitCode::from(1)
            }
        };
    }
    if let Some(Command::Gui {
        port,
        host,
        engine,
        files,
        max_hash,
        max_threads,
    }) = &cli.command
    {
        let defaults = tetrad::gui::Config::default();
        let config = tetrad::gui::Config {
            files: files.clone(),
            max_hash: max_hash.unwrap_or(defaults.max_hash),
            max_threads: max_threads.unwrap_or(defaults.max_threads),
            host: host.clone(),
            port: *port,
            engine: engine
                .as_deref()
                .map(|e| e.split_whitespace().map(String::from).collect())
                .unwrap_or_default(),
            ..defaults
        };
        return match tetrad::gui::run(config) {
            Ok(()) => ExitCode::SUCCESS,
            Err(e) => {
                eprintln!("tetrad: gui: {e:#}");
                ExitCode::from(1)
            }
        };
    }
    let mut session = Session::with_registry(Registry::builtin());
    let settings = [
        ("pods_data", cli.pods_data.clone()),
        ("seed", cli.seed.map(|v| v.to_string())),
        ("threads", cli.threads.map(|v| v.to_string())),
        ("hash", cli.hash.map(|v| v.to_string())),
    ];
    for (name, value) in settings {
        if let Some(v) = value {
            if let Err(e) = session.set_option(name, &v) {
                eprintln!("tetrad: --{}: {e}", name.replace('_', "-"));
                return ExitCode::from(2);
            }
        }
    }
    match &cli.command {
        Some(Command::Render { at, output }) => {
            return picture_command(session, at, true, output.as_deref())
        }
        Some(Command::Layout { at, output }) => {
            return picture_command(session, at, false, output.as_deref())
        }
        _ => {}
    }
    if let Err(e) = session.set_game(&cli.game) {
        eprintln!("tetrad: --game: {e}");
        return ExitCode::from(2);
    }
    // The hash table is allocated now, not by the first search (on its clock).
    if let Err(e) = session.prepare() {
        log::warn!("{e}");
    }
    let dialect = cli.protocol.map(|p| match p {
        ProtocolArg::Gtp => Dialect::Gtp,
        ProtocolArg::Ugi => Dialect::Ugi,
    });
    session.after_eof = (cli.after_eof > 0).then(|| std::time::Duration::from_secs(cli.after_eof));
    // When no one can read the answers any more, there is nothing left to work for.
    if let Err(e) = protocol::watchdog::watch_stdout(|| std::process::exit(0)) {
        log::warn!("cannot watch stdout: {e}");
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let code = protocol::run(session, dialect, std::io::stdin(), &mut out);
    let _ = out.flush();
    // The search thread may still be unwinding; exiting the process ends it.
    std::process::exit(code)
}
