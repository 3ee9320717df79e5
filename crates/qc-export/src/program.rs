//! The OpenQASM program model every writer shares: gate calls on register indices, measurements,
//! resets and `if` blocks, plus the qubit and bit labels. Owns the OpenQASM 3 printer and the
//! [`Summary`] statistics.

use crate::library;
use qc_ir::angle::format_angle;
use serde::Serialize;
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write;

/// A gate modifier (extended dialect only).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Modifier {
    /// `ctrl @`: the next operand is a 1-control.
    Ctrl,
    /// `negctrl @`: the next operand is a 0-control.
    NegCtrl,
}

/// One gate application.
#[derive(Clone, Debug, PartialEq)]
pub struct GateCall {
    /// Modifiers, outermost first; each consumes one leading operand.
    pub modifiers: Vec<Modifier>,
    /// The gate name (stdgates, library or target-native).
    pub name: String,
    /// Angles in radians.
    pub params: Vec<f64>,
    /// Operand indices into the qubit register (controls of modifiers first).
    pub qubits: Vec<usize>,
}

impl GateCall {
    /// A call without modifiers.
    pub fn new(name: &str, params: Vec<f64>, qubits: Vec<usize>) -> GateCall {
        GateCall {
            modifiers: Vec::new(),
            name: name.to_string(),
            params,
            qubits,
        }
    }
}

/// One program statement.
#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    /// A gate.
    Gate(GateCall),
    /// `c[clbit] = measure q[qubit];`
    Measure {
        /// Measured qubit.
        qubit: usize,
        /// Written bit.
        clbit: usize,
    },
    /// `reset q[qubit];` (extended dialect only).
    Reset {
        /// The qubit.
        qubit: usize,
    },
    /// `delay[<duration>ns] q[qubit];` (OpenQASM 3; OpenQASM 2 has no delay, see
    /// [`crate::qasm2::to_qasm2`]).
    Delay {
        /// The waiting qubit.
        qubit: usize,
        /// How long, in nanoseconds (finite, not negative).
        duration: f64,
    },
    /// `if (c[clbit]) { body }`.
    If {
        /// The condition bit (the body runs when it is 1).
        clbit: usize,
        /// Gates only.
        body: Vec<GateCall>,
    },
}

/// A complete program before printing.
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Program {
    /// Size of `qubit[N] q;`.
    pub num_qubits: usize,
    /// Size of `bit[M] c;`.
    pub num_clbits: usize,
    /// A comment per qubit.
    pub qubit_labels: Vec<String>,
    /// A comment per bit.
    pub clbit_labels: Vec<String>,
    /// Extra header comment lines (without `// `).
    pub header: Vec<String>,
    /// The statements.
    pub body: Vec<Stmt>,
    /// What every bit means (written into the header).
    pub map: crate::header::BoardMap,
    /// A device program: qubit indices are physical qubits, written `$k` in OpenQASM 3 (no
    /// `qubit` declaration), and only the qubits with a label get a label comment.
    pub physical: bool,
    /// A device program's layout: where each program qubit lives (written into the header).
    pub layout: Option<Vec<crate::header::LayoutEntry>>,
}

/// Depth counting only gates on two or more qubits: each such gate starts one layer after the
/// latest layer of any of its qubits. `gates` gives each gate's qubits (targets and controls, any
/// index type); single-qubit gates are skipped. Shared by [`Program::summary`], the CLI and the
/// per-move metrics of `docs/circuits.md`, so every figure counts depth the same way.
pub fn two_qubit_depth<'a, Q: Ord + Copy + 'a>(gates: impl IntoIterator<Item = &'a [Q]>) -> usize {
    let mut level: BTreeMap<Q, usize> = BTreeMap::new();
    let mut depth = 0;
    for qubits in gates {
        if qubits.len() < 2 {
            continue;
        }
        let top = qubits
            .iter()
            .map(|q| level.get(q).copied().unwrap_or(0))
            .max()
            .unwrap_or(0)
            + 1;
        for q in qubits {
            level.insert(*q, top);
        }
        depth = depth.max(top);
    }
    depth
}

/// Size and cost of an exported program.
#[derive(Clone, Debug, PartialEq, Default, Serialize)]
pub struct Summary {
    /// Qubits declared.
    pub qubits: usize,
    /// Bits declared.
    pub clbits: usize,
    /// Gate calls by name (modifier forms are named with their modifiers, e.g. `ctrl@iswap`).
    pub gate_counts: BTreeMap<String, usize>,
    /// Total gate calls.
    pub total_gates: usize,
    /// Gate calls on two or more qubits.
    pub multi_qubit_gates: usize,
    /// Depth counting only gates on two or more qubits (an `if` body counts as executed).
    pub two_qubit_depth: usize,
    /// Measurements.
    pub measurements: usize,
}

impl Program {
    /// Every gate call, including those inside `if` bodies, in order.
    pub fn calls(&self) -> impl Iterator<Item = &GateCall> {
        self.body.iter().flat_map(|s| match s {
            Stmt::Gate(g) => std::slice::from_ref(g).iter(),
            Stmt::If { body, .. } => body.iter(),
            _ => [].iter(),
        })
    }

    /// Counts gates, measurements and the two-qubit depth.
    pub fn summary(&self) -> Summary {
        let mut s = Summary {
            qubits: self.num_qubits,
            clbits: self.num_clbits,
            ..Summary::default()
        };
        for call in self.calls() {
            let mut name = String::new();
            for m in &call.modifiers {
                name.push_str(match m {
                    Modifier::Ctrl => "ctrl@",
                    Modifier::NegCtrl => "negctrl@",
                });
            }
            name.push_str(&call.name);
            *s.gate_counts.entry(name).or_default() += 1;
            s.total_gates += 1;
            if call.qubits.len() >= 2 {
                s.multi_qubit_gates += 1;
            }
        }
        s.two_qubit_depth = two_qubit_depth(self.calls().map(|c| c.qubits.as_slice()));
        s.measurements = self
            .body
            .iter()
            .filter(|st| matches!(st, Stmt::Measure { .. }))
            .count();
        s
    }

    /// Names of all gates called (without modifiers).
    pub fn used_gate_names(&self) -> BTreeSet<&str> {
        self.calls().map(|c| c.name.as_str()).collect()
    }

    /// Prints OpenQASM 3. `include_stdgates` and `definitions` control the prelude.
    pub fn to_qasm3(&self, include_stdgates: bool, definitions: bool) -> String {
        let mut out = String::from("OPENQASM 3.0;\n");
        if include_stdgates {
            out.push_str("include \"stdgates.inc\";\n");
        }
        for line in &self.header {
            let _ = writeln!(out, "// {line}");
        }
        // `rzz` is no stdgates name: without its definition the program is not OpenQASM 3.
        if self.used_gate_names().contains("rzz") {
            let _ = writeln!(out, "{}", library::RZZ_DEFINITION);
        }
        if definitions {
            let defs = library::needed(self.used_gate_names());
            if !defs.is_empty() {
                out.push_str(
                    "// qchess gate library (modifier-free, exact including global phase)\n",
                );
            }
            for d in defs {
                let _ = writeln!(out, "{}", library::text(d));
            }
        }
        let reg = if self.physical { "$" } else { "q" };
        self.write_labels(&mut out, reg, "c");
        if !self.physical {
            let _ = writeln!(out, "qubit[{}] q;", self.num_qubits);
        }
        let _ = writeln!(out, "bit[{}] c;", self.num_clbits);
        for stmt in &self.body {
            match stmt {
                Stmt::Gate(g) => {
                    let _ = writeln!(out, "{}", call_text(g, reg));
                }
                Stmt::Measure { qubit, clbit } => {
                    let _ = writeln!(out, "c[{clbit}] = measure {};", operand(reg, *qubit));
                }
                Stmt::Reset { qubit } => {
                    let _ = writeln!(out, "reset {};", operand(reg, *qubit));
                }
                Stmt::Delay { qubit, duration } => {
                    let _ = writeln!(out, "delay[{duration}ns] {};", operand(reg, *qubit));
                }
                Stmt::If { clbit, body } => {
                    let _ = writeln!(out, "if (c[{clbit}]) {{");
                    for g in body {
                        let _ = writeln!(out, "  {}", call_text(g, reg));
                    }
                    out.push_str("}\n");
                }
            }
        }
        out
    }

    /// Writes the qubit and bit label comments (`qreg` `$` for physical qubits `$k`); a device
    /// program labels only the qubits it uses.
    pub fn write_labels(&self, out: &mut String, qreg: &str, creg: &str) {
        for (i, label) in self.qubit_labels.iter().enumerate() {
            if label.is_empty() {
                continue;
            }
            let _ = writeln!(out, "// {} = {label}", operand(qreg, i));
        }
        for (i, label) in self.clbit_labels.iter().enumerate() {
            let _ = writeln!(out, "// {creg}[{i}] = {label}");
        }
    }
}

/// `q[k]`, or `$k` for the physical register `$`.
pub fn operand(reg: &str, k: usize) -> String {
    if reg == "$" {
        format!("${k}")
    } else {
        format!("{reg}[{k}]")
    }
}

/// `name(params) q[a], q[b];` with modifiers (`$a, $b` for the physical register `$`).
pub fn call_text(g: &GateCall, reg: &str) -> String {
    let mut s = String::new();
    for m in &g.modifiers {
        s.push_str(match m {
            Modifier::Ctrl => "ctrl @ ",
            Modifier::NegCtrl => "negctrl @ ",
        });
    }
    s.push_str(&g.name);
    if !g.params.is_empty() {
        let params: Vec<String> = g.params.iter().map(|p| format_angle(*p)).collect();
        let _ = write!(s, "({})", params.join(", "));
    }
    let qubits: Vec<String> = g.qubits.iter().map(|q| operand(reg, *q)).collect();
    let _ = write!(s, " {};", qubits.join(", "));
    s
}

#[cfg(test)]
mod tests {
    use super::two_qubit_depth;

    #[test]
    fn two_qubit_depth_counts_layers_of_multi_qubit_gates_only() {
        // cx(0,1), h(2), cx(2,3) share a layer; ccx(1,2,4) waits for both; cx(0,5) fits in layer 2.
        let gates: [&[usize]; 5] = [&[0, 1], &[2], &[2, 3], &[1, 2, 4], &[0, 5]];
        assert_eq!(two_qubit_depth(gates), 2);
        let chain: [&[usize]; 3] = [&[0, 1], &[1, 2], &[2, 3]];
        assert_eq!(two_qubit_depth(chain), 3);
        assert_eq!(two_qubit_depth::<usize>([]), 0);
    }
}
