//! `qchess draw`: a circuit as a diagram (text on the terminal, SVG to a file).

use crate::commands::run::read_input;
use crate::output::write_stdout;
use crate::render::{svg_circuit, text_circuit};
use anyhow::Context;
use clap::Args;
use std::path::PathBuf;

/// Arguments of `qchess draw`.
#[derive(Args, Debug)]
pub struct DrawArgs {
    /// The circuit: an IR text file (`.qc`), or `-` for standard input.
    pub circuit: PathBuf,
    /// Write an SVG picture to this file instead of drawing text.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
}

/// Runs the command.
pub fn run(args: &DrawArgs) -> anyhow::Result<()> {
    let (name, text) = read_input(&args.circuit)?;
    let circuit = qc_ir::text::parse(&text).with_context(|| format!("cannot parse {name}"))?;
    match &args.svg {
        Some(path) => std::fs::write(path, svg_circuit::draw(&circuit))
            .with_context(|| format!("cannot write {}", path.display())),
        None => write_stdout(&text_circuit::draw(&circuit)),
    }
}
