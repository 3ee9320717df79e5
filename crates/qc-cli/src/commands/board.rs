//! `qchess board`: a picture of the final board, for every ruleset.

use crate::game_input::{open, GameArgs, SimArgs};
use crate::output::write_stdout;
use crate::status::status_line;
use anyhow::Context;
use clap::Args;
use qc_front::Game;
use qc_render::board_svg::BoardOptions;
use qc_render::{board_svg, board_text};
use qc_rules::BoardView;
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
    /// A title above the SVG board.
    #[arg(long, value_name = "TEXT", requires = "svg")]
    pub title: Option<String>,
    /// List the game's moves beside the SVG board.
    #[arg(long, requires = "svg")]
    pub move_list: bool,
    /// Highlight the squares the last move names on the SVG board.
    #[arg(long, requires = "svg")]
    pub last_move: bool,
    #[command(flatten)]
    pub sim: SimArgs,
}

/// Runs the command (with no game: the start position).
pub fn run(args: &BoardArgs) -> anyhow::Result<()> {
    let game = open(&args.game, &args.sim, false)?;
    let view = game.board_view(args.links);
    match &args.svg {
        Some(path) => std::fs::write(
            path,
            board_svg::draw_with(&view, &svg_options(args, &*game, &view)),
        )
        .with_context(|| format!("cannot write {}", path.display())),
        None => write_stdout(&format!(
            "{}{}\n",
            board_text::draw(&view),
            status_line(&*game)
        )),
    }
}

/// What `--title`, `--move-list` and `--last-move` add to the SVG board of `game`.
fn svg_options(args: &BoardArgs, game: &dyn Game, view: &BoardView) -> BoardOptions {
    let moves = game.moves();
    let plies: Vec<String> = moves.iter().map(|m| m.text.clone()).collect();
    BoardOptions {
        title: args.title.clone(),
        moves: if args.move_list {
            board_svg::move_lines(&plies, game.first_ply())
        } else {
            Vec::new()
        },
        highlight: match (args.last_move, moves.last()) {
            (true, Some(last)) => board_svg::squares_named(&last.text, view),
            _ => Vec::new(),
        },
        ..BoardOptions::default()
    }
}
