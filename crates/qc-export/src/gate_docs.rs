//! `docs/gates.md`, written from the gate table (qc-ir's `gate_data`) and the targets: one row
//! per gate, every OpenQASM spelling, the library definitions, and what each gate costs on each
//! hardware target. A test compares the committed page with this output.

use crate::library;
use crate::target::{export_for_target, Target};
use crate::{ExportOptions, Width};
use qc_ir::gate_data::{qasm_forms, Controlled, Home, QasmForm, LIBRARY};
use qc_ir::{Circuit, Control, Gate, GateKind, Instruction, Qubit};
use std::fmt::Write;

/// The page, for `targets` (the lowered ones get a cost column).
pub fn gates_markdown(targets: &[Target]) -> String {
    let mut out = String::from(HEADER);
    out.push_str("\n## Gates\n\n");
    out.push_str("| IR name | targets | angles | OpenQASM | with one control | inverse | what |\n");
    out.push_str("| --- | --- | --- | --- | --- | --- | --- |\n");
    for kind in GateKind::ALL {
        let info = kind.info();
        let _ = writeln!(
            out,
            "| `{}` | {} | {} | `{}` ({}) | {} | `{}` | {} |",
            info.name,
            info.targets,
            info.params,
            info.qasm_name(),
            home(&info.qasm[0]),
            controlled(kind.example()),
            info.inverse.info().name,
            info.summary.replace('|', "\\|"),
        );
    }
    out.push_str(
        "\nMatrices (first target = most significant bit; `t`, `p`, `l` are the angles):\n\n",
    );
    for kind in GateKind::ALL {
        let info = kind.info();
        let _ = writeln!(out, "- `{}`: {}", info.name, info.matrix_text);
    }
    out.push_str("\n## Every OpenQASM name read on input\n\n");
    out.push_str("| name | gate | controls | angles | from |\n| --- | --- | --- | --- | --- |\n");
    for f in qasm_forms() {
        let controls = match (f.controls, f.zero_control) {
            (n, false) => n.to_string(),
            (n, true) => format!("{n} (0-control)"),
        };
        let _ = writeln!(
            out,
            "| `{}` | `{}` | {controls} | {} | {} |",
            f.name,
            f.kind.info().name,
            f.num_params(),
            home(f)
        );
    }
    let old: Vec<String> = GateKind::ALL
        .iter()
        .flat_map(|k| {
            k.info()
                .old_names
                .iter()
                .map(move |o| format!("`{o}` (now `{}`)", k.info().name))
        })
        .collect();
    let _ = writeln!(out, "\nOlder IR spellings still read: {}.", old.join(", "));
    out.push_str("\n## The qchess gate library\n\nWritten into programs that call them (OpenQASM 2 output leaves out those `qelib1.inc` has: ");
    let in_qelib1: Vec<String> = LIBRARY
        .iter()
        .filter(|d| d.in_qelib1)
        .map(|d| format!("`{}`", d.name))
        .collect();
    let _ = writeln!(out, "{}).\n\n```text", in_qelib1.join(", "));
    for def in LIBRARY {
        let _ = writeln!(out, "{}", library::text(def));
    }
    out.push_str("```\n");
    // A device target lowers as a logical target with its gates does, then routes: its cost
    // depends on where the qubits stand, so it has no column of its own.
    let lowered: Vec<&Target> = targets
        .iter()
        .filter(|t| t.lower && !t.is_device())
        .collect();
    let devices: Vec<String> = targets
        .iter()
        .filter(|t| t.is_device())
        .map(|t| format!("`{}`", t.name))
        .collect();
    out.push_str("\n## Cost on each target\n\nNative gate calls (two-qubit calls in parentheses) for the gate alone and with one 1-control, after lowering (`qchess compile --target NAME`)");
    if !devices.is_empty() {
        let _ = write!(
            out,
            "; the device targets ({}) lower to the same gates as the logical target with their native set, then place and route, which adds gates that depend on the whole program",
            devices.join(", ")
        );
    }
    out.push_str(":\n\n| gate |");
    for t in &lowered {
        let _ = write!(out, " {} | {} + 1 control |", t.name, t.name);
    }
    out.push_str("\n| --- |");
    for _ in &lowered {
        out.push_str(" --- | --- |");
    }
    out.push('\n');
    for kind in GateKind::ALL {
        let gate = kind.example();
        let _ = write!(out, "| `{}` |", kind.info().name);
        for t in &lowered {
            let _ = write!(out, " {} | {} |", cost(gate, false, t), cost(gate, true, t));
        }
        out.push('\n');
    }
    out
}

const HEADER: &str = "# Gates

Generated from the gate table (`crates/qc-ir/src/gate_data.rs`) by `qc_export::gate_docs`; do not edit.
Regenerate with `QCHESS_BLESS=1 cargo test -p qc-export --test gates_doc`.

Every gate has one name that users see: in IR text, drawings, summaries, and (for library gates) in
OpenQASM. Standard gates keep their `stdgates.inc` names (`id`, `u3`). Other tools' spellings are read
on input (below). Controls are not part of a gate: CNOT is `x` with one control.
";

fn home(f: &QasmForm) -> &'static str {
    match f.home {
        Home::Standard {
            stdgates: true,
            qelib1: true,
        } => "stdgates, qelib1",
        Home::Standard {
            stdgates: true,
            qelib1: false,
        } => "stdgates",
        Home::Standard {
            stdgates: false, ..
        } => "qelib1",
        Home::Library(def) if def.in_qelib1 => "qchess library, qelib1",
        Home::Library(_) => "qchess library",
        Home::Alias => "alias",
    }
}

fn controlled(gate: Gate) -> String {
    let info = gate.info();
    match info.controlled {
        Controlled::Named => info
            .written_with_controls(1)
            .map_or_else(String::new, |f| format!("`{}`", f.name)),
        Controlled::As(equal) => format!("as `{}`", controlled(equal).trim_matches('`')),
        Controlled::Cu => "`cu` (from the matrix)".into(),
    }
}

fn cost(gate: Gate, with_control: bool, target: &Target) -> String {
    let k = gate.num_targets() as u32;
    let targets: Vec<Qubit> = (0..k).map(Qubit).collect();
    let controls = if with_control {
        vec![Control::one(Qubit(k))]
    } else {
        vec![]
    };
    let mut c = Circuit::with_plain_qubits(k + controls.len() as u32, 0);
    c.push(Instruction::gate(gate, &targets, &controls));
    let options = ExportOptions {
        width: Width::Full,
        ..Default::default()
    };
    match export_for_target(&c, &[], &options, target) {
        Ok(e) => format!(
            "{} ({})",
            e.summary.total_gates, e.summary.multi_qubit_gates
        ),
        Err(_) => "n/a".into(),
    }
}
