//! `CircuitBuilder`: the way lowering code writes circuits.
//!
//! It hands out site qubits (one per grid site, created on first use), allocates ancillas from a
//! free list per kind (so a freed path ancilla is reused by the next path), allocates a fresh
//! classical bit per measurement, and stamps every instruction with the current origin, the
//! controls of enclosing [`CircuitBuilder::controlled`] scopes and the condition of an enclosing
//! [`CircuitBuilder::conditioned`] scope.

use crate::circuit::{AncillaKind, Circuit, QubitRole};
use crate::gate::Gate;
use crate::guard::Guard;
use crate::ids::{Clbit, Qubit, Site};
use crate::instruction::{Condition, Control, Instruction, Op, Origin};
use crate::verify::{verify, VerifyErrors};
use std::collections::BTreeMap;

/// Where a [`CircuitBuilder`] stood, taken by [`CircuitBuilder::mark`]: the lengths of its
/// circuit and the little state beside it (free ancillas, origin, open scopes), so that
/// [`CircuitBuilder::roll_back`] returns to it without a copy of the circuit. A game keeps one per
/// move for undo, so its size must not grow with the game: the free ancilla lists hold at most
/// the ancillas one move uses at once.
#[derive(Clone, Debug, PartialEq)]
pub struct BuilderMark {
    qubits: usize,
    clbits: u32,
    instructions: usize,
    free_ancillas: Vec<(AncillaKind, Qubit)>,
    origin: Option<Origin>,
    control_stack: Vec<Control>,
    condition: Option<Condition>,
}

impl BuilderMark {
    /// The heap bytes this mark holds (its inline size is `size_of::<BuilderMark>()`).
    pub fn heap_bytes(&self) -> usize {
        let rule = match &self.origin {
            Some(Origin {
                rule: std::borrow::Cow::Owned(text),
                ..
            }) => text.capacity(),
            _ => 0,
        };
        self.free_ancillas.capacity() * std::mem::size_of::<(AncillaKind, Qubit)>()
            + self.control_stack.capacity() * std::mem::size_of::<Control>()
            + rule
    }
}

/// Builds a [`Circuit`]; see the module docs.
#[derive(Clone, Debug, Default)]
pub struct CircuitBuilder {
    circuit: Circuit,
    sites: BTreeMap<Site, Qubit>,
    free_ancillas: BTreeMap<AncillaKind, Vec<Qubit>>,
    origin: Option<Origin>,
    control_stack: Vec<Control>,
    condition: Option<Condition>,
}

impl CircuitBuilder {
    /// An empty builder.
    pub fn new() -> CircuitBuilder {
        CircuitBuilder::default()
    }

    /// Continues building on an existing circuit (its site qubits are reused; its ancillas are
    /// considered live unless freed in it).
    pub fn from_circuit(circuit: Circuit) -> CircuitBuilder {
        let mut b = CircuitBuilder::new();
        for (i, role) in circuit.qubit_roles().iter().enumerate() {
            if let QubitRole::Site(site) = role {
                b.sites.insert(*site, Qubit(i as u32));
            }
        }
        // Ancillas whose last alloc/free event is a free are available again.
        let mut live: BTreeMap<Qubit, bool> = BTreeMap::new();
        for instr in circuit.instructions() {
            match instr.op {
                Op::Alloc { qubit } => {
                    live.insert(qubit, true);
                }
                Op::Free { qubit } => {
                    live.insert(qubit, false);
                }
                _ => {}
            }
        }
        for (qubit, is_live) in live {
            if let (false, Some(QubitRole::Ancilla(kind))) = (is_live, circuit.role(qubit)) {
                b.free_ancillas.entry(kind).or_default().push(qubit);
            }
        }
        for list in b.free_ancillas.values_mut() {
            list.sort_by(|a, b| b.cmp(a)); // pop() yields the lowest index first
        }
        b.circuit = circuit;
        b
    }

    /// The circuit built so far.
    pub fn circuit(&self) -> &Circuit {
        &self.circuit
    }

    /// Number of instructions so far (a mark for slicing out one move's instructions).
    pub fn len(&self) -> usize {
        self.circuit.instructions().len()
    }

    /// True when no instruction has been added.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Where the builder stands now, to come back to with [`CircuitBuilder::roll_back`].
    pub fn mark(&self) -> BuilderMark {
        let count = self.free_ancillas.values().map(Vec::len).sum();
        let mut free_ancillas = Vec::with_capacity(count);
        for (kind, list) in &self.free_ancillas {
            free_ancillas.extend(list.iter().map(|&q| (*kind, q)));
        }
        BuilderMark {
            qubits: self.circuit.num_qubits(),
            clbits: self.circuit.num_clbits() as u32,
            instructions: self.len(),
            free_ancillas,
            origin: self.origin.clone(),
            control_stack: self.control_stack.clone(),
            condition: self.condition,
        }
    }

    /// Returns to `mark`, taken earlier on this builder: everything added since (instructions,
    /// qubits, classical bits) is cut off and the free ancillas, origin and scopes are as they
    /// were. Building only appends, so this restores the builder exactly.
    pub fn roll_back(&mut self, mark: &BuilderMark) {
        self.circuit
            .truncate(mark.qubits, mark.clbits, mark.instructions);
        self.sites.retain(|_, q| q.index() < mark.qubits);
        self.free_ancillas.clear();
        // The flat list keeps each kind's order (highest index first), as `pop` expects.
        for &(kind, q) in &mark.free_ancillas {
            self.free_ancillas.entry(kind).or_default().push(q);
        }
        self.origin.clone_from(&mark.origin);
        self.control_stack.clone_from(&mark.control_stack);
        self.condition = mark.condition;
    }

    /// Sets the origin stamped on the following instructions.
    pub fn set_origin(&mut self, origin: Option<Origin>) {
        self.origin = origin;
    }

    /// The qubit of `site`, created on first use.
    pub fn site(&mut self, site: Site) -> Qubit {
        if let Some(q) = self.sites.get(&site) {
            return *q;
        }
        let q = self.circuit.add_qubit(QubitRole::Site(site));
        self.sites.insert(site, q);
        q
    }

    /// Adds a plain qubit (always live).
    pub fn plain_qubit(&mut self) -> Qubit {
        self.circuit.add_qubit(QubitRole::Plain)
    }

    /// Allocates an ancilla of `kind` in |0>, reusing a freed one of the same kind if any, and
    /// emits `alloc`.
    pub fn alloc_ancilla(&mut self, kind: AncillaKind) -> Qubit {
        let qubit = match self.free_ancillas.get_mut(&kind).and_then(Vec::pop) {
            Some(q) => q,
            None => self.circuit.add_qubit(QubitRole::Ancilla(kind)),
        };
        self.emit_raw(Op::Alloc { qubit });
        qubit
    }

    /// Emits `free` for an ancilla (which the caller has returned to |0>) and makes it reusable.
    pub fn free_ancilla(&mut self, qubit: Qubit) {
        self.emit_raw(Op::Free { qubit });
        if let Some(QubitRole::Ancilla(kind)) = self.circuit.role(qubit) {
            let list = self.free_ancillas.entry(kind).or_default();
            list.push(qubit);
            list.sort_by(|a, b| b.cmp(a));
        }
    }

    /// Emits a gate; the controls of enclosing `controlled` scopes are added.
    pub fn gate(&mut self, gate: Gate, targets: &[Qubit], controls: &[Control]) {
        let mut all: Vec<Control> = self.control_stack.clone();
        all.extend_from_slice(controls);
        self.emit_raw(Op::Gate {
            gate,
            targets: targets.into(),
            controls: all.into(),
        });
    }

    /// `X` on `q`.
    pub fn x(&mut self, q: Qubit) {
        self.gate(Gate::X, &[q], &[]);
    }

    /// `X` on `target` controlled by `controls` (CNOT, Toffoli, any polarity).
    pub fn cx(&mut self, controls: &[Control], target: Qubit) {
        self.gate(Gate::X, &[target], controls);
    }

    /// `iSWAP(a, b)`.
    pub fn iswap(&mut self, a: Qubit, b: Qubit) {
        self.gate(Gate::ISwap, &[a, b], &[]);
    }

    /// `sqrt-iSWAP(a, b)`.
    pub fn sqrt_iswap(&mut self, a: Qubit, b: Qubit) {
        self.gate(Gate::SqrtISwap, &[a, b], &[]);
    }

    /// Measures `qubit` into a fresh classical bit and returns it.
    pub fn measure(&mut self, qubit: Qubit) -> Clbit {
        let clbit = self.circuit.add_clbit();
        self.emit_raw(Op::Measure { qubit, clbit });
        clbit
    }

    /// Emits `reset`.
    pub fn reset(&mut self, qubit: Qubit) {
        self.emit_raw(Op::Reset { qubit });
    }

    /// Emits a delay of `duration` nanoseconds on `qubit`.
    ///
    /// # Errors
    /// [`crate::BadDelay`] for a negative or non-finite duration (nothing is emitted).
    pub fn delay(&mut self, qubit: Qubit, duration: f64) -> Result<(), crate::BadDelay> {
        self.emit_raw(Op::delay(qubit, duration)?);
        Ok(())
    }

    /// Runs `body` with `controls` added to every gate it emits.
    pub fn controlled<R>(&mut self, controls: &[Control], body: impl FnOnce(&mut Self) -> R) -> R {
        let depth = self.control_stack.len();
        self.control_stack.extend_from_slice(controls);
        let result = body(self);
        self.control_stack.truncate(depth);
        result
    }

    /// Runs `body` with every instruction it emits conditioned on `clbit == value`.
    /// Conditions do not nest (the IR has one flat condition per instruction).
    ///
    /// # Panics
    /// When called inside another `conditioned` scope (a bug in lowering code).
    pub fn conditioned<R>(
        &mut self,
        clbit: Clbit,
        value: bool,
        body: impl FnOnce(&mut Self) -> R,
    ) -> R {
        assert!(self.condition.is_none(), "conditioned scopes do not nest");
        self.condition = Some(Condition { clbit, value });
        let result = body(self);
        self.condition = None;
        result
    }

    /// Appends an instruction as given (no scope controls, condition or origin added).
    pub fn push(&mut self, instruction: Instruction) {
        self.circuit.push(instruction);
    }

    fn emit_raw(&mut self, op: Op) {
        self.circuit.push(Instruction {
            op,
            condition: self.condition.map(Guard::from),
            origin: self.origin.clone(),
        });
    }

    /// Verifies and returns the circuit.
    pub fn finish(self) -> Result<Circuit, VerifyErrors> {
        verify(&self.circuit)?;
        Ok(self.circuit)
    }

    /// Returns the circuit without verifying it.
    pub fn into_circuit(self) -> Circuit {
        self.circuit
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ancillas_are_reused_per_kind() {
        let mut b = CircuitBuilder::new();
        let a1 = b.site(Site::parse("a1").unwrap());
        let p = b.alloc_ancilla(AncillaKind::Path);
        b.cx(&[Control::zero(a1)], p);
        b.x(p);
        b.x(p);
        b.cx(&[Control::zero(a1)], p);
        b.free_ancilla(p);
        let m = b.alloc_ancilla(AncillaKind::Measure);
        assert_ne!(m, p, "a measure ancilla does not reuse a path ancilla");
        let p2 = b.alloc_ancilla(AncillaKind::Path);
        assert_eq!(p2, p, "a freed path ancilla is reused");
        b.free_ancilla(p2);
        b.free_ancilla(m);
        let c = b.finish().unwrap();
        assert_eq!(c.num_qubits(), 3);
        assert_eq!(c.qubit_names(), vec!["a1", "path0", "meas0"]);
    }

    #[test]
    fn scopes_add_controls_and_conditions() {
        let mut b = CircuitBuilder::new();
        let s = b.site(Site::parse("b1").unwrap());
        let t = b.site(Site::parse("c3").unwrap());
        let k = b.site(Site::parse("d2").unwrap());
        let m = b.measure(k);
        b.set_origin(Some(Origin::new(1, "test")));
        b.conditioned(m, true, |b| {
            b.controlled(&[Control::zero(k)], |b| b.iswap(s, t))
        });
        let c = b.finish().unwrap();
        let last = c.instructions().last().unwrap();
        assert_eq!(
            last.condition,
            Some(
                Condition {
                    clbit: m,
                    value: true
                }
                .into()
            )
        );
        assert_eq!(last.origin, Some(Origin::new(1, "test")));
        match &last.op {
            Op::Gate { controls, .. } => assert_eq!(controls.as_slice(), &[Control::zero(k)]),
            other => panic!("unexpected {other:?}"),
        }
    }

    #[test]
    fn from_circuit_resumes_free_lists() {
        let mut b = CircuitBuilder::new();
        let p = b.alloc_ancilla(AncillaKind::Path);
        b.free_ancilla(p);
        let mut resumed = CircuitBuilder::from_circuit(b.into_circuit());
        assert_eq!(resumed.alloc_ancilla(AncillaKind::Path), p);
    }

    /// Writes one "move": a fresh or reused path ancilla, a new site, a measurement, a
    /// conditioned gate, and a measure ancilla left allocated.
    fn write_move(b: &mut CircuitBuilder, origin: u32, square: &str) {
        b.set_origin(Some(Origin::new(origin, "test")));
        let s = b.site(Site::parse(square).unwrap());
        let p = b.alloc_ancilla(AncillaKind::Path);
        b.cx(&[Control::one(s)], p);
        let m = b.measure(p);
        b.conditioned(m, true, |b| b.x(p));
        b.free_ancilla(p);
        let _ = b.alloc_ancilla(AncillaKind::Measure);
        b.set_origin(None);
    }

    #[test]
    fn roll_back_returns_to_the_mark_exactly() {
        let mut b = CircuitBuilder::new();
        write_move(&mut b, 1, "a1");
        // The truth: a whole copy of the builder at the mark (what undo kept before marks).
        let copy = b.clone();
        let mark = b.mark();
        write_move(&mut b, 2, "b2");
        write_move(&mut b, 3, "c3");
        assert_ne!(b.circuit(), copy.circuit());
        b.roll_back(&mark);
        assert_eq!(b.circuit(), copy.circuit());
        // Building on goes exactly as it would have gone from the copy (same ancillas reused,
        // same new qubits and classical bits).
        let mut from_copy = copy;
        write_move(&mut b, 2, "d4");
        write_move(&mut from_copy, 2, "d4");
        assert_eq!(b.circuit(), from_copy.circuit());
        assert_eq!(b.sites, from_copy.sites);
        assert_eq!(
            b.free_ancillas.get(&AncillaKind::Path),
            from_copy.free_ancillas.get(&AncillaKind::Path)
        );
    }

    #[test]
    fn a_mark_does_not_grow_with_the_circuit() {
        let mut b = CircuitBuilder::new();
        write_move(&mut b, 1, "a1");
        let early = b.mark();
        for i in 0..1000 {
            write_move(&mut b, i + 2, "a1");
        }
        // Each move leaves one more measure ancilla allocated; the free lists stay as short.
        let late = b.mark();
        assert_eq!(late.heap_bytes(), early.heap_bytes());
    }
}
