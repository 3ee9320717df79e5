//! Hardware targets (`backends/*.toml`) and the lowering pass to their native gates.
//!
//! A target names its native gates, qubit count, whether it has mid-circuit measurement with
//! feed-forward, how a merged single-qubit run is written (`zsx`, `zyz` or `u3`), its entangler
//! (`cx`, `cz` or `siswap`) and optional output names. Lowering expands every call that is not
//! native (library definitions, controlled gates) to single-qubit unitaries and CNOTs with exact
//! decompositions, rewrites each CNOT with the entangler, merges each run of single-qubit gates on
//! a qubit into one matrix and writes it in the target's single-qubit basis. The result equals the
//! program up to a global phase (per `if` branch, so still unobservable).

use crate::decompose::{controlled_abc, is_identity_up_to_phase, normalize, zsx, zyz, AbcStep};
use crate::error::ExportError;
use crate::export::{build_program, header_lines, postselect_pattern, Export};
use crate::program::{GateCall, Program, Stmt};
use crate::{library, ExportOptions, Form};
use qc_ir::{Circuit, Gate, Matrix, Op, Polarity};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::Path;

/// A hardware target, as read from TOML.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Target {
    /// Target name (`--target`).
    pub name: String,
    /// One line for humans.
    #[serde(default)]
    pub description: String,
    /// Number of hardware qubits.
    pub qubits: usize,
    /// Mid-circuit measurement with feed-forward (`if`) is available.
    pub feed_forward: bool,
    /// When false, the program is written with stdgates and library definitions (no lowering).
    #[serde(default = "yes")]
    pub lower: bool,
    /// Native gate names (before renaming).
    #[serde(default)]
    pub native: Vec<String>,
    /// `zsx`, `zyz` or `u3`.
    #[serde(default = "default_single")]
    pub single_qubit: String,
    /// `cx`, `cz` or `siswap`.
    #[serde(default = "default_two")]
    pub two_qubit: String,
    /// Write `include "stdgates.inc";`.
    #[serde(default = "yes")]
    pub include_stdgates: bool,
    /// Inline the library definitions of library gates the output calls (e.g. a native `siswap`).
    #[serde(default)]
    pub definitions: bool,
    /// Output names for gates (`cx = "cnot"`).
    #[serde(default)]
    pub rename: BTreeMap<String, String>,
}

fn yes() -> bool {
    true
}
fn default_single() -> String {
    "zsx".into()
}
fn default_two() -> String {
    "cx".into()
}

impl Target {
    /// Parses a target from TOML text and checks that its lowering is possible.
    pub fn from_toml(text: &str) -> Result<Target, ExportError> {
        let t: Target = toml::from_str(text).map_err(|e| ExportError::Target {
            target: "<toml>".into(),
            message: e.to_string(),
        })?;
        t.check()?;
        Ok(t)
    }

    /// Reads `dir/<name>.toml`.
    pub fn load(dir: &Path, name: &str) -> Result<Target, ExportError> {
        let path = dir.join(format!("{name}.toml"));
        let text = std::fs::read_to_string(&path).map_err(|e| ExportError::Target {
            target: name.into(),
            message: format!("cannot read {}: {e}", path.display()),
        })?;
        Target::from_toml(&text).map_err(|e| match e {
            ExportError::Target { message, .. } => ExportError::Target {
                target: name.into(),
                message,
            },
            other => other,
        })
    }

    fn err(&self, message: String) -> ExportError {
        ExportError::Target {
            target: self.name.clone(),
            message,
        }
    }

    fn check(&self) -> Result<(), ExportError> {
        if !self.lower {
            return Ok(());
        }
        let needs: &[&str] = match self.single_qubit.as_str() {
            "zsx" => &["rz", "sx"],
            "zyz" => &["rz", "ry"],
            "u3" => &["u3"],
            other => {
                return Err(self.err(format!(
                    "unknown single_qubit basis `{other}` (zsx, zyz, u3)"
                )))
            }
        };
        if !["cx", "cz", "siswap"].contains(&self.two_qubit.as_str()) {
            return Err(self.err(format!(
                "unknown two_qubit entangler `{}` (cx, cz, siswap)",
                self.two_qubit
            )));
        }
        for g in needs.iter().copied().chain([self.two_qubit.as_str()]) {
            if !self.native.iter().any(|n| n == g) {
                return Err(self.err(format!(
                    "the lowering writes `{g}` but it is not in `native`"
                )));
            }
        }
        Ok(())
    }

    fn is_native(&self, name: &str) -> bool {
        self.native.iter().any(|n| n == name)
    }
}

/// Exports `circuit` for `target`: forces the deferred form when the target has no feed-forward,
/// lowers to native gates, and refuses programs wider than the target.
pub fn export_for_target(
    circuit: &Circuit,
    outcomes: &[Option<bool>],
    options: &ExportOptions,
    target: &Target,
) -> Result<Export, ExportError> {
    let mut options = *options;
    if !target.feed_forward {
        options.form = Form::Deferred;
    }
    let program = build_program(circuit, outcomes, &options)?;
    if program.num_qubits > target.qubits {
        return Err(ExportError::TooManyQubits {
            target: target.name.clone(),
            needed: program.num_qubits,
            available: target.qubits,
        });
    }
    let mut program = if target.lower {
        lower_program(&program, target)?
    } else {
        program
    };
    let postselect = postselect_pattern(outcomes, program.num_clbits);
    program.header = header_lines(&program, &postselect, &options, &target.name, "qasm3");
    let text = program.to_qasm3(target.include_stdgates, !target.lower || target.definitions);
    Ok(Export {
        summary: program.summary(),
        text,
        program,
        postselect,
    })
}

/// A primitive after expansion.
enum Prim {
    One(usize, Matrix),
    Cx(usize, usize),
    Native(GateCall),
}

/// Rewrites a program's gates into `target`'s native gates.
pub fn lower_program(program: &Program, target: &Target) -> Result<Program, ExportError> {
    let mut out = program.clone();
    out.body.clear();
    let mut pending: Vec<Option<Matrix>> = vec![None; program.num_qubits];
    let mut emit = Vec::new();
    for stmt in &program.body {
        match stmt {
            Stmt::Gate(call) => {
                for p in expand(call, target)? {
                    place(p, target, &mut pending, &mut emit);
                }
            }
            Stmt::If { clbit, body } => {
                flush_all(target, &mut pending, &mut emit);
                out.body.extend(emit.drain(..).map(Stmt::Gate));
                let mut inner_pending = vec![None; program.num_qubits];
                let mut inner = Vec::new();
                for call in body {
                    for p in expand(call, target)? {
                        place(p, target, &mut inner_pending, &mut inner);
                    }
                }
                flush_all(target, &mut inner_pending, &mut inner);
                if !inner.is_empty() {
                    out.body.push(Stmt::If {
                        clbit: *clbit,
                        body: inner.into_iter().map(|c| rename(c, target)).collect(),
                    });
                }
            }
            Stmt::Measure { qubit, .. } | Stmt::Reset { qubit } => {
                flush(target, &mut pending, *qubit, &mut emit);
                out.body.extend(emit.drain(..).map(Stmt::Gate));
                out.body.push(stmt.clone());
            }
        }
    }
    flush_all(target, &mut pending, &mut emit);
    out.body.extend(emit.drain(..).map(Stmt::Gate));
    for s in &mut out.body {
        if let Stmt::Gate(c) = s {
            *c = rename(c.clone(), target);
        }
    }
    Ok(out)
}

fn rename(mut c: GateCall, target: &Target) -> GateCall {
    if let Some(n) = target.rename.get(&c.name) {
        c.name = n.clone();
    }
    c
}

fn place(p: Prim, target: &Target, pending: &mut [Option<Matrix>], emit: &mut Vec<GateCall>) {
    match p {
        Prim::One(q, m) => {
            let merged = match pending[q].take() {
                Some(prev) => m.mul(&prev),
                None => m,
            };
            pending[q] = Some(merged);
        }
        Prim::Cx(c, t) => {
            for call in entangle(c, t, target) {
                match call {
                    Prim::Native(g) => {
                        for &q in &g.qubits {
                            flush(target, pending, q, emit);
                        }
                        emit.push(g);
                    }
                    other => place(other, target, pending, emit),
                }
            }
        }
        Prim::Native(g) => {
            for &q in &g.qubits {
                flush(target, pending, q, emit);
            }
            emit.push(g);
        }
    }
}

fn flush_all(target: &Target, pending: &mut [Option<Matrix>], emit: &mut Vec<GateCall>) {
    for q in 0..pending.len() {
        flush(target, pending, q, emit);
    }
}

fn flush(target: &Target, pending: &mut [Option<Matrix>], q: usize, emit: &mut Vec<GateCall>) {
    let Some(m) = pending[q].take() else { return };
    if is_identity_up_to_phase(&m) {
        return;
    }
    if target.is_native("x") && m.approx_eq_up_to_phase(&Gate::X.matrix(), 1e-10) {
        emit.push(GateCall::new("x", vec![], vec![q]));
        return;
    }
    let gates = match target.single_qubit.as_str() {
        "zyz" => zyz(&m),
        "u3" => {
            let (t, p, l, _) = crate::decompose::u_params(&m);
            vec![Gate::U(t, normalize(p), normalize(l))]
        }
        _ => zsx(&m),
    };
    for g in gates {
        emit.push(GateCall::new(g.info().qasm_name(), g.params(), vec![q]));
    }
}

/// CNOT(c, t) in the target's entangler.
fn entangle(c: usize, t: usize, target: &Target) -> Vec<Prim> {
    let h = || Gate::H.matrix();
    match target.two_qubit.as_str() {
        "cz" => vec![
            Prim::One(t, h()),
            Prim::Native(GateCall::new("cz", vec![], vec![c, t])),
            Prim::One(t, h()),
        ],
        "siswap" => {
            // CX = H_t . e^{-i pi/4} exp(i pi/4 ZZ) (S x S) . H_t, and
            // exp(i pi/4 XX) = (X x I) siswap (X x I) siswap; conjugate by H x H for ZZ.
            let sw = || Prim::Native(GateCall::new("siswap", vec![], vec![c, t]));
            vec![
                Prim::One(t, h()),
                Prim::One(c, Gate::S.matrix()),
                Prim::One(t, Gate::S.matrix()),
                Prim::One(c, h()),
                Prim::One(t, h()),
                sw(),
                Prim::One(c, Gate::X.matrix()),
                sw(),
                Prim::One(c, Gate::X.matrix()),
                Prim::One(c, h()),
                Prim::One(t, h()),
                Prim::One(t, h()),
            ]
        }
        _ => vec![Prim::Native(GateCall::new("cx", vec![], vec![c, t]))],
    }
}

/// Expands one call into single-qubit matrices, CNOTs and native calls.
fn expand(call: &GateCall, target: &Target) -> Result<Vec<Prim>, ExportError> {
    if !call.modifiers.is_empty() {
        return Err(
            target.err("gate modifiers cannot be lowered; export in the portable dialect".into())
        );
    }
    // Native multi-qubit gates pass through; single-qubit ones join the merged runs.
    if target.is_native(&call.name) && call.qubits.len() > 1 {
        return Ok(vec![Prim::Native(call.clone())]);
    }
    // The call's meaning: import it (with the library definitions) into IR instructions.
    let n = call.qubits.iter().max().map_or(1, |m| m + 1);
    let mut text = String::from("OPENQASM 3.0;\ninclude \"stdgates.inc\";\n");
    for d in library::needed([call.name.as_str()]) {
        text.push_str(d.text);
        text.push('\n');
    }
    text.push_str(&format!(
        "qubit[{n}] q;\n{}\n",
        crate::program::call_text(call, "q")
    ));
    let ir = crate::import3::import_qasm3(&text)
        .map_err(|e| target.err(format!("cannot expand `{}`: {e}", call.name)))?;
    let mut out = Vec::new();
    for instr in ir.instructions() {
        if let Op::Gate {
            gate,
            targets,
            controls,
        } = &instr.op
        {
            let t: Vec<usize> = targets.iter().map(|q| q.index()).collect();
            if controls.iter().any(|c| c.on == Polarity::Zero) {
                return Err(target.err(format!("`{}` expands to a 0-control", call.name)));
            }
            let c: Vec<usize> = controls.iter().map(|c| c.qubit.index()).collect();
            prims(*gate, &t, &c, &mut out)
                .map_err(|m| target.err(format!("`{}`: {m}", call.name)))?;
        }
    }
    Ok(out)
}

fn prims(gate: Gate, t: &[usize], c: &[usize], out: &mut Vec<Prim>) -> Result<(), String> {
    match (gate.num_targets(), c.len()) {
        (1, 0) => out.push(Prim::One(t[0], gate.matrix())),
        (1, 1) if gate == Gate::X => out.push(Prim::Cx(c[0], t[0])),
        (1, 1) => {
            for step in controlled_abc(&gate.matrix()) {
                out.push(match step {
                    AbcStep::Target(g) => Prim::One(t[0], g.matrix()),
                    AbcStep::Control(g) => Prim::One(c[0], g.matrix()),
                    AbcStep::Cx => Prim::Cx(c[0], t[0]),
                });
            }
        }
        (1, 2) if gate == Gate::X => ccx(c[0], c[1], t[0], out),
        (2, 0) if gate == Gate::Swap => {
            out.extend([
                Prim::Cx(t[0], t[1]),
                Prim::Cx(t[1], t[0]),
                Prim::Cx(t[0], t[1]),
            ]);
        }
        (2, 1) if gate == Gate::Swap => {
            out.push(Prim::Cx(t[1], t[0]));
            ccx(c[0], t[0], t[1], out);
            out.push(Prim::Cx(t[1], t[0]));
        }
        (2, 0) => {
            // iSWAP family without a native form: its library definition.
            let (name, _) = crate::lower::base_name(gate);
            let def =
                library::definition(name).ok_or_else(|| format!("no definition for `{name}`"))?;
            let text = format!(
                "OPENQASM 3.0;\ninclude \"stdgates.inc\";\n{}\nqubit[2] q;\n{name} q[0], q[1];\n",
                def.text
            );
            let ir = crate::import3::import_qasm3(&text).map_err(|e| e.to_string())?;
            for instr in ir.instructions() {
                if let Op::Gate {
                    gate: g,
                    targets,
                    controls,
                } = &instr.op
                {
                    let tt: Vec<usize> = targets.iter().map(|q| t[q.index()]).collect();
                    let cc: Vec<usize> = controls.iter().map(|q| t[q.qubit.index()]).collect();
                    prims(*g, &tt, &cc, out)?;
                }
            }
        }
        (k, n) => {
            return Err(format!(
                "no decomposition for a {k}-qubit gate `{}` with {n} controls",
                gate.name()
            ))
        }
    }
    Ok(())
}

/// The exact Toffoli (Nielsen & Chuang fig. 4.9).
fn ccx(a: usize, b: usize, t: usize, out: &mut Vec<Prim>) {
    let one = |q, g: Gate| Prim::One(q, g.matrix());
    out.extend([
        one(t, Gate::H),
        Prim::Cx(b, t),
        one(t, Gate::Tdg),
        Prim::Cx(a, t),
        one(t, Gate::T),
        Prim::Cx(b, t),
        one(t, Gate::Tdg),
        Prim::Cx(a, t),
        one(b, Gate::T),
        one(t, Gate::T),
        one(t, Gate::H),
        Prim::Cx(a, b),
        one(a, Gate::T),
        one(b, Gate::Tdg),
        Prim::Cx(a, b),
    ]);
}
