//! Calls of small user gates kept as one operation: a call of a user gate on at most
//! [`MAX_USER_GATE_QUBITS`] qubits, with only `ctrl @`/`negctrl @` modifiers, whose body is no
//! gate of the table becomes one [`Op::UserGate`] (the user's name, the body as IR, its matrix)
//! instead of the body's inlined gates. A body that is a table gate (or a controlled form) is
//! inlined as before, so that `qc_ir::passes::optimize` turns it into that gate; a controlled
//! call of a body with a global phase (`gphase`) is inlined too, since the phase becomes
//! observable under the control and the matrix of a user gate is its body's unitary exactly.
//! `qc_ir::passes::inline_user_gates` gives the plain inlined form back (`--no-optimize`).

use crate::env::{Env, Mod, Pos, MAX_INSTRUCTIONS};
use crate::error::{ImportError, ImportErrorKind};
use qc_ir::passes::recognise;
use qc_ir::user_gate::MAX_USER_GATE_QUBITS;
use qc_ir::{Control, Guard, Instruction, Op, Qubit, UserGate};
use std::sync::Arc;

/// A user gate with its parameter values (as bits, so equal values share one gate).
pub type UserGateKey = (String, Vec<u64>);

/// What calls of one [`UserGateKey`] become: the shared gate and its body's global phase, or
/// `None` when they are inlined.
pub type UserGateEntry = Option<(Arc<UserGate>, f64)>;

impl Env {
    /// The one instruction a call of a small user gate becomes (see the module docs), or `None`
    /// when the call is to be inlined. `qubits` are the flat operands, controls first.
    pub(crate) fn user_gate_call(
        &mut self,
        mods: &[Mod],
        name: &str,
        params: &[f64],
        qubits: &[usize],
        cond: Option<&Guard>,
        pos: Pos,
    ) -> Result<Option<Instruction>, ImportError> {
        let Some(def) = self.gates.get(name) else {
            return Ok(None);
        };
        let num_qubits = def.num_qubits;
        let mut controls = Vec::new();
        for m in mods {
            let (n, on) = match m {
                Mod::Ctrl(n) => (*n, true),
                Mod::NegCtrl(n) => (*n, false),
                Mod::Inv => return Ok(None),
            };
            for _ in 0..n {
                let Some(&q) = qubits.get(controls.len()) else {
                    return Ok(None);
                };
                controls.push(Control::when(Qubit(q as u32), on));
            }
        }
        if num_qubits > MAX_USER_GATE_QUBITS
            || def.params.len() != params.len()
            || qubits.len() != controls.len() + num_qubits
        {
            // Too big, or a call the inlining path reports as wrong.
            return Ok(None);
        }
        let key: UserGateKey = (
            name.to_string(),
            params.iter().map(|p| p.to_bits()).collect(),
        );
        let gate = match self.user_gates.get(&key) {
            Some(known) => known.clone(),
            None => {
                let body = self.expand(&[], name, params, num_qubits, pos, 0)?;
                // A name or body a user gate cannot hold (a non-ASCII name, a body of thousands
                // of gates) is inlined as before.
                let gate = if recognise(&body.instrs, num_qubits).is_some() {
                    None
                } else {
                    UserGate::new(name, num_qubits, body.instrs)
                        .ok()
                        .map(|gate| (Arc::new(gate.with_params(params)), body.phase))
                };
                self.user_gates.insert(key, gate.clone());
                gate
            }
        };
        let Some((gate, phase)) = gate else {
            return Ok(None);
        };
        if phase != 0.0 && !controls.is_empty() {
            return Ok(None);
        }
        // The call counts as its body would inlined (see `Env::user_gate_instrs`).
        let len = gate.body().len();
        if self.instructions_held() + len > MAX_INSTRUCTIONS {
            return Err(pos.error(ImportErrorKind::TooManyInstructions {
                max: MAX_INSTRUCTIONS,
            }));
        }
        self.user_gate_instrs += len.saturating_sub(1);
        let targets: Vec<Qubit> = qubits[controls.len()..]
            .iter()
            .map(|&q| Qubit(q as u32))
            .collect();
        let mut instr = Instruction::new(Op::UserGate {
            gate,
            targets: targets.as_slice().into(),
            controls: controls.as_slice().into(),
        });
        instr.condition = cond.cloned();
        Ok(Some(instr))
    }
}
