//! `qchess play`: an interactive game on the terminal, also usable with a script piped into
//! standard input, for every ruleset. Each line is a move or a command (`help` lists them; see
//! `crate::repl`). A bad move or command prints an error and the game goes on; the exit code is
//! 0 unless input cannot be read.

use crate::game_input::{with_game, GameArgs};
use crate::repl;
use clap::Args;
use qc_front::BackendKind;

/// Arguments of `qchess play`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    /// Start from this game (its moves are played first) or position; default: the start.
    #[command(flatten)]
    pub game: GameArgs,
    /// Seed for measurement outcomes (and for the game's moves written without them).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// The simulator.
    #[arg(long, value_parser = crate::choice_arg::choice::<BackendKind>(), default_value_t = BackendKind::Reference)]
    pub backend: BackendKind,
}

/// Runs the command.
pub fn run(args: &PlayArgs) -> anyhow::Result<()> {
    with_game!(
        args.game,
        args.backend,
        args.seed,
        false,
        |R, loaded, game| {
            // `save` without a name writes back to the game file play started from.
            let file = args.game.game.clone().filter(|p| p.as_os_str() != "-");
            let mut session =
                repl::start::<R, _>(game, loaded.text.start.clone(), args.seed, file)?;
            repl::run(&mut session)
        }
    )
}
