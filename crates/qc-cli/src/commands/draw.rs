//! `qchess draw`: the circuit of a game, of one of its moves, or of an IR file, as a diagram
//! (text on the terminal, SVG to a file). Only the qubits the drawn instructions use get a wire;
//! a game's moves are labelled with their number and notation, Niel's wires are named by the
//! pair they stand for, and in a whole game the set-up wires of squares no move touches are
//! left out unless `--all-wires` asks for them.

use crate::circuit_input::read_circuit_text;
use crate::game_input::{open, GameArgs, SimArgs};
use crate::output::{terminal_width, write_stdout};
use anyhow::Context;
use clap::Args;
use qc_render::layout::{Annotations, TooLarge};
use qc_render::svg_circuit::SvgOptions;
use qc_render::text_circuit::TextOptions;
use qc_render::{svg_circuit, text_circuit};
use std::path::PathBuf;

/// Arguments of `qchess draw`.
#[derive(Args, Debug)]
pub struct DrawArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Draw a circuit file instead of a game: IR text, IR JSON or OpenQASM 2/3 (as `qchess run`
    /// reads them). A program `qchess compile` wrote has its wires named by square and, for no
    /// hardware target, the qchess library's gates drawn as boxes (see --as-written).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["game", "moves", "fen"])]
    pub circuit: Option<PathBuf>,
    /// Draw the circuit file's gates exactly as read: no runs drawn as the table gate they
    /// amount to.
    #[arg(long, requires = "circuit")]
    pub as_written: bool,
    /// Draw only this move of the game (1 = the first move; 0 = the set-up).
    #[arg(long = "move", value_name = "N")]
    pub move_number: Option<usize>,
    /// Draw every set-up wire, also those of squares no move touches (left out by default when
    /// drawing a whole game).
    #[arg(long)]
    pub all_wires: bool,
    /// Write an SVG picture to this file instead of drawing text.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Cut the drawing into bands of at most N characters per line (text) or rows of at most N
    /// pixels (SVG), one under the other, each starting with the wire names (an SVG row shows
    /// only the wires its instructions use); cuts fall between moves where they can, never
    /// through a gate. 0 = one band however wide. Default: text, the terminal's width when
    /// standard output is a terminal, else one band; SVG, 1200 pixels.
    #[arg(long, value_name = "N")]
    pub width: Option<usize>,
    /// Highlight move N in the SVG picture (1 = the first move; 0 = the set-up).
    #[arg(long, value_name = "N", requires = "svg", conflicts_with = "circuit")]
    pub highlight: Option<usize>,
    #[command(flatten)]
    pub sim: SimArgs,
}

/// Runs the command.
pub fn run(args: &DrawArgs) -> anyhow::Result<()> {
    let (circuit, notes) = match &args.circuit {
        Some(path) => {
            let (_, text, circuit) = read_circuit_text(path)?;
            qc_front::program::drawing(&text, circuit, args.as_written)
        }
        None => open(&args.game, &args.sim, true)?.drawing(args.move_number, args.all_wires)?,
    };
    let too_large =
        |e: TooLarge| anyhow::anyhow!("{e}; draw one move (--move N) or a smaller circuit");
    match &args.svg {
        Some(path) => {
            let options = SvgOptions {
                width: match args.width {
                    Some(0) => None,
                    Some(n) => Some(n as f64),
                    None => Some(svg_circuit::DEFAULT_WIDTH),
                },
                highlight: args.highlight.map(|n| highlighted_section(&notes, n)),
            };
            let svg = svg_circuit::draw_with(&circuit, &notes, &options).map_err(too_large)?;
            std::fs::write(path, svg).with_context(|| format!("cannot write {}", path.display()))
        }
        None => {
            let width = match args.width {
                Some(0) => None,
                Some(n) => Some(n),
                None => terminal_width(),
            };
            let text = text_circuit::draw_with(&circuit, &notes, TextOptions { width })
                .map_err(too_large)?;
            write_stdout(&text)
        }
    }
}

/// The section that shows move `n` (0 = the set-up): sections are labelled `set-up` and `n. ...`.
fn highlighted_section(notes: &Annotations, n: usize) -> usize {
    let prefix = format!("{n}. ");
    notes
        .sections
        .iter()
        .position(|s| {
            if n == 0 {
                s.label == "set-up"
            } else {
                s.label.starts_with(&prefix)
            }
        })
        .unwrap_or(usize::MAX)
}
