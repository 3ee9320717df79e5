//! The session's standard output, shared by the command loop and a running search: whole lines
//! only, flushed after each batch, so that replies never interleave within a line; and how a
//! search's score and iterations are written on it.

use qc_engine::Iteration;
use std::io::Write;
use std::sync::{Arc, Mutex};

/// Where replies go; cloned into a search thread.
#[derive(Clone)]
pub struct Output(Arc<Mutex<Box<dyn Write + Send>>>);

impl Output {
    /// Replies written to `sink`.
    pub fn new(sink: impl Write + Send + 'static) -> Output {
        Output(Arc::new(Mutex::new(Box::new(sink))))
    }

    /// Writes `lines`, one per line, and flushes.
    ///
    /// # Errors
    /// The output is closed.
    pub fn send(&self, lines: &[String]) -> std::io::Result<()> {
        // A thread that panicked while writing left whole lines at worst: keep writing.
        let mut sink = self
            .0
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        for line in lines {
            writeln!(sink, "{line}")?;
        }
        sink.flush()
    }
}

/// The score words of an `info` line: `mate N` for a proved mate (`N` moves, negative when the
/// side to move is mated; qc-engine's `mate`), otherwise `cp S` (centipawns, 100 per pawn).
pub fn score_words(pawns: f64, mate: Option<i32>) -> String {
    match mate {
        Some(moves) => format!("mate {moves}"),
        None => format!("cp {}", (pawns * 100.0).round() as i64),
    }
}

/// `info depth D [multipv K] score cp S nodes N nps X time T pv M1 M2 ...` for one iteration
/// (time in milliseconds, `nps` positions per second): one line, or with `MultiPV` above 1 one
/// line per root move ranked, best first.
pub fn iteration_lines(it: &Iteration) -> Vec<String> {
    let ms = it.time.as_millis();
    let nps = (u128::from(it.nodes) * 1000) / ms.max(1);
    lines_of(it, &format!(" nps {nps} time {ms}"))
}

/// As [`iteration_lines`] without `nps` and `time`, for a search bounded by a count (bare
/// `go`): what it writes is then the same on every machine.
pub fn counted_iteration_lines(it: &Iteration) -> Vec<String> {
    lines_of(it, "")
}

/// The lines of `it`, with `clock` (the time words, or nothing) after the node count.
fn lines_of(it: &Iteration, clock: &str) -> Vec<String> {
    let line = |multipv: Option<usize>, score: f64, mate: Option<i32>, pv: &[String]| {
        let rank = multipv.map_or(String::new(), |k| format!(" multipv {k}"));
        let mut line = format!(
            "info depth {}{rank} score {} nodes {}{clock}",
            it.depth,
            score_words(score, mate),
            it.nodes
        );
        if !pv.is_empty() {
            line.push_str(" pv ");
            line.push_str(&pv.join(" "));
        }
        line
    };
    if it.lines.is_empty() {
        return vec![line(None, it.score, it.mate, &it.pv)];
    }
    it.lines
        .iter()
        .enumerate()
        .map(|(k, l)| line(Some(k + 1), l.score, l.mate, &l.pv))
        .collect()
}
