//! End-to-end tests of `qchess run` on the bundled example circuits.

mod common;
use common::{ok_json, qchess};

#[test]
fn bell_feedforward_json_gives_the_exact_distribution() {
    let out = qchess(&["run", "circuits/bell_feedforward.qc", "--json"]);
    let value = ok_json(&out);
    let probs = value["probabilities"].as_object().unwrap();
    assert_eq!(probs.len(), 2);
    assert!((probs["000"].as_f64().unwrap() - 0.5).abs() < 1e-12);
    assert!((probs["111"].as_f64().unwrap() - 0.5).abs() < 1e-12);
}

#[test]
fn split_and_measure_uses_qiskit_bit_order() {
    let out = qchess(&["run", "circuits/split_and_measure.qc", "--json"]);
    let value = ok_json(&out);
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
        let value = ok_json(&out);
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

fn run_text(tag: &str, text: &str) -> std::process::Output {
    let dir = std::env::temp_dir().join(format!("qchess-run-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("circuit.qasm");
    std::fs::write(&path, text).unwrap();
    qchess(&["run", path.to_str().unwrap(), "--json"])
}

fn probabilities(out: &std::process::Output) -> Vec<(String, f64)> {
    let value = ok_json(out);
    value["probabilities"]
        .as_object()
        .unwrap()
        .iter()
        .map(|(k, v)| (k.clone(), v.as_f64().unwrap()))
        .collect()
}

/// A Bell pair, then an X on the second qubit: bits are always different, 50/50. In Qiskit
/// order (rightmost = c[0]) the outcomes are "10" and "01".
#[test]
fn openqasm_2_and_3_files_run_with_the_same_output_shape() {
    let q3 =
        "// a comment first\nOPENQASM 3.0;\ninclude \"stdgates.inc\";\nqubit[2] q;\nbit[2] c;\n\
              h q[0];\ncx q[0], q[1];\nx q[1];\nc[0] = measure q[0];\nc[1] = measure q[1];\n";
    let q2 = "OPENQASM 2.0;\ninclude \"qelib1.inc\";\nqreg q[2];\ncreg c[2];\n\
              h q[0];\ncx q[0],q[1];\nx q[1];\nmeasure q[0] -> c[0];\nmeasure q[1] -> c[1];\n";
    for (tag, text) in [("q3", q3), ("q2", q2)] {
        let probs = probabilities(&run_text(tag, text));
        let keys: Vec<&str> = probs.iter().map(|(k, _)| k.as_str()).collect();
        assert_eq!(keys, vec!["01", "10"], "{tag}");
        for (_, p) in &probs {
            assert!((p - 0.5).abs() < 1e-12, "{tag}: {probs:?}");
        }
    }
}

#[test]
fn openqasm_import_errors_name_the_line_and_construct() {
    let out = run_text(
        "bad3",
        "OPENQASM 3.0;\ninclude \"stdgates.inc\";\nqubit[1] q;\nbit[1] c;\nwhile (true) { }\n",
    );
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("line 5") && err.contains("while"), "{err}");
    let out = run_text(
        "bad2",
        "OPENQASM 2.0;\ninclude \"qelib1.inc\";\nqreg q[1];\nfrob q[0];\n",
    );
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("line 4") && err.contains("frob"), "{err}");
}

/// `run --backend` gives the same exact distribution on every simulator.
#[test]
fn run_gives_the_same_distribution_on_every_backend() {
    for backend in ["sparse", "dense", "reference"] {
        let out = qchess(&[
            "run",
            "circuits/split_and_measure.qc",
            "--backend",
            backend,
            "--json",
        ]);
        let value = ok_json(&out);
        let probs = value["probabilities"].as_object().unwrap();
        assert_eq!(
            probs.keys().collect::<Vec<_>>(),
            vec!["001", "010"],
            "{backend}"
        );
        for p in probs.values() {
            assert!((p.as_f64().unwrap() - 0.5).abs() < 1e-12, "{backend}");
        }
    }
}

/// `qchess run ... --json` probabilities as (bits, p).
fn run_probabilities(args: &[&str]) -> std::collections::BTreeMap<String, f64> {
    let value = ok_json(&qchess(args));
    value["probabilities"]
        .as_object()
        .expect("probabilities")
        .iter()
        .map(|(k, v)| (k.clone(), v.as_f64().expect("a number")))
        .collect()
}

#[test]
fn single_precision_agrees_with_double_and_really_rounds_in_f32() {
    // The reference for both: the sparse simulator (exact in f64, an independent engine).
    for file in ["circuits/full_game.qasm", "circuits/tour.qasm"] {
        let exact = run_probabilities(&["run", file, "--json"]);
        let double = run_probabilities(&["run", file, "--backend", "dense", "--json"]);
        let single = run_probabilities(&[
            "run",
            file,
            "--backend",
            "dense",
            "--precision",
            "single",
            "--json",
        ]);
        assert_eq!(
            single.keys().collect::<Vec<_>>(),
            exact.keys().collect::<Vec<_>>()
        );
        let off = |got: &std::collections::BTreeMap<String, f64>| {
            got.iter()
                .map(|(k, p)| (p - exact[k]).abs())
                .fold(0.0, f64::max)
        };
        assert!(
            off(&double) < 1e-12,
            "{file}: double off by {}",
            off(&double)
        );
        assert!(
            off(&single) < 1e-6,
            "{file}: single off by {}",
            off(&single)
        );
        // Had `--precision single` run in double, it would match to 1e-12 as well.
        assert!(off(&single) > 1e-12, "{file}: single is as exact as double");
    }
}

#[test]
fn single_precision_needs_the_dense_simulator() {
    for backend in ["sparse", "reference"] {
        let out = qchess(&[
            "run",
            "circuits/tour.qasm",
            "--backend",
            backend,
            "--precision",
            "single",
        ]);
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("precision `single` needs the dense simulator"),
            "{err}"
        );
    }
}

#[test]
fn simulate_in_single_precision_gives_the_same_game() {
    let json = |extra: &[&str]| {
        let mut args = vec!["simulate", "circuits/full_game.qcg", "--json"];
        args.extend_from_slice(extra);
        ok_json(&qchess(&args))
    };
    let exact = json(&[]);
    let single = json(&["--backend", "dense", "--precision", "single"]);
    for key in ["state_size", "status", "final_fen", "game"] {
        assert_eq!(single[key], exact[key], "{key}");
    }
    let squares = exact["squares"].as_object().expect("squares");
    assert_eq!(
        single["squares"].as_object().expect("squares").len(),
        squares.len()
    );
    for (square, value) in squares {
        let p = value["probability"].as_f64().expect("p");
        let q = single["squares"][square]["probability"]
            .as_f64()
            .expect("p");
        assert!((p - q).abs() < 1e-6, "{square}: {p} vs {q}");
    }
    let bad = qchess(&[
        "simulate",
        "circuits/full_game.qcg",
        "--precision",
        "single",
    ]);
    assert_eq!(bad.status.code(), Some(2));
}

#[test]
fn a_panic_the_importer_contains_is_an_error_without_panic_text() {
    // oq3_parser asserts on a keyword in a gate's qubit list; the importer catches it, and the
    // binary's own panic hook keeps the panic's report off standard error.
    let out = qchess(&[
        "run",
        "crates/qc-fuzz/corpus/regressions/run_circuit/keyword_in_gate_qubit_list.qasm",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("stopped on an internal check"), "{err}");
    assert!(
        !err.contains("panicked") && !err.contains("RUST_BACKTRACE"),
        "{err}"
    );
}
