//! Where a command's game comes from and how it is played: a game file, standard input (`-`),
//! or `--moves` with an optional `--fen`, under the ruleset `--rules` names. Everything here is
//! written once against `qc_rules::Ruleset`; `with_game!` picks the ruleset and the simulator
//! (enum dispatch that monomorphises each pair, like `with_backend!`). Errors name the file (or
//! `--moves`), the move number, the line and column, and what was wrong.

use anyhow::{bail, Context};
use clap::{Args, ValueEnum};
use qc_ir::Backend;
use qc_rules::{GameFile, QuantumGame, Ruleset};
use rand::Rng;
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
}

/// Which quantum chess the game is played under. A new ruleset is one more arm here and in
/// `with_rules!` (see docs/architecture.md).
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
    /// Rule options (Niel's Chess: simplified (default), full, hadamard, hadamard-plus,
    /// deterministic, tunnelling, no-box, joined by `+`, e.g. "full+hadamard"). Overrides a game
    /// file's Variant tag.
    #[arg(long, value_name = "OPTIONS")]
    pub variant: Option<String>,
    /// After the given moves, play this many random legal moves (moves picked and outcomes
    /// sampled with --seed).
    #[arg(long, value_name = "N")]
    pub random_plies: Option<usize>,
}

/// Runs `$body` with the type `$rules` bound to the chosen ruleset (`qc_rules::Cantwell`, ...).
macro_rules! with_rules {
    ($choice:expr, |$rules:ident| $body:expr) => {
        match $choice {
            $crate::game_input::RulesChoice::Cantwell => {
                type $rules = qc_rules::Cantwell;
                $body
            }
            $crate::game_input::RulesChoice::Niels => {
                type $rules = qc_rules::Niels;
                $body
            }
        }
    };
}

/// Loads the game `$args` (a `GameArgs`) gives and plays it on the simulator `$backend` (a
/// `BackendKind`, or a pair `(BackendKind, Precision)`) with `$seed`; runs `$body` with `$loaded` (a `Loaded<R>`) and `$game` (an
/// `R::Game<B>`) bound, and the type `$rules` bound to the ruleset. `$required`: whether a game
/// must be given (otherwise: the start position, no moves).
macro_rules! with_game {
    // With a precision for the dense simulator: `(backend, precision)`, checked first.
    ($args:expr, ($backend:expr, $precision:expr), $seed:expr, $required:expr,
     |$rules:ident, $loaded:ident, $game:ident| $body:expr) => {{
        $crate::backend_choice::check_precision($backend, $precision)?;
        $crate::game_input::with_rules!($args.rules.rules, |$rules| {
            let $loaded = $crate::game_input::load::<$rules>(&$args, $required)?;
            $crate::backend_choice::with_backend!($backend, $precision, |backend| {
                #[allow(unused_mut, reason = "only play mutates the game")]
                let mut $game = $crate::game_input::replay::<$rules, _>(&$loaded, backend, $seed)?;
                $body
            })
        })
    }};
    ($args:expr, $backend:expr, $seed:expr, $required:expr,
     |$rules:ident, $loaded:ident, $game:ident| $body:expr) => {
        $crate::game_input::with_rules!($args.rules.rules, |$rules| {
            let $loaded = $crate::game_input::load::<$rules>(&$args, $required)?;
            $crate::backend_choice::with_backend!($backend, |backend| {
                #[allow(unused_mut, reason = "only play mutates the game")]
                let mut $game = $crate::game_input::replay::<$rules, _>(&$loaded, backend, $seed)?;
                $body
            })
        })
    };
}

pub(crate) use {with_game, with_rules};

/// A loaded game and a name for messages.
pub struct Loaded<R: Ruleset> {
    /// `path`, `<stdin>` or `--moves`.
    pub source: String,
    /// The tags, the start position and the moves.
    pub text: GameFile<R::Start, R::Move>,
    /// Random moves to play after the given ones.
    pub random_plies: usize,
}

/// The RNG every command uses for sampled outcomes, so that a seed means the same game
/// everywhere (the Python package uses the same one).
pub use qc_front::rng;

/// The RNG `--random-plies` picks moves with: a stream apart from the outcomes', so that
/// picking a move does not shift the outcomes.
pub fn pick_rng(seed: u64) -> rand_chacha::ChaCha8Rng {
    rng(seed ^ 0x9E37_79B9_7F4A_7C15)
}

/// Loads the game `args` give under ruleset `R`; with nothing given, the standard start and no
/// moves, unless `required`.
pub fn load<R: Ruleset>(args: &GameArgs, required: bool) -> anyhow::Result<Loaded<R>> {
    let options = args.rules.variant.as_deref();
    let random_plies = args.rules.random_plies.unwrap_or(0);
    if let Some(path) = &args.game {
        let (source, text) = crate::input::read_input(path)?;
        let text = R::read_game(&text, options).with_context(|| source.clone())?;
        return Ok(Loaded {
            source,
            text,
            random_plies,
        });
    }
    let start = R::start(args.fen.as_deref(), options).context(if args.fen.is_some() {
        "--fen"
    } else {
        "--variant"
    })?;
    if required && args.moves.is_none() && args.fen.is_none() && random_plies == 0 {
        bail!("no game given: pass a game file, `-` for standard input, or --moves \"...\" [--fen FEN]");
    }
    let moves = match &args.moves {
        Some(m) => R::read_moves(m).context("--moves")?,
        None => Vec::new(),
    };
    Ok(Loaded {
        source: "--moves".into(),
        text: GameFile {
            moves,
            ..GameFile::new(start)
        },
        random_plies,
    })
}

/// Plays every move of `loaded` on `backend` (outcomes not written in are sampled with `seed`),
/// then what the file records after them (a claim), then its random plies.
pub fn replay<R: Ruleset, B: Backend>(
    loaded: &Loaded<R>,
    backend: B,
    seed: u64,
) -> anyhow::Result<R::Game<B>> {
    let mut game = R::game_for(&loaded.text, backend)
        .with_context(|| format!("{}: cannot set up the start position", loaded.source))?;
    let mut dice = rng(seed);
    for (index, m) in loaded.text.moves.iter().enumerate() {
        game.play(&m.mv, &mut dice).with_context(|| {
            let place = if m.line == 0 {
                String::new()
            } else {
                format!(", line {}, column {}", m.line, m.column)
            };
            format!("{}: move {} `{}`{place}", loaded.source, index + 1, m.mv)
        })?;
    }
    R::finish_replay(&loaded.text, &mut game).with_context(|| loaded.source.clone())?;
    let mut pick = pick_rng(seed);
    for _ in 0..loaded.random_plies {
        if !play_random(&mut game, &mut pick, &mut dice)? {
            break;
        }
    }
    Ok(game)
}

/// Plays one legal move picked uniformly with `pick`; a move the engine refuses after all (one
/// that would leave the state unchanged) is dropped and another picked. False when no move can
/// be played.
pub fn play_random<G: QuantumGame>(
    game: &mut G,
    pick: &mut impl Rng,
    dice: &mut impl Rng,
) -> anyhow::Result<bool> {
    let mut moves = game.legal_moves();
    while !moves.is_empty() {
        let mv = moves.swap_remove(pick.gen_range(0..moves.len()));
        if game.play(&mv.mv, dice).is_ok() {
            return Ok(true);
        }
    }
    Ok(false)
}
