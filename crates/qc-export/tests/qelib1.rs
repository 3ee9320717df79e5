//! The `qelib1.inc` gates that have no single IR gate, imported from OpenQASM 2 and compared with
//! matrices computed independently: `rzz` and `rxx` from their closed forms
//! (`exp(-i theta/2 ZZ)`, `cos(theta/2) I - i sin(theta/2) XX`) and `u0` as the identity.

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
