//! The learned-evaluation pipeline: self-play data (`tetrad selfplay`, [`selfplay`]) and
//! training ([`train`], `tetrad train`); the engine reads the weights it writes through the
//! game's `eval_file` option, and ships them in the game's folder (docs/strength/engine.md, "Learned
//! evaluation").

pub mod network;
pub mod selfplay;
pub mod train;

use std::io::{self, Write};

use crate::games::prelude::*;
use crate::games::{GameKind, GameVisitor, RuleError};

/// Why `tetrad selfplay` stopped.
#[derive(Debug, thiserror::Error)]
pub enum SelfplayError {
    #[error("option {name}: {error}")]
    Option { name: String, error: RuleError },
    #[error("unknown option '{0}' for this game")]
    UnknownOption(String),
    #[error(transparent)]
    Io(#[from] io::Error),
}

/// Sets game options given as `(name, value)` pairs.
fn with_options<G: Game>(game: &mut G, options: &[(String, String)]) -> Result<(), SelfplayError> {
    for (name, value) in options {
        match game.set_option(name, value) {
            Ok(true) => {}
            Ok(false) => return Err(SelfplayError::UnknownOption(name.clone())),
            Err(error) => {
                return Err(SelfplayError::Option {
                    name: name.clone(),
                    error,
                })
            }
        }
    }
    Ok(())
}

struct Selfplay<'a> {
    settings: &'a selfplay::Settings,
    options: &'a [(String, String)],
    out: &'a mut dyn Write,
    progress: &'a mut dyn Write,
}

impl GameVisitor for Selfplay<'_> {
    type Output = Result<selfplay::Summary, SelfplayError>;
    fn visit<G: Game>(self, mut game: G) -> Self::Output {
        with_options(&mut game, self.options)?;
        Ok(selfplay::selfplay(
            &game,
            self.settings,
            self.out,
            self.progress,
        )?)
    }
}

/// `tetrad selfplay` for a built-in game, with game options set first (`eval learned`).
pub fn selfplay_kind(
    kind: GameKind,
    settings: &selfplay::Settings,
    options: &[(String, String)],
    out: &mut dyn Write,
    progress: &mut dyn Write,
) -> Result<selfplay::Summary, SelfplayError> {
    kind.visit(Selfplay {
        settings,
        options,
        out,
        progress,
    })
}

struct Train<'a> {
    data: &'a str,
    settings: &'a train::Settings,
    command: &'a str,
}

impl GameVisitor for Train<'_> {
    type Output = Result<train::Trained, train::TrainError>;
    fn visit<G: Game>(self, game: G) -> Self::Output {
        train::train(&game, self.data, self.settings, self.command)
    }
}

/// `tetrad train` for a built-in game.
pub fn train_kind(
    kind: GameKind,
    data: &str,
    settings: &train::Settings,
    command: &str,
) -> Result<train::Trained, train::TrainError> {
    kind.visit(Train {
        data,
        settings,
        command,
    })
}
