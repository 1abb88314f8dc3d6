//! Command line: flags, `bench`, then the protocol loop on stdin/stdout.

use std::io::Write;
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};
use tetrad::protocol::{self, Dialect};
use tetrad::session::Session;

#[derive(Parser, Debug)]
#[command(
    name = "tetrad",
    version,
    about = "Poddavki, Phutball, Diamond and Pods engine (GTP / UGI)"
)]
struct Cli {
    /// Starting game: poddavki, phutball, diamond, pods-standard (pods), pods-advanced
    /// (any case).
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
    },
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = Cli::parse();
    if let Some(Command::Bench { quick, game }) = &cli.command {
        if let Some(g) = game
            .as_deref()
            .filter(|g| tetrad::engine::new_game(g).is_none())
        {
            eprintln!(
                "tetrad: bench --game: unknown game '{g}' (valid: {})",
                tetrad::games::GAME_NAMES.join(", ")
            );
            return ExitCode::from(2);
        }
        let stdout = std::io::stdout();
        let mut out = stdout.lock();
        return match tetrad::bench::run(*quick, game.as_deref(), &mut out) {
            Ok(_) => ExitCode::SUCCESS,
            // The reader has seen enough (`tetrad bench | head`): not a failure.
            Err(e)
                if e.downcast_ref::<std::io::Error>()
                    .is_some_and(|e| e.kind() == std::io::ErrorKind::BrokenPipe) =>
            {
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("tetrad: bench failed: {e:#}");
                ExitCode::from(1)
            }
        };
    }
    let mut session = Session::new();
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
    if let Err(e) = session.set_game(&cli.game) {
        eprintln!("tetrad: --game: {e}");
        return ExitCode::from(2);
    }
    let dialect = cli.protocol.map(|p| match p {
        ProtocolArg::Gtp => Dialect::Gtp,
        ProtocolArg::Ugi => Dialect::Ugi,
    });
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    let code = protocol::run(session, dialect, std::io::stdin(), &mut out);
    let _ = out.flush();
    // The search thread may still be unwinding; exiting the process ends it.
    std::process::exit(code)
}
