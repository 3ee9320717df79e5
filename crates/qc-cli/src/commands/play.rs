//! `qchess play`: an interactive game on the terminal, also usable with a script piped into
//! standard input, for every ruleset. Each line is a move or a command (`help` lists them; see
//! `crate::repl`). A bad move or command prints an error and the game goes on; the exit code is
//! 0 unless input cannot be read.

use crate::game_input::{open, GameArgs, SimArgs};
use crate::repl;
use clap::Args;

/// Arguments of `qchess play`.
#[derive(Args, Debug)]
pub struct PlayArgs {
    /// Start from this game (its moves are played first) or position; default: the start.
    #[command(flatten)]
    pub game: GameArgs,
    #[command(flatten)]
    pub sim: SimArgs,
}

/// Runs the command.
pub fn run(args: &PlayArgs) -> anyhow::Result<()> {
    let session = open(&args.game, &args.sim, false)?;
    // `save` without a name writes back to the game file play started from.
    let file = args.game.game.clone().filter(|p| p.as_os_str() != "-");
    let mut repl = repl::start(session, file)?;
    repl::run(&mut repl)
}
