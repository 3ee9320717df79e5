//! The session's standard output, shared by the command loop and a running search: whole lines
//! only, flushed after each batch, so that replies never interleave within a line.

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
