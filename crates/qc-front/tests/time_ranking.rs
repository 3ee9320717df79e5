//! With a calibration that has durations, compile chooses among its best routings by the board
//! error (`DeviceSummary::board_error`, where the program is small enough to compute it) or else
//! the success probability with idle time (`DeviceSummary::esp_with_time`), not by gate and
//! readout errors alone: the program it writes is never worse by that figure than the one the
//! gate-only choice writes, and on the bundled games with a calibration whose qubits differ it is
//! better.

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

/// The device summary of `game` compiled for ibm_fez with `properties`, its routing chosen by
/// the ranking or (`gates_only`) by gate and readout errors alone.
fn summary(
    game: &Session,
    target: &Target,
    properties: &str,
    gates_only: bool,
) -> qc_front::DeviceSummary {
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
    compiled.device.expect("a device summary")
}

/// The figure `chosen_by` names, higher is better: minus the board error, or the ESP with idle
/// time.
fn figure(summary: &qc_front::DeviceSummary, chosen_by: &str) -> f64 {
    match chosen_by {
        "board error" => -summary.board_error.expect("a board error"),
        _ => summary.esp_with_time.expect("a calibration with durations"),
    }
}

#[test]
fn a_timed_calibration_chooses_the_routing_by_its_board_error_or_esp_with_idle_time() {
    let target = Target::find("ibm_fez", None).expect("ibm_fez");
    let properties = timed_properties(&target);
    let mut better = 0;
    let mut choices = Vec::new();
    for name in ["interference.qcg", "tour.qcg", "full_game.qcg"] {
        let game = bundled(name);
        let ranked = summary(&game, &target, &properties, false);
        let gates_only = summary(&game, &target, &properties, true);
        assert_eq!(gates_only.chosen_by, "gates and readout");
        // The gate-only choice is one of the candidates the ranking scores, as the very program
        // it is written as, so by the ranking's figure it can only lose.
        let by = ranked.chosen_by.clone();
        let (chosen, gates_only) = (figure(&ranked, &by), figure(&gates_only, &by));
        assert!(
            chosen >= gates_only - 1e-12 * gates_only.abs(),
            "{name}: {chosen} chosen by the {by}, {gates_only} by gates only"
        );
        better += usize::from(chosen > gates_only + 1e-9 * gates_only.abs());
        choices.push(by);
    }
    // The small game is weighed by its board, the wide ones by the ESP with idle time.
    assert_eq!(choices, ["board error", "ESP with time", "ESP with time"]);
    assert!(better > 0, "the ranking never chose another routing");
}

#[test]
fn small_games_are_chosen_by_their_board_error() {
    let target = Target::find("ibm_fez", None).expect("ibm_fez");
    let properties = timed_properties(&target);
    for name in [
        "bell_psi_minus.qcg",
        "bell_psi_plus.qcg",
        "notation_example.qcg",
    ] {
        let game = bundled(name);
        let ranked = summary(&game, &target, &properties, false);
        let gates_only = summary(&game, &target, &properties, true);
        assert_eq!(ranked.chosen_by, "board error", "{name}");
        let (chosen, gates_only) = (
            ranked.board_error.expect("weighed"),
            gates_only.board_error.expect("weighed"),
        );
        // A distance, and one the noise makes: neither zero nor more than the chance of any
        // error at all.
        let any_error = 1.0 - ranked.esp_with_time.expect("durations");
        assert!(
            chosen > 0.0 && chosen <= any_error,
            "{name}: {chosen}, {any_error}"
        );
        assert!(
            chosen <= gates_only + 1e-12,
            "{name}: board error {chosen} chosen, {gates_only} by gates only"
        );
    }
}
