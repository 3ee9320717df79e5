//! A game circuit compiled to a program text: OpenQASM 3 or 2 (through `qc_export`, with the
//! recorded outcomes for post-selection and the board map in the header) or the IR. On a device
//! target the program is placed and routed onto the device's couplers (`qc_route`), verified,
//! and written on physical qubits with its layout.

use crate::board_facts::{annotate, annotate_export, BoardFacts};
use qc_export::header::{LayoutEntry, MeasuredAt};
use qc_export::{
    BoardMap, DeviceFormat, Dialect, Export, ExportError, ExportOptions, Form, MeasureScope,
    Summary, Target, Width,
};
use qc_ir::Circuit;
use qc_route::{Calibration, CalibrationError, Device, RouteError};
use qc_sim::noise::DdSequence;

/// Output formats.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Format {
    /// OpenQASM 3.
    Qasm3,
    /// OpenQASM 2 with qelib1.inc gates.
    Qasm2,
    /// The IR text format.
    Ir,
    /// The IR as JSON.
    Json,
}

qc_ir::choice!(Format, "format", [
    "qasm3" => Format::Qasm3, "OpenQASM 3 (docs/backends.md)",
    "qasm2" => Format::Qasm2, "OpenQASM 2 with qelib1.inc gates",
    "ir" => Format::Ir, "The IR text format (docs/ir.md)",
    "json" => Format::Json, "The IR as JSON",
]);

/// What compiling a game gives when the caller says nothing: the output format and the export
/// options. See [`COMPILE_DEFAULTS`].
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct CompileDefaults {
    /// The output format.
    pub format: Format,
    /// The export options (form, dialect, width, what is measured, whether the exact passes
    /// run).
    pub options: ExportOptions,
}

/// The defaults of compiling a game, declared once for every front end: `qchess compile`'s
/// option defaults (and those `qchess route` shares with it), the web API's `compile` query
/// without a field, and Python's `Game.compile()` without an argument all read this, so that
/// a game compiled with no options is the same program everywhere.
///
/// OpenQASM 3, dynamic form (mid-circuit measurement and `if`), the portable dialect (what
/// every tested tool accepts), compact width (only the squares that take part), the board
/// measured at the end, and the exact passes run before export.
///
/// This is not [`ExportOptions::default`], which measures nothing: that is the library's
/// default, so that an exported circuit's distribution is the circuit's own. A front end
/// compiles a game to run on a device and read its counts back as a board
/// ([`crate::board_from_counts`]), so its program measures the board.
pub const COMPILE_DEFAULTS: CompileDefaults = CompileDefaults {
    format: Format::Qasm3,
    options: ExportOptions {
        form: Form::Dynamic,
        dialect: Dialect::Portable,
        width: Width::Compact,
        measure: MeasureScope::Board,
        optimize: true,
    },
};

/// A compiled game: the text to write and the summary of the OpenQASM program it becomes.
pub struct Compiled {
    /// The output text.
    pub text: String,
    /// Figures of the exported program (for IR formats: of its OpenQASM 3 export).
    pub summary: Summary,
    /// What every bit of the OpenQASM program means.
    pub map: BoardMap,
    /// On a device target: what placing and routing gave.
    pub device: Option<DeviceSummary>,
}

/// How a program is placed and routed on a device target.
#[derive(Clone, Debug, Default)]
pub struct DeviceOptions<'a> {
    /// A calibration in IBM's BackendProperties JSON (the text); `None`: uniform errors.
    pub properties: Option<&'a str>,
    /// Seed of the routing trials.
    pub seed: u64,
    /// Use a calibration whose `backend_name` names another device than the target (refused
    /// otherwise: IBM's Heron r2 devices share one coupling map, so nothing else tells them
    /// apart).
    pub other_device: bool,
    /// Choose among the routing trials by the gate-and-readout estimate alone, even when the
    /// calibration has durations (by default such a calibration's success probability with idle
    /// time, [`DeviceSummary::esp_with_time`], chooses: see [`compile_circuit_on`]). For
    /// comparisons.
    pub gates_only_choice: bool,
    /// Dynamical decoupling of the device program's idle windows (`qc_sim::noise::dd`);
    /// `None`: the target's default (its TOML key `dd`, else none). Device targets only.
    pub dd: Option<DdSequence>,
}

/// The figures of a device program (printed by `qchess compile`).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct DeviceSummary {
    /// The device target.
    pub device: String,
    /// Two-qubit gates (the device's entangler).
    pub two_qubit_gates: usize,
    /// Depth counting only two-qubit gates.
    pub two_qubit_depth: usize,
    /// Physical qubits the program touches.
    pub physical_qubits: usize,
    /// The most program qubits alive at once.
    pub peak_live_qubits: usize,
    /// The estimated success probability: the product of `1 - error` over gates and
    /// measurements (from the calibration, or uniform errors).
    pub esp: f64,
    /// The estimated success probability with time, when a calibration is given: also every
    /// idle window's and every gate's T1/T2 relaxation on the as-late-as-possible schedule
    /// with the calibration's durations, and resets' errors
    /// (`qc_sim::noise::NoisyProgram::success_probability`, the noisy simulator's own model).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub esp_with_time: Option<f64>,
    /// How far the calibration's noise moves the board, to first order: the total variation
    /// distance between the distribution of the board's bits with the noise of the ESP with
    /// time and without (`qc_sim::noise::board`). Given with a calibration that has durations
    /// when the program is small enough to compute it ([`BOARD_ERROR_WORK`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub board_error: Option<f64>,
    /// What chose among the candidate routings: `board error` (with a calibration that has
    /// durations, among the [`BOARD_SHORTLIST`] best by the ESP with idle time, when each of
    /// theirs could be computed), `ESP with time` (such a calibration otherwise), or `gates and
    /// readout` (compile's own cost: no calibration, one without durations, or
    /// [`DeviceOptions::gates_only_choice`]).
    pub chosen_by: String,
    /// Where the errors come from: `uniform` or the calibration's backend name.
    pub errors: String,
    /// Two-qubit gates of the program before placing and routing.
    pub unrouted_two_qubit_gates: usize,
    /// Exchanges routing inserted (before merging into neighbouring gates).
    pub exchanges: usize,
    /// Couplers the calibration marks broken (never used).
    pub broken_couplers: usize,
    /// The dynamical decoupling applied (`none`, `xx`, `xy4`).
    pub dd: String,
    /// Idle windows it filled.
    pub dd_windows: usize,
    /// Pulses it wrote (each X or Y once).
    pub dd_pulses: usize,
}

/// The work [`DeviceSummary::board_error`] may take per candidate routing
/// (`qc_sim::noise::board_error`'s bound, about this many amplitude updates: a few tenths of a
/// second): enough for the games a density matrix could hold, while a wider game's routing is
/// chosen by its success probability with time alone.
pub const BOARD_ERROR_WORK: u64 = 20_000_000;

/// How many candidate routings, the best by the success probability with idle time, are weighed
/// by their board errors ([`DeviceSummary::board_error`]) when a calibration with durations
/// chooses: the board error costs one exact simulation per noise event, so it decides among a
/// shortlist.
pub const BOARD_SHORTLIST: usize = 3;

/// Why a game could not be compiled.
#[derive(Debug, thiserror::Error)]
pub enum CompileError {
    /// The exporter refused the circuit or the target.
    #[error(transparent)]
    Export(#[from] ExportError),
    /// The circuit could not be written as JSON.
    #[error("cannot write the circuit as JSON")]
    Json(#[from] serde_json::Error),
    /// The calibration cannot be used for the device.
    #[error("--properties: {0}")]
    Calibration(#[from] CalibrationError),
    /// Placing and routing failed (or the result failed the verifier).
    #[error(transparent)]
    Route(#[from] RouteError),
    /// The device program does not fit the calibration's noise model.
    #[error("--properties: the device program against its noise model: {0}")]
    Noise(#[from] qc_sim::noise::NoiseError),
    /// `--dd` without a device target.
    #[error(
        "--dd needs a device target (one with couplers: ibm_fez, sycamore, weber, quantinuum_h2, ..., or a file with `edges` or `all_to_all`)"
    )]
    DdWithoutDevice,
    /// Dynamical decoupling without the durations of a calibration.
    #[error("--dd {dd}: dynamical decoupling spaces pulses by the calibration's durations: give --properties")]
    DdWithoutDurations {
        /// The sequence asked for.
        dd: DdSequence,
    },
    /// Dynamical decoupling in OpenQASM 2, which has no delay.
    #[error(
        "--dd {dd}: OpenQASM 2 has no delay, so the pulses could not be spaced; write OpenQASM 3"
    )]
    DdInQasm2 {
        /// The sequence asked for.
        dd: DdSequence,
    },
    /// A target whose native gates have no X pulse.
    #[error(
        "--dd {dd}: target {target} has neither `x` nor `sx` (with `rz`) to write the pulses in"
    )]
    DdNoPulse {
        /// The sequence asked for.
        dd: DdSequence,
        /// The target.
        target: String,
    },
    /// `--properties` without a device target.
    #[error("--properties needs a device target (one with couplers: ibm_fez, sycamore, weber, quantinuum_h2, ..., or a file with `edges` or `all_to_all`)")]
    PropertiesWithoutDevice,
}

/// Compiles a game circuit with its recorded outcomes (indexed by clbit) to `format`. The summary
/// always describes the OpenQASM program (for the IR formats: the OpenQASM 3 export with the same
/// options), and a target's qubit count is enforced for every format. `facts` (pieces, captured
/// colours, conserved quantities) go into the map when given.
pub fn compile_circuit(
    circuit: &Circuit,
    outcomes: &[Option<bool>],
    format: Format,
    options: &ExportOptions,
    target: Option<&Target>,
    facts: Option<&BoardFacts>,
) -> Result<Compiled, CompileError> {
    compile_circuit_on(
        circuit,
        outcomes,
        format,
        options,
        target,
        facts,
        &DeviceOptions::default(),
    )
}

/// [`compile_circuit`] with the options of a device target (a calibration, the routing seed).
///
/// With a calibration that has durations (gate, readout or reset lengths), the device compiler's
/// best routings by gate and readout errors are each finished and the one whose success
/// probability with idle time is highest is kept (`qc_route::Options::ranking`), unless
/// [`DeviceOptions::gates_only_choice`].
pub fn compile_circuit_on(
    circuit: &Circuit,
    outcomes: &[Option<bool>],
    format: Format,
    options: &ExportOptions,
    target: Option<&Target>,
    facts: Option<&BoardFacts>,
    device: &DeviceOptions,
) -> Result<Compiled, CompileError> {
    match target.filter(|t| t.is_device()) {
        Some(t) => return compile_on_device(circuit, outcomes, format, options, t, facts, device),
        None if device.properties.is_some() => return Err(CompileError::PropertiesWithoutDevice),
        None if device.dd.is_some() => return Err(CompileError::DdWithoutDevice),
        None => {}
    }
    let annotated = |mut e: Export| -> Export {
        if let Some(f) = facts {
            annotate_export(&mut e, f);
        }
        e
    };
    let qasm3 = |o: &ExportOptions| -> Result<Export, ExportError> {
        match target {
            Some(t) => qc_export::export_for_target(circuit, outcomes, o, t),
            None => qc_export::export_qasm3(circuit, outcomes, o),
        }
        .map(annotated)
    };
    let (text, summary, map) = match format {
        Format::Qasm3 => {
            let e = qasm3(options)?;
            (e.text, e.summary, e.program.map)
        }
        Format::Qasm2 => {
            let e = match target {
                Some(t) => qc_export::export_qasm2_for_target(circuit, outcomes, options, t),
                None => qc_export::export_qasm2(circuit, outcomes, options),
            }
            .map(annotated)?;
            (e.text, e.summary, e.program.map)
        }
        Format::Ir | Format::Json => {
            let e = qasm3(options)?;
            let text = match format {
                Format::Ir => qc_ir::text::print(circuit),
                _ => serde_json::to_string_pretty(circuit)? + "\n",
            };
            (text, e.summary, e.program.map)
        }
    };
    Ok(Compiled {
        text,
        summary,
        map,
        device: None,
    })
}

/// A device target: the program lowered to its gates on the program's own qubits, placed and
/// routed (`qc_route::compile`), written on physical qubits, verified against the device.
fn compile_on_device(
    circuit: &Circuit,
    outcomes: &[Option<bool>],
    format: Format,
    options: &ExportOptions,
    target: &Target,
    facts: Option<&BoardFacts>,
    device_options: &DeviceOptions,
) -> Result<Compiled, CompileError> {
    let Some(coupling) = target.coupling() else {
        return Err(CompileError::PropertiesWithoutDevice);
    };
    // Refused before the lowering allocates anything for a program routing could not hold
    // (routing checks again with the lowered program's size).
    let memory_bytes =
        u64::try_from(qc_sim::MemoryLimit::default().limit_bytes()).unwrap_or(u64::MAX);
    let needed = qc_route::memory_estimate(circuit.instructions().len(), coupling.num_qubits());
    if needed > memory_bytes {
        return Err(RouteError::TooLarge {
            instructions: circuit.instructions().len(),
            needed_bytes: needed,
            limit_bytes: memory_bytes,
        }
        .into());
    }
    // Lowered with CNOTs (see `Target::with_cx_entangler`); routing merges each run on a
    // coupler into one unitary and writes it in the device's own two-qubit gate (Sycamore's
    // √iSWAP directly, not two per CZ).
    let mut logical =
        qc_export::export_for_target(circuit, outcomes, options, &target.with_cx_entangler())?;
    if let Some(f) = facts {
        let mut map = logical.map().clone();
        annotate(&mut map, f);
        logical.set_map(map);
    }
    let device = Device::new(
        target.name.clone(),
        coupling.clone(),
        target.mid_circuit_measurement(),
    )
    .with_entangler(target.two_qubit);
    // The calibration is read once: its error rates price routing, and its times with them
    // make the noise model the success probability with idle time is computed with.
    let properties = match device_options.properties {
        Some(text) => Some(qc_route::DeviceProperties::read(text)?),
        None => None,
    };
    let calibration = match &properties {
        Some(props) => {
            let calibration =
                Calibration::from_properties(props, &device, target.two_qubit.name())?;
            if !device_options.other_device {
                calibration.check_device_name(&device)?;
            }
            calibration
        }
        None => Calibration::uniform(&device),
    };
    let unrouted = qc_export::program_circuit(&logical.program)?;
    // The model the success probability with idle time is computed with, below; its score of
    // each candidate chooses among the routings when it has durations (without, it is the
    // gate-and-readout estimate routing already ranks by).
    let model = properties
        .as_ref()
        .map(|props| crate::noise::noise_model(props, target.two_qubit.name()));
    let device_format = match format {
        Format::Qasm2 => DeviceFormat::Qasm2,
        _ => DeviceFormat::Qasm3,
    };
    // The board's bits: what the board error measures.
    let board_bits: Vec<usize> = logical.map().measured.iter().map(|m| m.bit).collect();
    let ranking = model
        .as_ref()
        .filter(|m| has_durations(m) && !device_options.gates_only_choice)
        .map(|model| BoardRanking {
            model,
            board_bits: &board_bits,
            logical: &logical,
            options,
            target,
            device_format,
            by_board: std::sync::atomic::AtomicBool::new(false),
        });
    let ranking_used: Option<&dyn qc_route::Ranking> =
        ranking.as_ref().map(|r| r as &dyn qc_route::Ranking);
    let routed = qc_route::compile(
        &unrouted,
        &device,
        &calibration,
        &qc_route::Options {
            seed: device_options.seed,
            memory_bytes,
            ranking: ranking_used,
            ..qc_route::Options::default()
        },
        &mut qc_sim::SparseSim::new(),
    )?;
    let layout: Vec<LayoutEntry> = routed
        .tracks
        .iter()
        .enumerate()
        .map(|(qubit, t)| LayoutEntry {
            qubit,
            name: logical
                .program
                .qubit_labels
                .get(qubit)
                .cloned()
                .unwrap_or_default(),
            start: t.start,
            measured: t
                .measurements
                .iter()
                .map(|&(bit, physical)| MeasuredAt { bit, physical })
                .collect(),
            lives: t.lives.clone(),
        })
        .collect();
    let mut export = qc_export::device_program(
        &routed.circuit,
        &logical,
        layout,
        options,
        target,
        device_format,
    )?;
    // Dynamical decoupling, on the program as written (the target's gates, the schedule the
    // noisy simulator and the success probability with time use); the pulses and delays are
    // inserted into the program's statements, which are then printed again.
    let dd = device_options.dd.or(target.dd).unwrap_or(DdSequence::None);
    let mut dd_report = qc_sim::noise::DdReport::default();
    if dd != DdSequence::None {
        if device_format == DeviceFormat::Qasm2 {
            return Err(CompileError::DdInQasm2 { dd });
        }
        let model = model
            .as_ref()
            .filter(|m| has_durations(m))
            .ok_or(CompileError::DdWithoutDurations { dd })?;
        let pulses = qc_sim::noise::Pulses::native(|gate| target.is_native_gate(gate, 0))
            .ok_or_else(|| CompileError::DdNoPulse {
                dd,
                target: target.name.clone(),
            })?;
        let plain = qc_export::program_circuit(&export.program)?;
        let (_, insertions, report) = qc_sim::noise::decouple(&plain, model, dd, &pulses)?;
        insert_statements(&mut export.program, &insertions);
        export.text = export
            .program
            .to_qasm3(target.include_stdgates, target.definitions);
        export.summary = export.program.summary();
        dd_report = report;
    }
    // The device program's header is written afresh: it names the game again.
    if let Some(game) = facts.and_then(|f| f.game.clone()) {
        export.set_game(game);
    }
    // The program as written, checked again: couplers, the target's native gates, the layout.
    let written = qc_export::program_circuit(&export.program)?;
    let native = |i: &qc_ir::Instruction| target.is_native_instruction(i);
    qc_route::verify::verify(
        &written,
        &device,
        &calibration,
        &routed.tracks,
        &qc_route::verify::measurement_counts(&unrouted),
        &native,
    )
    .map_err(RouteError::from)?;
    let (esp_with_time, board_error) = match &model {
        Some(model) => {
            let noisy = qc_sim::noise::NoisyProgram::new(&written, model)?;
            // Computed as the ranking computes it (a failure there ranks the candidate lowest;
            // here it only leaves the figure out).
            let board = if has_durations(model) {
                qc_sim::noise::board_error(&noisy, &board_bits, BOARD_ERROR_WORK)
                    .ok()
                    .flatten()
            } else {
                None
            };
            (Some(noisy.success_probability()), board)
        }
        None => (None, None),
    };
    let summary = export.program.summary();
    // Priced on the program as written, gate by gate (the calibration's names were resolved to
    // gate kinds when it was read).
    let esp = calibration.esp(&written);
    let mut used = std::collections::BTreeSet::new();
    for stmt in &export.program.body {
        match stmt {
            qc_export::program::Stmt::Gate(g) => used.extend(g.qubits.iter().copied()),
            qc_export::program::Stmt::If { body, .. } => {
                for g in body {
                    used.extend(g.qubits.iter().copied());
                }
            }
            qc_export::program::Stmt::Measure { qubit, .. }
            | qc_export::program::Stmt::Reset { qubit }
            | qc_export::program::Stmt::Delay { qubit, .. } => {
                used.insert(*qubit);
            }
        }
    }
    let device_summary = DeviceSummary {
        device: target.name.clone(),
        two_qubit_gates: summary.multi_qubit_gates,
        two_qubit_depth: summary.two_qubit_depth,
        physical_qubits: used.len(),
        peak_live_qubits: routed.report.peak_live,
        esp,
        esp_with_time,
        board_error,
        chosen_by: match &ranking {
            Some(r) if r.by_board.load(std::sync::atomic::Ordering::Relaxed) => "board error",
            Some(_) => "ESP with time",
            None => "gates and readout",
        }
        .to_string(),
        errors: match device_options.properties {
            Some(_) => calibration
                .backend
                .clone()
                .unwrap_or_else(|| "calibration".into()),
            None => "uniform".into(),
        },
        unrouted_two_qubit_gates: logical.summary.multi_qubit_gates,
        exchanges: routed.report.exchanges,
        broken_couplers: calibration.broken_couplers().len(),
        dd: dd.to_string(),
        dd_windows: dd_report.windows,
        dd_pulses: dd_report.pulses,
    };
    let text = match format {
        Format::Qasm3 | Format::Qasm2 => export.text.clone(),
        // With decoupling, the program as written (its pulses and delays are on it alone).
        Format::Ir if dd != DdSequence::None => qc_ir::text::print(&written),
        Format::Json if dd != DdSequence::None => serde_json::to_string_pretty(&written)? + "\n",
        Format::Ir => qc_ir::text::print(&routed.circuit),
        Format::Json => serde_json::to_string_pretty(&routed.circuit)? + "\n",
    };
    Ok(Compiled {
        text,
        summary,
        map: export.program.map,
        device: Some(device_summary),
    })
}

/// How compile chooses among its candidate routings with a calibration that has durations: the
/// [`BOARD_SHORTLIST`] best by the success probability with idle time (cheap: one product over
/// the schedule) and compile's own choice are weighed by their board error
/// ([`DeviceSummary::board_error`]), the lowest kept, when each of them has one within
/// [`BOARD_ERROR_WORK`]; else the success probability with idle time chooses alone. (The two figures are never compared with each other: a
/// candidate too large to weigh by its board would otherwise be judged by a different figure
/// from the others.) A candidate is scored as the program it would be written as (lowered to the
/// target's single-qubit gates, which merges runs of them; the layout, which only names qubits in
/// the header, left out), so the winner's figure is the one printed for it. A candidate the
/// writer or the model refuses ranks lowest.
struct BoardRanking<'a> {
    model: &'a qc_sim::noise::NoiseModel,
    board_bits: &'a [usize],
    logical: &'a Export,
    options: &'a ExportOptions,
    target: &'a Target,
    device_format: DeviceFormat,
    /// Set when the last [`qc_route::Ranking::scores`] chose by the board error.
    by_board: std::sync::atomic::AtomicBool,
}

impl BoardRanking<'_> {
    /// The candidate as written, ready for the noise model; `None` if the writer or the model
    /// refuses it.
    fn noisy(&self, candidate: &Circuit) -> Option<qc_sim::noise::NoisyProgram> {
        let export = qc_export::device_program(
            candidate,
            self.logical,
            Vec::new(),
            self.options,
            self.target,
            self.device_format,
        )
        .ok()?;
        let written = qc_export::program_circuit(&export.program).ok()?;
        qc_sim::noise::NoisyProgram::new(&written, self.model).ok()
    }
}

impl qc_route::Ranking for BoardRanking<'_> {
    fn score(&self, candidate: &Circuit) -> f64 {
        self.noisy(candidate)
            .map_or(f64::NEG_INFINITY, |n| n.success_probability())
    }

    fn scores(&self, candidates: &[&Circuit]) -> Vec<f64> {
        use rayon::prelude::*;
        let programs: Vec<Option<qc_sim::noise::NoisyProgram>> =
            candidates.par_iter().map(|c| self.noisy(c)).collect();
        let esp: Vec<f64> = programs
            .iter()
            .map(|p| {
                p.as_ref()
                    .map_or(f64::NEG_INFINITY, |p| p.success_probability())
            })
            .collect();
        // The shortlist: compile's own choice (the first candidate, the cheapest by gate and
        // readout errors, so that the board error chosen is never above its), then the best by
        // the ESP with idle time, the earlier on a tie; refused candidates never.
        let mut order: Vec<usize> = (0..esp.len()).filter(|&i| programs[i].is_some()).collect();
        order.sort_by(|&a, &b| esp[b].total_cmp(&esp[a]).then(a.cmp(&b)));
        order.truncate(BOARD_SHORTLIST);
        if programs.first().is_some_and(Option::is_some) && !order.contains(&0) {
            order.push(0);
        }
        let boards: Vec<Option<f64>> = order
            .par_iter()
            .map(|&i| {
                let program = programs[i].as_ref()?;
                qc_sim::noise::board_error(program, self.board_bits, BOARD_ERROR_WORK)
                    .ok()
                    .flatten()
            })
            .collect();
        let by_board = order.len() > 1 && boards.iter().all(Option::is_some);
        self.by_board
            .store(by_board, std::sync::atomic::Ordering::Relaxed);
        let mut scores = esp;
        if by_board {
            // Above every ESP (at most 1): the shortlisted, by their board errors.
            for (&i, board) in order.iter().zip(boards.into_iter().flatten()) {
                scores[i] = 2.0 - board;
            }
        }
        scores
    }
}

/// Inserts dynamical decoupling's pulses and delays into `program`'s statements: each
/// insertion goes before the statement holding instruction `before` of the program's circuit
/// (`qc_export::program_circuit` makes one instruction per statement, one per gate of an `if`
/// body; an insertion never falls inside a body, see `qc_sim::noise::dd`). A pulse is an
/// uncontrolled gate, which always has an OpenQASM name (`lower::base_name`).
fn insert_statements(
    program: &mut qc_export::program::Program,
    insertions: &[qc_sim::noise::Insertion],
) {
    use qc_export::program::{GateCall, Stmt};
    let mut body = Vec::with_capacity(program.body.len());
    let mut next = insertions.iter().peekable();
    let mut index = 0;
    for stmt in std::mem::take(&mut program.body) {
        let width = match &stmt {
            Stmt::If { body, .. } => body.len(),
            _ => 1,
        };
        while let Some(ins) = next.next_if(|i| i.before < index + width) {
            for op in &ins.ops {
                match op {
                    qc_ir::Op::Gate { gate, targets, .. } => {
                        let (name, params) = qc_export::lower::base_name(*gate);
                        body.push(Stmt::Gate(GateCall::new(
                            name,
                            params,
                            targets.iter().map(|q| q.index()).collect(),
                        )));
                    }
                    qc_ir::Op::Delay { qubit, duration } => body.push(Stmt::Delay {
                        qubit: qubit.index(),
                        duration: *duration,
                    }),
                    _ => {}
                }
            }
        }
        index += width;
        body.push(stmt);
    }
    program.body = body;
}

/// Whether a noise model has any duration (a gate's, a readout's or a reset's): without, its
/// success probability with time is its gate-and-readout estimate.
fn has_durations(model: &qc_sim::noise::NoiseModel) -> bool {
    model
        .qubits
        .iter()
        .any(|q| q.gate_duration > 0.0 || q.measure_duration > 0.0 || q.reset_duration > 0.0)
        || model.couplers.values().any(|c| c.duration > 0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_front_end_defaults_are_the_librarys_but_with_the_board_measured() {
        // The one deliberate difference the doc comment of COMPILE_DEFAULTS explains.
        assert_eq!(
            COMPILE_DEFAULTS.options,
            ExportOptions {
                measure: MeasureScope::Board,
                ..ExportOptions::default()
            }
        );
        assert_eq!(ExportOptions::default().measure, MeasureScope::None);
        assert_eq!(COMPILE_DEFAULTS.format, Format::Qasm3);
    }
}
