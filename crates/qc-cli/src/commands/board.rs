//! `qchess board`: a picture of the final board.

use crate::backend_choice::{with_backend, BackendChoice};
use crate::game_input::GameArgs;
use crate::output::write_stdout;
use crate::render::{board_svg, board_text};
use crate::replay::replay;
use crate::views::board_view;
use anyhow::Context;
use clap::Args;
use std::path::PathBuf;

/// Arguments of `qchess board`.
#[derive(Args, Debug)]
pub struct BoardArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Write an SVG picture (pieces, probability rings) to this file; without it, print text.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Draw lines between squares whose occupancies are strongly correlated (|r| >= 0.5).
    #[arg(long)]
    pub links: bool,
    /// Seed for the outcomes of moves written without .m0/.m1.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
}

/// Runs the command.
pub fn run(args: &BoardArgs) -> anyhow::Result<()> {
    if args.game.rules.is_niels()? {
        return crate::niels::board_svg::run(args);
    }
    let loaded = args.game.load()?;
    with_backend!(BackendChoice::Sparse, |backend| {
        let game = replay(&loaded, backend, args.seed)?;
        let view = board_view(&game, args.links);
        match &args.svg {
            Some(path) => std::fs::write(path, board_svg::draw(&view))
                .with_context(|| format!("cannot write {}", path.display())),
            None => write_stdout(&format!(
                "{}{}\n",
                board_text::draw(&view),
                board_text::LEGEND
            )),
        }
    })
}
