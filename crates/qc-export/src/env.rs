//! The importers' shared back end: registers, user gate definitions, and applying a (possibly
//! modified, user-defined) gate call to the IR circuit being built.

use crate::error::ImportError;
use crate::expr::Expr;
use qc_ir::gate_data::qasm_gate;
use qc_ir::{Circuit, Clbit, Condition, Control, Gate, Instruction, Op, Qubit};
use std::collections::HashMap;

/// A gate modifier on a call.
#[derive(Clone, Debug, PartialEq)]
pub enum Mod {
    /// `ctrl(n) @`.
    Ctrl(usize),
    /// `negctrl(n) @`.
    NegCtrl(usize),
    /// `inv @`.
    Inv,
}

/// One call inside a gate body.
#[derive(Clone, Debug, PartialEq)]
pub struct BodyCall {
    /// Modifiers.
    pub mods: Vec<Mod>,
    /// Gate name.
    pub name: String,
    /// Angle expressions over the gate's parameters.
    pub params: Vec<Expr>,
    /// Qubit argument names.
    pub args: Vec<String>,
    /// Source line.
    pub line: usize,
}

/// A user gate definition.
#[derive(Clone, Debug, PartialEq)]
pub struct GateDef {
    /// Parameter names.
    pub params: Vec<String>,
    /// Qubit argument names.
    pub qargs: Vec<String>,
    /// Body.
    pub body: Vec<BodyCall>,
}

/// A register: name, first index, size.
#[derive(Clone, Debug, PartialEq)]
pub struct Reg {
    /// Name.
    pub name: String,
    /// First flat index.
    pub start: usize,
    /// Size.
    pub size: usize,
}

/// The import state.
#[derive(Debug, Default)]
pub struct Env {
    /// Qubit registers (flattened in declaration order).
    pub qregs: Vec<Reg>,
    /// Bit registers (flattened in declaration order).
    pub cregs: Vec<Reg>,
    /// User gates.
    pub gates: HashMap<String, GateDef>,
    /// Instructions so far.
    pub instrs: Vec<Instruction>,
}

/// An operand: a whole register or one element.
pub fn lookup(
    regs: &[Reg],
    name: &str,
    index: Option<usize>,
    line: usize,
    what: &str,
) -> Result<Vec<usize>, ImportError> {
    let reg = regs
        .iter()
        .find(|r| r.name == name)
        .ok_or_else(|| ImportError::new(line, format!("undeclared {what} register `{name}`")))?;
    match index {
        None => Ok((reg.start..reg.start + reg.size).collect()),
        Some(i) if i < reg.size => Ok(vec![reg.start + i]),
        Some(i) => Err(ImportError::new(
            line,
            format!("index {i} is out of range for `{name}[{}]`", reg.size),
        )),
    }
}

/// The IR form of a gate an importer knows without a definition (stdgates, qelib1, vendor
/// aliases; from the gate table): the gate, how many leading operands are controls, and an extra
/// phase on the first control (`cu`'s gamma).
fn builtin(name: &str, p: &[f64]) -> Option<(Gate, usize, f64)> {
    let form = qasm_gate(name).filter(|f| f.is_predefined() && !f.zero_control)?;
    let call = form.resolve(p)?;
    Some((call.gate, call.controls, call.control_phase))
}

impl Env {
    /// The number of qubits declared.
    pub fn num_qubits(&self) -> usize {
        self.qregs.iter().map(|r| r.size).sum()
    }

    /// The number of bits declared.
    pub fn num_clbits(&self) -> usize {
        self.cregs.iter().map(|r| r.size).sum()
    }

    /// The finished circuit (plain qubits).
    pub fn finish(self) -> Circuit {
        let n = self.num_qubits() as u32;
        let m = self.num_clbits() as u32;
        let mut c = Circuit::with_plain_qubits(n, m);
        c.extend(self.instrs);
        c
    }

    /// Applies `name` with modifiers to `qubits` (controls of modifiers first).
    #[allow(
        clippy::too_many_arguments,
        reason = "one call site per importer; a struct would only rename the arguments"
    )]
    pub fn apply(
        &mut self,
        mods: &[Mod],
        name: &str,
        params: &[f64],
        qubits: &[usize],
        outer: &[Control],
        inverse: bool,
        cond: Option<Condition>,
        line: usize,
        depth: usize,
    ) -> Result<(), ImportError> {
        if depth > 64 {
            return Err(ImportError::new(
                line,
                format!("gate `{name}` is defined recursively"),
            ));
        }
        let mut controls: Vec<Control> = outer.to_vec();
        let mut inverse = inverse;
        let mut at = 0usize;
        for m in mods {
            match m {
                Mod::Ctrl(n) | Mod::NegCtrl(n) => {
                    for _ in 0..*n {
                        let q = *qubits.get(at).ok_or_else(|| {
                            ImportError::new(
                                line,
                                format!("`{name}`: not enough operands for its control modifiers"),
                            )
                        })?;
                        controls.push(if matches!(m, Mod::Ctrl(_)) {
                            Control::one(Qubit(q as u32))
                        } else {
                            Control::zero(Qubit(q as u32))
                        });
                        at += 1;
                    }
                }
                Mod::Inv => inverse = !inverse,
            }
        }
        let rest = &qubits[at..];
        if let Some(def) = self.gates.get(name).cloned() {
            if def.params.len() != params.len() || def.qargs.len() != rest.len() {
                return Err(ImportError::new(
                    line,
                    format!(
                        "gate `{name}` takes {} parameter(s) and {} qubit(s), got {} and {}",
                        def.params.len(),
                        def.qargs.len(),
                        params.len(),
                        rest.len()
                    ),
                ));
            }
            let vars: HashMap<String, f64> = def
                .params
                .iter()
                .cloned()
                .zip(params.iter().copied())
                .collect();
            let calls: Box<dyn Iterator<Item = &BodyCall>> = if inverse {
                Box::new(def.body.iter().rev())
            } else {
                Box::new(def.body.iter())
            };
            for call in calls {
                let p: Vec<f64> = call
                    .params
                    .iter()
                    .map(|e| e.eval(&vars).map_err(|m| ImportError::new(call.line, m)))
                    .collect::<Result<_, _>>()?;
                let q: Vec<usize> = call
                    .args
                    .iter()
                    .map(|a| {
                        def.qargs
                            .iter()
                            .position(|x| x == a)
                            .map(|i| rest[i])
                            .ok_or_else(|| {
                                ImportError::new(
                                    call.line,
                                    format!("`{a}` is not an argument of gate `{name}`"),
                                )
                            })
                    })
                    .collect::<Result<_, _>>()?;
                self.apply(
                    &call.mods,
                    &call.name,
                    &p,
                    &q,
                    &controls,
                    inverse,
                    cond,
                    call.line,
                    depth + 1,
                )?;
            }
            return Ok(());
        }
        if name == "gphase" {
            if controls.is_empty() {
                return Ok(()); // a global phase is unobservable
            }
            let a = params.first().copied().unwrap_or(0.0);
            let a = if inverse { -a } else { a };
            let target = controls.remove(0);
            if target.on == qc_ir::Polarity::Zero {
                return Err(ImportError::new(
                    line,
                    "`negctrl @ gphase` is not supported",
                ));
            }
            self.push(
                Gate::Phase(a),
                &[target.qubit.0 as usize],
                &controls,
                cond,
                line,
            )?;
            return Ok(());
        }
        let (gate, ncontrols, gamma) = builtin(name, params).ok_or_else(|| {
            ImportError::new(
                line,
                format!("unknown gate `{name}` with {} parameter(s)", params.len()),
            )
        })?;
        if rest.len() != ncontrols + gate.num_targets() {
            return Err(ImportError::new(
                line,
                format!(
                    "gate `{name}` takes {} qubit(s), got {}",
                    ncontrols + gate.num_targets(),
                    rest.len()
                ),
            ));
        }
        let gate = if inverse { gate.inverse() } else { gate };
        for &q in &rest[..ncontrols] {
            controls.push(Control::one(Qubit(q as u32)));
        }
        if gamma != 0.0 {
            let g = if inverse { -gamma } else { gamma };
            let first = rest[0];
            let mut outer_ctrls: Vec<Control> = controls.clone();
            outer_ctrls.retain(|c| c.qubit.0 as usize != first);
            self.push(Gate::Phase(g), &[first], &outer_ctrls, cond, line)?;
        }
        self.push(gate, &rest[ncontrols..], &controls, cond, line)
    }

    fn push(
        &mut self,
        gate: Gate,
        targets: &[usize],
        controls: &[Control],
        cond: Option<Condition>,
        line: usize,
    ) -> Result<(), ImportError> {
        let t: Vec<Qubit> = targets.iter().map(|&q| Qubit(q as u32)).collect();
        let mut seen: Vec<u32> = t.iter().map(|q| q.0).collect();
        for c in controls {
            if seen.contains(&c.qubit.0) {
                return Err(ImportError::new(
                    line,
                    format!("qubit {} is used twice in one gate", c.qubit.0),
                ));
            }
            seen.push(c.qubit.0);
        }
        if t.len() == 2 && t[0] == t[1] {
            return Err(ImportError::new(
                line,
                "a two-qubit gate acts twice on the same qubit",
            ));
        }
        let mut instr = Instruction::gate(gate, &t, controls);
        instr.condition = cond;
        self.instrs.push(instr);
        Ok(())
    }

    /// Appends a measurement.
    pub fn measure(&mut self, qubit: usize, clbit: usize, cond: Option<Condition>) {
        self.instrs.push(Instruction {
            op: Op::Measure {
                qubit: Qubit(qubit as u32),
                clbit: Clbit(clbit as u32),
            },
            condition: cond,
            origin: None,
        });
    }

    /// Appends a reset.
    pub fn reset(&mut self, qubit: usize, cond: Option<Condition>) {
        self.instrs.push(Instruction {
            op: Op::Reset {
                qubit: Qubit(qubit as u32),
            },
            condition: cond,
            origin: None,
        });
    }
}
