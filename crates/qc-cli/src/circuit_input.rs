//! Reading a circuit file, one reader for every command that reads circuits (`run`,
//! `draw --circuit`, `route`): the file (or standard input) read here, then parsed and verified
//! by `qc_front::read_program`, the reader the Python package's `Program` shares, so that each
//! reads every format qchess writes (IR text, IR JSON, OpenQASM 2 and 3).

use std::path::Path;

/// Reads, parses and verifies the circuit file `path` (`-`: standard input); returns its name
/// for messages and the circuit.
pub fn read_circuit(path: &Path) -> anyhow::Result<(String, qc_ir::Circuit)> {
    let (name, _, circuit) = read_circuit_text(path)?;
    Ok((name, circuit))
}

/// [`read_circuit`], also returning the file's text (where a program's header is).
pub fn read_circuit_text(path: &Path) -> anyhow::Result<(String, String, qc_ir::Circuit)> {
    let (name, text) = crate::input::read_input(path)?;
    let circuit = qc_front::read_program(&name, &text)?;
    Ok((name, text, circuit))
}
