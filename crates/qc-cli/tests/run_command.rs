//! End-to-end tests of `qchess run` on the bundled example circuits.

use std::process::Command;

fn qchess(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_qchess"))
        .args(args)
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
        .output()
        .expect("the qchess binary runs")
}

#[test]
fn bell_feedforward_json_gives_the_exact_distribution() {
    let out = qchess(&["run", "circuits/bell_feedforward.qc", "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let probs = value["probabilities"].as_object().unwrap();
    assert_eq!(probs.len(), 2);
    assert!((probs["000"].as_f64().unwrap() - 0.5).abs() < 1e-12);
    assert!((probs["111"].as_f64().unwrap() - 0.5).abs() < 1e-12);
}

#[test]
fn split_and_measure_uses_qiskit_bit_order() {
    let out = qchess(&["run", "circuits/split_and_measure.qc", "--json"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let value: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let probs = value["probabilities"].as_object().unwrap();
    // c0 = 1 (knight found on c3, moved back): "001"; c0 = 0 (knight on a3): "010".
    let keys: Vec<&String> = probs.keys().collect();
    assert_eq!(keys, vec!["001", "010"]);
}

#[test]
fn bad_input_exits_2_with_line_and_column() {
    let dir = std::env::temp_dir().join(format!("qchess-run-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("bad.qc");
    std::fs::write(&path, "qubits q0\nh q0\ncx q0\n").unwrap();
    let out = qchess(&["run", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("line 3, column 1") && err.contains("`cx`"),
        "{err}"
    );
    let missing = qchess(&["run", "circuits/does-not-exist.qc"]);
    assert_eq!(missing.status.code(), Some(2));
}

#[test]
fn malformed_circuit_is_reported_by_the_verifier() {
    let dir = std::env::temp_dir().join(format!("qchess-run-verify-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("dirty.qc");
    // The ancilla is used before it is allocated.
    std::fs::write(&path, "qubits q0 anc0\nx anc0\n").unwrap();
    let out = qchess(&["run", path.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("used before it is allocated"), "{err}");
}

/// The three simulators give the same final board for a long game with captures, castling,
/// en passant and promotion (the dense one keeps only the qubits really in superposition).
#[test]
fn every_backend_gives_the_same_full_game() {
    let mut results = Vec::new();
    for backend in ["sparse", "dense", "reference"] {
        let out = qchess(&[
            "simulate",
            "circuits/full_game.qcg",
            "--backend",
            backend,
            "--json",
        ]);
        assert!(
            out.status.success(),
            "{backend}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let value: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
        results.push((backend, value));
    }
    let (_, first) = &results[0];
    for (backend, value) in &results[1..] {
        assert_eq!(value["status"], first["status"], "{backend}");
        assert_eq!(value["state_size"], first["state_size"], "{backend}");
        let a = first["squares"].as_object().unwrap();
        let b = value["squares"].as_object().unwrap();
        assert_eq!(
            a.keys().collect::<Vec<_>>(),
            b.keys().collect::<Vec<_>>(),
            "{backend}"
        );
        for (sq, v) in a {
            let pa = v["probability"].as_f64().unwrap();
            let pb = b[sq]["probability"].as_f64().unwrap();
            assert!((pa - pb).abs() < 1e-10, "{backend} {sq}: {pa} vs {pb}");
        }
    }
}
