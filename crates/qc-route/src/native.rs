//! Native two-qubit synthesis for every entangler: any two-qubit unitary written with the fewest
//! gates of a device's entangler, and that fewest number read off its Weyl-chamber coordinates
//! ([`crate::weyl`]) for routing's pricing.
//!
//! A target names its entangler as data, an [`Entangler`] value (`from_name("siswap")`); the
//! device carries it ([`crate::Device::entangler`]) and every pass asks it: the plan and the
//! router price blocks with [`Entangler::count`] (through [`CountCache`]), re-synthesis writes
//! runs with [`Entangler::synthesize`], and the routed circuit names its gates with
//! [`Native::instruction`]. Each family is one module:
//!
//! | family | entanglers | module |
//! | --- | --- | --- |
//! | locally CZ, or SWAP times CZ | CZ, CX and ECR (directed), iSWAP | `cz_like` |
//! | the square root of iSWAP | √iSWAP | `sqrt_iswap` |
//! | one axis, any angle (ion traps' Mølmer-Sørensen) | RZZ(θ), RXX(θ) | `rzz` |
//!
//! Adding an entangler of a new family is one module with a `count` (from the coordinates) and a
//! `core` synthesis (the canonical core `N(a, b, c)` as native gates), and one variant here.
//! Every synthesis is multiplied back and compared with the gate before it is returned.

mod cz_like;
mod rzz;
mod sqrt_iswap;

use crate::kak::SYNTH_TOL;
use crate::linalg::{Mat2, Mat4, C};
use crate::weyl::{self, Canonical};
use qc_ir::{Control, Gate, Instruction, Qubit};
use std::f64::consts::FRAC_PI_8;

/// A device's two-qubit gate, as data (the IR's, shared with the exporter's targets): what
/// routing prices and re-synthesis writes, through [`Synthesis`].
pub use qc_ir::Entangler;

/// One native two-qubit gate on the pair `(hi, lo)`: an [`Entangler`]'s gate, with its angle
/// for the continuous ones.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Native {
    /// CZ.
    Cz,
    /// CNOT from `hi` to `lo`.
    Cx,
    /// ECR with `hi` first.
    Ecr,
    /// iSWAP.
    ISwap,
    /// √iSWAP.
    SqrtISwap,
    /// `exp(-i theta/2 Z Z)`.
    Rzz(f64),
    /// `exp(-i theta/2 X X)`.
    Rxx(f64),
}

/// One step of a synthesised two-qubit circuit on `(hi, lo)`, in time order.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Prim {
    /// A single-qubit gate on the high (`true`) or low (`false`) qubit.
    One(bool, Mat2),
    /// A native two-qubit gate.
    Two(Native),
}

/// How the device compiler writes two-qubit unitaries in an [`Entangler`]'s gates: what the plan
/// and the router price blocks with and re-synthesis writes. (What the entangler is as a gate, its
/// name and IR gate, is the IR's: [`qc_ir::Entangler`].)
pub trait Synthesis: Copy {
    /// The fewest of this entangler's gates (with single-qubit gates between them) that write a
    /// gate at Weyl-chamber coordinates `coords`: 0 to 3.
    fn count_at(self, coords: [f64; 3]) -> u8;
    /// The fewest of this entangler's gates that write `u` (3 when `u` is not unitary: the
    /// pricing of a gate re-synthesis would refuse).
    fn count(self, u: &Mat4) -> u8;
    /// The entangler's one gate, for those without an angle (`None` for RZZ and RXX).
    fn fixed_gate(self) -> Option<Native>;
    /// `u` written with [`Synthesis::count`] native gates and single-qubit gates between them,
    /// exact up to a global phase (checked, within [`SYNTH_TOL`]); `None` when the numerics fail.
    fn synthesize(self, u: &Mat4) -> Option<Vec<Prim>>;
    /// The IR gate of this entangler's native gate on `(hi, lo)` (`None` for the continuous
    /// RZZ and RXX, whose gates each carry their own angle).
    fn instruction(self, hi: usize, lo: usize) -> Option<Instruction>;
}

impl Synthesis for Entangler {
    fn count_at(self, coords: [f64; 3]) -> u8 {
        match self {
            Entangler::Cz | Entangler::Cx | Entangler::Ecr | Entangler::ISwap => {
                cz_like::count(self, coords)
            }
            Entangler::SqrtISwap => sqrt_iswap::count(coords),
            Entangler::Rzz | Entangler::Rxx => rzz::count(coords),
        }
    }

    fn count(self, u: &Mat4) -> u8 {
        if matches!(self, Entangler::Cz | Entangler::Cx | Entangler::Ecr) {
            // CZ's class: the invariants count without a decomposition (the same numbers).
            return crate::kak::cz_count(u);
        }
        weyl::coordinates(u).map_or(3, |c| self.count_at(c))
    }

    fn fixed_gate(self) -> Option<Native> {
        match self {
            Entangler::Cz => Some(Native::Cz),
            Entangler::Cx => Some(Native::Cx),
            Entangler::Ecr => Some(Native::Ecr),
            Entangler::ISwap => Some(Native::ISwap),
            Entangler::SqrtISwap => Some(Native::SqrtISwap),
            Entangler::Rzz | Entangler::Rxx => None,
        }
    }

    fn synthesize(self, u: &Mat4) -> Option<Vec<Prim>> {
        if self == Entangler::Cz {
            // CZ's own synthesis on the gate's KAK form: the canonical form would first put
            // Cliffords around the core, and the single-qubit gates they leave cost ibm_fez's
            // programs ESP (0.996x on tour) for the same CZ.
            let prims = crate::kak::synthesize(u)?;
            return Some(prims.into_iter().map(Prim::from).collect());
        }
        let form = weyl::canonical(u)?;
        let core = core(self, form.coords)?;
        let prims = around(&form, core);
        circuit_unitary(&prims)
            .eq_up_to_phase(u, SYNTH_TOL)
            .then_some(prims)
    }

    fn instruction(self, hi: usize, lo: usize) -> Option<Instruction> {
        self.fixed_gate()?.instruction(hi, lo)
    }
}

/// The canonical core `N(coords)` (up to a global phase) with the fewest native gates.
fn core(entangler: Entangler, coords: [f64; 3]) -> Option<Vec<Prim>> {
    match entangler {
        Entangler::Cz | Entangler::Cx | Entangler::Ecr | Entangler::ISwap => {
            cz_like::core(entangler, coords)
        }
        Entangler::SqrtISwap => sqrt_iswap::core(coords),
        Entangler::Rzz => Some(rzz::core(coords, rzz::Axis::Z)),
        Entangler::Rxx => Some(rzz::core(coords, rzz::Axis::X)),
    }
}

impl From<crate::kak::Prim> for Prim {
    fn from(p: crate::kak::Prim) -> Prim {
        match p {
            crate::kak::Prim::One(on_hi, m) => Prim::One(on_hi, m),
            crate::kak::Prim::Cz => Prim::Two(Native::Cz),
        }
    }
}

impl Native {
    /// The gate's matrix on `(hi, lo)`.
    pub fn matrix(self) -> Mat4 {
        match self {
            Native::Cz => Mat4::CZ,
            Native::Cx => Mat4::CX_HI_LO,
            Native::Ecr => ecr(),
            Native::ISwap => crate::kak::core([
                std::f64::consts::FRAC_PI_4,
                std::f64::consts::FRAC_PI_4,
                0.0,
            ]),
            Native::SqrtISwap => crate::kak::core([FRAC_PI_8, FRAC_PI_8, 0.0]),
            Native::Rzz(theta) => crate::kak::core([0.0, 0.0, -theta / 2.0]),
            Native::Rxx(theta) => crate::kak::core([-theta / 2.0, 0.0, 0.0]),
        }
    }

    /// The gate as an IR instruction on physical qubits `hi` and `lo` (`None` for a gate the IR
    /// has not).
    pub fn instruction(self, hi: usize, lo: usize) -> Option<Instruction> {
        let (h, l) = (Qubit(hi as u32), Qubit(lo as u32));
        Some(match self {
            Native::Cz => Instruction::gate(Gate::Z, &[l], &[Control::one(h)]),
            Native::Cx => Instruction::gate(Gate::X, &[l], &[Control::one(h)]),
            // Symmetric: the order of the targets does not matter.
            Native::ISwap => Instruction::gate(Gate::ISwap, &[l, h], &[]),
            Native::SqrtISwap => Instruction::gate(Gate::SqrtISwap, &[l, h], &[]),
            Native::Rzz(theta) => Instruction::gate(Gate::Rzz(theta), &[l, h], &[]),
            // Directed: `hi` is the first target, the side the cross resonance drives.
            Native::Ecr => Instruction::gate(Gate::Ecr, &[h, l], &[]),
            Native::Rxx(_) => return None,
        })
    }
}

/// ECR on `(hi, lo)` with `hi` first (the side the cross resonance drives with Z): Qiskit's
/// `ecr hi, lo`. Qiskit writes its matrix with the first qubit as the low bit, `(IX - XY) /
/// sqrt 2` = `exp(i pi/4 X (x) Z) (I (x) X)` on (second, first); here it is exchanged.
fn ecr() -> Mat4 {
    let h = std::f64::consts::FRAC_1_SQRT_2;
    let (o, r, i) = (C::new(0.0, 0.0), C::new(h, 0.0), C::new(0.0, h));
    Mat4([[o, r, o, i], [r, o, -i, o], [o, i, o, r], [-i, o, r, o]]).swapped()
}

/// `form`'s single-qubit gates around `core`: `before`, the core, `after`.
fn around(form: &Canonical, core: Vec<Prim>) -> Vec<Prim> {
    let mut out = vec![
        Prim::One(true, form.before[0]),
        Prim::One(false, form.before[1]),
    ];
    out.extend(core);
    out.extend([
        Prim::One(true, form.after[0]),
        Prim::One(false, form.after[1]),
    ]);
    out
}

/// `a (x) b` as two steps.
fn locals(pair: [Mat2; 2]) -> [Prim; 2] {
    [Prim::One(true, pair[0]), Prim::One(false, pair[1])]
}

/// The unitary of a synthesised circuit.
pub fn circuit_unitary(prims: &[Prim]) -> Mat4 {
    prims.iter().fold(Mat4::IDENTITY, |acc, p| {
        let step = match p {
            Prim::One(true, m) => Mat4::on_hi(m),
            Prim::One(false, m) => Mat4::on_lo(m),
            Prim::Two(g) => g.matrix(),
        };
        step.mul(&acc)
    })
}

/// The native gates of a synthesised circuit.
pub fn two_qubit_gates(prims: &[Prim]) -> usize {
    prims.iter().filter(|p| matches!(p, Prim::Two(_))).count()
}

/// `core` (a circuit of `N(from)`) turned into one of `N(to)` for `to` locally equivalent to
/// `from`: `N(to) = A N(from) B`, so the circuit gets `B` before and `A` after. `None` when the two
/// are not one class.
fn conjugate_core(core: Vec<Prim>, from: &Mat4, to: &Mat4) -> Option<Vec<Prim>> {
    let (f, t) = (weyl::canonical(from)?, weyl::canonical(to)?);
    if !weyl::same_point(f.coords, t.coords) {
        return None;
    }
    // to = t.after N t.before and from = f.after N f.before, so
    // to = (t.after f.after^dagger) from (f.before^dagger t.before).
    let a = [0, 1].map(|k| t.after[k].mul(&f.after[k].adjoint()));
    let b = [0, 1].map(|k| f.before[k].adjoint().mul(&t.before[k]));
    let mut out = locals(b).to_vec();
    out.extend(core);
    out.extend(locals(a));
    Some(out)
}

/// [`Entangler::count`] remembered by the gate's exact entries: routing prices the same few
/// blocks over and over (each candidate SWAP merged into the block before it, each candidate
/// routing's runs), and one count is an eigenproblem.
#[derive(Clone, Debug)]
pub struct CountCache {
    entangler: Entangler,
    // Fx, not SipHash: the key is the caller's own matrix (no untrusted input to collide),
    // and hashing it was a tenth of a deep program's routing time.
    counts: rustc_hash::FxHashMap<[u64; 32], u8>,
}

impl CountCache {
    /// An empty cache of counts in `entangler`'s gates.
    pub fn new(entangler: Entangler) -> CountCache {
        CountCache {
            entangler,
            counts: rustc_hash::FxHashMap::default(),
        }
    }

    /// The entangler it counts in.
    pub fn entangler(&self) -> Entangler {
        self.entangler
    }

    /// The number of native gates `u` needs.
    pub fn count(&mut self, u: &Mat4) -> u8 {
        let mut key = [0u64; 32];
        for (k, c) in u.0.iter().flatten().enumerate() {
            key[2 * k] = c.re.to_bits();
            key[2 * k + 1] = c.im.to_bits();
        }
        let entangler = self.entangler;
        *self.counts.entry(key).or_insert_with(|| entangler.count(u))
    }
}

#[cfg(test)]
mod tests;
