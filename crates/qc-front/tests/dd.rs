//! Dynamical decoupling on a device target: the decoupled program is the same program (its exact
//! distribution is the undecoupled one's, to rounding), it passes the device verifier (compile
//! runs it on the program as written), and its pulses and delays are where the summary says.

use qc_export::Target;
use qc_front::{DeviceOptions, Format, GameInput, Session, SessionSpec, COMPILE_DEFAULTS};
use qc_sim::noise::DdSequence;
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// A calibration of ibm_fez with durations and T1/T2: every qubit alike (T1 100 us, T2 80 us,
/// 1560 ns readout), single-qubit gates 36 ns, CZ 68 ns.
fn properties(target: &Target) -> String {
    let coupling = target.coupling().expect("ibm_fez has couplers");
    let qubits: Vec<serde_json::Value> = (0..coupling.num_qubits())
        .map(|_| {
            serde_json::json!([
                {"name": "T1", "value": 100.0, "unit": "us"},
                {"name": "T2", "value": 80.0, "unit": "us"},
                {"name": "readout_error", "value": 0.01, "unit": ""},
                {"name": "readout_length", "value": 1560.0, "unit": "ns"}
            ])
        })
        .collect();
    let gate = |name: &str, qubits: Vec<usize>, error: f64, length: f64| {
        serde_json::json!({"gate": name, "qubits": qubits, "parameters": [
            {"name": "gate_error", "value": error, "unit": ""},
            {"name": "gate_length", "value": length, "unit": "ns"}]})
    };
    let mut gates = Vec::new();
    for q in 0..coupling.num_qubits() {
        gates.push(gate("sx", vec![q], 2e-4, 36.0));
        gates.push(gate("x", vec![q], 2e-4, 36.0));
    }
    for &(a, b) in coupling.edges() {
        gates.push(gate("cz", vec![a, b], 3e-3, 68.0));
    }
    serde_json::json!({"backend_name": "ibm_fez", "qubits": qubits, "gates": gates}).to_string()
}

fn compile(name: &str, target: &Target, props: &str, dd: DdSequence) -> qc_front::Compiled {
    let path = root().join("circuits").join(name);
    let text = std::fs::read_to_string(&path).expect("game file");
    let shown = path.display().to_string();
    let game = Session::open(
        &SessionSpec::default(),
        GameInput::File {
            name: &shown,
            text: &text,
        },
        0,
    )
    .expect("replays");
    let device = DeviceOptions {
        properties: Some(props),
        dd: Some(dd),
        ..DeviceOptions::default()
    };
    game.compile(
        Format::Qasm3,
        &COMPILE_DEFAULTS.options,
        Some(target),
        &device,
    )
    .expect("compiles")
}

#[test]
fn decoupling_leaves_the_distribution_exactly_as_it_was() {
    let target = Target::find("ibm_fez", None).expect("ibm_fez");
    let props = properties(&target);
    for name in ["interference.qcg", "bell_psi_minus.qcg"] {
        let plain = compile(name, &target, &props, DdSequence::None);
        let exact = |text: &str| {
            let c = qc_export::parse_circuit(text).expect("reads back");
            qc_ir::exec::exact_distribution(&mut qc_sim::SparseSim::new(), &c).expect("runs")
        };
        let reference = exact(&plain.text);
        for dd in [DdSequence::Xx, DdSequence::Xy4] {
            let decoupled = compile(name, &target, &props, dd);
            let summary = decoupled.device.as_ref().expect("device");
            assert_eq!(summary.dd, dd.to_string());
            let delays = decoupled.text.matches("delay[").count();
            let per_window = if dd == DdSequence::Xx { 3 } else { 5 };
            assert_eq!(delays, per_window * summary.dd_windows, "{name} {dd}");
            if name == "interference.qcg" {
                assert!(summary.dd_windows > 0, "{name}: no window filled");
            }
            // The same program: the same outcomes, each probability equal up to the rounding
            // of the pulses' extra arithmetic (1e-16 seen; a wrong pulse moves them by 1e-2).
            let got = exact(&decoupled.text);
            assert_eq!(
                got.keys().collect::<Vec<_>>(),
                reference.keys().collect::<Vec<_>>(),
                "{name} {dd}"
            );
            for (bits, p) in &reference {
                assert!((got[bits] - p).abs() < 1e-12, "{name} {dd}: {bits:?}");
            }
        }
    }
}
