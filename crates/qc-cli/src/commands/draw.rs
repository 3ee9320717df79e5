//! `qchess draw`: the circuit of a game, of one of its moves, or of an IR file, as a diagram
//! (text on the terminal, SVG to a file). Only the qubits the drawn instructions use get a wire.

use crate::backend_choice::BackendChoice;
use crate::circuit_input::read_circuit;
use crate::game_input::{with_game, GameArgs};
use crate::output::write_stdout;
use anyhow::{bail, Context};
use clap::Args;
use qc_ir::{Circuit, Instruction};
use qc_render::{svg_circuit, text_circuit};
use qc_rules::QuantumGame;
use std::path::PathBuf;

/// Arguments of `qchess draw`.
#[derive(Args, Debug)]
pub struct DrawArgs {
    #[command(flatten)]
    pub game: GameArgs,
    /// Draw a circuit file instead of a game: IR text, IR JSON or OpenQASM 2/3 (as `qchess run`
    /// reads them).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["game", "moves", "fen"])]
    pub circuit: Option<PathBuf>,
    /// Draw only this move of the game (1 = the first move; 0 = the set-up).
    #[arg(long = "move", value_name = "N")]
    pub move_number: Option<usize>,
    /// Write an SVG picture to this file instead of drawing text.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Seed for the outcomes of moves written without them.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// The simulator the game is played on.
    #[arg(long, value_enum, default_value_t = BackendChoice::Sparse)]
    pub backend: BackendChoice,
}

/// Runs the command.
pub fn run(args: &DrawArgs) -> anyhow::Result<()> {
    let circuit = match &args.circuit {
        Some(path) => read_circuit(path)?.1,
        None => with_game!(
            args.game,
            args.backend,
            args.seed,
            true,
            |R, _loaded, game| move_circuit(&game, args.move_number)?
        ),
    };
    match &args.svg {
        Some(path) => std::fs::write(path, svg_circuit::draw(&circuit))
            .with_context(|| format!("cannot write {}", path.display())),
        None => write_stdout(&text_circuit::draw(&circuit)),
    }
}

/// The circuit of move `n` of `game` (0 = the set-up), or of the whole game (`None`), with the
/// game's qubit table and only the instructions drawn.
pub fn move_circuit<G: QuantumGame>(game: &G, n: Option<usize>) -> anyhow::Result<Circuit> {
    let range = match n {
        None => 0..game.circuit().instructions().len(),
        Some(n) => match game.move_instructions(n) {
            Some(range) => range,
            None => bail!(
                "the game has {} move(s); there is no move {n}",
                game.moves().len()
            ),
        },
    };
    Ok(used_only(
        game.circuit(),
        &game.circuit().instructions()[range],
    ))
}

/// The game circuit's qubit table with only `instructions` (the drawing shows the used wires).
pub fn used_only(circuit: &Circuit, instructions: &[Instruction]) -> Circuit {
    Circuit::from_parts(
        circuit.qubit_roles().to_vec(),
        circuit.num_clbits() as u32,
        instructions.to_vec(),
    )
}
