//! `qchess draw`: the circuit of a game, of one of its moves, or of an IR file, as a diagram
//! (text on the terminal, SVG to a file). Only the qubits the drawn instructions use get a wire;
//! a game's moves are labelled with their number and notation, Niel's wires are named by the
//! pair they stand for, and in a whole game the set-up wires of squares no move touches are
//! left out unless `--all-wires` asks for them.

use crate::circuit_input::read_circuit;
use crate::game_input::{with_game, GameArgs};
use crate::output::{terminal_width, write_stdout};
use anyhow::{bail, Context};
use clap::Args;
use qc_front::BackendKind;
use qc_ir::{Circuit, Instruction, Qubit};
use qc_render::layout::{Annotations, Section};
use qc_render::text_circuit::TextOptions;
use qc_render::{svg_circuit, text_circuit};
use qc_rules::{QuantumGame, WireLabel};
use std::collections::BTreeSet;
use std::ops::Range;
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
    /// Draw every set-up wire, also those of squares no move touches (left out by default when
    /// drawing a whole game).
    #[arg(long)]
    pub all_wires: bool,
    /// Write an SVG picture to this file instead of drawing text.
    #[arg(long, value_name = "FILE")]
    pub svg: Option<PathBuf>,
    /// Cut the text drawing into bands of at most N characters per line, one under the other,
    /// each starting with the wire names; cuts fall between moves where they can, never through
    /// a gate. 0 = one band however wide. Default: the terminal's width when standard output is
    /// a terminal, else one band.
    #[arg(long, value_name = "N", conflicts_with = "svg")]
    pub width: Option<usize>,
    /// Seed for the outcomes of moves written without them.
    #[arg(long, default_value_t = 0)]
    pub seed: u64,
    /// The simulator the game is played on.
    #[arg(long, value_parser = crate::choice_arg::choice::<BackendKind>(), default_value_t = BackendKind::Sparse)]
    pub backend: BackendKind,
}

/// Runs the command.
pub fn run(args: &DrawArgs) -> anyhow::Result<()> {
    let (circuit, notes) = match &args.circuit {
        Some(path) => (read_circuit(path)?.1, Annotations::default()),
        None => with_game!(
            args.game,
            args.backend,
            args.seed,
            true,
            |R, _loaded, game| game_drawing(&game, args.move_number, args.all_wires)?
        ),
    };
    match &args.svg {
        Some(path) => std::fs::write(path, svg_circuit::draw_annotated(&circuit, &notes))
            .with_context(|| format!("cannot write {}", path.display())),
        None => {
            let width = match args.width {
                Some(0) => None,
                Some(n) => Some(n),
                None => terminal_width(),
            };
            write_stdout(&text_circuit::draw_with(
                &circuit,
                &notes,
                TextOptions { width },
            ))
        }
    }
}

/// The label of move `n` (1 = the first move, the number `--move` takes): `3. a3c3^b1`;
/// move 0 is the set-up.
fn move_label(n: usize, text: &str) -> String {
    if n == 0 {
        "set-up".into()
    } else {
        format!("{n}. {text}")
    }
}

/// The circuit of move `n` of `game` (0 = the set-up), or of the whole game (`None`), with its
/// drawing annotations: every move labelled, the pairs' wires of Niel's Chess named, and for a
/// whole game without `all_wires` the set-up wires no move touches left out.
pub fn game_drawing<G: QuantumGame>(
    game: &G,
    n: Option<usize>,
    all_wires: bool,
) -> anyhow::Result<(Circuit, Annotations)> {
    let moves = game.moves();
    let setup = game.move_instructions(0).unwrap_or(0..0);
    let mut sections: Vec<(Range<usize>, String)> = Vec::new();
    match n {
        None => {
            if !setup.is_empty() {
                sections.push((setup.clone(), move_label(0, "")));
            }
            for (k, m) in moves.iter().enumerate() {
                sections.push((m.instructions.clone(), move_label(k + 1, &m.text)));
            }
        }
        Some(n) => match game.move_instructions(n) {
            Some(range) => {
                let text = n
                    .checked_sub(1)
                    .and_then(|k| moves.get(k))
                    .map(|m| m.text.as_str());
                sections.push((range, move_label(n, text.unwrap_or(""))));
            }
            None => bail!("the game has {} move(s); there is no move {n}", moves.len()),
        },
    }
    let range = match (sections.first(), sections.last()) {
        (Some(first), Some(last)) => first.0.start..last.0.end,
        _ => 0..0,
    };
    let circuit = used_only(
        game.circuit(),
        &game.circuit().instructions()[range.clone()],
    );
    let mut notes = Annotations {
        sections: sections
            .iter()
            .map(|(r, label)| Section {
                start: r.start - range.start,
                label: label.clone(),
            })
            .collect(),
        wire_labels: game
            .wire_labels()
            .into_iter()
            .filter(|l| range.contains(&l.instruction))
            .map(|l| WireLabel {
                instruction: l.instruction - range.start,
                ..l
            })
            .collect(),
        ..Annotations::default()
    };
    if n.is_none() && !all_wires {
        let instructions = game.circuit().instructions();
        let moved: BTreeSet<Qubit> = instructions[setup.end..]
            .iter()
            .flat_map(|i| i.op.qubits())
            .collect();
        notes.hidden = instructions[setup]
            .iter()
            .flat_map(|i| i.op.qubits())
            .filter(|q| !moved.contains(q))
            .collect();
        if !notes.hidden.is_empty() {
            notes.note = Some(format!(
                "({} set-up wire(s) that no move touches are not drawn; --all-wires draws them)",
                notes.hidden.len()
            ));
        }
    }
    Ok((circuit, notes))
}

/// The game circuit's qubit table with only `instructions` (the drawing shows the used wires).
pub fn used_only(circuit: &Circuit, instructions: &[Instruction]) -> Circuit {
    Circuit::from_parts(
        circuit.qubit_roles().to_vec(),
        circuit.num_clbits() as u32,
        instructions.to_vec(),
    )
}
