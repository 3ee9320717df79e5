//! Every `qelib1.inc` gate imported from OpenQASM 2 and compared with the matrix Qiskit computes for
//! it (`data/qelib1_operators.json`), and the gates that have no single IR gate also with matrices
//! computed by hand: `rzz` and `rxx` from their closed forms (`exp(-i theta/2 ZZ)`,
//! `cos(theta/2) I - i sin(theta/2) XX`), `u0` as the identity, `rccx`/`rc3x` as Toffolis up to
//! phases and `c3sqrtx` as the 3-controlled square root of X.

use qc_export::import_qasm2;
use qc_ir::{Complex64, Matrix};

fn import(body: &str, qubits: usize) -> Matrix {
    let text = format!("OPENQASM 2.0;\ninclude \"qelib1.inc\";\nqreg q[{qubits}];\n{body}\n");
    import_qasm2(&text)
        .unwrap_or_else(|e| panic!("{e}\n{text}"))
        .unitary()
        .expect("unitary")
}

/// Equal up to one global phase.
fn assert_close_up_to_phase(got: &Matrix, want: &[Vec<Complex64>], what: &str) {
    let n = want.len();
    assert_eq!(got.dim(), n, "{what}");
    let (r, c) = (0..n)
        .flat_map(|r| (0..n).map(move |c| (r, c)))
        .max_by(|a, b| want[a.0][a.1].norm().total_cmp(&want[b.0][b.1].norm()))
        .expect("non-empty");
    let phase = got.get(r, c) / want[r][c];
    for (r, row) in want.iter().enumerate() {
        for (c, w) in row.iter().enumerate() {
            assert!(
                (got.get(r, c) - w * phase).norm() < 1e-12,
                "{what}: entry ({r},{c}) is {} but should be {}",
                got.get(r, c),
                w * phase
            );
        }
    }
}

#[test]
fn rzz_and_rxx_match_their_closed_forms_exactly() {
    let i = Complex64::new(0.0, 1.0);
    for theta in [0.3, -1.7, std::f64::consts::PI / 3.0] {
        let (c, s) = ((theta / 2.0).cos(), (theta / 2.0).sin());
        let zz = [1.0, -1.0, -1.0, 1.0];
        let want: Vec<Vec<Complex64>> = (0..4)
            .map(|r| {
                (0..4)
                    .map(|k| {
                        if r == k {
                            (-i * theta / 2.0 * zz[r]).exp()
                        } else {
                            0.0.into()
                        }
                    })
                    .collect()
            })
            .collect();
        let got = import(&format!("rzz({theta}) q[0], q[1];"), 2);
        assert_close_up_to_phase(&got, &want, "rzz");
        assert!((got.get(0, 0) - want[0][0]).norm() < 1e-12, "rzz phase");
        // X⊗X flips both bits: entry (r, 3 - r).
        let want: Vec<Vec<Complex64>> = (0..4)
            .map(|r| {
                (0..4)
                    .map(|k| {
                        if r == k {
                            c.into()
                        } else if k == 3 - r {
                            -i * s
                        } else {
                            0.0.into()
                        }
                    })
                    .collect()
            })
            .collect();
        let got = import(&format!("rxx({theta}) q[0], q[1];"), 2);
        assert_close_up_to_phase(&got, &want, "rxx");
        assert!((got.get(0, 0) - want[0][0]).norm() < 1e-12, "rxx phase");
    }
}

#[test]
fn u0_is_the_identity() {
    let id: Vec<Vec<Complex64>> = (0..2)
        .map(|r| {
            (0..2)
                .map(|c| if r == c { 1.0.into() } else { 0.0.into() })
                .collect()
        })
        .collect();
    assert_close_up_to_phase(&import("u0(0.5) q[0];", 1), &id, "u0");
}

/// The matrices Qiskit computes for every gate of its `qelib1.inc`, each called with fixed angles
/// (`tests/interop/qelib1_operators.py` wrote them from Qiskit's own reader and `Operator`).
fn qiskit_operators() -> Vec<(String, String, usize, Vec<Vec<Complex64>>)> {
    let data: serde_json::Value =
        serde_json::from_str(include_str!("data/qelib1_operators.json")).expect("valid JSON");
    let gates = data["gates"].as_array().expect("a gate list");
    gates
        .iter()
        .map(|gate| {
            let qubits = gate["qubits"].as_u64().expect("qubits") as usize;
            let dim = 1 << qubits;
            let entries: Vec<Complex64> = gate["matrix"]
                .as_array()
                .expect("entries")
                .iter()
                .map(|z| Complex64::new(z[0].as_f64().expect("re"), z[1].as_f64().expect("im")))
                .collect();
            assert_eq!(entries.len(), dim * dim);
            let rows = entries.chunks(dim).map(<[Complex64]>::to_vec).collect();
            let name = gate["name"].as_str().expect("name").to_string();
            let call = gate["call"].as_str().expect("call").to_string();
            (name, call, qubits, rows)
        })
        .collect()
}

#[test]
fn every_qelib1_gate_matches_the_matrix_qiskit_computes() {
    let operators = qiskit_operators();
    // Qiskit's qelib1.inc has 42 gates; each must be read, and read as Qiskit reads it.
    assert_eq!(operators.len(), 42);
    for name in ["rccx", "rc3x", "c3sqrtx", "c4x", "rzz", "u0"] {
        assert!(operators.iter().any(|(n, ..)| n == name), "{name} missing");
    }
    for (name, call, qubits, want) in &operators {
        assert_close_up_to_phase(&import(call, *qubits), want, name);
    }
}

/// `c[k]` = bit k of the basis index (qubit k), as in `Circuit::unitary`.
fn bit(index: usize, k: usize) -> bool {
    index >> k & 1 == 1
}

#[test]
fn the_relative_phase_toffolis_flip_the_target_exactly_when_every_control_is_set() {
    // rccx a, b, c and rc3x a, b, c, d are Toffolis up to phases on the basis states: every
    // column has one entry of modulus 1, in the row whose last qubit is flipped when all the
    // others are 1 (hand-derived from the gates' purpose; the phases are checked against Qiskit
    // above).
    for (name, qubits) in [("rccx", 3), ("rc3x", 4)] {
        let args: Vec<String> = (0..qubits).map(|k| format!("q[{k}]")).collect();
        let got = import(&format!("{name} {};", args.join(", ")), qubits);
        let target = qubits - 1;
        for col in 0..1 << qubits {
            let all_controls = (0..target).all(|k| bit(col, k));
            let row = if all_controls { col ^ 1 << target } else { col };
            for r in 0..1 << qubits {
                let modulus = got.get(r, col).norm();
                let want = if r == row { 1.0 } else { 0.0 };
                assert!(
                    (modulus - want).abs() < 1e-12,
                    "{name}: |({r},{col})| = {modulus}"
                );
            }
        }
    }
}

#[test]
fn c3sqrtx_is_the_square_root_of_x_under_three_controls() {
    // Hand-computed: identity unless q0, q1 and q2 are all 1; then sqrt(X) = [[1+i, 1-i],
    // [1-i, 1+i]] / 2 on q3.
    let got = import("c3sqrtx q[0], q[1], q[2], q[3];", 4);
    let half = |re: f64, im: f64| Complex64::new(re / 2.0, im / 2.0);
    let want: Vec<Vec<Complex64>> = (0..16)
        .map(|r| {
            (0..16)
                .map(|c| {
                    let controls = (0..3).all(|k| bit(c, k));
                    if !controls {
                        return if r == c { 1.0.into() } else { 0.0.into() };
                    }
                    match (r ^ c, r == c) {
                        (_, true) => half(1.0, 1.0),
                        (8, false) => half(1.0, -1.0),
                        _ => 0.0.into(),
                    }
                })
                .collect()
        })
        .collect();
    assert_close_up_to_phase(&got, &want, "c3sqrtx");
}
