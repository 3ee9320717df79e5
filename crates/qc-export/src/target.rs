//! Hardware targets (`backends/*.toml`) and the lowering pass to their native gates.
//!
//! A target names its native gates, qubit count, whether it has mid-circuit measurement with
//! feed-forward, how a merged single-qubit run is written (`zsx`, `zyz` or `u3`), its entangler
//! (`cx`, `cz`, `ecr`, `siswap` or `rzz`) and optional output names. Lowering expands every call that is not
//! native (library definitions, controlled gates) to single-qubit unitaries and CNOTs with exact
//! decompositions, rewrites each CNOT with the entangler, merges each run of single-qubit gates on
//! a qubit into one matrix and writes it in the target's single-qubit basis. The result equals the
//! program up to a global phase (per `if` branch, so still unobservable).

use crate::decompose::{controlled_abc, is_identity_up_to_phase, normalize, zsx, zyz, AbcStep};
use crate::error::{ExpandProblem, ExportError, TargetProblem};
use crate::export::{build_program, header_lines, postselect_pattern, Export};
use crate::program::{GateCall, Program, Stmt};
use crate::qasm2::{build_qasm2_program, to_qasm2};
use crate::relative_phase::Role;
use crate::{ExportOptions, Form};
use qc_ir::gate_data::{qasm_forms, qasm_gate, Home, LibraryGate, QasmForm};
use qc_ir::{Circuit, CouplingMap, Entangler, Gate, GateKind, Instruction, Matrix, Op, Polarity};
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
    /// Native gates, by their OpenQASM names (before renaming); every name is one the gate table
    /// knows, so a typo fails when the TOML is read. Private: [`Target::native_kinds`] is
    /// resolved from it, and the two must not drift apart.
    #[serde(default)]
    native: Vec<NativeGate>,
    /// How a merged single-qubit run is written.
    #[serde(default)]
    pub single_qubit: SingleQubitBasis,
    /// The two-qubit gate every CNOT becomes (the IR's [`Entangler`], which the device compiler
    /// routes and synthesises in too): `cx` (the default), `cz`, `ecr`, `siswap` or `rzz` on any
    /// target; `iswap` on a device target, whose compiler writes every two-qubit gate itself.
    #[serde(default = "cx")]
    pub two_qubit: Entangler,
    /// Write `include "stdgates.inc";`.
    #[serde(default = "yes")]
    pub include_stdgates: bool,
    /// Inline the library definitions of library gates the output calls (e.g. a native `siswap`).
    #[serde(default)]
    pub definitions: bool,
    /// Output names for gates (`cx = "cnot"`).
    #[serde(default)]
    pub rename: BTreeMap<String, String>,
    /// The couplers of a device target: undirected pairs of physical qubits `0..qubits` a
    /// two-qubit gate may act on. A target with edges is a device target: `qchess compile`
    /// places and routes programs onto it (qc-route). Empty for the logical targets.
    #[serde(default)]
    pub edges: Vec<Coupler>,
    /// Each coupler of `edges` is listed `[first, second]` the one way the device drives its
    /// directed entangler (`ecr`'s driven qubit or `cx`'s control first, as IBM's coupling maps
    /// list them): the device compiler writes every such gate that way round. Without it a
    /// directed entangler runs either way on every coupler.
    #[serde(default)]
    pub directed: bool,
    /// Every pair of qubits is a coupler (a trapped-ion device, whose ions all interact): a
    /// device target without an `edges` list, onto which programs are placed without routing.
    /// Refused together with `edges`.
    #[serde(default)]
    pub all_to_all: bool,
    /// Mid-circuit measurement and reset are available even without feed-forward (a device
    /// target reuses measured qubits only where it may measure mid-circuit).
    #[serde(default)]
    pub measure_reset: bool,
    /// A device target's default dynamical decoupling (`none`, `xx` or `xy4`, checked when the
    /// file is read; `qchess compile --dd` overrides it; no key is `none`).
    #[serde(default)]
    pub dd: Option<qc_ir::DdSequence>,
    /// The checked coupling map of `edges` (filled when the file is read).
    #[serde(skip)]
    coupling: Option<CouplingMap>,
    /// The native gates as IR gate kinds with their number of 1-controls (filled when the file
    /// is read, see [`Target::is_native_gate`]).
    #[serde(skip)]
    native_kinds: Vec<(GateKind, usize)>,
}

fn yes() -> bool {
    true
}

fn cx() -> Entangler {
    Entangler::Cx
}

/// The most qubits an `all_to_all` target may have: its coupling map holds every pair, so a
/// typo in `qubits` must not allocate billions of couplers (today's ion traps have 56).
pub const MAX_ALL_TO_ALL_QUBITS: usize = 1024;

/// One coupler of a device target: two physical qubits, `[a, b]` in the TOML file (any other
/// length is refused when the file is read).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(try_from = "Vec<usize>")]
pub struct Coupler(pub [usize; 2]);

impl TryFrom<Vec<usize>> for Coupler {
    type Error = String;
    fn try_from(qubits: Vec<usize>) -> Result<Coupler, String> {
        match qubits[..] {
            [a, b] => Ok(Coupler([a, b])),
            _ => Err(format!(
                "a coupler is two qubits `[a, b]`, not {} ({qubits:?})",
                qubits.len()
            )),
        }
    }
}

/// A native gate of a target: an OpenQASM spelling from the gate table.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct NativeGate(pub &'static QasmForm);

impl NativeGate {
    /// The OpenQASM name.
    pub fn name(self) -> &'static str {
        self.0.name
    }
}

impl<'de> Deserialize<'de> for NativeGate {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<NativeGate, D::Error> {
        let name = String::deserialize(d)?;
        qasm_gate(&name).map(NativeGate).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "unknown native gate `{name}` (an OpenQASM name from docs/gates.md)"
            ))
        })
    }
}

/// How a target writes a merged single-qubit run.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SingleQubitBasis {
    /// `rz`, `sx`, `rz`, `sx`, `rz` (IBM).
    #[default]
    Zsx,
    /// `rz`, `ry`, `rz`.
    Zyz,
    /// One `u3`.
    U3,
}

impl SingleQubitBasis {
    /// The gates this basis writes (they must be native).
    pub fn gates(self) -> &'static [Gate] {
        match self {
            SingleQubitBasis::Zsx => &[Gate::Rz(0.0), Gate::SX],
            SingleQubitBasis::Zyz => &[Gate::Rz(0.0), Gate::Ry(0.0)],
            SingleQubitBasis::U3 => &[Gate::U(0.0, 0.0, 0.0)],
        }
    }
}

/// True when the exporter writes a CNOT in `entangler` ([`entangle`]): what a logical target,
/// which the exporter alone lowers, needs of its `two_qubit`.
fn lowers_cnot(entangler: Entangler) -> bool {
    matches!(
        entangler,
        Entangler::Cx | Entangler::Cz | Entangler::Ecr | Entangler::SqrtISwap | Entangler::Rzz
    )
}

/// The hardware targets built into qchess: the repository's `backends/*.toml` at build time, as
/// (name, TOML text). `--target NAME` finds them wherever the binary runs; a file
/// `NAME.toml` in `--backends-dir` adds a target or overrides a bundled one.
pub const BUNDLED_TARGETS: [(&str, &str); 11] = [
    ("braket", include_str!("../../../backends/braket.toml")),
    ("generic", include_str!("../../../backends/generic.toml")),
    ("google", include_str!("../../../backends/google.toml")),
    ("ibm", include_str!("../../../backends/ibm.toml")),
    (
        "ibm_brisbane",
        include_str!("../../../backends/ibm_brisbane.toml"),
    ),
    ("ibm_fez", include_str!("../../../backends/ibm_fez.toml")),
    (
        "quantinuum_h2",
        include_str!("../../../backends/quantinuum_h2.toml"),
    ),
    ("rainbow", include_str!("../../../backends/rainbow.toml")),
    ("sycamore", include_str!("../../../backends/sycamore.toml")),
    ("weber", include_str!("../../../backends/weber.toml")),
    (
        "willow_pink",
        include_str!("../../../backends/willow_pink.toml"),
    ),
];

impl Target {
    /// Parses a target from TOML text and checks that its lowering is possible.
    pub fn from_toml(text: &str) -> Result<Target, ExportError> {
        let mut t: Target = toml::from_str(text).map_err(|error| ExportError::Target {
            target: "<toml>".into(),
            problem: TargetProblem::Toml { error },
        })?;
        t.resolve_native_kinds();
        t.check()?;
        let pairs: Vec<[usize; 2]> = if t.all_to_all {
            (0..t.qubits)
                .flat_map(|a| (a + 1..t.qubits).map(move |b| [a, b]))
                .collect()
        } else {
            t.edges.iter().map(|c| c.0).collect()
        };
        if !pairs.is_empty() {
            let map = if t.directed {
                CouplingMap::directed(t.qubits, &pairs)
            } else {
                CouplingMap::new(t.qubits, &pairs)
            }
            .map_err(|error| t.err(TargetProblem::Coupling(error)))?;
            t.coupling = Some(map);
        }
        Ok(t)
    }

    /// Reads `dir/<name>.toml`.
    pub fn load(dir: &Path, name: &str) -> Result<Target, ExportError> {
        let path = dir.join(format!("{name}.toml"));
        let text = std::fs::read_to_string(&path).map_err(|e| ExportError::Target {
            target: name.into(),
            problem: TargetProblem::Read {
                kind: e.kind(),
                message: e.to_string(),
                path: path.clone(),
            },
        })?;
        Target::from_toml(&text).map_err(|e| e.for_target(name))
    }

    /// The bundled target `name` (see [`BUNDLED_TARGETS`]), or `None` when there is none.
    pub fn bundled(name: &str) -> Option<Result<Target, ExportError>> {
        let (_, text) = BUNDLED_TARGETS.iter().find(|(n, _)| *n == name)?;
        Some(Target::from_toml(text).map_err(|e| e.for_target(name)))
    }

    /// The target `--target name` means: `dir/<name>.toml` when `dir` is given and holds that
    /// file (a user's own target, or an override of a bundled one), else the bundled target.
    pub fn find(name: &str, dir: Option<&Path>) -> Result<Target, ExportError> {
        if let Some(dir) = dir {
            if dir.join(format!("{name}.toml")).is_file() {
                return Target::load(dir, name);
            }
        }
        Target::bundled(name).unwrap_or_else(|| {
            Err(ExportError::UnknownTarget {
                name: name.into(),
                dir: dir.map(Path::to_path_buf),
                bundled: BUNDLED_TARGETS.iter().map(|(n, _)| *n).collect(),
            })
        })
    }

    fn err(&self, problem: TargetProblem) -> ExportError {
        ExportError::Target {
            target: self.name.clone(),
            problem,
        }
    }

    fn check(&self) -> Result<(), ExportError> {
        if self.all_to_all && !self.edges.is_empty() {
            return Err(self.err(TargetProblem::AllToAllWithEdges));
        }
        if self.all_to_all && self.qubits > MAX_ALL_TO_ALL_QUBITS {
            return Err(self.err(TargetProblem::AllToAllTooLarge {
                qubits: self.qubits,
                max: MAX_ALL_TO_ALL_QUBITS,
            }));
        }
        if self.directed && self.edges.is_empty() {
            return Err(self.err(TargetProblem::DirectedWithoutEdges));
        }
        if self.directed && !self.two_qubit.directed() {
            return Err(self.err(TargetProblem::DirectedSymmetric {
                entangler: self.two_qubit,
            }));
        }
        if !self.lower {
            if !self.edges.is_empty() || self.all_to_all {
                return Err(self.err(TargetProblem::DeviceNotLowered));
            }
            return Ok(());
        }
        // The entangler first: a file naming one that cannot be written at all is told so,
        // not that the gate is missing from `native`.
        let device = self.all_to_all || !self.edges.is_empty();
        if !self.two_qubit.in_ir() {
            return Err(self.err(TargetProblem::EntanglerNotInIr {
                entangler: self.two_qubit,
            }));
        }
        if !device && !lowers_cnot(self.two_qubit) {
            return Err(self.err(TargetProblem::NoCnotIn {
                entangler: self.two_qubit,
            }));
        }
        let single = self
            .single_qubit
            .gates()
            .iter()
            .map(|g| g.info().qasm_name());
        for g in single.chain([self.two_qubit.name()]) {
            if !self.is_native(g) {
                return Err(self.err(TargetProblem::NotNative { gate: g }));
            }
        }
        Ok(())
    }

    /// The device's coupling map: `Some` for a device target (one with `edges`).
    pub fn coupling(&self) -> Option<&CouplingMap> {
        self.coupling.as_ref()
    }

    /// True for a device target: one that lists its couplers (or couples every pair,
    /// `all_to_all`), onto which programs are placed and routed.
    pub fn is_device(&self) -> bool {
        self.coupling.is_some()
    }

    /// The same target with CNOT as its entangler (`cx` native): the form the device compiler
    /// reads, because a CNOT maps basis states to basis states (a CZ between Hadamards leaves
    /// its target in superposition until the next gate, which the compiler's exact analysis of
    /// known values would pay for). Routing then writes the device's own entangler.
    pub fn with_cx_entangler(&self) -> Target {
        let mut t = self.clone();
        t.two_qubit = Entangler::Cx;
        if let Some(cx) = qasm_gate(Entangler::Cx.name()) {
            if !t.is_native(cx.name) {
                t.native.push(NativeGate(cx));
            }
        }
        t.resolve_native_kinds();
        t
    }

    /// True when programs may measure and reset qubits mid-circuit (feed-forward implies it).
    pub fn mid_circuit_measurement(&self) -> bool {
        self.feed_forward || self.measure_reset
    }

    /// The native gates, by their OpenQASM names (as the file lists them).
    pub fn native(&self) -> &[NativeGate] {
        &self.native
    }

    /// True when `name` is one of the target's native gates: for the exporter's lowering of
    /// OpenQASM statements, which holds names. On IR gates, [`Target::is_native_gate`].
    pub fn is_native(&self, name: &str) -> bool {
        self.native.iter().any(|n| n.name() == name)
    }

    /// True when `gate` with `controls` leading 1-controls is native: when the exporter writes
    /// it with a native name ([`qc_ir::gate_data::GateInfo::written_name`]), whatever its
    /// angles (`rz(0.3)` is native when `rz` is). Decided on the gate kinds resolved when the
    /// file was read, so the device compiler asks about IR gates without naming them.
    pub fn is_native_gate(&self, gate: Gate, controls: usize) -> bool {
        self.native_kinds.contains(&(gate.kind(), controls))
    }

    /// True when `instruction` is a native gate ([`Target::is_native_gate`]) with 1-controls
    /// only. Nativeness is resolved for 1-controls alone, so a 0-control is never native (the
    /// exporter x-wraps 0-controls, or writes a library `n*` gate, which no bundled target lists).
    pub fn is_native_instruction(&self, instruction: &Instruction) -> bool {
        match &instruction.op {
            Op::Gate { gate, controls, .. } => {
                controls.iter().all(|c| c.on == Polarity::One)
                    && self.is_native_gate(*gate, controls.len())
            }
            _ => false,
        }
    }

    /// Resolves the native names to the gate kinds (with their controls) the exporter writes
    /// with them: every kind with any number of controls up to the most any OpenQASM form has
    /// (none is written with more).
    fn resolve_native_kinds(&mut self) {
        let most = qasm_forms().map(|f| f.controls).max().unwrap_or(0);
        self.native_kinds = GateKind::ALL
            .into_iter()
            .flat_map(|kind| (0..=most).map(move |controls| (kind, controls)))
            .filter(|&(kind, controls)| {
                kind.info()
                    .written_name(controls)
                    .is_some_and(|name| self.is_native(name))
            })
            .collect();
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
    let options = target_options(options, target);
    let program = build_program(circuit, outcomes, &options)?;
    let mut program = fit_to_target(program, target)?;
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

/// Exports `circuit` for `target` as OpenQASM 2: the program of [`export_for_target`] (same form,
/// same native gates), written with `qelib1.inc` names and a definition for every other gate it
/// calls. A target that renames gates writes its own OpenQASM 3 dialect (Braket's `cnot`), which
/// has no OpenQASM 2 spelling: it is refused rather than silently written as something else.
pub fn export_qasm2_for_target(
    circuit: &Circuit,
    outcomes: &[Option<bool>],
    options: &ExportOptions,
    target: &Target,
) -> Result<Export, ExportError> {
    if !target.rename.is_empty() {
        return Err(ExportError::NoQasm2 {
            target: target.name.clone(),
            renamed: target.rename.keys().cloned().collect(),
        });
    }
    let (program, options) =
        build_qasm2_program(circuit, outcomes, &target_options(options, target))?;
    let mut program = fit_to_target(program, target)?;
    let postselect = postselect_pattern(outcomes, program.num_clbits);
    program.header = header_lines(&program, &postselect, &options, &target.name, "qasm2");
    Ok(Export {
        summary: program.summary(),
        text: to_qasm2(&program),
        program,
        postselect,
    })
}

/// The export options on `target`: the deferred form when it has no feed-forward.
fn target_options(options: &ExportOptions, target: &Target) -> ExportOptions {
    let mut options = *options;
    if !target.feed_forward {
        options.form = Form::Deferred;
    }
    options
}

/// Refuses a program wider than `target`, and lowers it to the target's native gates. A device
/// target's width is checked after routing, which reuses qubits.
fn fit_to_target(program: Program, target: &Target) -> Result<Program, ExportError> {
    if program.num_qubits > target.qubits && !target.is_device() {
        return Err(ExportError::TooManyQubits {
            target: target.name.clone(),
            needed: program.num_qubits,
            available: target.qubits,
        });
    }
    if target.lower {
        lower_program(&program, target)
    } else {
        Ok(program)
    }
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
    let pairs = crate::relative_phase::toffoli_pairs(&program.body);
    for (stmt, paired) in program.body.iter().zip(pairs) {
        match stmt {
            Stmt::Gate(call) => {
                let prims = match paired {
                    Some(paired) if !target.is_native(&call.name) => {
                        relative_toffoli(&paired.qubits, paired.role)
                    }
                    _ => None,
                };
                let prims = match prims {
                    Some(prims) => prims,
                    None => expand(call, target)?,
                };
                for p in prims {
                    place(p, target, &mut pending, &mut emit)?;
                }
            }
            Stmt::If { clbit, body } => {
                flush_all(target, &mut pending, &mut emit);
                out.body.extend(emit.drain(..).map(Stmt::Gate));
                let mut inner_pending = vec![None; program.num_qubits];
                let mut inner = Vec::new();
                for call in body {
                    for p in expand(call, target)? {
                        place(p, target, &mut inner_pending, &mut inner)?;
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
            // A delay is a timed instruction: the gates before it on its qubit are written before
            // it, never merged with those after (dynamical decoupling's pulses stay apart).
            Stmt::Measure { qubit, .. } | Stmt::Reset { qubit } | Stmt::Delay { qubit, .. } => {
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

fn place(
    p: Prim,
    target: &Target,
    pending: &mut [Option<Matrix>],
    emit: &mut Vec<GateCall>,
) -> Result<(), ExportError> {
    match p {
        Prim::One(q, m) => {
            let merged = match pending[q].take() {
                Some(prev) => m.mul(&prev),
                None => m,
            };
            pending[q] = Some(merged);
        }
        Prim::Cx(c, t) => {
            for call in entangle(c, t, target)? {
                match call {
                    Prim::Native(g) => {
                        for &q in &g.qubits {
                            flush(target, pending, q, emit);
                        }
                        emit.push(g);
                    }
                    other => place(other, target, pending, emit)?,
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
    Ok(())
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
    let gates = match target.single_qubit {
        SingleQubitBasis::Zyz => zyz(&m),
        SingleQubitBasis::U3 => {
            let (t, p, l, _) = crate::decompose::u_params(&m);
            vec![Gate::U(t, normalize(p), normalize(l))]
        }
        SingleQubitBasis::Zsx => zsx(&m),
    };
    for g in gates {
        emit.push(GateCall::new(g.info().qasm_name(), g.params(), vec![q]));
    }
}

/// CNOT(c, t) in the target's entangler; refused for an entangler the exporter has no CNOT
/// for ([`lowers_cnot`]; a target file with one is refused when read, unless it is a device,
/// whose compiler writes every two-qubit gate itself).
fn entangle(c: usize, t: usize, target: &Target) -> Result<Vec<Prim>, ExportError> {
    let h = || Gate::H.matrix();
    let native = |a: usize, b: usize| {
        Prim::Native(GateCall::new(target.two_qubit.name(), vec![], vec![a, b]))
    };
    Ok(match target.two_qubit {
        Entangler::Cz => vec![Prim::One(t, h()), native(c, t), Prim::One(t, h())],
        Entangler::SqrtISwap => {
            // CX = H_t . e^{-i pi/4} exp(i pi/4 ZZ) (S x S) . H_t, and
            // exp(i pi/4 XX) = (X x I) siswap (X x I) siswap; conjugate by H x H for ZZ.
            let sw = || native(c, t);
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
        Entangler::Cx => vec![native(c, t)],
        Entangler::Rzz => {
            // CX = H_t . CZ . H_t, and CZ = e^{-i pi/4} (Rz(-pi/2) x Rz(-pi/2)) . rzz(pi/2):
            // all three diagonal, so their order does not matter.
            let rz = || Gate::Rz(-std::f64::consts::FRAC_PI_2).matrix();
            vec![
                Prim::One(t, h()),
                Prim::Native(GateCall::new(
                    target.two_qubit.name(),
                    vec![std::f64::consts::FRAC_PI_2],
                    vec![c, t],
                )),
                Prim::One(c, rz()),
                Prim::One(t, rz()),
                Prim::One(t, h()),
            ]
        }
        Entangler::Ecr => {
            // CX = e^{i pi/4} (Rz(pi/2) x Rx(pi/2)) . ecr . (X x I): ECR is exp(i pi/4 Z(x)X)
            // (X x I), and CX = e^{i pi/4} exp(-i pi/4 Z(x)I) exp(-i pi/4 I(x)X) exp(i pi/4 Z(x)X).
            vec![
                Prim::One(c, Gate::X.matrix()),
                native(c, t),
                Prim::One(c, Gate::Rz(std::f64::consts::FRAC_PI_2).matrix()),
                Prim::One(t, Gate::Rx(std::f64::consts::FRAC_PI_2).matrix()),
            ]
        }
        Entangler::ISwap | Entangler::Rxx => {
            return Err(target.err(TargetProblem::NoCnotIn {
                entangler: target.two_qubit,
            }))
        }
    })
}

/// Expands one call into single-qubit matrices, CNOTs and native calls.
fn expand(call: &GateCall, target: &Target) -> Result<Vec<Prim>, ExportError> {
    if !call.modifiers.is_empty() {
        return Err(target.err(TargetProblem::Modifiers));
    }
    // Native multi-qubit gates pass through; single-qubit ones join the merged runs.
    if target.is_native(&call.name) && call.qubits.len() > 1 {
        return Ok(vec![Prim::Native(call.clone())]);
    }
    // The call's meaning, from the gate table: a library body or a standard gate with controls.
    let err = |why: ExpandProblem| {
        target.err(TargetProblem::Expand {
            gate: call.name.clone(),
            why,
        })
    };
    let form = qasm_gate(&call.name).ok_or_else(|| err(ExpandProblem::UnknownGate))?;
    let resolved = form
        .resolve(&call.params)
        .ok_or_else(|| err(ExpandProblem::Angles(form.num_params())))?;
    if call.qubits.len() != form.num_qubits() {
        return Err(err(ExpandProblem::Qubits(form.num_qubits())));
    }
    let mut out = Vec::new();
    match form.home {
        // The iSWAP family with one control (`ciswap`, `ncsiswapdg`, ...): on a path, not the
        // library body's triangle ([`controlled_xy`]); a 0-control between two `x`.
        Home::Library(_) if resolved.controls == 1 && xy_angle(resolved.gate).is_some() => {
            let (c, t) = call.qubits.split_at(1);
            let flip = || Prim::One(c[0], Gate::X.matrix());
            if resolved.zero_control {
                out.push(flip());
            }
            let done = prims(resolved.gate, t, c, &mut out);
            if resolved.zero_control {
                out.push(flip());
            }
            done
        }
        Home::Library(def) => steps(def, &call.qubits, &mut out),
        Home::Standard { .. } | Home::Alias => {
            let (c, t) = call.qubits.split_at(resolved.controls);
            if resolved.control_phase != 0.0 {
                out.push(Prim::One(
                    c[0],
                    Gate::Phase(resolved.control_phase).matrix(),
                ));
            }
            prims(resolved.gate, t, c, &mut out)
        }
    }
    .map_err(err)?;
    Ok(out)
}

/// A library body on `operands`, expanded step by step.
fn steps(def: &LibraryGate, operands: &[usize], out: &mut Vec<Prim>) -> Result<(), ExpandProblem> {
    for step in def.body {
        let t: Vec<usize> = step.targets.iter().map(|&k| operands[k]).collect();
        let c: Vec<usize> = step.controls.iter().map(|&k| operands[k]).collect();
        prims(step.gate, &t, &c, out)?;
    }
    Ok(())
}

fn prims(gate: Gate, t: &[usize], c: &[usize], out: &mut Vec<Prim>) -> Result<(), ExpandProblem> {
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
        // RZZ (controlled or not) = `cx a, b; rz(t) b; cx a, b` exactly; the CNOTs cancel where
        // the controls are off, so only the rotation carries them.
        (2, _) if matches!(gate, Gate::Rzz(_)) => {
            if let Gate::Rzz(theta) = gate {
                out.push(Prim::Cx(t[0], t[1]));
                prims(Gate::Rz(theta), &t[1..], c, out)?;
                out.push(Prim::Cx(t[0], t[1]));
            }
        }
        // ECR (controlled or not) = X on `a`, then `exp(i pi/4 Z(x)X)` as `cx; rz(-pi/2) b;
        // cx` between Hadamards on `b` (the library body), exactly; without the controls the
        // rest is the identity, so only X and the rotation carry them.
        (2, _) if gate == Gate::Ecr => {
            let (a, b) = (t[0], t[1]);
            prims(Gate::X, &[a], c, out)?;
            out.push(Prim::One(b, Gate::H.matrix()));
            out.push(Prim::Cx(a, b));
            prims(Gate::Rz(-std::f64::consts::FRAC_PI_2), &[b], c, out)?;
            out.push(Prim::Cx(a, b));
            out.push(Prim::One(b, Gate::H.matrix()));
        }
        // The iSWAP family with one control: 6 CNOTs on a path (below).
        (2, 1) if xy_angle(gate).is_some() => {
            if let Some(phi) = xy_angle(gate) {
                controlled_xy(phi, c[0], t[0], t[1], out);
            }
        }
        // The iSWAP family (and its controlled forms): the table's library bodies.
        (_, n) if gate.info().library_form(n).is_some() => {
            let mut operands = c.to_vec();
            operands.extend_from_slice(t);
            if let Some(def) = gate.info().library_form(n) {
                steps(def, &operands, out)?;
            }
        }
        (targets, controls) => {
            return Err(ExpandProblem::NoDecomposition {
                gate: gate.name(),
                targets,
                controls,
            })
        }
    }
    Ok(())
}

/// `phi` of the iSWAP family's `exp(i phi (XX + YY))`: iSWAP pi/4, its square root pi/8, their
/// inverses the negatives; `None` for another gate.
fn xy_angle(gate: Gate) -> Option<f64> {
    use std::f64::consts::{FRAC_PI_4, FRAC_PI_8};
    match gate {
        Gate::ISwap => Some(FRAC_PI_4),
        Gate::ISwapDg => Some(-FRAC_PI_4),
        Gate::SqrtISwap => Some(FRAC_PI_8),
        Gate::SqrtISwapDg => Some(-FRAC_PI_8),
        _ => None,
    }
}

/// `exp(i phi (XX + YY))` on `a`, `b` controlled by `c`, exactly, with 6 CNOTs on the pairs
/// (c, a) and (a, b) only: `c - a - b` is a path, where the library body (6 CNOTs on all three
/// pairs) needs a triangle, which heavy hex and a grid do not have, so routing it cost a SWAP.
/// The gate is `exp(i phi/2 (I - Z_c)(XX + YY))`. Conjugated by `CNOT(a, b)` then `H(a)`, its
/// four Pauli terms become `Z_a`, `-Z_a Z_b`, `Z_c Z_a` and `-Z_c Z_a Z_b`: rotations about the
/// parities `a`, `a+b`, `c+a`, `c+a+b`, which four CNOTs onto `a` visit in turn.
fn controlled_xy(phi: f64, c: usize, a: usize, b: usize, out: &mut Vec<Prim>) {
    let turn = |angle: f64| Prim::One(a, Gate::Rz(angle).matrix());
    let h = || Prim::One(a, Gate::H.matrix());
    out.extend([
        Prim::Cx(a, b),
        h(),
        turn(-phi),
        Prim::Cx(c, a),
        turn(phi),
        Prim::Cx(b, a),
        turn(-phi),
        Prim::Cx(c, a),
        turn(phi),
        Prim::Cx(b, a),
        h(),
        Prim::Cx(a, b),
    ]);
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

/// A relative-phase Toffoli on `qubits` (controls, then the target): `R = D X` with `D` a
/// diagonal matrix and `X` the multi-controlled X, for `role`'s half of a compute / uncompute
/// pair ([`crate::relative_phase`]); `R^-1` for the uncompute. Two controls: Margolus's gate, 3
/// CNOTs on the pairs (control, target); three: 6 CNOTs (the exact `c3x` needs 14). `None` for
/// another width.
fn relative_toffoli(qubits: &[usize], role: Role) -> Option<Vec<Prim>> {
    #[derive(Copy, Clone)]
    enum Step {
        One(usize, Gate),
        Cx(usize, usize),
    }
    use Step::{Cx, One};
    let steps = match *qubits {
        [a, b, t] => vec![
            One(t, Gate::H),
            One(t, Gate::T),
            Cx(b, t),
            One(t, Gate::Tdg),
            Cx(a, t),
            One(t, Gate::T),
            Cx(b, t),
            One(t, Gate::Tdg),
            One(t, Gate::H),
        ],
        [a, b, c, t] => {
            // The X on `t` controlled by `c` in the middle of the Hadamard frame, around the
            // phase ladder of `a` and `b` run twice.
            let frame = [
                One(t, Gate::H),
                One(t, Gate::T),
                Cx(c, t),
                One(t, Gate::Tdg),
                One(t, Gate::H),
            ];
            let ladder = [Cx(a, t), One(t, Gate::T), Cx(b, t), One(t, Gate::Tdg)];
            [&frame[..], &ladder, &ladder, &frame].concat()
        }
        _ => return None,
    };
    let prim = |step: Step, inverse: bool| match step {
        One(q, g) if inverse => Prim::One(q, g.inverse().matrix()),
        One(q, g) => Prim::One(q, g.matrix()),
        Cx(c, t) => Prim::Cx(c, t),
    };
    Some(match role {
        Role::Compute => steps.into_iter().map(|s| prim(s, false)).collect(),
        Role::Uncompute => steps.into_iter().rev().map(|s| prim(s, true)).collect(),
    })
}
