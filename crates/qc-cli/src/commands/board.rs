//! `qchess board`: a picture of the final board, for every ruleset.

use crate::game_input::{with_game, GameArgs};
use crate::output::write_stdout;
use crate::status::status_line;
use anyhow::Context;
use clap::Args;
use qc_front::BackendKind;
use qc_render::{board_svg, board_text};
use qc_rules::QuantumGame;
use std::path::PathBuf;

/// Arguments of `qchess board`.
#[derive(Args, Debug)]
pub struct BoardArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Write an SVG picture (pieces, probability rings) to this file; without it, print text.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Draw lines between squares whose occupancies are strongly correlated (|r| >= 0.5;
    /// Niel's pairs are always joined).
    #[arg(long)]
    pub links: bool,
    /// Seed for the outcomes of moves written without them.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// The simulator.
    #[arg(long, value_parser = crate::choice_arg::choice::<BackendKind>(), default_value_t = BackendKind::Sparse)]
    pub backend: BackendKind,
}

/// Runs the command (with no game: the start position).
pub fn run(args: &BoardArgs) -> anyhow::Result<()> {
    with_game!(
        args.game,
        args.backend,
        args.seed,
        false,
        |R, _loaded, game| {
            let view = game.board_view(args.links);
            match &args.svg {
                Some(path) => std::fs::write(path, board_svg::draw(&view))
                    .with_context(|| format!("cannot write {}", path.display())),
                None => write_stdout(&format!(
                    "{}{}\n",
                    board_text::draw(&view),
                    status_line(&game)
                )),
            }
        }
    )
}
