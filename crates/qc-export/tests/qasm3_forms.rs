//! OpenQASM 3 read as the specification types and writes it (issue 30, items 6 and 10).
//!
//! - Angle expressions: integer literals are integers and `1/2` is `0`. The expected values are
//!   Qiskit's (`qiskit.qasm3.loads`, qiskit 2.6 with qiskit-qasm3-import 0.6, the parameter of
//!   `rx(EXPR) q[0];`), copied here by hand; `tests/interop/qasm3_forms.py` checks the same
//!   programs against Qiskit's statevector in CI.
//! - A gate parameter named like a constant is the parameter inside its gate.
//! - Valid forms `oq3_parser` does not read: `if (c) stmt;` without braces, `else stmt;`,
//!   `barrier;` without operands, `OPENQASM 3;`. Each must give the same circuit as its
//!   long-hand form; `else if` (two bits) is refused rather than dropped.

mod common;

use common::{assert_same, dist};
use qc_export::{import_qasm3, ImportErrorKind};
use qc_ir::{Gate, Op};
use std::f64::consts::{E, PI, TAU};

const HEAD: &str = "OPENQASM 3.0;\ninclude \"stdgates.inc\";\nqubit[2] q;\nbit[2] c;\n";

/// The angle of the `rx` that `rx(expr) q[0];` imports to (0 when it imports to nothing).
fn rx_angle(expr: &str) -> f64 {
    let program = format!("{HEAD}rx({expr}) q[0];\n");
    let circuit = import_qasm3(&program).unwrap_or_else(|e| panic!("{expr}: {e}"));
    circuit
        .instructions()
        .iter()
        .find_map(|i| match &i.op {
            Op::Gate {
                gate: Gate::Rx(a), ..
            } => Some(*a),
            _ => None,
        })
        .unwrap_or(0.0)
}

#[test]
fn angle_expressions_are_typed_as_the_specification_and_qiskit_type_them() {
    // (expression, Qiskit's value)
    let cases: [(&str, f64); 21] = [
        ("1/2*pi", 0.0),
        ("pi*(3/2)", PI),
        ("-3/2", -2.0),
        ("-(3/2)", -1.0),
        ("7/-2", -4.0),
        ("-7/2", -4.0),
        ("(-7)/2", -4.0),
        ("0o17/10", 1.0),
        ("0x10/3", 5.0),
        ("0b11/2", 1.0),
        ("1_0/3", 3.0),
        ("3/2", 1.0),
        ("2-3/2", 1.0),
        ("2*3", 6.0),
        ("1.0/2", 0.5),
        ("1e1/4", 2.5),
        ("3/2.", 1.5),
        ("pi/2", PI / 2.0),
        ("euler", E),
        ("τ", TAU),
        ("ℇ", E),
    ];
    for (expr, want) in cases {
        let got = rx_angle(expr);
        assert!(
            (got - want).abs() < 1e-12,
            "rx({expr}): {got}, Qiskit reads {want}"
        );
    }
}

#[test]
fn a_float_written_from_its_point_is_read() {
    // `.25` is a float literal in OpenQASM 3 (found by the fuzz harness's second evaluator:
    // it was refused with "atom_expr: expected expression"). Qiskit's values.
    for (expr, want) in [
        (".25", 0.25),
        ("1/.5", 2.0),
        (".5e1", 5.0),
        ("-.125*8", -1.0),
    ] {
        let got = rx_angle(expr);
        assert!((got - want).abs() < 1e-12, "rx({expr}): {got}, want {want}");
    }
    // An error after it still names the user's column.
    let program = format!("{HEAD}rx(.25) q[0]; rx(1/0) q[1];\n");
    let e = import_qasm3(&program).expect_err("1/0 is refused");
    assert_eq!(e.kind, ImportErrorKind::IntegerDivisionByZero);
    assert_eq!((e.line, e.column), (5, 15));
}

#[test]
fn a_capital_base_prefix_is_read() {
    // `0X1F` and `0B11` are integers in OpenQASM 3 (Qiskit reads 31 and 3); they were read as 0
    // without a word (found by the fuzz harness's second evaluator). `0O17` is read as `0o17`.
    for (expr, want) in [
        ("0X1F", 31.0),
        ("0B11", 3.0),
        ("0O17", 15.0),
        ("0X1-2.", -1.0),
    ] {
        let got = rx_angle(expr);
        assert!((got - want).abs() < 1e-12, "rx({expr}): {got}, want {want}");
    }
}

#[test]
fn integer_division_by_zero_is_an_error_with_its_place() {
    let program = format!("{HEAD}h q[0];\nrx(pi + 7/0) q[1];\n");
    let e = import_qasm3(&program).expect_err("7/0");
    assert_eq!(e.kind, ImportErrorKind::IntegerDivisionByZero);
    assert_eq!((e.line, e.column), (6, 1));
}

#[test]
fn a_gate_parameter_shadows_the_constant_it_is_named_after() {
    let plain =
        import_qasm3(&format!("{HEAD}ry(0.3) q[0];\nc[0] = measure q[0];\n")).expect("plain ry");
    for name in ["pi", "tau", "euler", "π", "τ", "ℇ"] {
        let program = format!(
            "{HEAD}gate g({name}) a {{ ry({name}) a; }}\ng(0.3) q[0];\nc[0] = measure q[0];\n"
        );
        let circuit = import_qasm3(&program).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert_same(&dist(&circuit, 1), &dist(&plain, 1), name);
    }
    // Outside the gate the name is the constant again.
    let after =
        format!("{HEAD}gate g(pi) a {{ ry(pi) a; }}\ng(0.3) q[0];\nry(pi) q[1];\nc = measure q;\n");
    let circuit = import_qasm3(&after).expect("imports");
    let d = dist(&circuit, 2);
    let p_q1 = d.iter().filter(|(k, _)| k[1]).map(|(_, p)| p).sum::<f64>();
    assert!(
        (p_q1 - 1.0).abs() < 1e-12,
        "ry(pi) outside the gate: {p_q1}"
    );
}

/// Both programs import, and to circuits with the same distribution over both bits.
fn same_program(short: &str, long: &str) {
    let a = import_qasm3(short).unwrap_or_else(|e| panic!("{short}\n{e}"));
    let b = import_qasm3(long).unwrap_or_else(|e| panic!("{long}\n{e}"));
    assert_eq!(a.instructions(), b.instructions(), "{short}");
    assert_same(&dist(&a, 2), &dist(&b, 2), short);
}

#[test]
fn an_if_body_without_braces_is_one_statement() {
    let pre = format!("{HEAD}h q[0];\nc[0] = measure q[0];\n");
    same_program(
        &format!("{pre}if (c[0]) x q[1];\nc[1] = measure q[1];\n"),
        &format!("{pre}if (c[0]) {{ x q[1]; }}\nc[1] = measure q[1];\n"),
    );
    same_program(
        &format!("{pre}if (c[0] == 0) x q[1]; else\n  h q[1];\nc[1] = measure q[1];\n"),
        &format!("{pre}if (c[0] == 0) {{ x q[1]; }} else {{ h q[1]; }}\nc[1] = measure q[1];\n"),
    );
    same_program(
        &format!("{pre}if (c[0]) {{ x q[1]; }} else ry(pi/3) q[1];\nc[1] = measure q[1];\n"),
        &format!("{pre}if (c[0]) {{ x q[1]; }} else {{ ry(pi/3) q[1]; }}\nc[1] = measure q[1];\n"),
    );
}

#[test]
fn else_if_is_refused_not_dropped() {
    let program = format!(
        "{HEAD}h q[0];\nc[0] = measure q[0];\nif (c[0]) {{ x q[1]; }} else if (c[0] == 0) {{ h q[1]; }}\n"
    );
    let e = import_qasm3(&program).expect_err("else if");
    assert_eq!(e.kind, ImportErrorKind::ElseIf);
    assert_eq!((e.line, e.column), (7, 23));
    let nested = format!("{HEAD}if (c[0]) if (c[1]) x q[1];\n");
    let e = import_qasm3(&nested).expect_err("nested if");
    assert_eq!(e.kind, ImportErrorKind::NestedIf);
}

#[test]
fn a_barrier_without_operands_and_an_integer_version_are_read() {
    let body = "include \"stdgates.inc\";\nqubit[2] q;\nbit[2] c;\nh q[0];\nbarrier;\ncx q[0], q[1];\nc = measure q;\n";
    same_program(
        &format!("OPENQASM 3;\n{body}"),
        &format!("OPENQASM 3.0;\n{}", body.replace("barrier;", "barrier q;")),
    );
    // Errors after a rewritten place still name the user's line and column.
    let e = import_qasm3("OPENQASM 3;\nqubit q;\nif (c) x q; y r;\n").expect_err("undeclared");
    assert_eq!(e.line, 3);
    let e =
        import_qasm3("OPENQASM 3;\nqubit q;\nbit c;\nif (c) x q; rx(1/0) q;\n").expect_err("1/0");
    assert_eq!((e.line, e.column), (4, 13));
}
