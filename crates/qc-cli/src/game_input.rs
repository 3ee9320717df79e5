//! The argument groups the commands share, each flag declared once with one default: where a
//! command's game comes from ([`GameArgs`]: a game file, standard input (`-`), or `--moves` with
//! an optional `--fen`), under which ruleset ([`RulesArgs`]), and on which simulator with which
//! seed ([`SimulatorArgs`], [`SimArgs`]); and [`open`], which opens them as a `qc_front::Session` (the front ends'
//! one dispatch from names to types). Errors name the file (or `--moves`, `--fen`,
//! `--variant`), the move number, the line and column, and what was wrong.

use anyhow::bail;
use clap::Args;
use qc_front::{BackendKind, GameInput, Input, RulesKind, Session, SessionError, SessionSpec};
use qc_sim::Precision;
use std::path::PathBuf;

/// The options every game-reading command shares.
#[derive(Args, Debug, Clone, Default)]
pub struct GameArgs {
    /// A game file (see docs/notation.md), or `-` for standard input.
    #[arg(value_name = "GAME")]
    pub game: Option<PathBuf>,
    /// Moves instead of a game file, e.g. "e2e4 b8^a6c6".
    #[arg(long, value_name = "MOVES", conflicts_with = "game")]
    pub moves: Option<String>,
    /// The starting position for --moves (the ruleset's FEN; default: the standard start).
    #[arg(long, value_name = "FEN", conflicts_with = "game")]
    pub fen: Option<String>,
    #[command(flatten)]
    pub rules: RulesArgs,
    /// After the given moves, play this many random legal moves (moves picked and outcomes
    /// sampled with --seed).
    #[arg(long, value_name = "N")]
    pub random_plies: Option<usize>,
}

/// The ruleset and its options (every game command, `uqci`, `match`).
#[derive(Args, Debug, Clone, Default)]
pub struct RulesArgs {
    /// The ruleset. Default: a game file's own (by its extension, .qcg or .qng, else by its
    /// tags: a Variant tag is Niel's Chess), else cantwell.
    #[arg(long, value_parser = crate::choice_arg::choice::<RulesKind>())]
    pub rules: Option<RulesKind>,
    /// Rule options (Niel's Chess: simplified (default), full, hadamard, hadamard-plus,
    /// deterministic, tunnelling, no-box, joined by `+`, e.g. "full+hadamard"). Overrides a game
    /// file's Variant tag.
    #[arg(long, value_name = "OPTIONS")]
    pub variant: Option<String>,
}

/// The simulator and its precision (every command that simulates).
#[derive(Args, Debug, Clone, Copy, Default)]
pub struct SimulatorArgs {
    /// The simulator.
    #[arg(long, value_parser = crate::choice_arg::choice::<BackendKind>(), default_value_t = BackendKind::Sparse)]
    pub backend: BackendKind,
    /// Amplitude precision of the dense simulator: double (complex128, default) or single
    /// (complex64, `--backend dense` only: half the memory, faster; about 7 significant digits
    /// as in qsim, so probabilities agree with double to about 1e-6 and those below 1e-10 read
    /// as 0).
    #[arg(long, value_parser = crate::choice_arg::choice::<Precision>(), default_value_t = Precision::Double)]
    pub precision: Precision,
}

/// The simulator, its precision and the seed (every command that simulates, but `play`, whose
/// seed is fresh by default).
#[derive(Args, Debug, Clone, Copy, Default)]
pub struct SimArgs {
    #[command(flatten)]
    pub simulator: SimulatorArgs,
    /// Seed of everything sampled: the outcomes of moves written without them, random moves,
    /// shots, the device compiler's routing trials (an output is a function of its input, the
    /// options and the seed).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

impl RulesArgs {
    /// The ruleset `--rules` names, Quantum Chess when it names none.
    pub fn kind(&self) -> RulesKind {
        self.rules.unwrap_or(RulesKind::Cantwell)
    }

    /// The ruleset for the game file `name` with text `text`: the one `--rules` names, else
    /// the file's own ([`RulesKind::of_game_file`]).
    pub fn for_file(&self, name: &str, text: &str) -> RulesKind {
        self.rules
            .unwrap_or_else(|| RulesKind::of_game_file(name, text))
    }
}

impl SimArgs {
    /// The session these options name, under the ruleset `rules` (with `variant`'s options).
    pub fn spec(&self, rules: RulesKind, variant: Option<String>) -> SessionSpec {
        SessionSpec {
            rules,
            variant,
            backend: self.simulator.backend,
            precision: self.simulator.precision,
            seed: self.seed,
        }
    }
}

pub use qc_front::fresh_seed;

/// Opens the game `game` gives on the simulator `sim` names: read, replayed (outcomes not
/// written in sampled with the seed), then its random plies. With nothing given: the standard
/// start and no moves, unless `required`.
///
/// # Errors
/// The input cannot be read, does not parse, a move is refused, or `required` and no game.
pub fn open(game: &GameArgs, sim: &SimArgs, required: bool) -> anyhow::Result<Session> {
    let random_plies = game.random_plies.unwrap_or(0);
    let file = match &game.game {
        Some(path) => Some(crate::input::read_input(path)?),
        None => None,
    };
    let (rules, input) = match &file {
        Some((name, text)) => (
            game.rules.for_file(name, text),
            GameInput::File { name, text },
        ),
        None => (
            game.rules.kind(),
            GameInput::Position {
                name: "--moves",
                fen: game.fen.as_deref(),
                moves: game.moves.as_deref(),
            },
        ),
    };
    let spec = sim.spec(rules, game.rules.variant.clone());
    let session = Session::open(&spec, input, random_plies).map_err(cli_error)?;
    if required && file.is_none() && game.moves.is_none() && game.fen.is_none() && random_plies == 0
    {
        bail!("no game given: pass a game file, `-` for standard input, or --moves \"...\" [--fen FEN]");
    }
    Ok(session)
}

/// A session's error with what was read named as the command line names it (`--fen`).
pub fn cli_error(error: SessionError) -> anyhow::Error {
    match error {
        SessionError::Read { input, source } => {
            let what = match input {
                Input::File(name) => name,
                Input::Fen => "--fen".into(),
                Input::Variant => "--variant".into(),
                Input::Moves => "--moves".into(),
            };
            anyhow::Error::new(source).context(what)
        }
        other => anyhow::Error::new(other),
    }
}
