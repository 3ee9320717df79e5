//! `qchess draw`: the circuit of a game, of one of its moves, or of an IR file, as a diagram
//! (text on the terminal, SVG to a file). Only the qubits the drawn instructions use get a wire;
//! a game's moves are labelled with their chess number and notation (`2. a3c3^b1`, `1... g8f6`), Niel's wires are named by the
//! pair they stand for, and in a whole game the set-up wires of squares no move touches are
//! left out unless `--all-wires` asks for them.

use crate::circuit_input::read_circuit_text;
use crate::game_input::{open, GameArgs, SimArgs};
use crate::output::{terminal_width, write_stdout};
use anyhow::Context;
use clap::Args;
use qc_front::Game;
use qc_render::layout::{Annotations, TooLarge};
use qc_render::svg_circuit::SvgOptions;
use qc_render::text_circuit::TextOptions;
use qc_render::{svg_circuit, text_circuit};
use qc_rules::MoveRef;
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
    /// Draw only this move of the game, numbered as its record numbers it: 5 or 5. (White's
    /// fifth move), 5... (Black's fifth), 0 (the set-up).
    #[arg(long = "move", value_name = "N")]
    pub move_number: Option<MoveRef>,
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
    /// Highlight move N in the SVG picture (5 or 5. White's fifth move, 5... Black's, 0 the
    /// set-up).
    #[arg(long, value_name = "N", requires = "svg", conflicts_with = "circuit")]
    pub highlight: Option<MoveRef>,
    #[command(flatten)]
    pub sim: SimArgs,
}

/// Runs the command.
pub fn run(args: &DrawArgs) -> anyhow::Result<()> {
    let mut highlight = None;
    let (circuit, notes) = match &args.circuit {
        Some(path) => {
            let (_, text, circuit) = read_circuit_text(path)?;
            qc_front::program::drawing(&text, circuit, args.as_written)
        }
        None => {
            let game = open(&args.game, &args.sim, true)?;
            let ply = |which: MoveRef, option: &str| {
                which
                    .ply_index(game.first_ply(), game.moves().len())
                    .with_context(|| format!("{option} {}", display_ref(which)))
            };
            let only = args.move_number.map(|m| ply(m, "--move")).transpose()?;
            if let Some(which) = args.highlight {
                highlight = Some(section_label(&*game, ply(which, "--highlight")?));
            }
            game.drawing(only, args.all_wires)?
        }
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
                highlight: highlight.map(|label| highlighted_section(&notes, &label)),
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

/// The label of the section that shows move `n` of `game` (1 = the first; 0 = the set-up), as
/// `qc_render::game_drawing` labels it: `set-up`, `2. ...`, `1... ...`.
fn section_label(game: &dyn Game, n: usize) -> String {
    match n.checked_sub(1) {
        None => "set-up".into(),
        Some(index) => format!("{} ", game.move_number(index)),
    }
}

/// The section whose label starts with `label` (none: `usize::MAX`, nothing highlighted).
fn highlighted_section(notes: &Annotations, label: &str) -> usize {
    notes
        .sections
        .iter()
        .position(|s| s.label.starts_with(label))
        .unwrap_or(usize::MAX)
}

/// A move reference as it was given (`5...`, `0`).
fn display_ref(which: MoveRef) -> String {
    match which {
        MoveRef::SetUp => "0".into(),
        MoveRef::Move(number) => number.to_string(),
    }
}
