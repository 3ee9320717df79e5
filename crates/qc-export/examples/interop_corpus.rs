//! Writes the Qiskit interop corpus: for each sample circuit, its OpenQASM 3 export in the dynamic
//! and deferred forms, the extended dialect, the `ibm` and `google` targets' outputs, the OpenQASM 2 output, and the exact distribution
//! of the bit register (Qiskit key order) computed with the reference sparse simulator. The
//! corpus includes the Niel's Chess example games (`interop_niels`).
//!
//! Usage: `cargo run -p qc-export --example interop_corpus -- OUT_DIR`

mod interop_niels;
/// The test fixtures (kept out of the library's API), shared with the tests.
#[path = "../tests/common/samples.rs"]
mod samples;

use qc_export::{
    export_for_target, export_qasm2, export_qasm3, Dialect, ExportOptions, Form, Target,
};
use qc_ir::exec::{exact_distribution, qiskit_key};
use qc_ir::Circuit;
use qc_sim::ReferenceSparse;
use samples::{corpus, random_circuit};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let out = PathBuf::from(
        std::env::args()
            .nth(1)
            .ok_or("usage: interop_corpus OUT_DIR")?,
    );
    std::fs::create_dir_all(&out)?;
    let backends = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../backends");
    let ibm = Target::load(&backends, "ibm")?;
    let google = Target::load(&backends, "google")?;
    let mut circuits: Vec<(String, Circuit)> = corpus()
        .into_iter()
        .map(|(n, c)| (n.to_string(), c))
        .collect();
    for seed in 1..=16u64 {
        let (qubits, len) = if seed % 4 == 0 { (5, 34) } else { (4, 14) };
        circuits.push((
            format!("random{seed:02}"),
            random_circuit(seed, qubits, len),
        ));
    }
    circuits.extend(interop_niels::niels_games()?);
    let mut manifest = Vec::new();
    for (name, c) in &circuits {
        let mut backend = ReferenceSparse::new();
        let dist = exact_distribution(&mut backend, c)?;
        let mut probs: BTreeMap<String, f64> = BTreeMap::new();
        for (bits, p) in dist {
            if p > 1e-12 {
                *probs.entry(qiskit_key(&bits)).or_default() += p;
            }
        }
        let dynamic = export_qasm3(c, &[], &ExportOptions::default())?;
        let deferred = export_qasm3(
            c,
            &[],
            &ExportOptions {
                form: Form::Deferred,
                ..Default::default()
            },
        )?;
        let on_ibm = export_for_target(c, &[], &ExportOptions::default(), &ibm)?;
        let q2 = export_qasm2(c, &[], &ExportOptions::default())?;
        let extended = export_qasm3(
            c,
            &[],
            &ExportOptions {
                dialect: Dialect::Extended,
                ..Default::default()
            },
        )?;
        let on_google = export_for_target(c, &[], &ExportOptions::default(), &google)?;
        std::fs::write(out.join(format!("{name}.extended.qasm")), &extended.text)?;
        std::fs::write(out.join(format!("{name}.google.qasm")), &on_google.text)?;
        std::fs::write(out.join(format!("{name}.dynamic.qasm")), &dynamic.text)?;
        std::fs::write(out.join(format!("{name}.deferred.qasm")), &deferred.text)?;
        std::fs::write(out.join(format!("{name}.ibm.qasm")), &on_ibm.text)?;
        std::fs::write(out.join(format!("{name}.qasm2")), &q2.text)?;
        let json = serde_json::json!({
            "name": name,
            "num_clbits": c.num_clbits(),
            "probabilities": probs,
            "summary": {"dynamic": dynamic.summary, "deferred": deferred.summary, "ibm": on_ibm.summary, "google": on_google.summary},
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
    Ok(())
}
