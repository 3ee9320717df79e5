//! `qchess uqci`: the Quantum Chess engine protocol (UQCI, a UCI clone) on standard input and
//! output, for a GUI or a tournament tool, under either ruleset (`--rules`). One command per
//! line, replies one line each (see `docs/uqci.md`). A bad line answers `info string error ...`
//! and the session goes on; only `quit` or the end of input ends it.

mod dice;
mod output;
mod search;
mod session;
mod timed;

use crate::game_input::{RulesArgs, SimArgs};
use anyhow::Context;
use clap::Args;
use output::Output;
use qc_engine::EngineGame;
use qc_ir::Backend;
use qc_rules::Ruleset;
use qc_sim::MemoryLimit;
use session::{Engine, Reply, Session};
use std::io::BufRead;

/// The longest line read; the rest of a longer line is skipped and the line refused, so no line
/// makes the engine allocate more than this.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

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
    qc_front::check_precision(sim.backend, sim.precision)?;
    qc_front::dispatch!(args.rules.rules, sim.backend, sim.precision, |R, new| {
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
    Engine<R, B>: EngineGame + 'static,
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
    let result = read_commands(&mut session, &out);
    session.stop_search();
    result
}

/// Reads and answers commands until `quit` or the end of input.
fn read_commands<R: Ruleset + 'static, B: Backend + 'static>(
    session: &mut Session<R, B>,
    out: &Output,
) -> anyhow::Result<()>
where
    Engine<R, B>: EngineGame + 'static,
    R::Start: Send,
{
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut buf = Vec::new();
    loop {
        buf.clear();
        let line =
            match read_bounded_line(&mut input, &mut buf).context("reading standard input")? {
                None => return Ok(()),
                Some(Ok(line)) => line,
                Some(Err(problem)) => {
                    out.send(&[format!("info string error {problem}")])?;
                    continue;
                }
            };
        match session.handle(line) {
            Reply::Lines(lines) => out.send(&lines)?,
            Reply::Quit => return Ok(()),
        }
    }
}

/// Reads one line of at most [`MAX_LINE_BYTES`]: `None` at the end of input, `Some(Err(..))`
/// for a line too long (its rest is skipped) or not UTF-8.
fn read_bounded_line<'a>(
    input: &mut impl BufRead,
    buf: &'a mut Vec<u8>,
) -> std::io::Result<Option<Result<&'a str, String>>> {
    let read =
        std::io::Read::take(&mut *input, MAX_LINE_BYTES as u64 + 1).read_until(b'\n', buf)?;
    if read == 0 {
        return Ok(None);
    }
    if buf.last() != Some(&b'\n') && buf.len() > MAX_LINE_BYTES {
        // Skip the rest of the line without keeping it.
        let mut rest = Vec::new();
        loop {
            rest.clear();
            let n = std::io::Read::take(&mut *input, MAX_LINE_BYTES as u64)
                .read_until(b'\n', &mut rest)?;
            if n == 0 || rest.last() == Some(&b'\n') {
                break;
            }
        }
        return Ok(Some(Err(format!(
            "line longer than {MAX_LINE_BYTES} bytes ignored"
        ))));
    }
    Ok(Some(match std::str::from_utf8(buf) {
        Ok(text) => Ok(text.trim_end_matches(['\n', '\r'])),
        Err(e) => Err(format!("line is not UTF-8 (byte {})", e.valid_up_to())),
    }))
}
