//! Writes the game corpus of the Qiskit interop check (`tests/interop/run.sh`): every move case
//! and the seeded random games of `qchess_tests::corpus`, each with its final board measured, as
//! OpenQASM 3 in the dynamic and deferred forms, for the `ibm` target and (deferred) for the
//! `braket` target, and as deferred OpenQASM 2 (`NAME.qasm2`, for Qiskit and Cirq), with qchess's exact
//! distribution of the whole bit register (Qiskit key order) from the reference simulator, and
//! the game itself (start FEN and QCAN moves with their outcomes, for `qchess --fen --moves`), in
//! the layout `tests/interop/check.py` reads (`manifest.json`, `NAME.json`, `NAME.FORM.qasm`).
//!
//! Usage: `cargo run --release -p qchess-tests --example game_corpus -- OUT_DIR`

use qc_export::{
    export_for_target, export_qasm2, export_qasm3, keep_probability, ExportOptions, Form, Target,
};
use qc_ir::exec::{exact_distribution, qiskit_key};
use qc_sim::ReferenceSparse;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = PathBuf::from(
        std::env::args()
            .nth(1)
            .ok_or("usage: game_corpus OUT_DIR")?,
    );
    std::fs::create_dir_all(&out)?;
    let backends = Path::new(env!("CARGO_MANIFEST_DIR")).join("../backends");
    let ibm = Target::load(&backends, "ibm")?;
    let braket = Target::load(&backends, "braket")?;
    let games = qchess_tests::corpus::corpus()?;
    let mut manifest = Vec::new();
    for g in &games {
        let measured = g.measured_circuit();
        let (circuit, outcomes) = (&measured.circuit, &measured.outcomes);
        let dist = exact_distribution(&mut ReferenceSparse::new(), circuit)?;
        let keep = keep_probability(&dist, outcomes);
        let mut probs: BTreeMap<String, f64> = BTreeMap::new();
        for (bits, p) in dist {
            if p > 1e-12 {
                *probs.entry(qiskit_key(&bits)).or_default() += p;
            }
        }
        let dynamic = export_qasm3(circuit, outcomes, &ExportOptions::default())?;
        let on_ibm = export_for_target(circuit, outcomes, &ExportOptions::default(), &ibm)?;
        // Braket's and Cirq's local simulators run a program without mid-circuit measurement
        // once and sample every shot from the final state: the deferred form.
        let deferred_options = ExportOptions {
            form: Form::Deferred,
            ..Default::default()
        };
        let deferred = export_qasm3(circuit, outcomes, &deferred_options)?;
        let on_braket = export_for_target(circuit, outcomes, &deferred_options, &braket)?;
        let qasm2 = export_qasm2(circuit, outcomes, &deferred_options)?;
        let name = &g.name;
        std::fs::write(out.join(format!("{name}.dynamic.qasm")), &dynamic.text)?;
        std::fs::write(out.join(format!("{name}.deferred.qasm")), &deferred.text)?;
        std::fs::write(out.join(format!("{name}.ibm.qasm")), &on_ibm.text)?;
        std::fs::write(out.join(format!("{name}.braket.qasm")), &on_braket.text)?;
        std::fs::write(out.join(format!("{name}.qasm2")), &qasm2.text)?;
        let moves: Vec<String> = qc_rules::QuantumGame::moves(&g.game)
            .iter()
            .map(|r| r.text())
            .collect();
        let json = serde_json::json!({
            "name": name,
            "fen": g.fen,
            "moves": moves.join(" "),
            "num_clbits": circuit.num_clbits(),
            "forms": ["dynamic", "deferred"],
            "targets": ["ibm", "braket"],
            "probabilities": probs,
            "keep_probability": keep,
            "summary": {"dynamic": dynamic.summary, "deferred": deferred.summary, "ibm": on_ibm.summary, "braket": on_braket.summary, "qasm2": qasm2.summary},
        });
        std::fs::write(
            out.join(format!("{name}.json")),
            serde_json::to_string_pretty(&json)?,
        )?;
        manifest.push(name.clone());
    }
    std::fs::write(
        out.join("manifest.json"),
        serde_json::to_string_pretty(&manifest)?,
    )?;
    use std::io::Write;
    writeln!(
        std::io::stderr(),
        "game corpus: {} games written to {}",
        manifest.len(),
        out.display()
    )?;
    Ok(())
}
