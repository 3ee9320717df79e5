//! The importers' shared back end: registers, user gate definitions, and the expansion of a
//! (possibly modified, user-defined) gate call into IR instructions.
//!
//! A call is expanded into a [`Body`]: IR instructions on the call's own operands (local qubits
//! `0..n`) plus a global phase. Modifiers act on whole bodies: `inv @` reverses and inverts it,
//! `ctrl @`/`negctrl @` add a control to every instruction and turn the global phase into a phase
//! gate on a control (which is how `ctrl @ gphase(a)` becomes observable). A user gate definition
//! is a unit ([`GateDef`]); [`Env::expand`] gives its body as IR for any parameter values, which
//! is the hook for recognising definitions that equal a table gate.

use crate::error::{ImportError, ImportErrorKind as Kind};
use qc_ir::angle::AngleExpr;
use qc_ir::gate_data::{qasm_gate, QasmForm};
use qc_ir::{Circuit, Clbit, Control, Gate, Guard, Instruction, Op, Polarity, Qubit};
use std::collections::HashMap;

/// Registers larger than this are refused (a typo must not allocate gigabytes).
pub const MAX_REGISTER: usize = 1 << 16;

/// The most instructions one import may produce (nested user gates multiply).
pub const MAX_INSTRUCTIONS: usize = 1 << 22;

/// User gate definitions nest at most this deep.
const MAX_GATE_NESTING: usize = 64;

/// Where a construct starts in the source: a byte offset, turned into a line and column only
/// when an error leaves the importer (`ImportError::locate`), so positions cost nothing on the
/// way (counting lines for every token would make import quadratic).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Pos {
    /// Byte offset in the source (`None`: unknown).
    pub offset: Option<usize>,
}

impl Pos {
    /// The position of byte `offset`.
    pub fn of_offset(offset: usize) -> Pos {
        Pos {
            offset: Some(offset),
        }
    }

    /// An error at this position.
    pub fn error(self, kind: Kind) -> ImportError {
        ImportError::at_offset(self.offset, kind)
    }
}

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
    /// Modifiers, outermost first.
    pub mods: Vec<Mod>,
    /// Gate name.
    pub name: String,
    /// Angle expressions over the gate's parameters.
    pub params: Vec<AngleExpr>,
    /// Operands, as indices into the definition's qubit arguments.
    pub args: Vec<usize>,
    /// Source position.
    pub pos: Pos,
}

/// A user gate definition.
#[derive(Clone, Debug, PartialEq)]
pub struct GateDef {
    /// Parameter names.
    pub params: Vec<String>,
    /// Number of qubit arguments.
    pub num_qubits: usize,
    /// Body.
    pub body: Vec<BodyCall>,
}

/// IR instructions on local qubits `0..n` plus a global phase.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Body {
    /// The instructions.
    pub instrs: Vec<Instruction>,
    /// The global phase (observable only once the body is controlled).
    pub phase: f64,
}

impl Body {
    /// The inverse: reversed, each gate inverted, phase negated.
    fn inverse(mut self) -> Body {
        self.instrs.reverse();
        for i in &mut self.instrs {
            if let Op::Gate { gate, .. } = &mut i.op {
                *gate = gate.inverse();
            }
        }
        self.phase = -self.phase;
        self
    }

    /// Renames local qubit `k` to `map[k]`.
    fn remap(mut self, map: &[usize]) -> Body {
        let q = |x: &mut Qubit| *x = Qubit(map[x.index()] as u32);
        for i in &mut self.instrs {
            if let Op::Gate {
                targets, controls, ..
            } = &mut i.op
            {
                targets.iter_mut().for_each(q);
                controls.iter_mut().for_each(|c| q(&mut c.qubit));
            }
        }
        self
    }

    /// Adds `control` to every instruction; the global phase becomes a phase gate on the control.
    fn controlled(mut self, control: Control) -> Body {
        for i in &mut self.instrs {
            if let Op::Gate { controls, .. } = &mut i.op {
                controls.push(control);
            }
        }
        if self.phase != 0.0 {
            let p = Instruction::gate(Gate::Phase(self.phase), &[control.qubit], &[]);
            if control.on == Polarity::One {
                self.instrs.push(p);
            } else {
                // A phase when the control is |0>: conjugate with X.
                let x = Instruction::gate(Gate::X, &[control.qubit], &[]);
                self.instrs.extend([x.clone(), p, x]);
            }
            self.phase = 0.0;
        }
        self
    }
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
    /// Small user gates met so far, with their parameter values (see [`crate::user_call`]).
    pub user_gates: HashMap<crate::user_call::UserGateKey, crate::user_call::UserGateEntry>,
    /// How many more instructions the program has once its small user gates are inlined: per
    /// call, its body's length less one. A call counts against [`MAX_INSTRUCTIONS`] as its body
    /// would inlined, so the inlined form (`--no-optimize`, export, the IR text) is as bounded as
    /// a program written out, and so are the bodies held in memory (a few lines calling a body of
    /// 4 096 gates with ever new angles would otherwise hold billions of gates).
    pub user_gate_instrs: usize,
    /// Per flat bit: whether a measurement writes it (grown as bits are measured).
    written: Vec<bool>,
}

/// The table's OpenQASM form of a gate an importer knows without a definition (stdgates,
/// qelib1, vendor aliases); the library's 0-controlled forms always need their definition.
pub(crate) fn predefined(name: &str) -> Option<&'static QasmForm> {
    qasm_gate(name).filter(|f| f.is_predefined() && !f.zero_control)
}

/// The IR form of a predefined gate (from the gate table): the gate, how many leading operands
/// are controls, and an extra phase on the first control (`cu`'s gamma).
fn builtin(name: &str, p: &[f64]) -> Option<(Gate, usize, f64)> {
    let call = predefined(name)?.resolve(p)?;
    Some((call.gate, call.controls, call.control_phase))
}

/// Whether `name` is a built-in gate (any parameter count).
pub fn is_builtin(name: &str) -> bool {
    predefined(name).is_some()
}

impl Env {
    /// Instructions so far with the small user gates inlined, against [`MAX_INSTRUCTIONS`].
    pub fn instructions_held(&self) -> usize {
        self.instrs.len() + self.user_gate_instrs
    }

    /// The number of qubits declared.
    pub fn num_qubits(&self) -> usize {
        self.qregs.iter().map(|r| r.size).sum()
    }

    /// The number of bits declared.
    pub fn num_clbits(&self) -> usize {
        self.cregs.iter().map(|r| r.size).sum()
    }

    /// Declares a register; refuses duplicates and sizes above [`MAX_REGISTER`].
    pub fn declare(
        &mut self,
        quantum: bool,
        name: &str,
        size: usize,
        pos: Pos,
    ) -> Result<(), ImportError> {
        if size > MAX_REGISTER {
            return Err(pos.error(Kind::RegisterTooLarge {
                name: name.into(),
                size,
                max: MAX_REGISTER,
            }));
        }
        let total = if quantum {
            self.num_qubits()
        } else {
            self.num_clbits()
        };
        if total + size > MAX_REGISTER {
            return Err(pos.error(Kind::TooManyBits {
                quantum,
                max: MAX_REGISTER,
            }));
        }
        if self.qregs.iter().chain(&self.cregs).any(|r| r.name == name) {
            return Err(pos.error(Kind::RegisterRedeclared { name: name.into() }));
        }
        let regs = if quantum {
            &mut self.qregs
        } else {
            &mut self.cregs
        };
        regs.push(Reg {
            name: name.to_string(),
            start: total,
            size,
        });
        Ok(())
    }

    /// The finished circuit (plain qubits).
    pub fn finish(self) -> Circuit {
        let n = self.num_qubits() as u32;
        let m = self.num_clbits() as u32;
        let mut c = Circuit::with_plain_qubits(n, m);
        c.extend(self.instrs);
        c
    }

    /// The body of gate `name` (a built-in or a user definition) with modifiers, on local qubits
    /// `0..n` (the control operands of the modifiers first).
    pub fn expand(
        &self,
        mods: &[Mod],
        name: &str,
        params: &[f64],
        num_operands: usize,
        pos: Pos,
        nesting: usize,
    ) -> Result<Body, ImportError> {
        if nesting > MAX_GATE_NESTING {
            return Err(pos.error(Kind::GateNestingTooDeep {
                gate: name.into(),
                max: MAX_GATE_NESTING,
            }));
        }
        let Some((first, rest)) = mods.split_first() else {
            return self.expand_plain(name, params, num_operands, pos, nesting);
        };
        match first {
            Mod::Inv => Ok(self
                .expand(rest, name, params, num_operands, pos, nesting)?
                .inverse()),
            Mod::Ctrl(n) | Mod::NegCtrl(n) => {
                let n = *n;
                if n == 0 || n > num_operands {
                    return Err(pos.error(Kind::TooFewControls { gate: name.into() }));
                }
                let inner = self.expand(rest, name, params, num_operands - n, pos, nesting)?;
                let map: Vec<usize> = (n..num_operands).collect();
                let mut body = inner.remap(&map);
                let on = if matches!(first, Mod::Ctrl(_)) {
                    Polarity::One
                } else {
                    Polarity::Zero
                };
                for k in (0..n).rev() {
                    body = body.controlled(Control {
                        qubit: Qubit(k as u32),
                        on,
                    });
                }
                Ok(body)
            }
        }
    }

    fn expand_plain(
        &self,
        name: &str,
        params: &[f64],
        num_operands: usize,
        pos: Pos,
        nesting: usize,
    ) -> Result<Body, ImportError> {
        if let Some(def) = self.gates.get(name) {
            if def.params.len() != params.len() || def.num_qubits != num_operands {
                return Err(pos.error(Kind::UserGateArity {
                    gate: name.into(),
                    params: def.params.len(),
                    qubits: def.num_qubits,
                    found_params: params.len(),
                    found_qubits: num_operands,
                }));
            }
            let var = |n: &str| def.params.iter().position(|p| p == n).map(|i| params[i]);
            let mut body = Body::default();
            for call in &def.body {
                if let Some(k) =
                    (0..call.args.len()).find(|&k| call.args[..k].contains(&call.args[k]))
                {
                    return Err(call.pos.error(Kind::OperandRepeated {
                        operand: k + 1,
                        gate: call.name.clone(),
                    }));
                }
                let p: Vec<f64> = call
                    .params
                    .iter()
                    .map(|e| e.eval(&var).map_err(|m| call.pos.error(m.into())))
                    .collect::<Result<_, _>>()?;
                let inner = self
                    .expand(
                        &call.mods,
                        &call.name,
                        &p,
                        call.args.len(),
                        call.pos,
                        nesting + 1,
                    )?
                    .remap(&call.args);
                if body.instrs.len() + inner.instrs.len() > MAX_INSTRUCTIONS {
                    return Err(pos.error(Kind::GateTooLarge {
                        gate: name.into(),
                        max: MAX_INSTRUCTIONS,
                    }));
                }
                body.instrs.extend(inner.instrs);
                body.phase += inner.phase;
            }
            return Ok(body);
        }
        if name == "gphase" {
            if num_operands != 0 {
                return Err(pos.error(Kind::GphaseOperands));
            }
            return Ok(Body {
                instrs: Vec::new(),
                phase: params.first().copied().unwrap_or(0.0),
            });
        }
        let (gate, ncontrols, gamma) = builtin(name, params).ok_or_else(|| {
            pos.error(Kind::UnknownGate {
                gate: name.into(),
                params: params.len(),
            })
        })?;
        if num_operands != ncontrols + gate.num_targets() {
            return Err(pos.error(Kind::GateQubits {
                gate: name.into(),
                expected: ncontrols + gate.num_targets(),
                found: num_operands,
            }));
        }
        let q = |k: usize| Qubit(k as u32);
        let controls: Vec<Control> = (0..ncontrols).map(|k| Control::one(q(k))).collect();
        let targets: Vec<Qubit> = (ncontrols..num_operands).map(q).collect();
        let mut instrs = Vec::new();
        if gamma != 0.0 {
            instrs.push(Instruction::gate(Gate::Phase(gamma), &[q(0)], &[]));
        }
        instrs.push(Instruction::gate(gate, &targets, &controls));
        Ok(Body { instrs, phase: 0.0 })
    }

    /// Applies a call to the circuit: `qubits` are the flat operands (controls of the modifiers
    /// first). The global phase of an uncontrolled call is unobservable and dropped.
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
        cond: Option<&Guard>,
        pos: Pos,
    ) -> Result<(), ImportError> {
        for (k, q) in qubits.iter().enumerate() {
            if qubits[..k].contains(q) {
                return Err(pos.error(Kind::QubitRepeated { qubit: *q }));
            }
        }
        if let Some(instr) = self.user_gate_call(mods, name, params, qubits, cond, pos)? {
            if self.instructions_held() >= MAX_INSTRUCTIONS {
                return Err(pos.error(Kind::TooManyInstructions {
                    max: MAX_INSTRUCTIONS,
                }));
            }
            self.instrs.push(instr);
            return Ok(());
        }
        let body = self
            .expand(mods, name, params, qubits.len(), pos, 0)?
            .remap(qubits);
        if self.instructions_held() + body.instrs.len() > MAX_INSTRUCTIONS {
            return Err(pos.error(Kind::TooManyInstructions {
                max: MAX_INSTRUCTIONS,
            }));
        }
        for mut instr in body.instrs {
            instr.condition = cond.cloned();
            self.instrs.push(instr);
        }
        Ok(())
    }

    /// Appends one instruction, within [`MAX_INSTRUCTIONS`].
    fn push(&mut self, instr: Instruction, pos: Pos) -> Result<(), ImportError> {
        if self.instructions_held() >= MAX_INSTRUCTIONS {
            return Err(pos.error(Kind::TooManyInstructions {
                max: MAX_INSTRUCTIONS,
            }));
        }
        self.instrs.push(instr);
        Ok(())
    }

    /// The name of flat bit `bit` as the program writes it (`c[2]`, or `c` for a 1-bit
    /// register).
    pub fn bit_name(&self, bit: usize) -> String {
        match self
            .cregs
            .iter()
            .find(|r| (r.start..r.start + r.size).contains(&bit))
        {
            Some(r) if r.size == 1 => r.name.clone(),
            Some(r) => format!("{}[{}]", r.name, bit - r.start),
            None => format!("bit {bit}"),
        }
    }

    /// An operand: a whole register or one element, as flat indices.
    pub fn lookup(
        &self,
        quantum: bool,
        name: &str,
        index: Option<usize>,
        pos: Pos,
    ) -> Result<Vec<usize>, ImportError> {
        let regs = if quantum { &self.qregs } else { &self.cregs };
        let reg = regs.iter().find(|r| r.name == name).ok_or_else(|| {
            pos.error(Kind::UndeclaredRegister {
                quantum,
                name: name.into(),
            })
        })?;
        match index {
            None => Ok((reg.start..reg.start + reg.size).collect()),
            Some(i) if i < reg.size => Ok(vec![reg.start + i]),
            Some(i) => Err(pos.error(Kind::IndexOutOfRange {
                register: name.into(),
                index: i,
                size: reg.size,
            })),
        }
    }

    /// Applies a call to register operands, broadcasting over whole registers of equal size.
    #[allow(
        clippy::too_many_arguments,
        reason = "one call site per importer; a struct would only rename the arguments"
    )]
    pub fn apply_broadcast(
        &mut self,
        mods: &[Mod],
        name: &str,
        params: &[f64],
        operands: &[Vec<usize>],
        cond: Option<&Guard>,
        pos: Pos,
    ) -> Result<(), ImportError> {
        let width = operands.iter().map(Vec::len).max().unwrap_or(1);
        if operands.iter().any(|l| l.len() != 1 && l.len() != width) {
            return Err(pos.error(Kind::OperandSizes { gate: name.into() }));
        }
        for k in 0..width {
            let qs: Vec<usize> = operands
                .iter()
                .map(|l| if l.len() == 1 { l[0] } else { l[k] })
                .collect();
            self.apply(mods, name, params, &qs, cond, pos)?;
        }
        Ok(())
    }

    /// Checks a call as [`Env::apply_broadcast`] would apply it, writing nothing (the body of
    /// an `if` that never holds is checked all the same).
    pub fn check_call(
        &mut self,
        mods: &[Mod],
        name: &str,
        params: &[f64],
        operands: &[Vec<usize>],
        pos: Pos,
    ) -> Result<(), ImportError> {
        let (len, held) = (self.instrs.len(), self.user_gate_instrs);
        let checked = self.apply_broadcast(mods, name, params, operands, None, pos);
        self.instrs.truncate(len);
        self.user_gate_instrs = held;
        checked
    }

    /// Checks that `qubits` can be measured into `clbits`, writing nothing.
    pub fn check_measure(
        &self,
        qubits: &[usize],
        clbits: &[usize],
        pos: Pos,
    ) -> Result<(), ImportError> {
        if qubits.len() != clbits.len() {
            return Err(pos.error(Kind::MeasureSizes {
                qubits: qubits.len(),
                bits: clbits.len(),
            }));
        }
        Ok(())
    }

    /// Appends measurements of `qubits` into `clbits` (equal lengths), under `cond`. A bit is
    /// written once: a circuit's bits are write-once, so a second measurement into a bit is
    /// refused here, naming the bit, rather than by the verifier without a line.
    pub fn measure(
        &mut self,
        qubits: &[usize],
        clbits: &[usize],
        cond: Option<&Guard>,
        pos: Pos,
    ) -> Result<(), ImportError> {
        self.check_measure(qubits, clbits, pos)?;
        for (&q, &c) in qubits.iter().zip(clbits) {
            if self.is_written(c) {
                return Err(pos.error(Kind::BitMeasuredTwice {
                    bit: self.bit_name(c),
                }));
            }
            self.push(
                Instruction {
                    op: Op::Measure {
                        qubit: Qubit(q as u32),
                        clbit: Clbit(c as u32),
                    },
                    condition: cond.cloned(),
                    origin: None,
                },
                pos,
            )?;
            if self.written.len() <= c {
                self.written.resize(c + 1, false);
            }
            self.written[c] = true;
        }
        Ok(())
    }

    /// Whether a measurement so far writes flat bit `bit` (a bit no measurement writes reads 0).
    pub fn is_written(&self, bit: usize) -> bool {
        self.written.get(bit).copied().unwrap_or(false)
    }

    /// Appends delays of `duration` nanoseconds (already checked) on `qubits`, under `cond`.
    pub fn delay(
        &mut self,
        qubits: &[usize],
        duration: f64,
        cond: Option<&Guard>,
        pos: Pos,
    ) -> Result<(), ImportError> {
        self.push_per_qubit(qubits, cond, pos, |qubit| Op::Delay { qubit, duration })
    }

    /// Appends resets of `qubits`, under `cond`.
    pub fn reset(
        &mut self,
        qubits: &[usize],
        cond: Option<&Guard>,
        pos: Pos,
    ) -> Result<(), ImportError> {
        self.push_per_qubit(qubits, cond, pos, |qubit| Op::Reset { qubit })
    }

    /// Appends `op(q)` for every qubit of `qubits`, in order, under `cond`.
    fn push_per_qubit(
        &mut self,
        qubits: &[usize],
        cond: Option<&Guard>,
        pos: Pos,
        op: impl Fn(Qubit) -> Op,
    ) -> Result<(), ImportError> {
        for &q in qubits {
            self.push(
                Instruction {
                    op: op(Qubit(q as u32)),
                    condition: cond.cloned(),
                    origin: None,
                },
                pos,
            )?;
        }
        Ok(())
    }
}
