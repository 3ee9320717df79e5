//! Which gate of the table a small unitary is.
//!
//! An importer expands a user gate definition (`gate iswap a, b { ... }`) into IR instructions;
//! [`recognise_unitary`] takes the unitary of such a run of instructions (on at most
//! [`MAX_RECOGNISED_QUBITS`] qubits) and finds one gate of the table, on some of those qubits as
//! targets, with each remaining qubit a 1-control, a 0-control or untouched, whose unitary
//! equals it up to a global phase. The phase is reported: it is unobservable at the top level
//! of a circuit, but a caller that controls the result must apply it only when it is zero.
//!
//! The search reads the structure off the matrix instead of trying every placement: a qubit is
//! untouched when both halves of the matrix split on it are equal, it may be a 1-control when
//! the half where it is 0 is a multiple of the identity (a 0-control likewise), and otherwise it
//! is a target. The target block (controls active) is then compared with the fixed gates of the
//! table ([`GateKind::ALL`]), and a single-target block that is none of them is written with
//! angles (`p`, `rz`, `ry`, `rx` or `u`). Every answer is checked against the full unitary of
//! the gate it names, so a wrong guess is never returned.

use crate::circuit::Circuit;
use crate::gate::{Gate, GateKind};
use crate::ids::Qubit;
use crate::instruction::{Control, Instruction};
use crate::matrix::Matrix;
use num_complex::Complex64;
use std::f64::consts::FRAC_PI_2;

/// Bodies on more qubits than this are not searched (they are rarely one table gate).
pub const MAX_RECOGNISED_QUBITS: usize = 3;

/// Largest entry-wise difference that still counts as equal: bodies are built from exact gates
/// and angles such as `pi/4`, so they differ from a table gate only by rounding (about 1e-15).
pub const MATCH_TOLERANCE: f64 = 1e-9;

/// A body recognised as one gate of the table. Qubits are the body's own (`Qubit(k)` is bit `k`
/// of the body's basis index).
#[derive(Clone, Debug, PartialEq)]
pub struct Recognised {
    /// The gate (`Gate::I` when the body is the identity).
    pub gate: Gate,
    /// Its targets.
    pub targets: Vec<Qubit>,
    /// Its controls; qubits of the body in neither list are left alone by it.
    pub controls: Vec<Control>,
    /// The global phase `phi` (radians, in (-pi, pi]) with `body = e^{i phi} (controlled gate)`.
    pub phase: f64,
}

impl Recognised {
    /// True when the body equals the gate including the global phase, so it may also replace a
    /// body that is itself controlled.
    pub fn is_exact(&self) -> bool {
        self.phase.abs() <= MATCH_TOLERANCE
    }

    /// The recognised gate as an instruction on the body's qubits.
    pub fn instruction(&self) -> Instruction {
        Instruction::gate(self.gate, &self.targets, &self.controls)
    }
}

/// What the body `instructions` on qubits `0..num_qubits` is, if it is one gate of the table
/// (see the module docs); `None` for a body that is none, that has measurements or conditions,
/// or that has more than [`MAX_RECOGNISED_QUBITS`] qubits.
pub fn recognise(instructions: &[Instruction], num_qubits: usize) -> Option<Recognised> {
    if num_qubits == 0 || num_qubits > MAX_RECOGNISED_QUBITS {
        return None;
    }
    recognise_unitary(&unitary_of(instructions, num_qubits)?)
}

/// What a qubit may be in the gate a body is.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Role {
    /// Left alone.
    Idle,
    /// A control, active when the qubit has this value.
    Control(bool),
    /// A target.
    Target,
}

/// What the unitary `body` (of `2^n` rows, qubit k = bit k of the basis index, as
/// [`Circuit::unitary`] gives it) is, if it is one gate of the table; see [`recognise`].
pub fn recognise_unitary(body: &Matrix) -> Option<Recognised> {
    let num_qubits = body.dim().trailing_zeros() as usize;
    if !body.dim().is_power_of_two() || num_qubits == 0 || num_qubits > MAX_RECOGNISED_QUBITS {
        return None;
    }
    let allowed: Vec<Vec<Role>> = (0..num_qubits).map(|q| roles(body, q)).collect();
    if allowed.iter().all(|r| r == &[Role::Idle]) {
        let identity = Recognised {
            gate: Gate::I,
            targets: vec![Qubit(0)],
            controls: Vec::new(),
            phase: 0.0,
        };
        return checked(body, identity);
    }
    let mut assignments = role_assignments(&allowed);
    // Fewest targets first: a controlled gate rather than a bigger target block.
    assignments.sort_by_key(|a| a.iter().filter(|r| **r == Role::Target).count());
    for assignment in assignments {
        let targets: Vec<Qubit> = (0..num_qubits)
            .filter(|&q| assignment[q] == Role::Target)
            .map(|q| Qubit(q as u32))
            .collect();
        if targets.is_empty() || targets.len() > 2 {
            continue;
        }
        let controls: Vec<Control> = (0..num_qubits)
            .filter_map(|q| match assignment[q] {
                Role::Control(value) => Some(Control::when(Qubit(q as u32), value)),
                _ => None,
            })
            .collect();
        let orders = if targets.len() == 2 {
            vec![targets.clone(), vec![targets[1], targets[0]]]
        } else {
            vec![targets]
        };
        for targets in orders {
            let block = target_block(body, &targets, &controls);
            for gate in gates_for(&block) {
                let candidate = Recognised {
                    gate,
                    targets: targets.clone(),
                    controls: controls.clone(),
                    phase: 0.0,
                };
                if let Some(found) = checked(body, candidate) {
                    return Some(found);
                }
            }
        }
    }
    None
}

/// The roles qubit `q` may have in the gate `body` is (see the module docs).
fn roles(body: &Matrix, q: usize) -> Vec<Role> {
    let dim = body.dim();
    let bit = 1usize << q;
    let keeps_qubit = (0..dim)
        .all(|r| (0..dim).all(|c| (r ^ c) & bit == 0 || body.get(r, c).norm() <= MATCH_TOLERANCE));
    if !keeps_qubit {
        return vec![Role::Target];
    }
    // The halves where the qubit is 0 and where it is 1, compared entry by entry.
    let low: Vec<usize> = (0..dim).filter(|i| i & bit == 0).collect();
    let same_halves = low.iter().all(|&r| {
        low.iter()
            .all(|&c| (body.get(r, c) - body.get(r | bit, c | bit)).norm() <= MATCH_TOLERANCE)
    });
    if same_halves {
        return vec![Role::Idle];
    }
    let mut out = Vec::with_capacity(3);
    if is_scalar_identity(body, &low, 0) {
        out.push(Role::Control(true));
    }
    if is_scalar_identity(body, &low, bit) {
        out.push(Role::Control(false));
    }
    out.push(Role::Target);
    out
}

/// True when the block of `body` on the basis states `indices | offset` is `c I` for some `c`.
fn is_scalar_identity(body: &Matrix, indices: &[usize], offset: usize) -> bool {
    let scalar = body.get(indices[0] | offset, indices[0] | offset);
    indices.iter().all(|&r| {
        indices.iter().all(|&c| {
            let expected = if r == c {
                scalar
            } else {
                Complex64::new(0.0, 0.0)
            };
            (body.get(r | offset, c | offset) - expected).norm() <= MATCH_TOLERANCE
        })
    })
}

/// Every choice of one allowed role per qubit.
fn role_assignments(allowed: &[Vec<Role>]) -> Vec<Vec<Role>> {
    let mut out: Vec<Vec<Role>> = vec![Vec::new()];
    for options in allowed {
        out = out
            .iter()
            .flat_map(|partial| {
                options.iter().map(move |&role| {
                    let mut next = partial.clone();
                    next.push(role);
                    next
                })
            })
            .collect();
    }
    out
}

/// The block of `body` acting on `targets` (first target = most significant bit, as gate
/// matrices are written) where every control is active and other qubits are 0.
fn target_block(body: &Matrix, targets: &[Qubit], controls: &[Control]) -> Matrix {
    let base: usize = controls
        .iter()
        .filter(|c| c.on.value())
        .map(|c| 1usize << c.qubit.index())
        .sum();
    let k = targets.len();
    let basis = |sub: usize| {
        targets.iter().enumerate().fold(base, |acc, (j, t)| {
            acc | (((sub >> (k - 1 - j)) & 1) << t.index())
        })
    };
    let mut block = Matrix::zeros(1 << k);
    for r in 0..1 << k {
        for c in 0..1 << k {
            block.set(r, c, body.get(basis(r), basis(c)));
        }
    }
    block
}

/// The gates that may be `block` up to a phase: the fixed gates of the table equal to it, or,
/// on one target, the gate written with angles.
fn gates_for(block: &Matrix) -> Vec<Gate> {
    let targets = block.dim().trailing_zeros() as usize;
    let mut out: Vec<Gate> = GateKind::ALL
        .into_iter()
        .filter(|k| *k != GateKind::I && k.info().params == 0 && k.info().targets == targets)
        .filter_map(|k| k.with_params(&[]))
        .filter(|g| block.approx_eq_up_to_phase(&g.matrix(), MATCH_TOLERANCE))
        .collect();
    if targets == 1 {
        out.extend(single_qubit_forms(block));
    }
    out
}

/// A 2x2 unitary written with angles, in order of preference: `p`, `rz`, `ry`, `rx`, then the
/// general `u` (each is checked by the caller, which also fixes the global phase).
fn single_qubit_forms(m: &Matrix) -> Vec<Gate> {
    let (a, b, c, d) = (m.get(0, 0), m.get(0, 1), m.get(1, 0), m.get(1, 1));
    let mut out = Vec::new();
    if b.norm() <= MATCH_TOLERANCE && c.norm() <= MATCH_TOLERANCE {
        let lambda = wrap(d.arg() - a.arg());
        out.push(Gate::Phase(lambda));
        out.push(Gate::Rz(lambda));
    }
    // m = e^{i alpha} U(theta, phi, lambda) with cos and sin of theta/2 both >= 0.
    let theta = 2.0 * c.norm().atan2(a.norm());
    // Each angle is read from an entry at least as large as the one it is checked against, so
    // a small entry costs no precision: cos(theta/2) large: alpha from a, phi from c, lambda
    // from d; sin(theta/2) large: alpha + phi from c, alpha + lambda from b, alpha from d.
    let (phi, lambda) = if a.norm() >= c.norm() {
        let alpha = a.arg();
        let phi = if c.norm() <= MATCH_TOLERANCE {
            0.0
        } else {
            c.arg() - alpha
        };
        (wrap(phi), wrap(d.arg() - alpha - phi))
    } else {
        let alpha = if d.norm() <= MATCH_TOLERANCE {
            c.arg()
        } else {
            c.arg() + (-b).arg() - d.arg()
        };
        (wrap(c.arg() - alpha), wrap((-b).arg() - alpha))
    };
    let near = |x: f64, y: f64| (x - y).abs() <= MATCH_TOLERANCE;
    if near(phi, 0.0) && near(lambda, 0.0) {
        out.push(Gate::Ry(theta));
    }
    if near(phi, -FRAC_PI_2) && near(lambda, FRAC_PI_2) {
        out.push(Gate::Rx(theta));
    }
    out.push(Gate::U(theta, phi, lambda));
    out
}

/// The angle in (-pi, pi].
fn wrap(angle: f64) -> f64 {
    Complex64::from_polar(1.0, angle).arg()
}

/// The unitary of `instructions` on `num_qubits` qubits, or `None` when it has none.
fn unitary_of(instructions: &[Instruction], num_qubits: usize) -> Option<Matrix> {
    let mut circuit = Circuit::with_plain_qubits(num_qubits as u32, 0);
    circuit.extend(instructions.iter().cloned());
    circuit.unitary().ok()
}

/// `candidate` with its phase filled in when its unitary equals `body` up to a global phase.
fn checked(body: &Matrix, mut candidate: Recognised) -> Option<Recognised> {
    let num_qubits = body.dim().trailing_zeros() as usize;
    let expected = unitary_of(std::slice::from_ref(&candidate.instruction()), num_qubits)?;
    let phase = body.phase_relative_to(&expected, MATCH_TOLERANCE)?;
    candidate.phase = phase.arg();
    Some(candidate)
}
