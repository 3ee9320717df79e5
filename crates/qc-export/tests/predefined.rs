//! Every OpenQASM name the gate table marks as known without a definition (stdgates, qelib1,
//! vendor spellings such as Braket's `cnot`, library gates such as `iswap`) imports, from
//! OpenQASM 3 with and without `include "stdgates.inc";` and from OpenQASM 2, as exactly the gate
//! the table says (controls first, `cu`'s phase on the control), checked on the unitary of the
//! imported circuit against one built from the record. The table's own matrices are checked
//! against independent truth in qc-ir (`gate_data` tests); this file checks that the importers
//! read every name and place the operands and controls as the record says.

use qc_export::{import_qasm2, import_qasm3};
use qc_ir::gate_data::{qasm_forms, QasmForm};
use qc_ir::{Circuit, Control, Gate, Instruction, Qubit};

/// The angles used for a call with `n` parameters (distinct, none a multiple of pi/2).
fn angles(n: usize) -> Vec<f64> {
    [0.3, -1.1, 2.2, 0.7][..n].to_vec()
}

fn predefined() -> Vec<&'static QasmForm> {
    let mut seen = std::collections::HashSet::new();
    qasm_forms()
        .filter(|f| f.is_predefined() && !f.zero_control)
        .filter(|f| seen.insert(f.name))
        .collect()
}

/// The circuit the record says a call is, on qubits `0..num_qubits`.
fn expected(form: &QasmForm, params: &[f64]) -> Circuit {
    let call = form
        .resolve(params)
        .expect("the record resolves its own count");
    let n = form.num_qubits();
    let mut c = Circuit::with_plain_qubits(n as u32, 0);
    let qubits: Vec<Qubit> = (0..n as u32).map(Qubit).collect();
    if call.control_phase != 0.0 {
        c.push(Instruction::gate(
            Gate::Phase(call.control_phase),
            &qubits[..1],
            &[],
        ));
    }
    let controls: Vec<Control> = qubits[..call.controls]
        .iter()
        .map(|&q| Control::one(q))
        .collect();
    c.push(Instruction::gate(
        call.gate,
        &qubits[call.controls..],
        &controls,
    ));
    c
}

fn call_text(form: &QasmForm, params: &[f64]) -> String {
    let params = if params.is_empty() {
        String::new()
    } else {
        let p: Vec<String> = params.iter().map(|a| a.to_string()).collect();
        format!("({})", p.join(", "))
    };
    let operands: Vec<String> = (0..form.num_qubits()).map(|k| format!("q[{k}]")).collect();
    format!("{}{params} {};", form.name, operands.join(", "))
}

#[test]
fn every_predefined_name_imports_as_its_record() {
    let forms = predefined();
    assert!(forms.len() > 40, "only {} predefined names", forms.len());
    for form in forms {
        let params = angles(form.num_params());
        let want = expected(form, &params).unitary().expect("unitary");
        let call = call_text(form, &params);
        let n = form.num_qubits();
        let programs = [
            format!("OPENQASM 3.0;\ninclude \"stdgates.inc\";\nqubit[{n}] q;\n{call}\n"),
            format!("OPENQASM 3.0;\nqubit[{n}] q;\n{call}\n"),
        ];
        for text in &programs {
            let got = import_qasm3(text)
                .unwrap_or_else(|e| panic!("{}: {e}\n{text}", form.name))
                .unitary()
                .expect("unitary");
            assert!(
                got.approx_eq(&want, 1e-12),
                "{}: the OpenQASM 3 import differs from the record\n{text}",
                form.name
            );
        }
        let text = format!("OPENQASM 2.0;\ninclude \"qelib1.inc\";\nqreg q[{n}];\n{call}\n");
        let got = import_qasm2(&text)
            .unwrap_or_else(|e| panic!("{}: {e}\n{text}", form.name))
            .unitary()
            .expect("unitary");
        assert!(
            got.approx_eq(&want, 1e-12),
            "{}: the OpenQASM 2 import differs from the record\n{text}",
            form.name
        );
    }
}

#[test]
fn a_register_named_like_a_vendor_gate_still_imports() {
    // The importer declares table names to `oq3_semantics` only when the program calls them, so
    // a register called `v` (Braket's name for `sx`) is no redeclaration.
    let text = "OPENQASM 3.0;\nqubit[1] v;\nbit[1] i;\nh v[0];\ni[0] = measure v[0];\n";
    let c = import_qasm3(text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!((c.num_qubits(), c.num_clbits()), (1, 1));
}

#[test]
fn a_wrong_count_on_a_table_name_is_an_error_with_its_place() {
    let e = import_qasm3("OPENQASM 3.0;\nqubit[2] q;\n  cu3(1, 2) q[0], q[1];\n")
        .expect_err("2 angles");
    assert_eq!(e.line, 3, "{e}");
    let e = import_qasm3("OPENQASM 3.0;\nqubit[2] q;\ncnot q[0];\n").expect_err("1 qubit");
    assert_eq!((e.line, e.column), (3, 1), "{e}");
}
