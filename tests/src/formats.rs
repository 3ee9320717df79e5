//! The text formats the snapshots and `docs/circuits.md` show a move's circuit in. Each format
//! is one entry of [`FORMATS`]: the IR text, and OpenQASM 3 as `qchess compile` writes it
//! (portable dialect, dynamic form).

use crate::cases::PlayedCase;
use crate::metrics::ir_lines;
use qc_export::{build_program, export_qasm3, ExportOptions, Width};
use qc_ir::{Circuit, Qubit, QubitRole};
use qc_rules::QuantumGame;

/// One output format.
pub struct Format {
    /// Short name, used in snapshot names (`ir`).
    pub name: &'static str,
    /// Heading in `docs/circuits.md`.
    pub title: &'static str,
    /// Markdown code-fence language.
    pub fence: &'static str,
    /// The featured move's circuit alone.
    pub featured: fn(&PlayedCase) -> String,
    /// A whole circuit (a case's game).
    pub whole: fn(&Circuit) -> String,
}

fn ir_featured(p: &PlayedCase) -> String {
    let c = p.featured_circuit();
    ir_lines(p.game.circuit(), c.instructions())
}

/// The featured move alone as OpenQASM 3: its instructions on just the qubits it touches, every
/// one kept (the move starts from an unknown state, so nothing may be folded as classical), each
/// register slot labelled with the game's name for the qubit.
fn qasm3_featured(p: &PlayedCase) -> String {
    let game = p.game.circuit();
    let featured = p.featured_circuit();
    let mut slot: Vec<Option<u32>> = vec![None; game.num_qubits()];
    let mut touched = Vec::new();
    for instr in featured.instructions() {
        for q in instr.op.qubits() {
            if slot[q.index()].is_none() {
                slot[q.index()] = Some(touched.len() as u32);
                touched.push(q);
            }
        }
    }
    let remap = |q: Qubit| Qubit(slot[q.index()].unwrap_or(q.0));
    let instructions = featured
        .instructions()
        .iter()
        .map(|instr| {
            let mut i = instr.clone();
            i.op = instr.op.map_qubits(remap);
            i
        })
        .collect();
    // Plain roles keep the full width from adding the rest of the board; ancillas keep theirs.
    let roles: Vec<QubitRole> = touched
        .iter()
        .map(|&q| match game.qubit_roles()[q.index()] {
            QubitRole::Site(_) => QubitRole::Plain,
            other => other,
        })
        .collect();
    let sub = Circuit::from_parts(roles, game.num_clbits() as u32, instructions);
    // The move's own gates, line by line as the IR text shows them: without the passes, which
    // would merge a move's gates (a 0- and a 1-controlled iSWAP into one iSWAP, say).
    let options = ExportOptions {
        width: Width::Full,
        optimize: false,
        ..Default::default()
    };
    match build_program(&sub, &[], &options) {
        Ok(mut program) => {
            let names = game.qubit_names();
            for (k, q) in touched.iter().enumerate() {
                let role = match game.qubit_roles()[q.index()] {
                    QubitRole::Site(_) => "square",
                    _ => "ancilla",
                };
                program.qubit_labels[k] = format!("{} ({role})", names[q.index()]);
            }
            program.to_qasm3(true, false)
        }
        Err(e) => format!("// cannot export: {e}\n"),
    }
}

fn qasm3_whole(c: &Circuit) -> String {
    match export_qasm3(c, &[], &ExportOptions::default()) {
        Ok(e) => e.text,
        Err(e) => format!("// cannot export: {e}\n"),
    }
}

/// Every format, in the order the docs show them.
pub const FORMATS: &[Format] = &[
    Format {
        name: "ir",
        title: "IR text",
        fence: "text",
        featured: ir_featured,
        whole: qc_ir::text::print,
    },
    Format {
        name: "qasm3",
        title: "OpenQASM 3 (portable, dynamic, `--no-optimize`; gate definitions omitted)",
        fence: "qasm",
        featured: qasm3_featured,
        whole: qasm3_whole,
    },
];
