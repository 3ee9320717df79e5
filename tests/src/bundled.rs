//! The example games bundled in `circuits/` (`*.qcg` and `tour/*.qcg`), replayed with their
//! recorded outcomes, and their exports with and without the passes for every bundled target:
//! what `tests/tests/export_passes.rs` checks and what the table of `docs/performance.md` shows.

use crate::cases::{play_record, CaseError};
use crate::corpus::BoardMeasured;
use qc_export::{
    export_for_target, export_qasm3, import_qasm, Export, ExportError, ExportOptions, Target,
};
use qc_ir::exec::exact_distribution;
use qc_rules::{Game, GameRecord};
use qc_sim::ReferenceSparse;
use std::path::{Path, PathBuf};

/// The repository root.
pub fn repo_root() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
}

/// A bundled game, played.
pub struct BundledGame {
    /// Its path under the repository, e.g. `circuits/tour/01_jump_basic.qcg`.
    pub path: String,
    /// The game after its last move.
    pub game: Game<ReferenceSparse>,
}

/// Why a bundled game could not be read or played.
#[derive(Debug)]
pub enum BundledError {
    /// The file could not be read.
    Read(PathBuf, std::io::Error),
    /// The record does not parse.
    Notation(PathBuf, qc_rules::NotationError),
    /// A move failed or had no recorded outcome.
    Play(PathBuf, CaseError),
}

/// The `.qcg` files directly in `dir`, sorted.
fn games_in(dir: &Path) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .map(|entries| {
            entries
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|e| e == "qcg"))
                .collect()
        })
        .unwrap_or_default();
    out.sort();
    out
}

/// Every bundled game of `circuits/` (top level first, then `circuits/tour/`), played on the
/// reference simulator with its recorded outcomes.
pub fn bundled_games() -> Result<Vec<BundledGame>, BundledError> {
    let root = repo_root();
    let mut paths = games_in(&root.join("circuits"));
    paths.extend(games_in(&root.join("circuits/tour")));
    paths
        .into_iter()
        .map(|path| {
            let text =
                std::fs::read_to_string(&path).map_err(|e| BundledError::Read(path.clone(), e))?;
            let record =
                GameRecord::parse(&text).map_err(|e| BundledError::Notation(path.clone(), e))?;
            let game = play_record(&record).map_err(|e| BundledError::Play(path.clone(), e))?;
            let rel = path.strip_prefix(&root).unwrap_or(&path);
            Ok(BundledGame {
                path: rel.display().to_string(),
                game,
            })
        })
        .collect()
}

/// The bundled logical targets (`backends/*.toml` as built into qc-export, without the device
/// targets, whose programs are placed and routed and tested on their own), by name.
pub fn bundled_targets() -> Vec<Target> {
    qc_export::BUNDLED_TARGETS
        .iter()
        .filter_map(|(name, _)| Target::bundled(name).and_then(Result::ok))
        .filter(|t| !t.is_device())
        .collect()
}

/// Exports `circuit` with `options` for `target` (`None`: the plain OpenQASM 3 export of
/// `qchess compile` without `--target`).
pub fn export_on(
    circuit: &qc_ir::Circuit,
    outcomes: &[Option<bool>],
    options: &ExportOptions,
    target: Option<&Target>,
) -> Result<Export, ExportError> {
    match target {
        Some(t) => export_for_target(circuit, outcomes, options, t),
        None => export_qasm3(circuit, outcomes, options),
    }
}

/// Asserts that the distribution `got` (bit patterns with probabilities; entries below 1e-12
/// ignored) equals `want` entry by entry within 1e-9.
pub fn assert_same_distribution(name: &str, got: &[(u64, f64)], want: &[(u64, f64)]) {
    let msg = format!("{name}: exported {got:?}\ngame {want:?}");
    let got: Vec<(u64, f64)> = got.iter().copied().filter(|(_, p)| *p > 1e-12).collect();
    assert_eq!(got.len(), want.len(), "{msg}");
    for ((b1, p1), (b2, p2)) in got.iter().zip(want) {
        assert_eq!(b1, b2, "{msg}");
        assert!((p1 - p2).abs() < 1e-9, "{msg}");
    }
}

/// Asserts that `program` (OpenQASM exported from `measured`'s circuit), imported back and
/// simulated exactly, gives the board distribution `want` after post-selection on the recorded
/// outcomes: the round trip both export tests make.
pub fn assert_program_gives_board(
    label: &str,
    measured: &BoardMeasured,
    program: &str,
    want: &[(u64, f64)],
) {
    let circuit = import_qasm(program).unwrap_or_else(|e| panic!("{label}: {e}"));
    let dist = exact_distribution(&mut ReferenceSparse::new(), &circuit)
        .unwrap_or_else(|e| panic!("{label}: {e}"));
    let got = measured
        .board_distribution(&dist)
        .unwrap_or_else(|| panic!("{label}: the recorded outcomes never occur"));
    assert_same_distribution(label, &got, want);
}
