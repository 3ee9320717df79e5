//! Lowering a [`Classified`] move to IR, gate by gate as `circuits.md` sec. 3 says.
//!
//! The lowerer tracks which qubits have a classically known value (squares from the state's
//! support before the move, fresh ancillas, and whatever those values imply after each gate), so
//! that it emits the smaller circuit the rules ask for. The folding itself is qc-ir's
//! (`qc_ir::passes::fold_gate`, the core of the fold pass): a control on a known qubit is dropped
//! (or the gate is dropped when the control can never be satisfied), a gate that is the identity
//! on known values (a swap-type gate on two equal ones) is dropped, and a measurement whose
//! outcome is certain is not emitted.
//! Two choices stay here, since they decide which ancillas exist rather than fold a gate: a
//! certain en passant flag needs no flag ancilla, and a capture en passant allocates only the
//! captured-piece ancillas the target's known value leaves in use.
//!
//! Measurements follow decision 5: the predicate goes into a fresh `Measure` ancilla, which is
//! measured, returned to |0> by an `X` conditioned on the outcome (portable, no reset)
//! and freed; the move's unitary is conditioned on outcome 1 and drops the controls the outcome
//! settled. Paths follow decision 4, captured pieces decision 9 (never freed).

use crate::cantwell::classify::{Classified, MoveType, Variant};
use crate::cantwell::error::MoveError;
use crate::cantwell::measured::Literal;
use crate::cantwell::occupancy::Occupancy;
use crate::chess::Square;
use qc_ir::instruction::Controls;
use qc_ir::passes::{fold_gate, resolve_controls, GateFold};
use qc_ir::{
    AncillaKind, CircuitBuilder, Clbit, Condition, Control, Gate, Instruction, Origin, Qubit,
    QubitRole,
};
use std::borrow::Cow;
use std::collections::HashMap;

/// What lowering produced besides the instructions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Lowered {
    /// The classical bit of the move's measurement, if it needed one.
    pub measurement: Option<Clbit>,
    /// What the measurement asked, in board terms: outcome 1 means every literal held (empty
    /// when nothing was measured).
    pub measured: Vec<Literal>,
}

/// The origin rule name of a move: its type, prefixed by the variant unless basic
/// (`jump`, `capture_slide`, `excluded_pawn_step`).
pub fn rule_name(move_type: MoveType, variant: Variant) -> Cow<'static, str> {
    match (variant, move_type) {
        (Variant::Basic, t) | (_, t @ MoveType::PawnCapture) => Cow::Borrowed(t.as_str()),
        (v, t) => Cow::Owned(format!("{}_{}", v.as_str(), t.as_str())),
    }
}

/// Appends the circuit of `mv` to `builder`. `occ` is the support before the move; every
/// instruction gets `Origin { move_index, rule }`.
pub fn lower(
    mv: &Classified,
    occ: &Occupancy,
    builder: &mut CircuitBuilder,
    move_index: u32,
) -> Result<Lowered, MoveError> {
    let origin = Origin {
        move_index,
        rule: rule_name(mv.move_type, mv.variant),
    };
    builder.set_origin(Some(origin.clone()));
    let mut l = Lowerer {
        b: builder,
        occ,
        known: HashMap::new(),
        condition: None,
        origin,
        measurement: None,
        measured: Vec::new(),
    };
    let result = l.lower(mv);
    l.b.set_origin(None);
    result.map(|()| Lowered {
        measurement: l.measurement,
        measured: l.measured,
    })
}

/// A path control: clear or blocked for certain, one square whose 0 means clear, or an ancilla
/// holding the OR of the squares still in doubt (kept as their 0-controls for the uncompute).
#[derive(Clone, Debug)]
enum PathCtl {
    Clear,
    Blocked,
    Square(Qubit),
    Ancilla(Qubit, Controls),
}

impl PathCtl {
    /// The control for "path clear" (`Some(None)`: no control; `None`: never).
    fn clear(&self) -> Option<Option<Control>> {
        match self {
            PathCtl::Clear => Some(None),
            PathCtl::Blocked => None,
            PathCtl::Square(q) | PathCtl::Ancilla(q, _) => Some(Some(Control::zero(*q))),
        }
    }

    /// The control for "path blocked".
    fn blocked(&self) -> Option<Option<Control>> {
        match self {
            PathCtl::Clear => None,
            PathCtl::Blocked => Some(None),
            PathCtl::Square(q) | PathCtl::Ancilla(q, _) => Some(Some(Control::one(*q))),
        }
    }
}

/// Joins path controls; `None` when one of them can never hold.
fn both(a: Option<Option<Control>>, b: Option<Option<Control>>) -> Option<Vec<Control>> {
    Some(a?.into_iter().chain(b?).collect())
}

struct Lowerer<'a> {
    b: &'a mut CircuitBuilder,
    occ: &'a Occupancy,
    known: HashMap<Qubit, Option<bool>>,
    condition: Option<Condition>,
    origin: Origin,
    measurement: Option<Clbit>,
    measured: Vec<Literal>,
}

impl Lowerer<'_> {
    fn sq(&mut self, square: Square) -> Qubit {
        let q = self.b.site(square.site());
        let status = self.occ.get(square).known();
        self.known.entry(q).or_insert(status);
        q
    }

    fn value(&self, q: Qubit) -> Option<bool> {
        self.known.get(&q).copied().flatten()
    }

    fn alloc(&mut self, kind: AncillaKind) -> Qubit {
        let q = self.b.alloc_ancilla(kind);
        self.known.insert(q, Some(false));
        q
    }

    fn free(&mut self, q: Qubit) {
        self.b.free_ancilla(q);
        self.known.remove(&q);
    }

    /// Resolves controls against the known values (`qc_ir::passes::resolve_controls`): `None`
    /// when the gate can never act.
    fn resolve(&self, controls: &[Control]) -> Option<Controls> {
        resolve_controls(controls, |q| self.value(q))
    }

    /// Emits `gate` as the shared folding core (`qc_ir::passes::fold_gate`) resolves it against
    /// what is known: controls known to hold dropped, the gate dropped when it cannot act or is
    /// the identity on known values, and the targets' known values updated. Unlike the fold pass,
    /// a gate on known values is still emitted: here every square is a real qubit.
    fn gate(&mut self, gate: Gate, targets: &[Qubit], controls: &[Control]) {
        if let GateFold::Act { controls, after } =
            fold_gate(gate, targets, controls, |q| self.value(q))
        {
            for (&q, v) in targets.iter().zip(after) {
                self.known.insert(q, v);
            }
            self.push(Instruction::gate(gate, targets, &controls));
        }
    }

    fn push(&mut self, mut instr: Instruction) {
        instr.condition = self.condition.map(Into::into);
        instr.origin = Some(self.origin.clone());
        self.b.push(instr);
    }

    /// Decision 5: measures the conjunction of `literals`; afterwards everything emitted is
    /// conditioned on outcome 1 and the literals are known to hold. A certain outcome 1 emits
    /// nothing; a certain outcome 0 means the move can never act.
    fn measure(&mut self, literals: &[Control]) -> Result<(), MoveError> {
        let kept = self.resolve(literals).ok_or(MoveError::Unchanged)?;
        if kept.is_empty() {
            return Ok(());
        }
        self.measured = kept.iter().filter_map(|c| self.literal(*c)).collect();
        let a = self.alloc(AncillaKind::Measure);
        self.gate(Gate::X, &[a], &kept);
        let m = self.b.measure(a);
        self.measurement = Some(m);
        self.condition = Some(Condition {
            clbit: m,
            value: true,
        });
        self.push(Instruction::gate(Gate::X, &[a], &[]));
        self.free(a);
        for c in kept {
            self.known.insert(c.qubit, Some(c.on.value()));
        }
        Ok(())
    }

    /// A measured control in board terms: a square's occupancy, or a path ancilla (0 = clear).
    fn literal(&self, c: Control) -> Option<Literal> {
        let holds = c.on.value();
        match self.b.circuit().qubit_roles().get(c.qubit.0 as usize)? {
            QubitRole::Site(site) => Some(Literal::Square {
                square: Square::from(*site),
                occupied: holds,
            }),
            QubitRole::Ancilla(AncillaKind::Path) => Some(Literal::PathClear(!holds)),
            _ => None,
        }
    }

    /// Decision 4: the control for a path of squares. "Every square empty" is the 0-controls of
    /// the squares, resolved like any gate's controls: a square known occupied blocks the path,
    /// one known empty drops out, and two or more in doubt are ORed into a path ancilla.
    fn path_begin(&mut self, squares: &[Square]) -> PathCtl {
        let zeros: Vec<Control> = squares.iter().map(|&s| Control::zero(self.sq(s))).collect();
        match self.resolve(&zeros) {
            None => PathCtl::Blocked,
            Some(doubt) => match doubt.as_slice() {
                [] => PathCtl::Clear,
                [c] => PathCtl::Square(c.qubit),
                _ => {
                    let p = self.alloc(AncillaKind::Path);
                    // p ^= OR(squares): X(p) if every square is 0, then X(p).
                    self.gate(Gate::X, &[p], &doubt);
                    self.gate(Gate::X, &[p], &[]);
                    PathCtl::Ancilla(p, doubt)
                }
            },
        }
    }

    /// Uncomputes a path ancilla (the gates of [`Lowerer::path_begin`] in reverse) and frees it.
    fn path_end(&mut self, ctl: PathCtl) {
        if let PathCtl::Ancilla(p, doubt) = ctl {
            self.gate(Gate::X, &[p], &[]);
            self.gate(Gate::X, &[p], &doubt);
            // The uncompute returns p to 0, which the gate-by-gate folding cannot see.
            self.known.insert(p, Some(false));
            self.free(p);
        }
    }

    /// Flags `literals` into a fresh captured-piece ancilla and flips `flips` when it is set
    /// (the en passant circuits); no ancilla when the flag is certain.
    fn flag_and_flip(&mut self, literals: &[Control], flips: &[Qubit]) -> Result<(), MoveError> {
        let kept = self.resolve(literals).ok_or(MoveError::Unchanged)?;
        if kept.is_empty() {
            for &q in flips {
                self.gate(Gate::X, &[q], &[]);
            }
            return Ok(());
        }
        let a = self.alloc(AncillaKind::Kept);
        self.gate(Gate::X, &[a], &kept);
        for &q in flips {
            self.gate(Gate::X, &[q], &[Control::one(a)]);
        }
        Ok(())
    }

    fn lower(&mut self, mv: &Classified) -> Result<(), MoveError> {
        use MoveType as T;
        use Variant as V;
        let s = self.sq(mv.sources[0]);
        let t = self.sq(mv.targets[0]);
        let no_path = Vec::new();
        let path0 = mv.paths.first().unwrap_or(&no_path).clone();
        match (mv.move_type, mv.variant) {
            (T::Jump | T::PawnStep, V::Basic) => self.gate(Gate::ISwap, &[s, t], &[]),
            (T::Jump | T::PawnStep, V::Excluded) => {
                self.measure(&[Control::zero(t)])?;
                self.gate(Gate::ISwap, &[s, t], &[]);
            }
            (T::Slide | T::PawnTwoStep, V::Basic | V::Excluded) => {
                if mv.variant == V::Excluded {
                    self.measure(&[Control::zero(t)])?;
                }
                let p = self.path_begin(&path0);
                if let Some(c) = p.clear() {
                    let c: Vec<Control> = c.into_iter().collect();
                    self.gate(Gate::ISwap, &[s, t], &c);
                }
                self.path_end(p);
            }
            (T::Jump | T::Slide, V::Capture) => {
                let mut literals = vec![Control::one(s)];
                for &x in &path0 {
                    let q = self.sq(x);
                    literals.push(Control::zero(q));
                }
                self.measure(&literals)?;
                let c = self.alloc(AncillaKind::Kept);
                self.gate(Gate::ISwap, &[t, c], &[]);
                self.gate(Gate::ISwap, &[s, t], &[]);
            }
            (T::SplitJump, _) => {
                let t2 = self.sq(mv.targets[1]);
                self.gate(Gate::SqrtISwap, &[s, t], &[]);
                self.gate(Gate::ISwap, &[s, t2], &[]);
            }
            (T::SplitSlide, _) => self.split_slide(mv, s, t)?,
            (T::MergeJump, _) => {
                let s2 = self.sq(mv.sources[1]);
                self.gate(Gate::ISwapDg, &[t, s], &[]);
                self.gate(Gate::SqrtISwapDg, &[s2, t], &[]);
            }
            (T::MergeSlide, _) => self.merge_slide(mv, s, t)?,
            (T::PawnCapture, _) => {
                self.measure(&[Control::one(s)])?;
                // Decision 7: the published pawn_capture_circuit_alt, CNOT(t -> s).
                self.gate(Gate::X, &[s], &[Control::one(t)]);
            }
            (T::EnPassant, v) => self.en_passant(mv, v, s, t)?,
            (T::KingsideCastle | T::QueensideCastle, v) => self.castle(mv, v, s, t)?,
            (T::PawnStep | T::PawnTwoStep, V::Capture) => {
                unreachable!("classification never makes a forward pawn move a capture")
            }
        }
        Ok(())
    }

    fn arms(&mut self, mv: &Classified) -> (Vec<Square>, Vec<Square>) {
        let mut it = mv.paths.iter().cloned();
        (it.next().unwrap_or_default(), it.next().unwrap_or_default())
    }

    fn split_slide(&mut self, mv: &Classified, s: Qubit, t1: Qubit) -> Result<(), MoveError> {
        let t2 = self.sq(mv.targets[1]);
        let (a1, a2) = self.arms(mv);
        let p1 = self.path_begin(&a1);
        let p2 = self.path_begin(&a2);
        if let Some(c) = both(p1.clear(), p2.clear()) {
            self.gate(Gate::SqrtISwap, &[t1, s], &c);
            self.gate(Gate::ISwap, &[s, t2], &c);
        }
        if let Some(c) = both(p1.clear(), p2.blocked()) {
            self.gate(Gate::ISwap, &[t1, s], &c);
        }
        if let Some(c) = both(p1.blocked(), p2.clear()) {
            self.gate(Gate::ISwap, &[s, t2], &c);
        }
        self.path_end(p2);
        self.path_end(p1);
        Ok(())
    }

    fn merge_slide(&mut self, mv: &Classified, s1: Qubit, t: Qubit) -> Result<(), MoveError> {
        let s2 = self.sq(mv.sources[1]);
        let (a1, a2) = self.arms(mv);
        let p1 = self.path_begin(&a1);
        let p2 = self.path_begin(&a2);
        if let Some(c) = both(p1.clear(), p2.clear()) {
            self.gate(Gate::ISwapDg, &[t, s1], &c);
            self.gate(Gate::SqrtISwapDg, &[s2, t], &c);
        }
        if let Some(c) = both(p1.blocked(), p2.clear()) {
            self.gate(Gate::ISwapDg, &[s2, t], &c);
        }
        if let Some(c) = both(p1.clear(), p2.blocked()) {
            self.gate(Gate::ISwapDg, &[t, s1], &c);
        }
        self.path_end(p2);
        self.path_end(p1);
        Ok(())
    }

    fn en_passant(
        &mut self,
        mv: &Classified,
        variant: Variant,
        s: Qubit,
        t: Qubit,
    ) -> Result<(), MoveError> {
        let victim = mv.ep_victim.ok_or(MoveError::NoEnPassantVictim {
            square: mv.targets[0],
        })?;
        let ep = self.sq(victim);
        match variant {
            // Decision 8: the published Toffoli/CNOT circuit.
            Variant::Basic => self.flag_and_flip(
                &[Control::one(s), Control::zero(t), Control::one(ep)],
                &[ep, t, s],
            ),
            Variant::Excluded => {
                self.measure(&[Control::zero(t)])?;
                self.flag_and_flip(&[Control::one(s), Control::one(ep)], &[ep, s, t])
            }
            Variant::Capture => {
                // Decision 6: measure s == 1, then U_cap-ep.
                self.measure(&[Control::one(s)])?;
                let t_known = self.value(t);
                if t_known != Some(true) {
                    let c2 = self.alloc(AncillaKind::Kept);
                    self.gate(Gate::ISwap, &[ep, c2], &[Control::zero(t)]);
                    if t_known == Some(false) {
                        self.gate(Gate::ISwap, &[t, s], &[Control::one(c2)]);
                        return Ok(());
                    }
                    let c1 = self.alloc(AncillaKind::Kept);
                    self.gate(Gate::ISwap, &[c1, t], &[]);
                    self.gate(Gate::ISwap, &[t, s], &[Control::one(c1)]);
                    self.gate(Gate::ISwap, &[t, s], &[Control::one(c2)]);
                } else {
                    let c1 = self.alloc(AncillaKind::Kept);
                    self.gate(Gate::ISwap, &[c1, t], &[]);
                    self.gate(Gate::ISwap, &[t, s], &[Control::one(c1)]);
                }
                Ok(())
            }
        }
    }

    fn castle(
        &mut self,
        mv: &Classified,
        variant: Variant,
        e: Qubit,
        king_to: Qubit,
    ) -> Result<(), MoveError> {
        let (rook_from, rook_to) = mv.rook.ok_or(MoveError::CastlingPiecesMissing {
            square: mv.sources[0],
        })?;
        let r = self.sq(rook_from);
        let rt = self.sq(rook_to);
        if variant == Variant::Excluded {
            self.measure(&[Control::zero(king_to), Control::zero(rt)])?;
        }
        let b_path = mv.paths.first().cloned().unwrap_or_default();
        let p = self.path_begin(&b_path);
        if let Some(c) = p.clear() {
            let c: Vec<Control> = c.into_iter().collect();
            self.gate(Gate::ISwap, &[e, king_to], &c);
            self.gate(Gate::ISwap, &[r, rt], &c);
        }
        self.path_end(p);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rule_names_prefix_the_variant_unless_basic() {
        assert_eq!(rule_name(MoveType::Jump, Variant::Basic), "jump");
        assert_eq!(
            rule_name(MoveType::Slide, Variant::Capture),
            "capture_slide"
        );
        assert_eq!(
            rule_name(MoveType::PawnStep, Variant::Excluded),
            "excluded_pawn_step"
        );
        assert_eq!(
            rule_name(MoveType::PawnCapture, Variant::Capture),
            "pawn_capture"
        );
    }
}
