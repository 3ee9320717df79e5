//! Reads one circuit file and prints its format, size and instruction count: run under
//! `/usr/bin/time -v` to measure a reader's peak memory per source byte (the figures behind
//! `qc_export::READER_BYTES_PER_SOURCE_BYTE`, docs/reliability.md):
//!
//! ```text
//! cargo run --release -p qc-export --example read_peak -- FILE
//! ```

use std::io::Write;

fn main() -> std::process::ExitCode {
    let Some(path) = std::env::args().nth(1) else {
        return fail("usage: read_peak FILE");
    };
    let text = match std::fs::read_to_string(&path) {
        Ok(text) => text,
        Err(e) => return fail(&format!("{path}: {e}")),
    };
    let format = qc_export::detect_format(&text);
    match qc_export::parse_circuit(&text) {
        Ok(circuit) => {
            let line = format!(
                "{}: {} bytes, {} instructions\n",
                format.name(),
                text.len(),
                circuit.instructions().len()
            );
            // A closed standard output is no error worth reporting here.
            let _ = std::io::stdout().write_all(line.as_bytes());
            std::process::ExitCode::SUCCESS
        }
        Err(e) => fail(&format!("{path}: {e}")),
    }
}

fn fail(message: &str) -> std::process::ExitCode {
    let _ = writeln!(std::io::stderr(), "{message}");
    std::process::ExitCode::from(2)
}
