//! Where a command's game comes from: a game file, standard input (`-`), or `--moves` with an
//! optional `--fen`. Every source becomes a [`qc_rules::GameRecord`]; errors name the file (or
//! `--moves`), the line and column, and what was wrong.

use anyhow::{bail, Context};
use clap::{Args, ValueEnum};
use qc_rules::{parse_move_list, Board, GameRecord};
use std::path::PathBuf;

/// The options every game-reading command shares.
#[derive(Args, Debug, Clone, Default)]
pub struct GameArgs {
    /// A game file (PGN-like, see docs/notation.md), or `-` for standard input.
    #[arg(value_name = "GAME")]
    pub game: Option<PathBuf>,
    /// Moves in QCAN instead of a game file, e.g. "e2e4 b8^a6c6".
    #[arg(long, value_name = "MOVES", conflicts_with = "game")]
    pub moves: Option<String>,
    /// The starting position for --moves (standard FEN; default: the standard start).
    #[arg(long, value_name = "FEN", conflicts_with = "game")]
    pub fen: Option<String>,
    #[command(flatten)]
    pub rules: RulesArgs,
}

/// Which quantum chess the game is played under.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum RulesChoice {
    /// Cantwell's Quantum Chess (QCAN moves, docs/notation.md).
    #[default]
    Cantwell,
    /// Niel's Chess, "piece in a box" (docs/niels.md).
    Niels,
}

/// The ruleset options every game command shares.
#[derive(Args, Debug, Clone, Default)]
pub struct RulesArgs {
    /// The ruleset: cantwell (default) or niels.
    #[arg(long, value_enum, default_value_t = RulesChoice::Cantwell)]
    pub rules: RulesChoice,
    /// Niel's rule options joined by `+`: simplified (default), full, hadamard, tunnelling,
    /// no-box; e.g. "full+hadamard". Overrides a game file's Variant tag.
    #[arg(long, value_name = "OPTIONS")]
    pub variant: Option<String>,
    /// Niel's Chess: after the given moves, play this many random legal moves (dice seeded
    /// with --seed).
    #[arg(long, value_name = "N")]
    pub random_plies: Option<usize>,
}

impl RulesArgs {
    /// True for `--rules niels`; Niel's-only options with the Cantwell rules are an error.
    pub fn is_niels(&self) -> anyhow::Result<bool> {
        if self.rules == RulesChoice::Niels {
            return Ok(true);
        }
        if self.variant.is_some() || self.random_plies.is_some() {
            bail!("--variant and --random-plies need --rules niels");
        }
        Ok(false)
    }
}

/// A loaded game and a name for messages.
pub struct LoadedGame {
    /// `path`, `<stdin>` or `--moves`.
    pub source: String,
    /// The record.
    pub record: GameRecord,
}

impl GameArgs {
    /// True when no game was given at all.
    pub fn is_empty(&self) -> bool {
        self.game.is_none() && self.moves.is_none() && self.fen.is_none()
    }

    /// Loads the game; with nothing given, the standard start position and no moves.
    pub fn load(&self) -> anyhow::Result<LoadedGame> {
        if let Some(path) = &self.game {
            let (source, text) = crate::commands::run::read_input(path)?;
            let record = GameRecord::parse(&text).with_context(|| source.clone())?;
            return Ok(LoadedGame { source, record });
        }
        let start = match &self.fen {
            Some(fen) => Board::from_fen(fen).context("--fen")?,
            None => Board::start(),
        };
        let mut record = GameRecord {
            start,
            ..GameRecord::default()
        };
        if let Some(moves) = &self.moves {
            for qcan in parse_move_list(moves).context("--moves")? {
                record.push_move(qcan);
            }
        }
        Ok(LoadedGame {
            source: "--moves".into(),
            record,
        })
    }

    /// Loads the game, requiring that one was given.
    pub fn load_required(&self) -> anyhow::Result<LoadedGame> {
        if self.is_empty() {
            bail!("no game given: pass a game file, `-` for standard input, or --moves \"...\" [--fen FEN]");
        }
        self.load()
    }
}
