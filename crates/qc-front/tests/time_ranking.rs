//! With a calibration that has durations, compile chooses among its best routings by the success
//! probability with idle time (`DeviceSummary::esp_with_time`), not by gate and readout errors
//! alone: the program it writes is never worse by that figure than the one the gate-only choice
//! writes, and on the bundled games with a calibration whose qubits differ it is better.

use qc_export::Target;
use qc_front::{DeviceOptions, Format, GameInput, Session, SessionSpec, COMPILE_DEFAULTS};
use serde_json::{json, Value};
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// A calibration of ibm_fez in IBM's BackendProperties JSON, with durations and T1/T2, whose
/// qubits and couplers differ (a fixed spread, so the test is the same on every run): what makes
/// some routings wait longer on worse qubits than others.
fn timed_properties(target: &Target) -> String {
    let coupling = target.coupling().expect("ibm_fez has couplers");
    let qubits: Vec<Value> = (0..coupling.num_qubits())
        .map(|q| {
            let t = 60.0 + ((q * 37) % 150) as f64;
            json!([
                {"name": "T1", "value": t, "unit": "us"},
                {"name": "T2", "value": t * 0.8, "unit": "us"},
                {"name": "readout_error", "value": 0.005 + ((q * 7) % 10) as f64 * 0.002, "unit": ""},
                {"name": "readout_length", "value": 1560.0, "unit": "ns"}
            ])
        })
        .collect();
    let gate = |gate: &str, qubits: Vec<usize>, error: f64, length: f64| {
        json!({
            "gate": gate,
            "qubits": qubits,
            "parameters": [
                {"name": "gate_error", "value": error, "unit": ""},
                {"name": "gate_length", "value": length, "unit": "ns"}
            ]
        })
    };
    let mut gates: Vec<Value> = Vec::new();
    for q in 0..coupling.num_qubits() {
        gates.push(gate("sx", vec![q], 2e-4, 36.0));
        gates.push(gate("x", vec![q], 2e-4, 36.0));
    }
    for (k, &(a, b)) in coupling.edges().iter().enumerate() {
        let error = 2e-3 + ((k * 13) % 10) as f64 * 4e-4;
        gates.push(gate("cz", vec![a, b], error, 68.0));
    }
    json!({"backend_name": "ibm_fez", "qubits": qubits, "gates": gates}).to_string()
}

/// The bundled game `name` (under circuits/), replayed.
fn bundled(name: &str) -> Session {
    let path = root().join("circuits").join(name);
    let text = std::fs::read_to_string(&path).expect("game file");
    let name = path.display().to_string();
    Session::open(
        &SessionSpec::default(),
        GameInput::File {
            name: &name,
            text: &text,
        },
        0,
    )
    .expect("replays")
}

/// The ESP with idle time of `game` compiled for ibm_fez with `properties`, chosen by it or
/// (`gates_only`) by gate and readout errors alone.
fn esp_with_time(game: &Session, target: &Target, properties: &str, gates_only: bool) -> f64 {
    let device = DeviceOptions {
        properties: Some(properties),
        gates_only_choice: gates_only,
        ..DeviceOptions::default()
    };
    let compiled = game
        .compile(
            Format::Qasm3,
            &COMPILE_DEFAULTS.options,
            Some(target),
            &device,
        )
        .expect("compiles");
    let summary = compiled.device.expect("a device summary");
    summary.esp_with_time.expect("a calibration with durations")
}

#[test]
fn a_timed_calibration_chooses_the_routing_by_its_esp_with_idle_time() {
    let target = Target::find("ibm_fez", None).expect("ibm_fez");
    let properties = timed_properties(&target);
    let mut better = 0;
    for name in ["interference.qcg", "tour.qcg", "full_game.qcg"] {
        let game = bundled(name);
        let chosen = esp_with_time(&game, &target, &properties, false);
        let gates_only = esp_with_time(&game, &target, &properties, true);
        // The gate-only choice is one of the candidates the ranking scores, as the very program
        // it is written as, so it can only lose.
        assert!(
            chosen >= gates_only * (1.0 - 1e-12),
            "{name}: {chosen} chosen by time, {gates_only} by gates only"
        );
        better += usize::from(chosen > gates_only * (1.0 + 1e-9));
    }
    assert!(
        better > 0,
        "the ESP with idle time never chose another routing"
    );
}
