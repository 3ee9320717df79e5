//! A game circuit compiled to a program text: OpenQASM 3 or 2 (through `qc_export`, with the
//! recorded outcomes for post-selection and the board map in the header) or the IR.

use crate::board_facts::{annotate, BoardFacts};
use qc_export::{BoardMap, Export, ExportError, ExportOptions, Summary, Target};
use qc_ir::Circuit;

/// Output formats.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Format {
    /// OpenQASM 3.
    Qasm3,
    /// OpenQASM 2 with qelib1.inc gates.
    Qasm2,
    /// The IR text format.
    Ir,
    /// The IR as JSON.
    Json,
}

qc_ir::choice!(Format, "format", [
    "qasm3" => Format::Qasm3, "OpenQASM 3 (docs/backends.md)",
    "qasm2" => Format::Qasm2, "OpenQASM 2 with qelib1.inc gates",
    "ir" => Format::Ir, "The IR text format (docs/ir.md)",
    "json" => Format::Json, "The IR as JSON",
]);

/// A compiled game: the text to write and the summary of the OpenQASM program it becomes.
pub struct Compiled {
    /// The output text.
    pub text: String,
    /// Figures of the exported program (for IR formats: of its OpenQASM 3 export).
    pub summary: Summary,
    /// What every bit of the OpenQASM program means.
    pub map: BoardMap,
}

/// Why a game could not be compiled.
#[derive(Debug, thiserror::Error)]
pub enum CompileError {
    /// The exporter refused the circuit or the target.
    #[error(transparent)]
    Export(#[from] ExportError),
    /// The circuit could not be written as JSON.
    #[error("cannot write the circuit as JSON")]
    Json(#[from] serde_json::Error),
    /// A device target (one with couplers): programs are not yet placed and routed onto one.
    #[error("target `{0}` is a device target: placing and routing onto its couplers is not available yet")]
    DeviceTarget(String),
}

/// Compiles a game circuit with its recorded outcomes (indexed by clbit) to `format`. The summary
/// always describes the OpenQASM program (for the IR formats: the OpenQASM 3 export with the same
/// options), and a target's qubit count is enforced for every format. `facts` (pieces, captured
/// colours, conserved quantities) go into the map when given.
pub fn compile_circuit(
    circuit: &Circuit,
    outcomes: &[Option<bool>],
    format: Format,
    options: &ExportOptions,
    target: Option<&Target>,
    facts: Option<&BoardFacts>,
) -> Result<Compiled, CompileError> {
    if let Some(t) = target.filter(|t| t.is_device()) {
        return Err(CompileError::DeviceTarget(t.name.clone()));
    }
    let annotated = |mut e: Export| -> Export {
        if let Some(f) = facts {
            let mut map = e.map().clone();
            annotate(&mut map, f);
            e.set_map(map);
        }
        e
    };
    let qasm3 = |o: &ExportOptions| -> Result<Export, ExportError> {
        match target {
            Some(t) => qc_export::export_for_target(circuit, outcomes, o, t),
            None => qc_export::export_qasm3(circuit, outcomes, o),
        }
        .map(annotated)
    };
    let (text, summary, map) = match format {
        Format::Qasm3 => {
            let e = qasm3(options)?;
            (e.text, e.summary, e.program.map)
        }
        Format::Qasm2 => {
            let e = match target {
                Some(t) => qc_export::export_qasm2_for_target(circuit, outcomes, options, t),
                None => qc_export::export_qasm2(circuit, outcomes, options),
            }
            .map(annotated)?;
            (e.text, e.summary, e.program.map)
        }
        Format::Ir | Format::Json => {
            let e = qasm3(options)?;
            let text = match format {
                Format::Ir => qc_ir::text::print(circuit),
                _ => serde_json::to_string_pretty(circuit)? + "\n",
            };
            (text, e.summary, e.program.map)
        }
    };
    Ok(Compiled { text, summary, map })
}
