//! A user's own OpenQASM circuit through the commands that take one: `run --state` (the
//! amplitudes), `route` to a logical target (its native gates, the same distribution) and
//! `counts` of a program without a board. Expected values are worked out by hand.

mod common;
use common::{ok_json, ok_stdout, qchess};
use std::path::PathBuf;

/// Writes `text` to a file of this test process and returns its path.
fn file(name: &str, text: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("qchess-user-circuits-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("a temporary directory");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("the file");
    path
}

const HEADER: &str = "OPENQASM 3.0;\ninclude \"stdgates.inc\";\n";

/// `h; t` on one qubit: (|0> + e^{i pi/4} |1>) / sqrt 2, so the amplitudes are 1/sqrt 2 and
/// (1 + i) / 2; a Bell pair with `s` on its second qubit: (|00> + i |11>) / sqrt 2.
#[test]
fn run_state_prints_the_amplitudes_a_hand_calculation_gives() {
    let t = file(
        "h_t.qasm",
        &format!("{HEADER}qubit[1] q;\nbit[1] c;\nh q[0];\nt q[0];\nc = measure q;\n"),
    );
    let out = ok_stdout(&qchess(&["run", t.to_str().unwrap(), "--state"]));
    assert!(out.contains("  0  +0.707107+0.000000i"), "{out}");
    assert!(out.contains("  1  +0.500000+0.500000i"), "{out}");

    let bell = file(
        "bell_s.qasm",
        &format!(
            "{HEADER}qubit[2] q;\nbit[2] c;\nh q[0];\ncx q[0], q[1];\ns q[1];\nc = measure q;\n"
        ),
    );
    let sparse = ok_stdout(&qchess(&["run", bell.to_str().unwrap(), "--state"]));
    let lines: Vec<&str> = sparse.lines().filter(|l| l.starts_with("  ")).collect();
    assert_eq!(
        lines,
        ["  00  +0.707107+0.000000i", "  11  +0.000000+0.707107i"],
        "{sparse}"
    );
    // Dense: every basis state, the zero ones too.
    let dense = ok_stdout(&qchess(&[
        "run",
        bell.to_str().unwrap(),
        "--state",
        "dense",
    ]));
    let lines: Vec<&str> = dense.lines().filter(|l| l.starts_with("  ")).collect();
    assert_eq!(lines.len(), 4, "{dense}");
    assert!(lines[1].starts_with("  01  +0.000000+0.000000i"), "{dense}");
}

/// A Bell pair beside `rx(pi/3)`: P(q2 = 1) = sin^2(pi/6) = 1/4, so 000 and 011 have 3/8 each
/// and 100 and 111 1/8 each. Routed to `ibm` the program is written in IBM's native gates and
/// still has that distribution.
#[test]
fn route_to_a_logical_target_writes_its_natives_and_keeps_the_distribution() {
    let circuit = file(
        "bell_rx.qasm",
        &format!(
            "{HEADER}qubit[3] q;\nbit[3] c;\nh q[0];\ncx q[0], q[1];\nrx(pi/3) q[2];\nc = measure q;\n"
        ),
    );
    let routed = circuit.with_file_name("bell_rx.ibm.qasm");
    let out = qchess(&[
        "route",
        circuit.to_str().unwrap(),
        "--target",
        "ibm",
        "-o",
        routed.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let program = std::fs::read_to_string(&routed).expect("the routed program");
    let natives = ["rz", "sx", "x", "cz"];
    for line in program.lines().filter(|l| {
        !l.is_empty()
            && !l.starts_with("//")
            && !l.starts_with("OPENQASM")
            && !l.starts_with("include")
            && !l.starts_with("qubit")
            && !l.starts_with("bit")
            && !l.contains("measure")
    }) {
        let gate = line.split(['(', ' ']).next().unwrap_or_default();
        assert!(natives.contains(&gate), "not an ibm native: {line}");
    }
    let want = [
        ("000", 0.375),
        ("011", 0.375),
        ("100", 0.125),
        ("111", 0.125),
    ];
    for path in [&circuit, &routed] {
        let value = ok_json(&qchess(&["run", path.to_str().unwrap(), "--json"]));
        let probs = value["probabilities"].as_object().expect("probabilities");
        assert_eq!(probs.len(), want.len(), "{path:?}: {value}");
        for (key, p) in want {
            let got = probs[key].as_f64().expect("a probability");
            assert!((got - p).abs() < 1e-9, "{path:?}: {key} {got}");
        }
    }
}

/// 1,000 shots of a Bell pair, 520 reading 11: each bit reads 1 with 0.52 ± sqrt(0.52 · 0.48 /
/// 1000) = 0.0158; against the exact 1/2 each, the total variation distance is 0.02.
#[test]
fn counts_of_a_program_without_a_board_are_summed_with_their_errors() {
    let bell = file(
        "bell_counts.qasm",
        &format!("{HEADER}qubit[2] q;\nbit[2] c;\nh q[0];\ncx q[0], q[1];\nc = measure q;\n"),
    );
    let counts = file("bell_counts.json", "{\"00\": 480, \"11\": 520}");
    let out = ok_stdout(&qchess(&[
        "counts",
        bell.to_str().unwrap(),
        counts.to_str().unwrap(),
        "--exact",
    ]));
    assert!(out.contains("No board"), "{out}");
    assert!(out.contains("Shots: 1000"), "{out}");
    assert!(out.contains("  11  520  0.5200  (exact 0.5000)"), "{out}");
    assert!(
        out.contains("  c0: 0.5200 ± 0.0158  (exact 0.5000)"),
        "{out}"
    );
    assert!(
        out.contains("Total variation distance to the exact distribution: 0.0200"),
        "{out}"
    );
    // Counts of another width are refused, naming both widths.
    let wide = file("wide_counts.json", "{\"000\": 10}");
    let refused = qchess(&["counts", bell.to_str().unwrap(), wide.to_str().unwrap()]);
    assert_eq!(refused.status.code(), Some(2), "{refused:?}");
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(err.contains('3') && err.contains('2'), "{err}");
}
