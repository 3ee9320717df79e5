//! `qchess play`: an interactive game on the terminal, also usable with a script piped into
//! standard input, for every ruleset. Each line is a move or a command (`help` lists them; see
//! `crate::repl`). A bad move or command prints an error and the game goes on; the exit code is
//! 0 unless input cannot be read.

use crate::game_input::{fresh_seed, open, GameArgs, SimArgs, SimulatorArgs};
use crate::repl::{self, Settings};
use clap::Args;
use qc_rules::Color;
use std::time::Duration;

/// Arguments of `qchess play`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    /// Start from this game (its moves are played first) or position; default: the start.
    #[command(flatten)]
    pub game: GameArgs,
    #[command(flatten)]
    pub simulator: SimulatorArgs,
    /// Seed of the outcomes of moves written without them and of random moves. Default: a
    /// fresh random seed for every session, printed at the start, so that `--seed N` replays
    /// the same outcomes.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Let the engine (the search of `qchess uqci` and the web page) play this side: it moves
    /// whenever that side is to move. `go` makes it move for either side.
    #[arg(long, value_parser = crate::choice_arg::choice::<EngineSide>())]
    pub engine: Option<EngineSide>,
    /// The engine's time per move in milliseconds (`go` and --engine). At most 600000.
    #[arg(long, value_name = "MS", default_value_t = 1000, value_parser = clap::value_parser!(u64).range(1..=repl::MAX_MOVETIME_MS))]
    pub movetime: u64,
    /// After a move, print one status line instead of the whole board (`board` shows it;
    /// `compact` switches).
    #[arg(long)]
    pub compact: bool,
}

/// The side `--engine` gives the engine.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct EngineSide(pub Color);

qc_ir::choice!(EngineSide, "engine side", [
    "white" => EngineSide(Color::White), "the engine plays White (and moves first from the standard start)",
    "black" => EngineSide(Color::Black), "the engine plays Black",
]);

/// Runs the command.
pub fn run(args: &PlayArgs) -> anyhow::Result<()> {
    let seed = args.seed.unwrap_or_else(fresh_seed);
    let sim = SimArgs {
        simulator: args.simulator,
        seed,
    };
    let session = open(&args.game, &sim, false)?;
    // `save` without a name writes back to the game file play started from.
    let file = args.game.game.clone().filter(|p| p.as_os_str() != "-");
    let settings = Settings {
        engine: args.engine.map(|EngineSide(side)| side),
        movetime: Duration::from_millis(args.movetime),
        compact: args.compact,
        interactive: std::io::IsTerminal::is_terminal(&std::io::stdin()),
    };
    let mut repl = repl::start(session, file, settings)?;
    repl::run(&mut repl)
}
