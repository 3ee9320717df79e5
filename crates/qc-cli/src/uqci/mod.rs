//! `qchess uqci`: the Quantum Chess engine protocol (UQCI, a UCI clone) on standard input and
//! output, for a GUI or a tournament tool, under either ruleset (`--rules`). One command per
//! line, replies one line each (see `docs/uqci.md`). A bad line answers `info string error ...`
//! and the session goes on; only `quit` or the end of input ends it. The session and its loop
//! are `qc_front::uqci`'s; this is the command's arguments and its standard input and output.

use crate::game_input::{RulesArgs, SimArgs};
use anyhow::Context;
use clap::Args;
use qc_engine::EngineGame;
use qc_front::uqci::{read_commands, Engine, LoopError, Output, Session};
use qc_ir::Backend;
use qc_rules::Ruleset;
use qc_sim::MemoryLimit;

/// Arguments of `qchess uqci`.
#[derive(Args, Debug)]
pub struct UqciArgs {
    // The ruleset and the rule options of every position of the session.
    #[command(flatten)]
    pub rules: RulesArgs,
    // The simulator and the seed (also `setoption name seed`).
    #[command(flatten)]
    pub sim: SimArgs,
}

/// Runs the session until `quit` or the end of input.
pub fn run(args: &UqciArgs) -> anyhow::Result<()> {
    let sim = &args.sim;
    qc_front::check_precision(sim.simulator.backend, sim.simulator.precision)?;
    let (backend, precision) = (sim.simulator.backend, sim.simulator.precision);
    qc_front::dispatch!(args.rules.kind(), backend, precision, |R, new| {
        serve::<R, _>(args, new)
    })
}

/// The session loop under ruleset `R` on simulators from `new_backend`. A search under a time
/// control runs on its own thread and writes to the same output; `quit` and the end of input
/// end it (its `bestmove` is sent) before the session ends.
fn serve<R: Ruleset + 'static, B: Backend + 'static>(
    args: &UqciArgs,
    new_backend: fn(MemoryLimit) -> B,
) -> anyhow::Result<()>
where
    Engine<R, B>: EngineGame + Send + 'static,
    R::Start: Send,
{
    let out = Output::new(std::io::stdout());
    let mut session = Session::<R, B>::new(
        args.sim.seed,
        args.rules.variant.clone(),
        new_backend,
        out.clone(),
    )
    .map_err(anyhow::Error::msg)
    .context("--variant")?;
    let stdin = std::io::stdin();
    let result = read_commands(&mut session, &mut stdin.lock(), &out);
    session.stop_search();
    match result {
        Ok(()) => Ok(()),
        Err(LoopError::Read(e)) => Err(e).context("reading standard input"),
        // A closed standard output is a broken pipe, which the command treats as an end.
        Err(LoopError::Write(e)) => Err(e.into()),
    }
}
