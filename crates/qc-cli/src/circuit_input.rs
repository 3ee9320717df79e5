//! Reading a circuit file, one reader for every command that reads circuits (`run`,
//! `draw --circuit`), so that each reads every format qchess writes: IR text and IR JSON (what
//! `compile --format ir|json` writes) and OpenQASM 2 and 3 (`compile --format qasm2|qasm3`, and
//! what other tools write), told apart by content (`qc_export::detect_format`). The circuit is
//! verified before it is used.

use anyhow::Context;
use qc_export::parse_circuit;
use qc_ir::Circuit;
use std::path::Path;

/// Reads, parses and verifies the circuit file `path` (`-`: standard input); returns its name
/// for messages and the circuit.
pub fn read_circuit(path: &Path) -> anyhow::Result<(String, Circuit)> {
    let (name, _, circuit) = read_circuit_text(path)?;
    Ok((name, circuit))
}

/// [`read_circuit`], also returning the file's text (where a program's header is).
pub fn read_circuit_text(path: &Path) -> anyhow::Result<(String, String, Circuit)> {
    let (name, text) = crate::input::read_input(path)?;
    let circuit = parse_circuit(&text).with_context(|| format!("cannot parse {name}"))?;
    qc_ir::verify(&circuit).with_context(|| format!("{name} is not a well-formed circuit"))?;
    Ok((name, text, circuit))
}
