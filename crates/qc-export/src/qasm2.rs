//! OpenQASM 2 output and import.
//!
//! Output: `qelib1.inc` names, the library definitions the program needs (except those Qiskit's `qelib1.inc`
//! has: `sxdg`, `c3x`), one `qreg q`, and **one 1-bit `creg` per bit** (`c0`, `c1`, ...)
//! because OpenQASM 2 conditions compare whole registers; feed-forward is one `if (cK==1)` per gate.
//! Concatenating Qiskit's space-separated register keys gives the same bit string as OpenQASM 3's
//! `c`. The portable dialect is always used; a circuit that QASM 2 cannot express in the dynamic
//! form (a conditioned measurement or reset) is written in the deferred form.
//!
//! Import: [`crate::import2`].

use crate::error::ExportError;
use crate::export::{build_program, header_lines, postselect_pattern, Export};
use crate::program::{GateCall, Program, Stmt};
use crate::{library, Dialect, ExportOptions, Form};
use qc_ir::angle::format_angle;
use qc_ir::Circuit;
use std::fmt::Write;

/// Exports `circuit` as OpenQASM 2 (see the module docs).
pub fn export_qasm2(
    circuit: &Circuit,
    outcomes: &[Option<bool>],
    options: &ExportOptions,
) -> Result<Export, ExportError> {
    let (mut program, options) = build_qasm2_program(circuit, outcomes, options)?;
    let postselect = postselect_pattern(outcomes, program.num_clbits);
    program.header = header_lines(&program, &postselect, &options, "generic", "qasm2");
    let text = to_qasm2(&program);
    Ok(Export {
        summary: program.summary(),
        text,
        program,
        postselect,
    })
}

/// The program OpenQASM 2 writes for `circuit`, and the options it was built with: the portable
/// dialect, in the deferred form when the dynamic form needs what OpenQASM 2 cannot say.
pub(crate) fn build_qasm2_program(
    circuit: &Circuit,
    outcomes: &[Option<bool>],
    options: &ExportOptions,
) -> Result<(Program, ExportOptions), ExportError> {
    let mut options = *options;
    options.dialect = Dialect::Portable;
    match build_program(circuit, outcomes, &options) {
        Ok(p) => Ok((p, options)),
        Err(ExportError::Unsupported { .. }) if options.form == Form::Dynamic => {
            options.form = Form::Deferred;
            Ok((build_program(circuit, outcomes, &options)?, options))
        }
        Err(e) => Err(e),
    }
}

fn angle2(a: f64) -> String {
    let s = format_angle(a);
    if s.contains('e') {
        format!("{a:.17}")
    } else {
        s
    }
}

fn call2(g: &GateCall) -> String {
    let mut s = g.name.clone();
    if !g.params.is_empty() {
        let p: Vec<String> = g.params.iter().map(|a| angle2(*a)).collect();
        let _ = write!(s, "({})", p.join(","));
    }
    let q: Vec<String> = g.qubits.iter().map(|q| format!("q[{q}]")).collect();
    let _ = write!(s, " {};", q.join(","));
    s
}

/// Prints a portable program as OpenQASM 2.
pub fn to_qasm2(p: &Program) -> String {
    let mut out = String::from("OPENQASM 2.0;\ninclude \"qelib1.inc\";\n");
    for line in &p.header {
        let _ = writeln!(out, "// {line}");
    }
    for d in library::needed(p.used_gate_names()) {
        if !d.in_qelib1 {
            let _ = writeln!(out, "{}", library::text(d));
        }
    }
    p.write_labels(&mut out, "q", "c");
    let _ = writeln!(out, "qreg q[{}];", p.num_qubits);
    for k in 0..p.num_clbits {
        let _ = writeln!(out, "creg c{k}[1];");
    }
    for stmt in &p.body {
        match stmt {
            Stmt::Gate(g) => {
                let _ = writeln!(out, "{}", call2(g));
            }
            Stmt::Measure { qubit, clbit } => {
                let _ = writeln!(out, "measure q[{qubit}] -> c{clbit}[0];");
            }
            Stmt::Reset { qubit } => {
                let _ = writeln!(out, "reset q[{qubit}];");
            }
            // OpenQASM 2 has no delay. A delay is the identity, so dropping it leaves what the
            // program computes unchanged (only a device's timing, which OpenQASM 2 cannot state,
            // differs); the comment keeps it visible. The device compiler refuses dynamical
            // decoupling in OpenQASM 2, where dropping its delays would leave bare pulses.
            Stmt::Delay { qubit, duration } => {
                let _ = writeln!(
                    out,
                    "// delay[{duration}ns] q[{qubit}]; (OpenQASM 2 has no delay)"
                );
            }
            Stmt::If { clbit, body } => {
                for g in body {
                    let _ = writeln!(out, "if (c{clbit}==1) {}", call2(g));
                }
            }
        }
    }
    out
}
