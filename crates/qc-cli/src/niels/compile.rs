//! `qchess compile --rules niels`: a Niel's game as one circuit. Every dice roll is a mid-circuit
//! measurement; the OpenQASM 3 output is the dynamic form with the recorded outcomes as
//! comments and post-selection pattern (`qc_export::export_qasm3`).

use super::{load, replay};
use crate::commands::compile::{summary, CompileArgs, Format};
use crate::output::{write_stderr, write_stdout};
use anyhow::Context;
use qc_export::{export_qasm3, ExportOptions};
use qc_ir::Backend;
use qc_rules::niels::NielsGame;

/// The game circuit in `format`.
pub fn compiled_text<B: Backend>(game: &NielsGame<B>, format: Format) -> anyhow::Result<String> {
    let circuit = game.circuit();
    Ok(match format {
        Format::Ir => qc_ir::text::print(circuit),
        Format::Json => serde_json::to_string_pretty(circuit)? + "\n",
        Format::Qasm3 => {
            export_qasm3(circuit, &game.clbit_outcomes(), &ExportOptions::default())
                .context("cannot export the game circuit as OpenQASM 3")?
                .text
                + "\n"
        }
    })
}

/// Runs `compile --rules niels`.
pub fn run(args: &CompileArgs) -> anyhow::Result<()> {
    let loaded = load(&args.game)?;
    let game = replay(&loaded, qc_sim::ReferenceSparse::new(), args.seed)?;
    let text = compiled_text(&game, args.format)?;
    let outcomes: Vec<String> = game
        .history()
        .iter()
        .enumerate()
        .filter(|(_, m)| !m.rolls.is_empty())
        .map(|(i, m)| format!("move {} {}", i + 1, m.text()))
        .collect();
    write_stderr(&summary(game.circuit(), &outcomes))?;
    match &args.output {
        Some(path) => {
            std::fs::write(path, text).with_context(|| format!("cannot write {}", path.display()))
        }
        None => write_stdout(&text),
    }
}

/// The circuit `qchess draw --rules niels` shows: the whole game, or the instructions of one
/// move (`Some(0)` = the set-up of pairs already on the board), with only the used wires.
pub fn circuit_to_draw(
    args: &crate::game_input::GameArgs,
    seed: u64,
    move_number: Option<usize>,
) -> anyhow::Result<qc_ir::Circuit> {
    let loaded = load(args)?;
    let game = replay(&loaded, qc_sim::ReferenceSparse::new(), seed)?;
    let all = game.circuit().instructions();
    let chosen: Vec<qc_ir::Instruction> = match move_number {
        None => all.to_vec(),
        Some(n) if n > game.history().len() => anyhow::bail!(
            "the game has {} move(s); there is no move {n}",
            game.history().len()
        ),
        Some(n) => all
            .iter()
            .filter(|i| i.origin.as_ref().map(|o| o.move_index as usize) == Some(n))
            .cloned()
            .collect(),
    };
    Ok(crate::commands::draw::used_only(game.circuit(), &chosen))
}
