//! `qchess serve`: the game in a browser. The server, the page and the JSON API are crate
//! `qc-web`; this command loads the page's first game as every command loads a game and hands
//! it over as a game file with every outcome written in, so that the page starts from exactly
//! the game given.

use crate::game_input::{open, GameArgs, SimArgs};
use crate::output::write_stdout;
use clap::Args;
use qc_front::BackendKind;
use qc_sim::Precision;
use qc_web::{Limits, NewGame};

/// Arguments of `qchess serve`.
#[derive(Args, Debug)]
pub struct ServeArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// The port on 127.0.0.1 (0: a free port; the address is printed either way).
    #[arg(long, default_value_t = 8765)]
    pub port: u16,
    /// Seed for the outcomes of moves written without them (the given game's, then the page's).
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

/// Runs the command until Ctrl-C.
pub fn run(args: &ServeArgs) -> anyhow::Result<()> {
    // The page plays on the sparse simulator; only the seed is the user's.
    let sim = SimArgs {
        backend: BackendKind::Sparse,
        precision: Precision::Double,
        seed: args.seed,
    };
    let game = open(&args.game, &sim, false)?;
    let initial = NewGame {
        rules: game.rules(),
        variant: game.options_name(),
        game: Some(game.game_file(true)),
        seed: args.seed,
        ..NewGame::default()
    };
    qc_web::serve_until_signal(args.port, Limits::default(), initial, |url| {
        // The address first, alone on its line, for scripts that start the server on port 0.
        let _ = write_stdout(&format!(
            "{url}\nqchess serve: open {url} in a browser; Ctrl-C stops the server\n"
        ));
    })?;
    Ok(())
}
