//! Writing to standard output and standard error (the only module allowed to print).

#![allow(
    clippy::print_stdout,
    clippy::print_stderr,
    reason = "the CLI's output layer"
)]

use std::io::{self, Write};

/// Writes `text` to standard output; a closed pipe is reported as an `io::Error` of kind
/// `BrokenPipe`, which `main` turns into a quiet exit.
pub fn write_stdout(text: &str) -> anyhow::Result<()> {
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())?;
    out.flush()?;
    Ok(())
}

/// Writes to standard output through `write` (buffered, for output too large to build as one
/// string first); a closed pipe is reported as for [`write_stdout`].
pub fn stream_stdout(write: impl FnOnce(&mut dyn Write) -> io::Result<()>) -> anyhow::Result<()> {
    let mut out = io::BufWriter::new(io::stdout().lock());
    write(&mut out)?;
    out.flush()?;
    Ok(())
}

/// The terminal's width in characters when standard output is a terminal (what a drawing wraps
/// to by default), else `None`.
pub fn terminal_width() -> Option<usize> {
    use std::io::IsTerminal;
    if !io::stdout().is_terminal() {
        return None;
    }
    terminal_size::terminal_size().map(|(w, _)| usize::from(w.0))
}

/// Prints an error with its context chain to standard error.
pub fn print_error(err: &anyhow::Error) {
    eprintln!("error: {}", error_text(err));
}

/// The error and its causes joined by `: `, each said once: a cause whose text an outer message
/// already includes (libraries often write their source into their own message) is skipped.
pub fn error_text(err: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in err.chain() {
        let message = cause.to_string();
        if text.contains(&message) {
            continue;
        }
        if !text.is_empty() {
            text.push_str(": ");
        }
        text.push_str(&message);
    }
    text
}

/// True when the error is a closed standard output.
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.downcast_ref::<io::Error>()
            .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
    })
}

/// A progress line on standard error for long loops, shown only when standard error is a
/// terminal and the loop is long enough to need it.
pub mod progress {
    use std::io::{IsTerminal, Write};

    /// Loops shorter than this show no progress.
    const MIN_STEPS: u64 = 200_000;

    /// A progress reporter.
    pub struct Progress {
        label: &'static str,
        total: u64,
        every: u64,
        active: bool,
    }

    impl Progress {
        /// A reporter for `total` steps.
        pub fn new(label: &'static str, total: u64) -> Progress {
            let active = total >= MIN_STEPS && std::io::stderr().is_terminal();
            Progress {
                label,
                total,
                every: (total / 100).max(1),
                active,
            }
        }

        /// Reports that `done` steps are finished.
        pub fn tick(&self, done: u64) {
            if self.active && done.is_multiple_of(self.every) {
                let mut err = std::io::stderr().lock();
                let _ignored_on_closed_terminal = write!(
                    err,
                    "\r{}: {:>3}%",
                    self.label,
                    done * 100 / self.total.max(1)
                );
            }
        }

        /// Ends the progress line.
        pub fn finish(&self) {
            if self.active {
                eprintln!();
            }
        }
    }
}

/// Writes `text` to standard error.
pub fn write_stderr(text: &str) -> anyhow::Result<()> {
    let mut err = io::stderr().lock();
    err.write_all(text.as_bytes())?;
    err.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A library error that writes its source into its own message and also reports it as its
    /// source, as thiserror's `#[error("...: {source}")]` does.
    #[derive(Debug)]
    struct Wrapping {
        source: std::io::Error,
    }

    impl std::fmt::Display for Wrapping {
        fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            write!(f, "instruction 26: {}", self.source)
        }
    }

    impl std::error::Error for Wrapping {
        fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
            Some(&self.source)
        }
    }

    #[test]
    fn each_cause_is_said_once() {
        let inner = std::io::Error::other("the state would need 4294967296 bytes");
        let err = anyhow::Error::new(Wrapping { source: inner }).context("cannot simulate h27.qc");
        assert_eq!(
            error_text(&err),
            "cannot simulate h27.qc: instruction 26: the state would need 4294967296 bytes"
        );
    }
}
