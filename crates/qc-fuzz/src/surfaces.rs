//! The surfaces the harness drives, and running one input on one of them under `catch_unwind`.
//!
//! A surface returns `Ok` for a result or a clean error, and `Err` only when a property fails
//! (for example an exported circuit that does not import back); a panic is caught and reported.
//! End-to-end runs use a small memory limit so that a hostile circuit is refused quickly.

use qc_ir::exec::{exact_distribution_within, ExactLimits};
use qc_ir::Circuit;
use qc_rules::niels::{NielsGame, NielsPosition, NielsRecord, NielsRules, RolledMove};
use qc_rules::{parse_move_list, Board, Game, GameMove, GameRecord, QcanMove, QuantumGame};
use qc_sim::{DenseSim, MemoryLimit, ReferenceSparse, SparseSim};
use rand::SeedableRng;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// The memory budget of each simulator in end-to-end runs.
const FUZZ_MEMORY_BYTES: u128 = 64 << 20;
/// The most amplitude updates of one exact distribution (about 3 s on the reference simulator,
/// the slowest; the memory budget alone allows hours: 16 measurement branches of a 65,536-entry
/// state through 2,000 gates took minutes there).
const FUZZ_AMPLITUDE_UPDATES: u64 = 1 << 21;
/// The most moves replayed from one game.
const MAX_REPLAYED_MOVES: usize = 300;

/// One thing the harness feeds inputs to.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Surface {
    /// One QCAN move (`QcanMove::from_str`).
    Qcan,
    /// A space-separated QCAN move list.
    MoveList,
    /// A FEN position.
    Fen,
    /// A Quantum Chess game file (parse only).
    GameFile,
    /// One move in Niel's notation.
    NielsMove,
    /// One of Niel's FEN-like positions.
    NielsFen,
    /// One of Niel's game files (parse only).
    NielsGameFile,
    /// The IR text format.
    IrText,
    /// OpenQASM 2 or 3 (`qc_export::import_qasm`).
    Qasm,
    /// A Quantum Chess game file replayed on the sparse simulator.
    Replay,
    /// One of Niel's game files replayed.
    NielsReplay,
    /// A circuit (IR text or OpenQASM) run to its exact distribution on every backend.
    RunCircuit,
    /// An IR circuit exported to OpenQASM 3 and 2, each imported back.
    ExportImport,
    /// A counts file (every format) against a compiled program and its calibration.
    Counts,
    /// A readout calibration file against a compiled program and its counts.
    Calibration,
    /// A generated OpenQASM 3 program with constant-expression angles against this crate's
    /// own evaluation of them (the input seeds the generator).
    Qasm3Semantics,
    /// A UQCI session (one command a line) through the session loop, both rulesets.
    Uqci,
    /// A generated circuit (the input seeds the generator: Toffoli pairs with permuted
    /// controls, 0-controls, control-only gates between them, mid-circuit measurements) routed
    /// onto a small device against its unrouted distribution.
    Route,
    /// A session of requests to `qchess serve`'s JSON API, in process.
    WebApi,
    /// One `{view, clock}` body posted to `qchess serve --ai` by many clients at once.
    AiBurst,
}

impl Surface {
    /// Every surface, in the order the runner visits them.
    pub const ALL: [Surface; 20] = [
        Surface::Qcan,
        Surface::MoveList,
        Surface::Fen,
        Surface::GameFile,
        Surface::NielsMove,
        Surface::NielsFen,
        Surface::NielsGameFile,
        Surface::IrText,
        Surface::Qasm,
        Surface::Replay,
        Surface::NielsReplay,
        Surface::RunCircuit,
        Surface::ExportImport,
        Surface::Counts,
        Surface::Calibration,
        Surface::Qasm3Semantics,
        Surface::Uqci,
        Surface::Route,
        Surface::WebApi,
        Surface::AiBurst,
    ];

    /// The surface's name: folder names under the corpus and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Surface::Qcan => "qcan",
            Surface::MoveList => "move_list",
            Surface::Fen => "fen",
            Surface::GameFile => "game_file",
            Surface::NielsMove => "niels_move",
            Surface::NielsFen => "niels_fen",
            Surface::NielsGameFile => "niels_game_file",
            Surface::IrText => "ir_text",
            Surface::Qasm => "qasm",
            Surface::Replay => "replay",
            Surface::NielsReplay => "niels_replay",
            Surface::RunCircuit => "run_circuit",
            Surface::ExportImport => "export_import",
            Surface::Counts => "counts",
            Surface::Calibration => "calibration",
            Surface::Qasm3Semantics => "qasm3_semantics",
            Surface::Uqci => "uqci",
            Surface::Route => "route",
            Surface::WebApi => "web_api",
            Surface::AiBurst => "ai_burst",
        }
    }

    /// The surface with this name.
    pub fn from_name(name: &str) -> Option<Surface> {
        Surface::ALL.into_iter().find(|s| s.name() == name)
    }

    /// Runs one input; `Err` says which property failed.
    pub fn run(self, input: &str) -> Result<(), String> {
        match self {
            Surface::Qcan => move_round_trip::<QcanMove>(input)?,
            Surface::MoveList => ignore(parse_move_list(input)),
            Surface::Fen => fen_round_trip(input)?,
            Surface::GameFile => ignore(GameRecord::parse(input)),
            Surface::NielsMove => move_round_trip::<RolledMove>(input)?,
            Surface::NielsFen => ignore(NielsPosition::from_fen(input, NielsRules::default())),
            Surface::NielsGameFile => ignore(NielsRecord::parse(input)),
            Surface::IrText => ignore(qc_ir::text::parse(input)),
            Surface::Qasm => ignore(qc_export::import_qasm(input)),
            Surface::Replay => replay(input),
            Surface::NielsReplay => niels_replay(input),
            Surface::RunCircuit => run_circuit(input),
            Surface::ExportImport => export_import(input)?,
            Surface::Counts => crate::counts::counts_file(input)?,
            Surface::Calibration => crate::counts::calibration_file(input)?,
            Surface::Qasm3Semantics => crate::qasm3_semantics::run(input)?,
            Surface::Uqci => crate::uqci::run(input)?,
            Surface::Route => crate::route::run(input)?,
            Surface::WebApi => crate::web::web_api(input)?,
            Surface::AiBurst => crate::web::ai_burst(input)?,
        }
        Ok(())
    }
}

/// What running one input gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// A result or a clean error.
    Clean,
    /// A property failed.
    Broken(String),
    /// A panic, with its message.
    Panicked(String),
}

/// Runs `input` on `surface`, catching a panic (its message is kept, not printed).
pub fn run_guarded(surface: Surface, input: &str) -> Outcome {
    match catch_unwind(AssertUnwindSafe(|| surface.run(input))) {
        Ok(Ok(())) => Outcome::Clean,
        Ok(Err(message)) => Outcome::Broken(message),
        Err(payload) => Outcome::Panicked(
            payload
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| payload.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "panic with a non-text payload".into()),
        ),
    }
}

/// Discards a parser's result: a clean error is as good as a value here.
fn ignore<T>(_result: T) {}

/// A FEN that parses must print a FEN that parses to the same board.
fn fen_round_trip(input: &str) -> Result<(), String> {
    let Ok(board) = Board::from_fen(input) else {
        return Ok(());
    };
    let printed = board.to_fen();
    match Board::from_fen(&printed) {
        Ok(again) if again == board => Ok(()),
        Ok(_) => Err(format!("`{printed}` reads back as another board")),
        Err(e) => Err(format!("printed FEN `{printed}` is refused: {e}")),
    }
}

/// A move that reads prints in a form that reads back as the same move (a ruleset's move is
/// read once and written back, `GameMove`).
fn move_round_trip<M: GameMove>(input: &str) -> Result<(), String> {
    let Ok(mv) = input.parse::<M>() else {
        return Ok(());
    };
    let printed = mv.to_string();
    match printed.parse::<M>() {
        Ok(again) if again == mv => Ok(()),
        Ok(_) => Err(format!("`{printed}` reads back as another move")),
        Err(e) => Err(format!("printed move `{printed}` is refused: {e}")),
    }
}

fn limit() -> MemoryLimit {
    MemoryLimit::bytes(FUZZ_MEMORY_BYTES)
}

fn replay(input: &str) {
    let Ok(record) = GameRecord::parse(input) else {
        return;
    };
    let Ok(mut game) = Game::new(record.start.clone(), SparseSim::with_limit(limit())) else {
        return;
    };
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(0);
    for recorded in record.moves.iter().take(MAX_REPLAYED_MOVES) {
        if game.play(&recorded.mv, &mut rng).is_err() {
            return;
        }
    }
}

fn niels_replay(input: &str) {
    let Ok(record) = NielsRecord::parse(input) else {
        return;
    };
    let Ok(mut game) = NielsGame::new(record.start.clone(), SparseSim::with_limit(limit())) else {
        return;
    };
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(0);
    for recorded in record.moves.iter().take(MAX_REPLAYED_MOVES) {
        if game.play(&recorded.mv, &mut rng).is_err() {
            return;
        }
    }
}

/// A circuit in any format `qchess run` reads (IR text or JSON, OpenQASM 2 or 3, told apart
/// by `qc_export::detect_format`); only verified circuits.
fn circuit(input: &str) -> Option<Circuit> {
    let circuit = qc_export::parse_circuit(input).ok()?;
    qc_ir::verify(&circuit).ok()?;
    Some(circuit)
}

fn run_circuit(input: &str) {
    let Some(circuit) = circuit(input) else {
        return;
    };
    let limits = ExactLimits {
        max_amplitude_updates: Some(FUZZ_AMPLITUDE_UPDATES),
        ..ExactLimits::default()
    };
    let _ = exact_distribution_within(&mut SparseSim::with_limit(limit()), &circuit, limits);
    let _ = exact_distribution_within(&mut DenseSim::with_limit(limit()), &circuit, limits);
    let _ = exact_distribution_within(&mut ReferenceSparse::with_limit(limit()), &circuit, limits);
}

/// A circuit that exports must import back.
fn export_import(input: &str) -> Result<(), String> {
    let Some(circuit) = circuit(input) else {
        return Ok(());
    };
    let options = qc_export::ExportOptions::default();
    if let Ok(export) = qc_export::export_qasm3(&circuit, &[], &options) {
        qc_export::import_qasm(&export.text)
            .map_err(|e| format!("exported OpenQASM 3 does not import back: {e}"))?;
    }
    if let Ok(export) = qc_export::export_qasm2(&circuit, &[], &options) {
        qc_export::import_qasm(&export.text)
            .map_err(|e| format!("exported OpenQASM 2 does not import back: {e}"))?;
    }
    Ok(())
}
