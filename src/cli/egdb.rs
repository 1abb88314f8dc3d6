//! `tetrad egdb ...`: the endgame databases from the command line (docs/egdb.md).

use std::io::Write;
use std::process::ExitCode;

use clap::Subcommand;
use tetrad::egdb::{slices_upto, Material, Reads, Tables};

fn parse_slice(text: &str) -> Result<Material, String> {
    let m = Material::parse(text).ok_or_else(|| {
        format!("'{text}' is not four digits (white men, white kings, black men, black kings)")
    })?;
    if !m.is_stored() {
        return Err(format!(
            "slice {m} leaves a side without pieces: it is not stored"
        ));
    }
    Ok(m)
}

#[derive(Subcommand, Debug)]
pub enum EgdbAction {
    /// Builds every slice with up to N pieces into DIR (progress on stderr), or one slice from
    /// the slices it needs, already in DIR; a rerun skips the slices already built.
    Build {
        /// The game (the one the databases are for).
        #[arg(long)]
        game: String,
        /// Most pieces on the board.
        #[arg(long, value_parser = clap::value_parser!(u32).range(2..=7),
              required_unless_present = "slice", conflicts_with = "slice")]
        pieces: Option<u32>,
        /// Only this slice, as four digits: white men, white kings, black men, black kings
        /// (one job of a distributed build: see `egdb plan`).
        #[arg(long, value_name = "WMWKBMBK", value_parser = parse_slice)]
        slice: Option<Material>,
        #[arg(long, value_name = "DIR")]
        dir: std::path::PathBuf,
        /// Worker threads (default: the machine's cores).
        #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
        threads: Option<u16>,
        /// Read the slices a slice's moves lead to a block at a time through a cache of this
        /// many MiB, instead of whole (bounded memory, slower lookups).
        #[arg(long, value_name = "MIB", value_parser = clap::value_parser!(u64).range(1..=1 << 20))]
        memory: Option<u64>,
    },
    /// Recomputes every stored value from its successors' values; fails on any disagreement.
    Verify {
        #[arg(long, value_name = "DIR")]
        dir: std::path::PathBuf,
        /// Only this slice (reading the slices it leads to): one job of a distributed build.
        #[arg(long, value_name = "WMWKBMBK", value_parser = parse_slice)]
        slice: Option<Material>,
        #[arg(long, value_parser = clap::value_parser!(u16).range(1..=256))]
        threads: Option<u16>,
    },
    /// Prints every slice with up to N pieces by dependency level, a line per level: the level,
    /// then its slices. The slices of a level can be built at once (`build --slice`) once the
    /// lower levels are built.
    Plan {
        /// Most pieces on the board.
        #[arg(long, value_parser = clap::value_parser!(u32).range(2..=8))]
        pieces: u32,
    },
    /// Lists the slices of DIR: positions, bytes, wins, draws, losses, greatest distance.
    Info {
        #[arg(long, value_name = "DIR")]
        dir: std::path::PathBuf,
    },
}

/// `egdb build`'s progress line: at most about once a second, and at the end of each slice.
struct Meter {
    last: Option<std::time::Duration>,
    /// Indices of slices found already built: not part of the rate.
    skipped: u64,
}

impl Meter {
    fn show(&mut self, p: &tetrad::egdb::Progress, slice_size: u64) {
        if p.skipped {
            self.skipped += slice_size;
            eprintln!(
                "egdb: slice {} ({}/{}) already built",
                p.slice, p.slice_no, p.slices
            );
            return;
        }
        let due = self
            .last
            .is_none_or(|t| p.elapsed.saturating_sub(t).as_secs_f64() >= 1.0);
        let slice_done = p.done == p.total || self.last.is_none();
        if !due && !slice_done {
            return;
        }
        self.last = Some(p.elapsed);
        let secs = p.elapsed.as_secs_f64().max(1e-3);
        let rate = (p.done - self.skipped) as f64 / secs;
        let eta = if rate > 0.0 {
            (p.total - p.done) as f64 / rate
        } else {
            0.0
        };
        eprintln!(
            "egdb: slice {} ({}/{}) {}/{} positions, {:.2} M/s, elapsed {:.0} s, ETA {:.0} s",
            p.slice,
            p.slice_no,
            p.slices,
            p.done,
            p.total,
            rate / 1e6,
            secs,
            eta
        );
    }
}

fn default_threads(threads: Option<u16>) -> usize {
    threads.map(usize::from).unwrap_or_else(|| {
        std::thread::available_parallelism()
            .map(|n| n.get())
            .unwrap_or(1)
    })
}

/// `tetrad egdb ...`: exit code 2 for a wrong argument, 1 for a failed verify.
pub fn run(action: &EgdbAction) -> anyhow::Result<ExitCode> {
    match action {
        EgdbAction::Build {
            game,
            pieces,
            slice,
            dir,
            threads,
            memory,
        } => {
            let reads = match memory {
                Some(mib) => Reads::Blocks(mib << 20),
                None => Reads::Whole,
            };
            let ours = tetrad::egdb::game();
            if !game.eq_ignore_ascii_case(ours) {
                eprintln!("tetrad: egdb build --game: only {ours} has databases, not '{game}'");
                return Ok(ExitCode::from(2));
            }
            let started = std::time::Instant::now();
            let mut meter = Meter {
                last: None,
                skipped: 0,
            };
            if let Some(m) = *slice {
                tetrad::egdb::build_slice(dir, m, default_threads(*threads), reads, &mut |p| {
                    meter.show(p, p.slice.size())
                })?;
                eprintln!(
                    "egdb: slice {m} in {}, {:.1} s",
                    dir.display(),
                    started.elapsed().as_secs_f64()
                );
                return Ok(ExitCode::SUCCESS);
            }
            // clap asks for one of --pieces and --slice.
            let pieces = pieces.unwrap_or(0);
            // Of a slice and its colour mirror, the one stored.
            let slices: Vec<Material> = slices_upto(pieces)
                .into_iter()
                .filter(|m| *m == m.canonical())
                .collect();
            let mut current = None;
            tetrad::egdb::build(dir, &slices, default_threads(*threads), reads, &mut |p| {
                if current != Some(p.slice) {
                    current = Some(p.slice);
                    meter.last = None;
                }
                meter.show(p, p.slice.size());
            })?;
            eprintln!(
                "egdb: {} slices up to {pieces} pieces in {}, {:.1} s",
                slices.len(),
                dir.display(),
                started.elapsed().as_secs_f64()
            );
            Ok(ExitCode::SUCCESS)
        }
        EgdbAction::Verify {
            dir,
            threads,
            slice,
        } => {
            let (tables, slices) = match *slice {
                Some(m) => (Tables::open_slice(dir, m)?, vec![m]),
                None => {
                    let tables = Tables::open(dir)?;
                    let all = tables.materials();
                    (tables, all)
                }
            };
            let threads = default_threads(*threads);
            let (bad, n) = tables.verify_only(&slices, threads, 20, &mut |m, n| {
                let verdict = if n == 0 {
                    "ok".to_string()
                } else {
                    format!("{n} inconsistent")
                };
                println!("slice {m}: {verdict}");
            })?;
            for b in &bad {
                println!(
                    "inconsistent: {} stored {}, its successors give {}",
                    b.position, b.stored, b.expected
                );
            }
            if n == 0 {
                println!("verified {} slices: ok", slices.len());
                Ok(ExitCode::SUCCESS)
            } else {
                println!("{n} inconsistent positions");
                Ok(ExitCode::from(1))
            }
        }
        EgdbAction::Plan { pieces } => {
            let mut out = std::io::stdout().lock();
            for (level, slices) in tetrad::egdb::plan(*pieces).iter().enumerate() {
                let names: Vec<String> = slices.iter().map(Material::to_string).collect();
                match writeln!(out, "{level} {}", names.join(" ")) {
                    Ok(()) => {}
                    // The reader has the levels it wanted (`egdb plan | head -3`).
                    Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => break,
                    Err(e) => return Err(e.into()),
                }
            }
            Ok(ExitCode::SUCCESS)
        }
        EgdbAction::Info { dir } => {
            let tables = Tables::open(dir)?;
            println!("slice positions bytes wins draws losses max_dtz");
            let mut totals = (0, 0);
            for s in tables.info() {
                println!(
                    "{} {} {} {} {} {} {}",
                    s.material, s.positions, s.bytes, s.wins, s.draws, s.losses, s.max_dtz
                );
                totals.0 += s.positions;
                totals.1 += s.bytes;
            }
            println!("total {} {}", totals.0, totals.1);
            Ok(ExitCode::SUCCESS)
        }
    }
}
