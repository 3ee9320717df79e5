//! Writes the game corpus of the Qiskit interop check (`tests/interop/run.sh`): every move case
//! and the seeded random games of `qchess_tests::corpus`, each with its final board measured, as
//! OpenQASM 3 in the dynamic and deferred forms and for the `ibm` target, with qchess's exact
//! distribution of the whole bit register (Qiskit key order) from the reference simulator, in
//! the layout `tests/interop/check.py` reads (`manifest.json`, `NAME.json`, `NAME.FORM.qasm`).
//!
//! Usage: `cargo run --release -p qchess-tests --example game_corpus -- OUT_DIR`

use qc_export::{export_for_target, export_qasm3, keep_probability, ExportOptions, Form, Target};
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
        let deferred = export_qasm3(
            circuit,
            outcomes,
            &ExportOptions {
                form: Form::Deferred,
                ..Default::default()
            },
        )?;
        let on_ibm = export_for_target(circuit, outcomes, &ExportOptions::default(), &ibm)?;
        let name = &g.name;
        std::fs::write(out.join(format!("{name}.dynamic.qasm")), &dynamic.text)?;
        std::fs::write(out.join(format!("{name}.deferred.qasm")), &deferred.text)?;
        std::fs::write(out.join(format!("{name}.ibm.qasm")), &on_ibm.text)?;
        let moves: Vec<String> = g
            .game
            .history()
            .iter()
            .map(|r| r.qcan.to_string())
            .collect();
        let json = serde_json::json!({
            "name": name,
            "moves": moves.join(" "),
            "num_clbits": circuit.num_clbits(),
            "forms": ["dynamic", "deferred"],
            "targets": ["ibm"],
            "probabilities": probs,
            "keep_probability": keep,
            "summary": {"dynamic": dynamic.summary, "deferred": deferred.summary, "ibm": on_ibm.summary},
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
