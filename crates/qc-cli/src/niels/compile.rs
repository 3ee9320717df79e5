//! `qchess compile --rules niels`: a Niel's game as one circuit. Every dice roll is a mid-circuit
//! measurement; the output goes through the same circuit-level compiler as Quantum Chess games
//! (every format, form, dialect, width and target), with the recorded rolls as the
//! post-selection pattern.

use super::{load, replay};
use crate::commands::compile::{compile_circuit, summary_text, CompileArgs};
use crate::output::write_stderr;
use anyhow::Context;

/// Runs `compile --rules niels`: every format, form, dialect, width and target of the Quantum
/// Chess path, through the same circuit-level compiler.
pub fn run(args: &CompileArgs) -> anyhow::Result<()> {
    let loaded = load(&args.game)?;
    let game = replay(&loaded, qc_sim::ReferenceSparse::new(), args.seed)?;
    let target = args.target()?;
    let outcomes = game.clbit_outcomes();
    let compiled = compile_circuit(
        game.circuit(),
        &outcomes,
        args.format,
        &args.options(),
        target.as_ref(),
        None,
    )
    .with_context(|| format!("{}: cannot compile", loaded.source))?;
    let lines: Vec<String> = game
        .history()
        .iter()
        .enumerate()
        .filter(|(_, m)| !m.rolls.is_empty())
        .map(|(i, m)| format!("move {} {}", i + 1, m.text()))
        .collect();
    write_stderr(&summary_text(
        &compiled.summary,
        game.circuit(),
        &outcomes,
        &lines,
    )?)?;
    args.write(&compiled)
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
