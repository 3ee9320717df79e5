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

/// Prints an error with its context chain to standard error.
pub fn print_error(err: &anyhow::Error) {
    eprintln!("error: {err:#}");
}

/// True when the error is a closed standard output.
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| {
        e.downcast_ref::<io::Error>()
            .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
    })
}
