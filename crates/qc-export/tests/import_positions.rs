//! An index out of range names the operand that holds it, not the statement around it: on a
//! line with several statements, in a statement spread over lines, in both OpenQASM versions.
//! The expected place is found in the program text itself (where the operand is written).

use qc_export::{import_qasm2, import_qasm3, ImportError, ImportErrorKind};

const V3: &str = "OPENQASM 3.0;\ninclude \"stdgates.inc\";\nqubit[3] q;\nbit[3] c;\n";
const V2: &str = "OPENQASM 2.0;\ninclude \"qelib1.inc\";\nqreg q[3];\ncreg c[3];\n";

/// The 1-based line and column of the `nth` (0-based) occurrence of `operand` in `program`.
fn place(program: &str, operand: &str, nth: usize) -> (usize, usize) {
    let (offset, _) = program
        .match_indices(operand)
        .nth(nth)
        .unwrap_or_else(|| panic!("`{operand}` is not in the program"));
    let before = &program[..offset];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (
        before.matches('\n').count() + 1,
        before[line_start..].chars().count() + 1,
    )
}

/// Imports `program`, expects an index out of range on `register`, and checks that the error
/// stands where `operand` is written (its `nth` occurrence).
fn assert_points_at(
    import: Import,
    program: &str,
    operand: &str,
    nth: usize,
    (register, index): (&str, usize),
) {
    let e = import(program).expect_err(program);
    assert_eq!(
        e.kind,
        ImportErrorKind::IndexOutOfRange {
            register: register.into(),
            index,
            size: 3
        },
        "{e}\n{program}"
    );
    assert_eq!(
        (e.line, e.column),
        place(program, operand, nth),
        "{e}\n{program}"
    );
}

/// The two readers with their headers.
const READERS: [(Import, &str); 2] = [(import_qasm3, V3), (import_qasm2, V2)];

type Import = fn(&str) -> Result<qc_ir::Circuit, ImportError>;

#[test]
fn an_index_out_of_range_points_at_its_operand() {
    for (import, header) in READERS {
        // Several statements on one line; the same register twice in the failing call.
        let p = format!("{header}h q[0]; cx q[1], q[5]; x q[2];\n");
        assert_points_at(import, &p, "q[5]", 0, ("q", 5));
        // A statement spread over lines, with spaces inside the index.
        let p = format!("{header}x q[0]; cx q[0],\n   q[ 7 ];\n");
        assert_points_at(import, &p, "q[ 7 ]", 0, ("q", 7));
        // The same operand written twice: the first statement that holds it fails.
        let p = format!("{header}x q[1]; y q[8];\nz q[8];\n");
        assert_points_at(import, &p, "q[8]", 0, ("q", 8));
    }
}

#[test]
fn an_index_out_of_range_in_a_measurement_or_under_if_points_at_its_operand() {
    // A measurement's bit, and a statement under `if` (whose own start is elsewhere).
    let cases = [
        (
            import_qasm3 as Import,
            format!("{V3}c[0] = measure q[0]; c[4] = measure q[1];\n"),
            "c[4]",
        ),
        (
            import_qasm3,
            format!("{V3}c[0] = measure q[0];\nif (c[0]) {{ x q[1]; x q[6]; }}\n"),
            "q[6]",
        ),
        (
            import_qasm2,
            format!("{V2}measure q[0] -> c[0]; measure q[1] -> c[4];\n"),
            "c[4]",
        ),
        (
            import_qasm2,
            format!("{V2}creg f[1];\nmeasure q[0] -> f[0];\nif (f == 1) x q[6];\n"),
            "q[6]",
        ),
        (import_qasm2, format!("{V2}barrier q[0], q[9];\n"), "q[9]"),
    ];
    for (import, program, operand) in cases {
        let register = &operand[..1];
        let index = operand[2..3].parse().expect("one digit");
        assert_points_at(import, &program, operand, 0, (register, index));
    }
}
