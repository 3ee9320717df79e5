//! UQCI, the Quantum Chess engine protocol (a UCI clone), under either ruleset: the session
//! (options, position, one handler per command, the searches) and the loop that reads one
//! command a line and answers (docs/uqci.md). `qchess uqci` runs it on standard input and
//! output; the fuzz harness runs it in memory.

mod dice;
mod output;
mod session;
mod timed;

pub use output::Output;
pub use session::{Engine, Reply, Session, BARE_GO_WORK};

use qc_engine::EngineGame;
use qc_ir::Backend;
use qc_rules::Ruleset;
use std::io::BufRead;

/// The longest line read; the rest of a longer line is skipped and the line refused, so no line
/// makes the engine allocate more than this.
pub const MAX_LINE_BYTES: usize = 64 * 1024;

/// Why the loop stopped before `quit` or the end of its input.
#[derive(Debug, thiserror::Error)]
pub enum LoopError {
    /// The commands could not be read.
    #[error("reading the commands")]
    Read(#[source] std::io::Error),
    /// A reply could not be written (the GUI went away).
    #[error("writing a reply")]
    Write(#[source] std::io::Error),
}

/// Reads and answers commands from `input` until `quit` or the end of input. A running search
/// is not stopped here: the caller ends it ([`Session::stop_search`]) once the loop returns.
///
/// # Errors
/// Reading `input` or writing to `out` failed.
pub fn read_commands<R: Ruleset + 'static, B: Backend + 'static>(
    session: &mut Session<R, B>,
    input: &mut impl BufRead,
    out: &Output,
) -> Result<(), LoopError>
where
    Engine<R, B>: EngineGame + Send + 'static,
    R::Start: Send,
{
    let mut buf = Vec::new();
    loop {
        buf.clear();
        let line = match read_bounded_line(input, &mut buf).map_err(LoopError::Read)? {
            None => return Ok(()),
            Some(Ok(line)) => line,
            Some(Err(problem)) => {
                out.send(&[format!("info string error {problem}")])
                    .map_err(LoopError::Write)?;
                continue;
            }
        };
        match session.handle(line) {
            Reply::Lines(lines) => out.send(&lines).map_err(LoopError::Write)?,
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
