//! Circuits as Qiskit users write them: OpenQASM 3's legacy `measure q -> c;`, register
//! comparisons in `if` (OpenQASM 2's only conditional; OpenQASM 3's `if (c == 3)`, `if (c[0] ==
//! 1)`, `if (c)`, and as Qiskit 2.6's `qasm3.dumps` writes them, `if (!c[0])`, `if (bool(c))`,
//! `if (c != 2)`, `else`, nested), `for` loops over ranges and sets, and register slices. The truth is computed by hand: registers are set with `x` gates to every
//! value, so each conditioned flip must happen exactly when the comparison holds (bit 0 the
//! least significant, as Qiskit reads a register); the textbook teleportation must carry
//! `ry(theta)` across whatever the measurements give. `tests/interop/qiskit_programs.py` runs
//! the same kinds of programs on Qiskit Aer.

mod common;

use common::{assert_same, dist};
use qc_export::{import_qasm2, import_qasm3, ImportErrorKind};
use qc_ir::Circuit;

const HEAD3: &str = "OPENQASM 3.0;\ninclude \"stdgates.inc\";\n";
const HEAD2: &str = "OPENQASM 2.0;\ninclude \"qelib1.inc\";\n";

fn read3(program: &str) -> Circuit {
    import_qasm3(program).unwrap_or_else(|e| panic!("{program}\n{e}"))
}

fn read2(program: &str) -> Circuit {
    import_qasm2(program).unwrap_or_else(|e| panic!("{program}\n{e}"))
}

/// The probability that bit `bit` reads 1.
fn p_one(c: &Circuit, bit: usize) -> f64 {
    dist(c, c.num_clbits())
        .iter()
        .filter(|(k, _)| k[bit])
        .map(|(_, p)| p)
        .sum()
}

/// `x` on the qubits of `q[0..2]` whose bit of `v` is set.
fn prepare(v: u32) -> String {
    (0..2)
        .filter(|k| v >> k & 1 == 1)
        .map(|k| format!("x q[{k}];\n"))
        .collect()
}

/// Whether the flip of `q[2]` (read into bit 2) happened.
fn flipped(c: &Circuit) -> bool {
    let p = p_one(c, 2);
    assert!(
        !(1e-12..=1.0 - 1e-12).contains(&p),
        "deterministic: P = {p}"
    );
    p > 0.5
}

#[test]
fn measure_arrow_is_read_as_the_assignment() {
    let long = read3(&format!(
        "{HEAD3}qubit[2] q;\nbit[2] c;\nh q[0];\ncx q[0], q[1];\nc = measure q;\n"
    ));
    let short = read3(&format!(
        "{HEAD3}qubit[2] q;\nbit[2] c;\nh q[0];\ncx q[0], q[1];\nmeasure q -> c;\n"
    ));
    assert_eq!(short.instructions(), long.instructions());
    let elements = read3(&format!(
        "{HEAD3}qubit[2] q;\nbit[2] c;\nh q[0];\ncx q[0], q[1];\nmeasure q[0] -> c[0];\nmeasure q[1]->c[1];\n"
    ));
    assert_eq!(elements.instructions(), long.instructions());
    // A Bell pair: 00 and 11, each 1/2.
    let d = dist(&short, 2);
    assert_eq!(d.len(), 2);
    assert!((d[&vec![true, true]] - 0.5).abs() < 1e-12);
    // In an `if` body without braces, and with an error in the target still placed on its line.
    let braceless = read3(&format!(
        "{HEAD3}qubit[2] q;\nbit[2] c;\nbit d;\nx q[0];\nc[0] = measure q[0];\nif (c[0]) measure q[1] -> d;\n"
    ));
    assert_eq!(braceless.num_clbits(), 3);
    let e = import_qasm3(&format!("{HEAD3}qubit q;\nbit[2] c;\nmeasure q -> c[3];\n"))
        .expect_err("out of range");
    assert_eq!(e.line, 5, "{e}");
    assert!(
        matches!(e.kind, ImportErrorKind::IndexOutOfRange { index: 3, .. }),
        "{e}"
    );
}

#[test]
fn an_openqasm2_register_comparison_reads_bit_zero_as_least_significant() {
    for v in 0..4 {
        for w in 0..5 {
            let program = format!(
                "{HEAD2}qreg q[3];\ncreg c[2];\ncreg d[1];\n{}measure q[0] -> c[0];\nmeasure q[1] -> c[1];\nif(c=={w}) x q[2];\nmeasure q[2] -> d[0];\n",
                prepare(v)
            );
            assert_eq!(flipped(&read2(&program)), v == w, "c = {v}, if (c == {w})");
        }
    }
}

#[test]
fn openqasm3_conditions_as_qiskit_writes_them_hold_exactly_when_they_should() {
    // (condition, whether it holds for c = v)
    type Holds = fn(u32) -> bool;
    let cases: [(&str, Holds); 14] = [
        ("c == 3", |v| v == 3),
        ("c == 1", |v| v == 1),
        ("c == 2", |v| v == 2),
        ("c != 2", |v| v != 2),
        ("c", |v| v != 0),
        ("bool(c)", |v| v != 0),
        ("c[0] == false", |v| v & 1 == 0),
        ("!c", |v| v == 0),
        ("c[0] == 1", |v| v & 1 == 1),
        ("c[1] == true", |v| v & 2 == 2),
        ("c[1]", |v| v & 2 == 2),
        ("!c[0]", |v| v & 1 == 0),
        ("c[0] != 0", |v| v & 1 == 1),
        ("c[0:1] == 2", |v| v == 2),
    ];
    for (condition, holds) in cases {
        for v in 0..4 {
            let pre = format!(
                "{HEAD3}qubit[3] q;\nbit[2] c;\nbit d;\n{}c[0] = measure q[0];\nc[1] = measure q[1];\n",
                prepare(v)
            );
            let then = read3(&format!(
                "{pre}if ({condition}) {{\n  x q[2];\n}}\nd = measure q[2];\n"
            ));
            assert_eq!(flipped(&then), holds(v), "c = {v}, if ({condition})");
            // The `else` runs exactly when the `if` does not.
            let otherwise = read3(&format!(
                "{pre}if ({condition}) {{\n  id q[2];\n}} else {{\n  x q[2];\n}}\nd = measure q[2];\n"
            ));
            assert_eq!(
                flipped(&otherwise),
                !holds(v),
                "c = {v}, else of ({condition})"
            );
        }
    }
}

#[test]
fn nested_conditions_take_both() {
    for v in 0..4 {
        let program = format!(
            "{HEAD3}qubit[3] q;\nbit[2] c;\nbit d;\n{}c = measure q[0:1];\nif (c != 0) {{\n  if (!c[1]) {{\n    x q[2];\n  }}\n}}\nd = measure q[2];\n",
            prepare(v)
        );
        assert_eq!(flipped(&read3(&program)), v == 1, "c = {v}");
    }
}

#[test]
fn a_bit_never_measured_reads_zero() {
    // c[1] is never written: `c == 1` holds when c[0] is 1, `c == 3` never.
    for (w, flips) in [(1, true), (3, false), (0, false)] {
        let program = format!(
            "{HEAD2}qreg q[2];\ncreg c[2];\ncreg d[1];\nx q[0];\nmeasure q[0] -> c[0];\nif(c=={w}) x q[1];\nmeasure q[1] -> d[0];\n"
        );
        let c = read2(&program);
        assert_eq!(p_one(&c, 2) > 0.5, flips, "if (c == {w})");
    }
}

/// The textbook teleportation (Qiskit's `c_if`/`if_test` on one-bit registers, as Qiskit's
/// `qasm2.dumps` writes it; and on one 2-bit register): whatever the measurements give, q[2]
/// ends as `ry(theta)|0>`, so it reads 1 with probability sin^2(theta/2) on every branch.
#[test]
fn textbook_teleportation_carries_the_state() {
    let theta: f64 = 1.1;
    let expected = (theta / 2.0).sin().powi(2);
    let body = "h q[1];\ncx q[1],q[2];\ncx q[0],q[1];\nh q[0];\n";
    let one_bit = format!(
        "{HEAD2}qreg q[3];\ncreg crz[1];\ncreg crx[1];\ncreg out[1];\nry({theta}) q[0];\nrz(0.4) q[0];\n{body}measure q[0] -> crz[0];\nmeasure q[1] -> crx[0];\nif (crx == 1) x q[2];\nif (crz == 1) z q[2];\nmeasure q[2] -> out[0];\n"
    );
    let register = format!(
        "{HEAD2}qreg q[3];\ncreg c[2];\ncreg out[1];\nry({theta}) q[0];\n{body}measure q[0] -> c[0];\nmeasure q[1] -> c[1];\nif(c==1) z q[2];\nif(c==2) x q[2];\nif(c==3) y q[2];\nmeasure q[2] -> out[0];\n"
    );
    for program in [one_bit, register] {
        let c = read2(&program);
        let d = dist(&c, 3);
        for m in 0..4 {
            let branch: f64 = d
                .iter()
                .filter(|(k, _)| usize::from(k[0]) + 2 * usize::from(k[1]) == m)
                .map(|(_, p)| p)
                .sum();
            let ones: f64 = d
                .iter()
                .filter(|(k, _)| usize::from(k[0]) + 2 * usize::from(k[1]) == m && k[2])
                .map(|(_, p)| p)
                .sum();
            assert!(
                (branch - 0.25).abs() < 1e-12,
                "{program}\nP(m = {m}) = {branch}"
            );
            assert!(
                (ones / branch - expected).abs() < 1e-12,
                "{program}\nbranch {m}: P(1) = {}",
                ones / branch
            );
        }
    }
}

#[test]
fn for_loops_are_unrolled_with_the_variable_bound() {
    let same = |looped: &str, written: &str| {
        let a = read3(&format!(
            "{HEAD3}qubit[4] q;\nbit[4] c;\n{looped}c = measure q;\n"
        ));
        let b = read3(&format!(
            "{HEAD3}qubit[4] q;\nbit[4] c;\n{written}c = measure q;\n"
        ));
        assert_eq!(a.instructions(), b.instructions(), "{looped}");
        assert_same(&dist(&a, 4), &dist(&b, 4), looped);
    };
    same(
        "for uint i in [0:3] { h q[i]; }\n",
        "h q[0];\nh q[1];\nh q[2];\nh q[3];\n",
    );
    same(
        "for int i in {0, 2} { x q[i]; }\nfor i in {3} { x q[i]; }\n",
        "x q[0];\nx q[2];\nx q[3];\n",
    );
    same(
        "for int i in [3:-2:0] { ry(pi * i / 8) q[3 - i]; }\n",
        "ry(3*pi/8) q[0];\nry(pi/8) q[2];\n",
    );
    // Nested, the inner range from the outer variable; Qiskit's loop variable `_`.
    same(
        "for int i in [0:1] { for int j in [i + 1:2] { cx q[i], q[j]; } }\nfor int _ in [0:1] { x q[3]; }\n",
        "cx q[0], q[1];\ncx q[0], q[2];\ncx q[1], q[2];\nx q[3];\nx q[3];\n",
    );
    // A range that is empty runs its body never.
    same("for int i in [2:1] { x q[i]; }\nh q[0];\n", "h q[0];\n");
}

#[test]
fn slices_select_elements_with_both_ends_inclusive() {
    let a = read3(&format!(
        "{HEAD3}qubit[4] q;\nbit[4] c;\nx q[1:2];\nh q[0:2:3];\nc[0:1] = measure q[0:1];\nc[2:3] = measure q[2:3];\n"
    ));
    let b = read3(&format!(
        "{HEAD3}qubit[4] q;\nbit[4] c;\nx q[1];\nx q[2];\nh q[0];\nh q[2];\nc[0] = measure q[0];\nc[1] = measure q[1];\nc[2] = measure q[2];\nc[3] = measure q[3];\n"
    ));
    assert_eq!(a.instructions(), b.instructions());
}

#[test]
fn refusals_name_the_construct_and_the_line_in_the_users_words() {
    let refused = [
        (
            "qubit[2] q;\nbit[2] c;\nc = measure q;\nc[0] = measure q[1];\n",
            6,
        ),
        (
            "qubit[2] q;\nbit[2] c;\nc = measure q;\nif (c != 3) { c[1] = measure q[0]; }\n",
            6,
        ),
        ("qubit q;\nbit c;\nwhile (c) { x q; }\n", 5),
        ("qubit q;\nfor int i in [0:100000000] { }\n", 4),
        ("qubit q;\nbit c;\nmeasure q -> ;\n", 5),
        ("qubit q;\nh q\nx q;\n", 4),
        ("qubit q;\nfor int i in c { x q; }\n", 4),
        ("qubit[2] q;\nx q[0:2];\n", 4),
        ("qubit[2] q;\nx q[-1];\n", 4),
        ("qubit[2] q;\nbit[65] c;\nif (c == 1) { x q[0]; }\n", 5),
        ("qubit q;\nbit c;\nif (c && c) { x q; }\n", 5),
        ("qubit q;\nrz(1 + ) q;\n", 4),
    ];
    for (body, line) in refused {
        let e = import_qasm3(&format!("{HEAD3}{body}")).expect_err(body);
        let message = e.to_string();
        assert_eq!(e.line, line, "{body}: {message}");
        for internal in [
            "expr_bp",
            "atom_expr",
            "stmt:",
            "SEMICOLON",
            "IDENT",
            "ForStmt",
            "Missing",
        ] {
            assert!(!message.contains(internal), "{body}: {message}");
        }
    }
    let e = import_qasm3(&format!(
        "{HEAD3}qubit[2] q;\nbit[2] c;\nc = measure q;\nc[0] = measure q[1];\n"
    ))
    .expect_err("twice");
    assert_eq!(
        e.kind,
        ImportErrorKind::BitMeasuredTwice { bit: "c[0]".into() }
    );
    let e = import_qasm2(&format!(
        "{HEAD2}qreg q[1];\ncreg c[1];\nmeasure q[0] -> c[0];\nmeasure q[0] -> c[0];\n"
    ))
    .expect_err("twice");
    assert_eq!(
        (e.line, &e.kind),
        (6, &ImportErrorKind::BitMeasuredTwice { bit: "c".into() })
    );
}

#[test]
fn a_register_comparison_exports_in_the_deferred_form() {
    use qc_export::{export_qasm2, export_qasm3, ExportError, ExportOptions, Form, Unsupported};
    let program = format!(
        "{HEAD3}qubit[3] q;\nbit[2] c;\nbit d;\nh q[0];\nh q[1];\nc = measure q[0:1];\nif (c == 2) {{ x q[2]; }}\nd = measure q[2];\n"
    );
    let circuit = read3(&program);
    let want = dist(&circuit, 3);
    let dynamic = export_qasm3(&circuit, &[], &ExportOptions::default());
    assert!(
        matches!(
            dynamic,
            Err(ExportError::Unsupported {
                reason: Unsupported::ConditionOnSeveralBits { bits: 2 },
                ..
            })
        ),
        "{dynamic:?}"
    );
    let deferred = ExportOptions {
        form: Form::Deferred,
        ..ExportOptions::default()
    };
    let text = export_qasm3(&circuit, &[], &deferred)
        .expect("deferred")
        .text;
    assert_same(&dist(&read3(&text), 3), &want, &text);
    // OpenQASM 2 takes the deferred form by itself when the dynamic one cannot be written.
    let text = export_qasm2(&circuit, &[], &ExportOptions::default())
        .expect("qasm2")
        .text;
    assert_same(&dist(&read2(&text), 3), &want, &text);
}
