//! `qchess run PROGRAM --noise CALIBRATION --shots N`: noisy counts from a BackendProperties
//! calibration, against hand-computed probabilities (relaxation over a gate, readout errors
//! both ways), seeded and reproducible, refused programs and arguments (exit 2), and a device
//! program's noisy counts read back by `qchess counts` into a mitigated board.

mod common;
use common::{ok_json, path_str, qchess, temp_dir};
use serde_json::{json, Value};

/// One qubit entry: T1, T2 (us), the two readout error probabilities, the readout length (ns).
fn qubit(t1_us: f64, t2_us: f64, p1_given_0: f64, p0_given_1: f64) -> Value {
    json!([
        {"name": "T1", "unit": "us", "value": t1_us},
        {"name": "T2", "unit": "us", "value": t2_us},
        {"name": "readout_error", "unit": "", "value": (p1_given_0 + p0_given_1) / 2.0},
        {"name": "prob_meas1_prep0", "unit": "", "value": p1_given_0},
        {"name": "prob_meas0_prep1", "unit": "", "value": p0_given_1},
        {"name": "readout_length", "unit": "ns", "value": 1560}
    ])
}

/// A gate entry with its error and length (ns).
fn gate(name: &str, qubits: &[usize], error: f64, length: f64) -> Value {
    json!({"gate": name, "qubits": qubits, "parameters": [
        {"name": "gate_error", "unit": "", "value": error},
        {"name": "gate_length", "unit": "ns", "value": length}]})
}

/// Two qubits: q0 with T1 = T2 = 1 us and 500 ns single-qubit gates without gate error, read
/// with P(1|0) = 0.02, P(0|1) = 0.05; q1 without relaxation, read with P(1|0) = 0.1.
fn two_qubit_calibration() -> String {
    json!({
        "qubits": [qubit(1.0, 1.0, 0.02, 0.05), qubit(1e9, 1e9, 0.1, 0.0)],
        "gates": [gate("sx", &[0], 0.0, 500.0), gate("x", &[0], 0.0, 500.0),
                  gate("sx", &[1], 0.0, 0.0), gate("cz", &[0, 1], 0.0, 0.0)]
    })
    .to_string()
}

const X_THEN_MEASURE: &str =
    "OPENQASM 3.0;\ninclude \"stdgates.inc\";\nqubit[2] q;\nbit[2] c;\nx q[0];\nc[0] = measure q[0];\nc[1] = measure q[1];\n";

fn counts(out: &std::process::Output) -> Value {
    ok_json(out)["counts"].clone()
}

/// The fraction of shots whose key (Qiskit order: c1 c0) satisfies `keep`.
fn fraction(counts: &Value, shots: f64, keep: impl Fn(&str) -> bool) -> f64 {
    let object = counts.as_object().expect("counts object");
    let total: f64 = object.values().map(|n| n.as_f64().expect("count")).sum();
    assert_eq!(total, shots);
    object
        .iter()
        .filter(|(k, _)| keep(k))
        .map(|(_, n)| n.as_f64().expect("count"))
        .sum::<f64>()
        / shots
}

fn assert_within_5_sigma(observed: f64, expected: f64, shots: f64, what: &str) {
    let tolerance = 5.0 * (expected * (1.0 - expected) / shots).sqrt() + 1.0 / shots;
    assert!(
        (observed - expected).abs() <= tolerance,
        "{what}: {observed} against {expected} (tolerance {tolerance})"
    );
}

#[test]
fn noisy_counts_follow_the_calibration() {
    let dir = temp_dir("noise-run");
    let props = dir.join("props.json");
    std::fs::write(&props, two_qubit_calibration()).expect("write props");
    let program = dir.join("x.qasm");
    std::fs::write(&program, X_THEN_MEASURE).expect("write program");
    let run = |seed: &str, backend: &str| {
        qchess(&[
            "run",
            path_str(&program),
            "--noise",
            path_str(&props),
            "--shots",
            "20000",
            "--seed",
            seed,
            "--backend",
            backend,
            "--json",
        ])
    };
    for backend in ["sparse", "dense"] {
        let c = counts(&run("3", backend));
        // q0: |1> survives the 500 ns X with exp(-1/2), then is read with P(0|1) = 0.05, and
        // a decayed |0> is read as 1 with P(1|0) = 0.02.
        let e1 = (-0.5f64).exp();
        let want = e1 * 0.95 + (1.0 - e1) * 0.02;
        assert_within_5_sigma(fraction(&c, 2e4, |k| k.ends_with('1')), want, 2e4, "c0");
        assert_within_5_sigma(fraction(&c, 2e4, |k| k.starts_with('1')), 0.1, 2e4, "c1");
    }
    assert_eq!(counts(&run("3", "sparse")), counts(&run("3", "sparse")));
    assert_ne!(counts(&run("3", "sparse")), counts(&run("4", "sparse")));
}

#[test]
fn refused_noisy_runs_exit_2_saying_why() {
    let dir = temp_dir("noise-refused");
    let props = dir.join("props.json");
    std::fs::write(&props, two_qubit_calibration()).expect("write props");
    let write = |name: &str, text: &str| {
        let path = dir.join(name);
        std::fs::write(&path, text).expect("write");
        path
    };
    let refused = |args: &[&str], needles: &[&str]| {
        let out = qchess(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        for needle in needles {
            assert!(err.contains(needle), "{args:?}: {err}");
        }
    };
    let x = write("x.qasm", X_THEN_MEASURE);
    refused(
        &["run", path_str(&x), "--noise", path_str(&props)],
        &["--shots"],
    );
    let wide = write(
        "wide.qasm",
        "OPENQASM 3.0;\nqubit[3] q;\nbit[1] c;\nx q[2];\nc[0] = measure q[2];\n",
    );
    refused(
        &[
            "run",
            path_str(&wide),
            "--noise",
            path_str(&props),
            "--shots",
            "10",
        ],
        &["qubit 2", "qubits 0..2"],
    );
    let bad = write(
        "bad.json",
        "{\"qubits\": [[{\"name\": \"T1\", \"unit\": \"us\", \"value\": -3}]]}",
    );
    refused(
        &[
            "run",
            path_str(&x),
            "--noise",
            path_str(&bad),
            "--shots",
            "10",
        ],
        &["T1 of qubit 0", "bad.json"],
    );
}

/// The round trip, on a small game: compiled for ibm_fez, run with the noise of a
/// calibration of all its 156 qubits (every coupler a 1% CZ, 2% readout), and read back by
/// `qchess counts` with post-selection and symmetry: the board's pieces are the noiseless ones
/// shots with the wrong piece count are dropped and the mitigated board is close to the exact one.
#[test]
fn a_device_programs_noisy_counts_give_a_mitigated_board() {
    let dir = temp_dir("noise-board");
    let game = "circuits/tour/04_jump_capture_measured.qcg";
    let program = dir.join("game.fez.qasm");
    let out = qchess(&[
        "compile",
        game,
        "--target",
        "ibm_fez",
        "-o",
        path_str(&program),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = std::fs::read_to_string(common::root().join("backends/ibm_fez.toml")).expect("toml");
    let edges = text.split_once("\nedges = [").expect("edges").1;
    let numbers: Vec<usize> = edges
        .split("\n]")
        .next()
        .unwrap_or("")
        .lines()
        .map(|l| l.split('#').next().unwrap_or(""))
        .flat_map(|l| l.split(|c: char| !c.is_ascii_digit()))
        .filter_map(|n| n.parse().ok())
        .collect();
    let mut gates: Vec<Value> = numbers
        .chunks(2)
        .map(|e| gate("cz", &[e[0], e[1]], 0.01, 84.0))
        .collect();
    gates.extend((0..156).map(|q| gate("sx", &[q], 3e-4, 24.0)));
    let props = dir.join("props.json");
    let calibration = json!({
        "qubits": (0..156).map(|_| qubit(150.0, 100.0, 0.02, 0.02)).collect::<Vec<_>>(),
        "gates": gates,
    });
    std::fs::write(&props, calibration.to_string()).expect("write props");
    let noisy = ok_json(&qchess(&[
        "run",
        path_str(&program),
        "--noise",
        path_str(&props),
        "--shots",
        "4000",
        "--json",
    ]));
    let counts_file = dir.join("counts.json");
    std::fs::write(&counts_file, noisy.to_string()).expect("write counts");
    let board = ok_json(&qchess(&[
        "counts",
        path_str(&program),
        path_str(&counts_file),
        "--json",
        "--exact",
    ]));
    let tvd = board["tvd"]
        .as_f64()
        .unwrap_or_else(|| panic!("tvd in {board}"));
    // The noise is there (shots with the wrong number of pieces), and mitigation removes it.
    let dropped = board["discarded"]["conserved_pieces"].as_u64().unwrap_or(0);
    assert!(dropped > 0 && tvd < 0.05, "{board}");
}
