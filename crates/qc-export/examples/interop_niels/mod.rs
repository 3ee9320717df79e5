//! The Niel's Chess part of the interop corpus: every example game in `circuits/niels/*.qng`
//! (equal and unequal collapses, an entangled group, the Hadamard Game, tunnelling, 4x5, 5x6
//! and 8x8 games) compiled to its game circuit. Its dice rolls are mid-circuit measurements, so
//! Aer's counts over all branches must match the exact distribution of the same circuit, whose
//! per-roll marginals are the dice probabilities the Niel's tests check.

use qc_ir::Circuit;
use qc_rules::{Niels, QuantumGame, Ruleset};
use qc_sim::ReferenceSparse;
use std::path::Path;

/// `(name, circuit)` for each example game, named `niels_<file stem>`.
pub fn niels_games() -> Result<Vec<(String, Circuit)>, Box<dyn std::error::Error>> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../circuits/niels");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)?
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|x| x == "qng"))
        .collect();
    paths.sort();
    let mut out = Vec::new();
    for path in paths {
        let text = std::fs::read_to_string(&path)?;
        let record = Niels::read_game(&text, None)?;
        let game = Niels::replay(
            &record,
            ReferenceSparse::new(),
            &mut <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(0),
        )
        .map_err(|e| format!("{}: {e}", path.display()))?;
        let stem = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("game")
            .to_string();
        out.push((format!("niels_{stem}"), game.circuit().clone()));
    }
    Ok(out)
}
