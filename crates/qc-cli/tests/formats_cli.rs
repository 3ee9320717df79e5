//! Every circuit format a qchess command writes is read by every command that reads circuits:
//! `compile --format qasm3|qasm2|ir|json` (also for a hardware target and the deferred form) is
//! read back by `run` and by `draw --circuit`. Two writers of the same circuit must agree: the
//! IR text and the IR JSON give the same distribution, and so do OpenQASM 2 and 3.

mod common;

use common::{ok_json, ok_stdout, qchess, temp_dir};
use std::collections::BTreeMap;

/// A game with a measured capture, so the programs hold a mid-circuit measurement.
const GAME: &str = "circuits/tour/29_en_passant_capture_measured.qcg";

/// What `compile` writes, by the options that choose the format.
const WRITTEN: &[(&str, &[&str])] = &[
    ("qasm3", &["--format", "qasm3"]),
    ("qasm2", &["--format", "qasm2"]),
    ("ir", &["--format", "ir"]),
    ("json", &["--format", "json"]),
    ("qasm3_ibm", &["--target", "ibm"]),
    ("qasm3_deferred", &["--form", "deferred"]),
];

fn probabilities(path: &str) -> BTreeMap<String, f64> {
    let v = ok_json(&qchess(&["run", path, "--json"]));
    v["probabilities"]
        .as_object()
        .expect("probabilities")
        .iter()
        .map(|(k, p)| (k.clone(), p.as_f64().expect("a number")))
        .collect()
}

fn assert_same(a: &BTreeMap<String, f64>, b: &BTreeMap<String, f64>, what: &str) {
    assert_eq!(
        a.keys().collect::<Vec<_>>(),
        b.keys().collect::<Vec<_>>(),
        "{what}"
    );
    for (k, p) in a {
        assert!((p - b[k]).abs() < 1e-9, "{what}: {k}: {p} vs {}", b[k]);
    }
}

#[test]
fn every_written_format_is_read_by_run_and_draw() {
    let dir = temp_dir("formats");
    let mut runs = BTreeMap::new();
    for (name, options) in WRITTEN {
        let path = dir.join(format!("{name}.out"));
        let path = path.to_str().expect("utf-8 path");
        let mut args = vec!["compile", GAME, "-o", path];
        args.extend_from_slice(options);
        ok_stdout(&qchess(&args));
        let probs = probabilities(path);
        let total: f64 = probs.values().sum();
        assert!((total - 1.0).abs() < 1e-9, "{name}: total {total}");
        runs.insert(*name, probs);
        let text = ok_stdout(&qchess(&["draw", "--circuit", path]));
        assert!(text.contains("──"), "{name}: no wires drawn: {text}");
        let svg = dir.join(format!("{name}.svg"));
        let svg = svg.to_str().expect("utf-8 path");
        ok_stdout(&qchess(&["draw", "--circuit", path, "--svg", svg]));
        let picture = std::fs::read_to_string(svg).expect("svg written");
        roxmltree::Document::parse(&picture).expect("the drawing is XML");
    }
    assert_same(&runs["ir"], &runs["json"], "IR text vs IR JSON");
    assert_same(&runs["qasm3"], &runs["qasm2"], "OpenQASM 3 vs OpenQASM 2");
    assert_same(
        &runs["qasm3"],
        &runs["qasm3_ibm"],
        "generic vs IBM's native gates",
    );
}

#[test]
fn a_json_circuit_too_large_to_hold_is_refused_before_it_is_allocated() {
    let dir = temp_dir("formats_hostile");
    let path = dir.join("huge.json");
    std::fs::write(
        &path,
        r#"{"qubits": [], "num_clbits": 4000000000, "instructions": []}"#,
    )
    .expect("write");
    let path = path.to_str().expect("utf-8 path");
    for args in [vec!["run", path], vec!["draw", "--circuit", path]] {
        let out = qchess(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("num_clbits` 4000000000 is more than"), "{err}");
    }
}
