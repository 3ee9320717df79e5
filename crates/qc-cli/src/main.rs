//! `qchess`: the Quantum Chess compiler and simulator command line.
//!
//! Errors go to standard error with their full context chain and exit code 2; a closed standard
//! output (e.g. `qchess run x | head -1`) ends the program quietly with code 0.

mod commands;
mod output;
mod render;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Quantum Chess games as real quantum circuits: compile, simulate, inspect.
#[derive(Parser, Debug)]
#[command(name = "qchess", version, about, long_about = None)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Simulate a circuit file (IR text) and print the exact probabilities of its classical bits.
    ///
    /// Bit strings are in Qiskit's order: the rightmost character is clbit 0.
    ///
    /// Example: qchess run circuits/bell_feedforward.qc --json
    Run(commands::run::RunArgs),
    /// Draw a circuit as a diagram: text on the terminal, or SVG with --svg FILE.
    ///
    /// Wires are named by square (e4) or ancilla (path0, cap0, meas0); filled dots are 1-controls,
    /// open dots 0-controls; "if c0=1" marks a classically conditioned instruction.
    ///
    /// Example: qchess draw circuits/split_and_measure.qc
    Draw(commands::draw::DrawArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Run(args) => commands::run::run(&args),
        Command::Draw(args) => commands::draw::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) if output::is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            output::print_error(&err);
            ExitCode::from(2)
        }
    }
}
