//! Reading a circuit file, one reader for every command that reads circuits (`run`,
//! `draw --circuit`), so that each reads every format qchess writes: IR text and IR JSON (what
//! `compile --format ir|json` writes) and OpenQASM 2 and 3 (`compile --format qasm2|qasm3`, and
//! what other tools write), told apart by content. The circuit is verified before it is used.

use anyhow::{bail, Context};
use qc_ir::text::MAX_CLBITS;
use qc_ir::Circuit;
use std::path::Path;

/// What a circuit file is written in.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CircuitFormat {
    /// The IR text format.
    Ir,
    /// The IR as JSON (`compile --format json`).
    Json,
    /// OpenQASM 2.
    Qasm2,
    /// OpenQASM 3.
    Qasm3,
}

/// Tells the format by content: a `{` first is JSON; a first line (not blank, not a `//`
/// comment) starting with `OPENQASM 2` or `OPENQASM 3` is OpenQASM; anything else is IR text.
pub fn detect_format(text: &str) -> CircuitFormat {
    if text.trim_start().starts_with('{') {
        return CircuitFormat::Json;
    }
    let first = text
        .lines()
        .map(|l| l.split("//").next().unwrap_or("").trim())
        .find(|l| !l.is_empty())
        .unwrap_or("");
    match first.strip_prefix("OPENQASM").map(str::trim_start) {
        Some(v) if v.starts_with('2') => CircuitFormat::Qasm2,
        Some(v) if v.starts_with('3') => CircuitFormat::Qasm3,
        _ => CircuitFormat::Ir,
    }
}

/// Parses a circuit in any format of [`detect_format`]; errors name the line and construct.
pub fn parse_circuit(text: &str) -> anyhow::Result<Circuit> {
    Ok(match detect_format(text) {
        CircuitFormat::Ir => qc_ir::text::parse(text)?,
        CircuitFormat::Json => {
            let circuit: Circuit = serde_json::from_str(text).context("IR JSON")?;
            // The verifier allocates the classical register whole: check its size first, with
            // the same cap as the text format.
            if circuit.num_clbits() > MAX_CLBITS as usize {
                bail!(
                    "IR JSON: `num_clbits` {} is more than the {MAX_CLBITS} classical bits a circuit may have",
                    circuit.num_clbits()
                );
            }
            circuit
        }
        CircuitFormat::Qasm2 => qc_export::import_qasm2(text).context("OpenQASM 2")?,
        CircuitFormat::Qasm3 => qc_export::import_qasm3(text).context("OpenQASM 3")?,
    })
}

/// Reads, parses and verifies the circuit file `path` (`-`: standard input); returns its name
/// for messages and the circuit.
pub fn read_circuit(path: &Path) -> anyhow::Result<(String, Circuit)> {
    let (name, text) = crate::commands::run::read_input(path)?;
    let circuit = parse_circuit(&text).with_context(|| format!("cannot parse {name}"))?;
    qc_ir::verify(&circuit).with_context(|| format!("{name} is not a well-formed circuit"))?;
    Ok((name, circuit))
}
