//! The gate table: one record per gate kind ([`GateInfo`]) with every fact the other crates need,
//! in the spirit of Stim's gate data.
//!
//! A record says what a gate is called (IR text, drawings, docs; older spellings still read on
//! input), how many targets and angles it takes, how OpenQASM spells it (in `stdgates.inc`,
//! `qelib1.inc`, the qchess gate library or as a vendor alias, with and without controls), its
//! library definition and controlled forms as data ([`Step`]s, never text to re-parse), its
//! inverse and its flags. The matrix and the parameterised inverse are exhaustive matches on
//! [`Gate`] in `gate.rs`. Everything else (the exporters' names, the library text, the importers'
//! name lookup, target decompositions, `docs/gates.md`) is derived from this table.
//!
//! Adding a gate: a variant in `gate_kinds!` and [`Gate`], its arms in `gate.rs` (matrix,
//! inverse, parameters), and its record in [`GATES`]; the compiler points at each place.

use crate::gate::{Gate, GateKind};
use crate::ids::Qubit;
use crate::instruction::{Control, Instruction};
use std::f64::consts::{FRAC_PI_2, FRAC_PI_4, FRAC_PI_8};

/// One operation of a definition body: a gate on operand positions, with 1-controls.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Step {
    /// The gate (constant angles).
    pub gate: Gate,
    /// Operand positions of the 1-controls (empty for an uncontrolled gate).
    pub controls: &'static [usize],
    /// Operand positions of the targets.
    pub targets: &'static [usize],
}

impl Step {
    /// The step as an IR instruction on `operands` (operand position `k` is `operands[k]`).
    pub fn instruction(&self, operands: &[Qubit]) -> Instruction {
        let targets: Vec<Qubit> = self.targets.iter().map(|&k| operands[k]).collect();
        let controls: Vec<Control> = self
            .controls
            .iter()
            .map(|&k| Control::one(operands[k]))
            .collect();
        Instruction::gate(self.gate, &targets, &controls)
    }
}

impl LibraryGate {
    /// The body as IR instructions on `operands` (one per operand name).
    pub fn instructions(&self, operands: &[Qubit]) -> Vec<Instruction> {
        self.body.iter().map(|s| s.instruction(operands)).collect()
    }
}

const fn on(gate: Gate, targets: &'static [usize]) -> Step {
    Step {
        gate,
        controls: &[],
        targets,
    }
}

const fn ctl(gate: Gate, controls: &'static [usize], targets: &'static [usize]) -> Step {
    Step {
        gate,
        controls,
        targets,
    }
}

/// A gate of the qchess gate library: written into OpenQASM programs that call it, as a
/// modifier-free definition exact including global phase.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct LibraryGate {
    /// The OpenQASM name.
    pub name: &'static str,
    /// Operand names of the definition (controls first).
    pub operands: &'static [&'static str],
    /// The body, over operand positions.
    pub body: &'static [Step],
    /// Qiskit's `qelib1.inc` already defines it (OpenQASM 2 output leaves the definition out).
    pub in_qelib1: bool,
    /// Some tools know the name without a definition (Amazon Braket's `iswap`), so importers
    /// accept a call to it without one.
    pub predefined_elsewhere: bool,
}

/// Where an OpenQASM name comes from.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Home {
    /// A standard gate: in `stdgates.inc` (OpenQASM 3), `qelib1.inc` (OpenQASM 2) or both; the
    /// OpenQASM 3 builtins `U` and `CX` count as `stdgates`.
    Standard {
        /// In `stdgates.inc` (or an OpenQASM 3 builtin).
        stdgates: bool,
        /// In Qiskit's `qelib1.inc`.
        qelib1: bool,
    },
    /// The qchess gate library.
    Library(&'static LibraryGate),
    /// Another tool's spelling, read on input only (Braket's `cnot`, `phaseshift`, ...).
    Alias,
}

/// How an OpenQASM name's parameters map onto the IR gate's.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum ParamForm {
    /// The gate's own parameters, in order.
    Same,
    /// `u2(phi, lambda)` = `U(pi/2, phi, lambda)`.
    U2,
    /// `cu(theta, phi, lambda, gamma)`: `U(theta, phi, lambda)` with one control and the phase
    /// `gamma` on the control (`p(gamma)` on it before the controlled `U`).
    UWithControlPhase,
}

/// One OpenQASM spelling of a gate, with its number of leading control operands.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct QasmForm {
    /// The OpenQASM name.
    pub name: &'static str,
    /// The IR gate it applies.
    pub kind: GateKind,
    /// Leading control operands.
    pub controls: usize,
    /// The (single) control is a 0-control (the library's `n*` forms).
    pub zero_control: bool,
    /// How its parameters map onto the gate's.
    pub params: ParamForm,
    /// Where the name comes from.
    pub home: Home,
}

/// An OpenQASM call resolved to IR terms: apply `gate` with `controls` leading operands as
/// controls (0-controls when `zero_control`), after a phase `control_phase` on the first control.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct QasmCall {
    /// The gate on the trailing operands.
    pub gate: Gate,
    /// Leading control operands.
    pub controls: usize,
    /// The controls are 0-controls.
    pub zero_control: bool,
    /// `p(control_phase)` on the first control (only `cu`'s gamma; 0 otherwise).
    pub control_phase: f64,
}

impl QasmForm {
    /// Number of angles the name takes.
    pub fn num_params(&self) -> usize {
        match self.params {
            ParamForm::Same => self.kind.info().params,
            ParamForm::U2 => 2,
            ParamForm::UWithControlPhase => 4,
        }
    }

    /// Number of qubit operands (controls, then targets).
    pub fn num_qubits(&self) -> usize {
        self.controls + self.kind.info().targets
    }

    /// True when an importer knows the name without a `gate` definition in the file.
    pub fn is_predefined(&self) -> bool {
        match self.home {
            Home::Standard { .. } | Home::Alias => true,
            Home::Library(def) => def.in_qelib1 || def.predefined_elsewhere,
        }
    }

    /// The IR meaning of a call with `params`; `None` when the number of angles is wrong.
    pub fn resolve(&self, params: &[f64]) -> Option<QasmCall> {
        let (gate, control_phase) = match (self.params, params) {
            (ParamForm::Same, p) => (self.kind.with_params(p)?, 0.0),
            (ParamForm::U2, [phi, lambda]) => (Gate::U(FRAC_PI_2, *phi, *lambda), 0.0),
            (ParamForm::UWithControlPhase, [t, p, l, gamma]) => (Gate::U(*t, *p, *l), *gamma),
            _ => return None,
        };
        Some(QasmCall {
            gate,
            controls: self.controls,
            zero_control: self.zero_control,
            control_phase,
        })
    }
}

/// How a gate with one 1-control is written in OpenQASM.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Controlled {
    /// By its own controlled name with the gate's parameters (`cx`, `cry`, `cswap`, the library's
    /// `ciswap`, ...): [`GateInfo::written_with_controls`]`(1)`.
    Named,
    /// As the controlled form of an equal gate (`S` is written `cp(pi/2)`).
    As(Gate),
    /// `cu(theta, phi, lambda, gamma)` from the exact matrix (global phase included).
    Cu,
}

/// Everything about one gate kind except its matrix (see the module docs).
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct GateInfo {
    /// The kind this record describes.
    pub kind: GateKind,
    /// The one name users see: IR text, drawings, docs, and the OpenQASM library name.
    pub name: &'static str,
    /// Older IR spellings, still read on input.
    pub old_names: &'static [&'static str],
    /// One line for docs.
    pub summary: &'static str,
    /// Target qubits.
    pub targets: usize,
    /// Angles.
    pub params: usize,
    /// OpenQASM spellings without controls; the first is what exporters write.
    pub qasm: &'static [QasmForm],
    /// How exporters write it with one 1-control.
    pub controlled: Controlled,
    /// Further OpenQASM spellings with controls that importers read (`cx`, `ccx`, `cu3`, ...);
    /// exporters write them only through [`GateInfo::controlled`] and the multi-controlled X forms (`ccx`, [`C3X`]).
    pub qasm_controlled: &'static [QasmForm],
    /// The inverse's kind (the angles of a rotation are negated; see [`Gate::inverse`]).
    pub inverse: GateKind,
    /// The matrix has one nonzero entry per column (a sparse state never grows).
    pub monomial: bool,
    /// The matrix is diagonal.
    pub diagonal: bool,
    /// The matrix as docs write it.
    pub matrix_text: &'static str,
}

const STD: Home = Home::Standard {
    stdgates: true,
    qelib1: true,
};
const STD3: Home = Home::Standard {
    stdgates: true,
    qelib1: false,
};
const QELIB1: Home = Home::Standard {
    stdgates: false,
    qelib1: true,
};

const fn form(name: &'static str, kind: GateKind, controls: usize, home: Home) -> QasmForm {
    QasmForm {
        name,
        kind,
        controls,
        zero_control: false,
        params: ParamForm::Same,
        home,
    }
}

const fn lib(kind: GateKind, controls: usize, def: &'static LibraryGate) -> QasmForm {
    QasmForm {
        name: def.name,
        kind,
        controls,
        zero_control: false,
        params: ParamForm::Same,
        home: Home::Library(def),
    }
}

const fn lib_zero(kind: GateKind, def: &'static LibraryGate) -> QasmForm {
    QasmForm {
        name: def.name,
        kind,
        controls: 1,
        zero_control: true,
        params: ParamForm::Same,
        home: Home::Library(def),
    }
}

const fn library(
    name: &'static str,
    operands: &'static [&'static str],
    body: &'static [Step],
) -> LibraryGate {
    LibraryGate {
        name,
        operands,
        body,
        in_qelib1: false,
        predefined_elsewhere: false,
    }
}

const AB: &[&str] = &["a", "b"];
const CAB: &[&str] = &["c", "a", "b"];

/// `sxdg a { x a; sx a; }`.
pub static SXDG: LibraryGate = LibraryGate {
    in_qelib1: true,
    ..library("sxdg", &["a"], &[on(Gate::X, &[0]), on(Gate::SX, &[0])])
};
/// `iswap a, b`.
pub static ISWAP: LibraryGate = LibraryGate {
    predefined_elsewhere: true,
    ..library(
        "iswap",
        AB,
        &[
            on(Gate::S, &[0]),
            on(Gate::S, &[1]),
            on(Gate::H, &[0]),
            ctl(Gate::X, &[0], &[1]),
            ctl(Gate::X, &[1], &[0]),
            on(Gate::H, &[1]),
        ],
    )
};
/// `iswapdg a, b { iswap a, b; z a; z b; }`.
pub static ISWAPDG: LibraryGate = library(
    "iswapdg",
    AB,
    &[
        on(Gate::ISwap, &[0, 1]),
        on(Gate::Z, &[0]),
        on(Gate::Z, &[1]),
    ],
);

/// The square-root-of-iSWAP family: `exp(i angle (XX + YY) / 2)` up to the basis change, with
/// the rotation angle on `ry`s (optionally controlled by operand 0).
macro_rules! siswap_body {
    ($rot:expr, $a:expr, $b:expr, $ctl:expr) => {
        &[
            on(Gate::S, &[$a]),
            on(Gate::Ry(FRAC_PI_2), &[$b]),
            ctl(Gate::X, &[$b], &[$a]),
            ctl(Gate::Ry($rot), $ctl, &[$a]),
            ctl(Gate::Ry($rot), $ctl, &[$b]),
            ctl(Gate::X, &[$b], &[$a]),
            on(Gate::Sdg, &[$a]),
            on(Gate::Ry(-FRAC_PI_2), &[$b]),
        ]
    };
}

/// `siswap a, b`.
pub static SISWAP: LibraryGate = library("siswap", AB, siswap_body!(FRAC_PI_4, 0, 1, &[]));
/// `siswapdg a, b`.
pub static SISWAPDG: LibraryGate = library("siswapdg", AB, siswap_body!(-FRAC_PI_4, 0, 1, &[]));
/// `ciswap c, a, b`: iSWAP with a 1-control.
pub static CISWAP: LibraryGate = library("ciswap", CAB, siswap_body!(FRAC_PI_2, 1, 2, &[0]));
/// `ciswapdg c, a, b`: the `ciswap` body turned the other way (two controlled rotations, as
/// `ciswap`; writing it as `ciswap` and two controlled Zs cost four more CZ after lowering).
pub static CISWAPDG: LibraryGate = library("ciswapdg", CAB, siswap_body!(-FRAC_PI_2, 1, 2, &[0]));
/// `csiswap c, a, b`.
pub static CSISWAP: LibraryGate = library("csiswap", CAB, siswap_body!(FRAC_PI_4, 1, 2, &[0]));
/// `csiswapdg c, a, b`.
pub static CSISWAPDG: LibraryGate = library("csiswapdg", CAB, siswap_body!(-FRAC_PI_4, 1, 2, &[0]));

/// A 0-controlled form: `x c; <one-controlled> c, a, b; x c;`.
macro_rules! zero_controlled {
    ($name:literal, $gate:expr) => {
        library(
            $name,
            CAB,
            &[
                on(Gate::X, &[0]),
                ctl($gate, &[0], &[1, 2]),
                on(Gate::X, &[0]),
            ],
        )
    };
}

/// `nciswap c, a, b`.
pub static NCISWAP: LibraryGate = zero_controlled!("nciswap", Gate::ISwap);
/// `nciswapdg c, a, b`.
pub static NCISWAPDG: LibraryGate = zero_controlled!("nciswapdg", Gate::ISwapDg);
/// `ncsiswap c, a, b`.
pub static NCSISWAP: LibraryGate = zero_controlled!("ncsiswap", Gate::SqrtISwap);
/// `ncsiswapdg c, a, b`.
pub static NCSISWAPDG: LibraryGate = zero_controlled!("ncsiswapdg", Gate::SqrtISwapDg);

/// `c3x a, b, c, d`: X with three controls, without ancilla (the body of Qiskit 2.6's `mcx`
/// export; 14 `cx`).
pub static C3X: LibraryGate = {
    const P: Gate = Gate::Phase(FRAC_PI_8);
    const M: Gate = Gate::Phase(-FRAC_PI_8);
    const fn cx(c: &'static [usize], t: &'static [usize]) -> Step {
        ctl(Gate::X, c, t)
    }
    LibraryGate {
        in_qelib1: true,
        ..library(
            "c3x",
            &["a", "b", "c", "d"],
            &[
                on(Gate::H, &[3]),
                on(P, &[0]),
                on(P, &[1]),
                on(P, &[2]),
                on(P, &[3]),
                cx(&[0], &[1]),
                on(M, &[1]),
                cx(&[0], &[1]),
                cx(&[1], &[2]),
                on(M, &[2]),
                cx(&[0], &[2]),
                on(P, &[2]),
                cx(&[1], &[2]),
                on(M, &[2]),
                cx(&[0], &[2]),
                cx(&[2], &[3]),
                on(M, &[3]),
                cx(&[1], &[3]),
                on(P, &[3]),
                cx(&[2], &[3]),
                on(M, &[3]),
                cx(&[0], &[3]),
                on(P, &[3]),
                cx(&[2], &[3]),
                on(M, &[3]),
                cx(&[1], &[3]),
                on(P, &[3]),
                cx(&[2], &[3]),
                on(M, &[3]),
                cx(&[0], &[3]),
                on(Gate::H, &[3]),
            ],
        )
    }
};

/// `ecr a, b`: exactly `exp(i pi/4 Z(x)X) (X(x)I)`, global phase included: X on `a`, then
/// `cx; rz(-pi/2); cx` (= `exp(i pi/4 Z(x)Z)`) between Hadamards on `b`. In neither
/// `stdgates.inc` nor `qelib1.inc`, so both outputs define it.
pub static ECR: LibraryGate = library(
    "ecr",
    AB,
    &[
        on(Gate::X, &[0]),
        on(Gate::H, &[1]),
        ctl(Gate::X, &[0], &[1]),
        on(Gate::Rz(-FRAC_PI_2), &[1]),
        ctl(Gate::X, &[0], &[1]),
        on(Gate::H, &[1]),
    ],
);

/// The library in dependency order (a definition only calls standard gates and earlier ones).
pub static LIBRARY: [&LibraryGate; 15] = [
    &SXDG,
    &ISWAP,
    &ISWAPDG,
    &SISWAP,
    &SISWAPDG,
    &CISWAP,
    &NCISWAP,
    &CISWAPDG,
    &NCISWAPDG,
    &CSISWAP,
    &NCSISWAP,
    &CSISWAPDG,
    &NCSISWAPDG,
    &C3X,
    &ECR,
];

const fn alias(name: &'static str, kind: GateKind, controls: usize) -> QasmForm {
    form(name, kind, controls, Home::Alias)
}

/// Defaults for the optional fields of a record (no old names, no controlled spellings, `cu`).
const OPTIONAL: GateInfo = GateInfo {
    kind: GateKind::I,
    name: "",
    old_names: &[],
    summary: "",
    targets: 1,
    params: 0,
    qasm: &[],
    controlled: Controlled::Cu,
    qasm_controlled: &[],
    inverse: GateKind::I,
    monomial: false,
    diagonal: false,
    matrix_text: "",
};

use GateKind as K;

/// The table: one record per [`GateKind`], in declaration order (`GATES[k as usize].kind == k`).
pub static GATES: [GateInfo; GateKind::COUNT] = [
    GateInfo {
        qasm: &[form("id", K::I, 0, STD), alias("i", K::I, 0)],
        kind: K::I,
        name: "i",
        summary: "identity",
        targets: 1,
        params: 0,
        inverse: K::I,
        monomial: true,
        diagonal: true,
        matrix_text: "[[1, 0], [0, 1]]",
        ..OPTIONAL
    },
    GateInfo {
        qasm: &[form("x", K::X, 0, STD)],
        controlled: Controlled::Named,
        qasm_controlled: &[
            form("cx", K::X, 1, STD),
            form("CX", K::X, 1, STD3),
            alias("cnot", K::X, 1),
            form("ccx", K::X, 2, STD),
            alias("ccnot", K::X, 2),
            lib(K::X, 3, &C3X),
            form("c4x", K::X, 4, QELIB1),
        ],
        kind: K::X,
        name: "x",
        summary: "Pauli X (NOT); with one control it is CNOT",
        targets: 1,
        params: 0,
        inverse: K::X,
        monomial: true,
        diagonal: false,
        matrix_text: "[[0, 1], [1, 0]]",
        ..OPTIONAL
    },
    GateInfo {
        qasm: &[form("y", K::Y, 0, STD)],
        controlled: Controlled::Named,
        qasm_controlled: &[form("cy", K::Y, 1, STD)],
        kind: K::Y,
        name: "y",
        summary: "Pauli Y",
        targets: 1,
        params: 0,
        inverse: K::Y,
        monomial: true,
        diagonal: false,
        matrix_text: "[[0, -i], [i, 0]]",
        ..OPTIONAL
    },
    GateInfo {
        qasm: &[form("z", K::Z, 0, STD)],
        controlled: Controlled::Named,
        qasm_controlled: &[form("cz", K::Z, 1, STD)],
        kind: K::Z,
        name: "z",
        summary: "Pauli Z",
        targets: 1,
        params: 0,
        inverse: K::Z,
        monomial: true,
        diagonal: true,
        matrix_text: "[[1, 0], [0, -1]]",
        ..OPTIONAL
    },
    GateInfo {
        qasm: &[form("h", K::H, 0, STD)],
        controlled: Controlled::Named,
        qasm_controlled: &[form("ch", K::H, 1, STD)],
        kind: K::H,
        name: "h",
        summary: "Hadamard",
        targets: 1,
        params: 0,
        inverse: K::H,
        monomial: false,
        diagonal: false,
        matrix_text: "[[1, 1], [1, -1]] / sqrt2",
        ..OPTIONAL
    },
    GateInfo {
        qasm: &[form("s", K::S, 0, STD)],
        controlled: Controlled::As(Gate::Phase(FRAC_PI_2)),
        kind: K::S,
        name: "s",
        summary: "phase gate S = sqrt(Z)",
        targets: 1,
        params: 0,
        inverse: K::Sdg,
        monomial: true,
        diagonal: true,
        matrix_text: "[[1, 0], [0, i]]",
        ..OPTIONAL
    },
    GateInfo {
        qasm: &[form("sdg", K::Sdg, 0, STD), alias("si", K::Sdg, 0)],
        controlled: Controlled::As(Gate::Phase(-FRAC_PI_2)),
        kind: K::Sdg,
        name: "sdg",
        summary: "S dagger",
        targets: 1,
        params: 0,
        inverse: K::S,
        monomial: true,
        diagonal: true,
        matrix_text: "[[1, 0], [0, -i]]",
        ..OPTIONAL
    },
    GateInfo {
        qasm: &[form("t", K::T, 0, STD)],
        controlled: Controlled::As(Gate::Phase(FRAC_PI_4)),
        kind: K::T,
        name: "t",
        summary: "T = sqrt(S)",
        targets: 1,
        params: 0,
        inverse: K::Tdg,
        monomial: true,
        diagonal: true,
        matrix_text: "[[1, 0], [0, e^(i pi/4)]]",
        ..OPTIONAL
    },
    GateInfo {
        qasm: &[form("tdg", K::Tdg, 0, STD), alias("ti", K::Tdg, 0)],
        controlled: Controlled::As(Gate::Phase(-FRAC_PI_4)),
        kind: K::Tdg,
        name: "tdg",
        summary: "T dagger",
        targets: 1,
        params: 0,
        inverse: K::T,
        monomial: true,
        diagonal: true,
        matrix_text: "[[1, 0], [0, e^(-i pi/4)]]",
        ..OPTIONAL
    },
    GateInfo {
        qasm: &[form("sx", K::SX, 0, STD), alias("v", K::SX, 0)],
        qasm_controlled: &[form("csx", K::SX, 1, QELIB1)],
        kind: K::SX,
        name: "sx",
        summary: "square root of X",
        targets: 1,
        params: 0,
        inverse: K::SXdg,
        monomial: false,
        diagonal: false,
        matrix_text: "[[1+i, 1-i], [1-i, 1+i]] / 2",
        ..OPTIONAL
    },
    GateInfo {
        qasm: &[lib(K::SXdg, 0, &SXDG), alias("vi", K::SXdg, 0)],
        kind: K::SXdg,
        name: "sxdg",
        summary: "SX dagger",
        targets: 1,
        params: 0,
        inverse: K::SX,
        monomial: false,
        diagonal: false,
        matrix_text: "[[1-i, 1+i], [1+i, 1-i]] / 2",
        ..OPTIONAL
    },
    GateInfo {
        qasm: &[form("rx", K::Rx, 0, STD)],
        controlled: Controlled::Named,
        qasm_controlled: &[form("crx", K::Rx, 1, STD)],
        kind: K::Rx,
        name: "rx",
        summary: "rotation about X: exp(-i theta X / 2)",
        targets: 1,
        params: 1,
        inverse: K::Rx,
        monomial: false,
        diagonal: false,
        matrix_text: "[[cos(t/2), -i sin(t/2)], [-i sin(t/2), cos(t/2)]]",
        ..OPTIONAL
    },
    GateInfo {
        qasm: &[form("ry", K::Ry, 0, STD)],
        controlled: Controlled::Named,
        qasm_controlled: &[form("cry", K::Ry, 1, STD)],
        kind: K::Ry,
        name: "ry",
        summary: "rotation about Y: exp(-i theta Y / 2)",
        targets: 1,
        params: 1,
        inverse: K::Ry,
        monomial: false,
        diagonal: false,
        matrix_text: "[[cos(t/2), -sin(t/2)], [sin(t/2), cos(t/2)]]",
        ..OPTIONAL
    },
    GateInfo {
        qasm: &[form("rz", K::Rz, 0, STD)],
        controlled: Controlled::Named,
        qasm_controlled: &[form("crz", K::Rz, 1, STD)],
        kind: K::Rz,
        name: "rz",
        summary: "rotation about Z: exp(-i theta Z / 2)",
        targets: 1,
        params: 1,
        inverse: K::Rz,
        monomial: true,
        diagonal: true,
        matrix_text: "[[e^(-i t/2), 0], [0, e^(i t/2)]]",
        ..OPTIONAL
    },
    GateInfo {
        qasm: &[
            form("p", K::Phase, 0, STD),
            form("phase", K::Phase, 0, STD3),
            form("u1", K::Phase, 0, STD),
            alias("phaseshift", K::Phase, 0),
        ],
        controlled: Controlled::Named,
        qasm_controlled: &[
            form("cp", K::Phase, 1, STD),
            form("cphase", K::Phase, 1, STD3),
            form("cu1", K::Phase, 1, QELIB1),
            alias("cphaseshift", K::Phase, 1),
        ],
        kind: K::Phase,
        name: "p",
        summary: "phase: diag(1, e^(i lambda))",
        targets: 1,
        params: 1,
        inverse: K::Phase,
        monomial: true,
        diagonal: true,
        matrix_text: "[[1, 0], [0, e^(i l)]]",
        ..OPTIONAL
    },
    GateInfo {
        qasm: &[
            form("u3", K::U, 0, STD),
            form("u", K::U, 0, QELIB1),
            form("U", K::U, 0, STD3),
            QasmForm {
                params: ParamForm::U2,
                ..form("u2", K::U, 0, STD)
            },
        ],
        qasm_controlled: &[
            form("cu3", K::U, 1, QELIB1),
            QasmForm {
                params: ParamForm::UWithControlPhase,
                ..form("cu", K::U, 1, STD)
            },
        ],
        kind: K::U,
        name: "u",
        summary: "general single-qubit gate U(theta, phi, lambda) of OpenQASM 3",
        targets: 1,
        params: 3,
        inverse: K::U,
        monomial: false,
        diagonal: false,
        matrix_text: "[[cos(t/2), -e^(i l) sin(t/2)], [e^(i p) sin(t/2), e^(i(p+l)) cos(t/2)]]",
        ..OPTIONAL
    },
    GateInfo {
        qasm: &[form("swap", K::Swap, 0, STD)],
        controlled: Controlled::Named,
        qasm_controlled: &[form("cswap", K::Swap, 1, STD)],
        kind: K::Swap,
        name: "swap",
        summary: "SWAP",
        targets: 2,
        params: 0,
        inverse: K::Swap,
        monomial: true,
        diagonal: false,
        matrix_text: "|01> <-> |10>",
        ..OPTIONAL
    },
    GateInfo {
        qasm: &[lib(K::ISwap, 0, &ISWAP)],
        qasm_controlled: &[lib(K::ISwap, 1, &CISWAP), lib_zero(K::ISwap, &NCISWAP)],
        controlled: Controlled::Named,
        kind: K::ISwap,
        name: "iswap",
        summary: "iSWAP: |01> -> i|10>, |10> -> i|01>",
        targets: 2,
        params: 0,
        inverse: K::ISwapDg,
        monomial: true,
        diagonal: false,
        matrix_text: "|01> -> i|10>, |10> -> i|01>",
        ..OPTIONAL
    },
    GateInfo {
        qasm: &[lib(K::ISwapDg, 0, &ISWAPDG)],
        qasm_controlled: &[
            lib(K::ISwapDg, 1, &CISWAPDG),
            lib_zero(K::ISwapDg, &NCISWAPDG),
        ],
        controlled: Controlled::Named,
        kind: K::ISwapDg,
        name: "iswapdg",
        summary: "inverse iSWAP",
        targets: 2,
        params: 0,
        inverse: K::ISwap,
        monomial: true,
        diagonal: false,
        matrix_text: "|01> -> -i|10>, |10> -> -i|01>",
        ..OPTIONAL
    },
    GateInfo {
        old_names: &["sqiswap"],
        qasm: &[lib(K::SqrtISwap, 0, &SISWAP)],
        qasm_controlled: &[
            lib(K::SqrtISwap, 1, &CSISWAP),
            lib_zero(K::SqrtISwap, &NCSISWAP),
        ],
        controlled: Controlled::Named,
        kind: K::SqrtISwap,
        name: "siswap",
        summary: "square root of iSWAP",
        targets: 2,
        params: 0,
        inverse: K::SqrtISwapDg,
        monomial: false,
        diagonal: false,
        matrix_text: "|01> -> (|01> + i|10>)/sqrt2, |10> -> (i|01> + |10>)/sqrt2",
    },
    GateInfo {
        old_names: &["sqiswapdg"],
        qasm: &[lib(K::SqrtISwapDg, 0, &SISWAPDG)],
        qasm_controlled: &[
            lib(K::SqrtISwapDg, 1, &CSISWAPDG),
            lib_zero(K::SqrtISwapDg, &NCSISWAPDG),
        ],
        controlled: Controlled::Named,
        kind: K::SqrtISwapDg,
        name: "siswapdg",
        summary: "inverse square root of iSWAP",
        targets: 2,
        params: 0,
        inverse: K::SqrtISwap,
        monomial: false,
        diagonal: false,
        matrix_text: "|01> -> (|01> - i|10>)/sqrt2, |10> -> (-i|01> + |10>)/sqrt2",
    },
    GateInfo {
        // In qelib1.inc, not in stdgates.inc: OpenQASM 3 output defines it (see qc-export's
        // library text `RZZ_DEFINITION`).
        qasm: &[form("rzz", K::Rzz, 0, QELIB1)],
        kind: K::Rzz,
        name: "rzz",
        summary: "ZZ rotation: exp(-i theta/2 Z(x)Z), the ion-trap entangler",
        targets: 2,
        params: 1,
        inverse: K::Rzz,
        monomial: true,
        diagonal: true,
        matrix_text: "diag(e^(-i t/2), e^(i t/2), e^(i t/2), e^(-i t/2))",
        ..OPTIONAL
    },
    GateInfo {
        qasm: &[lib(K::Ecr, 0, &ECR)],
        kind: K::Ecr,
        name: "ecr",
        summary: "echoed cross-resonance: exp(i pi/4 Z(x)X) (X(x)I), IBM Eagle's entangler",
        targets: 2,
        params: 0,
        inverse: K::Ecr,
        monomial: false,
        diagonal: false,
        matrix_text:
            "(X(x)I - Y(x)X)/sqrt2: |00> -> (|10> - i|11>)/sqrt2, |10> -> (|00> + i|01>)/sqrt2",
        ..OPTIONAL
    },
];

impl GateKind {
    /// This kind's record.
    pub fn info(self) -> &'static GateInfo {
        &GATES[self as usize]
    }

    /// The kind whose IR name (or older spelling) is `name`.
    pub fn from_ir_name(name: &str) -> Option<GateKind> {
        GATES
            .iter()
            .find(|g| g.name == name || g.old_names.contains(&name))
            .map(|g| g.kind)
    }
}

impl GateInfo {
    /// The OpenQASM name exporters write for the uncontrolled gate.
    pub fn qasm_name(&self) -> &'static str {
        self.qasm[0].name
    }

    /// The name exporters write for this gate with `n` 1-controls when one exists (`cx`, `ccx`,
    /// `c3x`, `ciswap`, ...): a standard `stdgates.inc` name or a library gate.
    pub fn written_with_controls(&self, n: usize) -> Option<&'static QasmForm> {
        self.qasm_controlled.iter().find(|f| {
            f.controls == n
                && !f.zero_control
                && f.params == ParamForm::Same
                && matches!(
                    f.home,
                    Home::Standard { stdgates: true, .. } | Home::Library(_)
                )
        })
    }

    /// The OpenQASM name exporters write for this gate with `controls` leading 1-controls, or
    /// `None` when they write no single call for it: the uncontrolled name, the controlled form
    /// of [`GateInfo::controlled`] (`cx`, `cp` for `s`, `cu` from the exact matrix) or a
    /// multi-controlled name (`ccx`, `c3x`). It depends on the kind alone, never on the angles,
    /// which is what lets a target's native names and a calibration's gate names be resolved
    /// to gate kinds once, when they are read.
    pub fn written_name(&self, controls: usize) -> Option<&'static str> {
        match (controls, self.controlled) {
            (0, _) => Some(self.qasm_name()),
            (1, Controlled::As(equal)) => equal.info().written_name(1),
            (1, Controlled::Cu) => Some(CU),
            (n, _) => self.written_with_controls(n).map(|form| form.name),
        }
    }

    /// The library gate exporters write for this gate with one 0-control (`nciswap`, ...).
    pub fn written_with_zero_control(&self) -> Option<&'static QasmForm> {
        self.qasm_controlled.iter().find(|f| f.zero_control)
    }

    /// The library gate exporters write for this gate with `controls` 1-controls (`siswap`,
    /// `ciswap`, `c3x`, ...), if that form is a library gate.
    pub fn library_form(&self, controls: usize) -> Option<&'static LibraryGate> {
        let form = if controls == 0 {
            self.qasm.first()
        } else {
            self.written_with_controls(controls)
        }?;
        match form.home {
            Home::Library(def) => Some(def),
            Home::Standard { .. } | Home::Alias => None,
        }
    }
}

/// The OpenQASM name of `U` with one control and a phase on it, the exact written form of any
/// gate whose [`GateInfo::controlled`] is [`Controlled::Cu`].
pub const CU: &str = "cu";

/// Every OpenQASM spelling the table knows (gates with and without controls).
pub fn qasm_forms() -> impl Iterator<Item = &'static QasmForm> {
    GATES
        .iter()
        .flat_map(|g| g.qasm.iter().chain(g.qasm_controlled))
}

/// The gate an OpenQASM name denotes (stdgates, qelib1, the qchess library or a vendor alias),
/// with its arity and parameter count. Names are case-sensitive (`U` and `CX` are builtins).
pub fn qasm_gate(name: &str) -> Option<&'static QasmForm> {
    qasm_forms().find(|f| f.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Circuit;

    #[test]
    fn the_table_is_indexed_by_kind() {
        assert_eq!(GATES.len(), GateKind::ALL.len());
        for (k, kind) in GateKind::ALL.into_iter().enumerate() {
            assert_eq!(kind as usize, k);
            assert_eq!(kind.info().kind, kind);
        }
    }

    #[test]
    fn records_agree_with_the_gates() {
        for g in Gate::examples() {
            let info = g.info();
            assert_eq!(info.params, g.params().len(), "{g}");
            assert_eq!(g.matrix().dim(), 1 << info.targets, "{g}");
            assert_eq!(info.inverse, g.inverse().kind(), "{g}");
            assert_eq!(
                info.qasm[0].controls, 0,
                "{g}: the written form has no controls"
            );
            for f in info.qasm.iter().chain(info.qasm_controlled) {
                assert_eq!(f.kind, g.kind(), "{}", f.name);
            }
        }
    }

    #[test]
    fn names_are_unique_identifiers() {
        let ident = |n: &str| {
            n.chars().next().is_some_and(|c| c.is_ascii_alphabetic())
                && n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        };
        let mut ir: Vec<&str> = GATES
            .iter()
            .flat_map(|g| std::iter::once(g.name).chain(g.old_names.iter().copied()))
            .collect();
        let mut qasm: Vec<&str> = qasm_forms().map(|f| f.name).collect();
        for n in ir.iter().chain(&qasm) {
            assert!(ident(n), "`{n}` is not an identifier");
        }
        let (n_ir, n_qasm) = (ir.len(), qasm.len());
        ir.sort_unstable();
        ir.dedup();
        qasm.sort_unstable();
        qasm.dedup();
        assert_eq!(ir.len(), n_ir, "an IR name is used twice");
        assert_eq!(qasm.len(), n_qasm, "an OpenQASM name is used twice");
    }

    #[test]
    fn every_qasm_form_resolves_with_its_parameter_count() {
        for f in qasm_forms() {
            assert_eq!(qasm_gate(f.name), Some(f));
            let params = vec![0.25; f.num_params()];
            let call = f.resolve(&params).unwrap_or_else(|| panic!("{}", f.name));
            assert_eq!(call.gate.kind(), f.kind);
            assert_eq!(f.num_qubits(), f.controls + call.gate.num_targets());
            assert!(f.resolve(&vec![0.25; f.num_params() + 1]).is_none());
        }
        let cu = qasm_gate("cu").and_then(|f| f.resolve(&[1.0, 2.0, 3.0, 4.0]));
        assert_eq!(
            cu.map(|c| (c.gate, c.controls, c.control_phase)),
            Some((Gate::U(1.0, 2.0, 3.0), 1, 4.0))
        );
        assert_eq!(
            qasm_gate("cnot").map(|f| (f.kind, f.controls)),
            Some((GateKind::X, 1))
        );
        assert_eq!(qasm_gate("sqiswap"), None);
    }

    fn unitary(n: usize, instrs: Vec<Instruction>) -> crate::Matrix {
        let mut c = Circuit::with_plain_qubits(n as u32, 0);
        c.extend(instrs);
        c.unitary().expect("a small unitary circuit")
    }

    /// The definitions are checked against the exact matrices of what the names mean (a
    /// controlled gate's matrix is the reference executor's, independent of the bodies).
    #[test]
    fn every_library_definition_is_exact_including_global_phase() {
        let mut checked = 0;
        for f in qasm_forms() {
            let Home::Library(def) = f.home else { continue };
            let n = def.operands.len();
            assert_eq!(n, f.num_qubits(), "{}", f.name);
            let qubits: Vec<Qubit> = (0..n as u32).map(Qubit).collect();
            let got = unitary(n, def.instructions(&qubits));
            let call = f.resolve(&[]).expect("library gates take no angles");
            let controls: Vec<Control> = qubits[..f.controls]
                .iter()
                .map(|&q| {
                    if f.zero_control {
                        Control::zero(q)
                    } else {
                        Control::one(q)
                    }
                })
                .collect();
            let want = unitary(
                n,
                vec![Instruction::gate(
                    call.gate,
                    &qubits[f.controls..],
                    &controls,
                )],
            );
            assert!(
                got.approx_eq(&want, 1e-12),
                "{}: {}",
                f.name,
                got.max_distance(&want)
            );
            checked += 1;
        }
        assert_eq!(checked, LIBRARY.len());
    }

    #[test]
    fn library_order_puts_dependencies_first() {
        for (k, def) in LIBRARY.iter().enumerate() {
            for step in def.body {
                let Some(called) = step.gate.info().library_form(step.controls.len()) else {
                    continue;
                };
                let at = LIBRARY.iter().position(|d| d.name == called.name);
                assert!(
                    at.is_some_and(|at| at < k),
                    "{} calls {}",
                    def.name,
                    called.name
                );
            }
        }
    }

    #[test]
    fn controlled_forms_are_written_somehow() {
        for g in Gate::examples() {
            let info = g.info();
            match info.controlled {
                Controlled::Named => assert!(info.written_with_controls(1).is_some(), "{g}"),
                Controlled::As(other) => {
                    assert!(other.matrix().approx_eq(&g.matrix(), 1e-15), "{g}")
                }
                Controlled::Cu => {}
            }
        }
    }
}
