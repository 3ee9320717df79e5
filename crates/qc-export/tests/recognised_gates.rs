//! User gates whose body is a table gate come back as that gate after import and the pass manager
//! (`qc_ir::passes::optimize`, which knows nothing of the importer): the circuit must have the
//! same unitary as the program written out with its bodies inlined by hand, up to the global phase
//! the passes report, and must hold the table gates instead of their decompositions.

use qc_ir::passes::optimize;
use qc_ir::{Circuit, Complex64, Gate, Op, Polarity};

const LIBRARY: &str = "OPENQASM 3.0;\ninclude \"stdgates.inc\";\n\
gate iswap a, b { s a; s b; h a; cx a, b; cx b, a; h b; }\n\
gate siswap a, b { s a; ry(pi/2) b; cx b, a; ry(pi/4) a; ry(pi/4) b; cx b, a; sdg a; ry(-pi/2) b; }\n\
gate ciswap c, a, b { s a; ry(pi/2) b; cx b, a; cry(pi/2) c, a; cry(pi/2) c, b; cx b, a; sdg a; ry(-pi/2) b; }\n\
gate nciswap c, a, b { x c; ciswap c, a, b; x c; }\n\
gate phased_x a { gphase(pi/2); x a; }\n";

fn import(program: &str) -> Circuit {
    qc_export::import_qasm3(program).unwrap_or_else(|e| panic!("{e}\n{program}"))
}

/// The imported program after the passes, and the global phase they dropped.
fn optimised(program: &str) -> (Circuit, f64) {
    let (c, report) = optimize(&import(program));
    (c, report.global_phase)
}

fn gates(c: &Circuit) -> Vec<(Gate, usize, Vec<Polarity>)> {
    c.instructions()
        .iter()
        .filter_map(|i| match &i.op {
            Op::Gate {
                gate,
                targets,
                controls,
            } => Some((
                *gate,
                targets.len(),
                controls.iter().map(|c| c.on).collect(),
            )),
            _ => None,
        })
        .collect()
}

/// `a` times `e^{i phase}` has the unitary of `b`.
fn assert_same_unitary(a: &Circuit, phase: f64, b: &Circuit) {
    let ua = a
        .unitary()
        .unwrap()
        .scale(Complex64::from_polar(1.0, phase));
    let ub = b.unitary().unwrap();
    assert!(
        ua.approx_eq(&ub, 1e-12),
        "distance {}",
        ua.max_distance(&ub)
    );
}

#[test]
fn library_gates_import_as_table_gates_with_the_inlined_unitary() {
    let calls = "qubit[4] q;\nsiswap q[0], q[1];\nnciswap q[2], q[0], q[3];\nciswap q[1], q[3], q[2];\niswap q[3], q[0];\ninv @ siswap q[2], q[1];\n";
    let (recognised, phase) = optimised(&format!("{LIBRARY}{calls}"));
    // The same calls with every body written out by hand (inv @ siswap reversed and inverted).
    let inlined = import(
        "OPENQASM 3.0;\ninclude \"stdgates.inc\";\nqubit[4] q;\n\
s q[0]; ry(pi/2) q[1]; cx q[1], q[0]; ry(pi/4) q[0]; ry(pi/4) q[1]; cx q[1], q[0]; sdg q[0]; ry(-pi/2) q[1];\n\
x q[2]; s q[0]; ry(pi/2) q[3]; cx q[3], q[0]; cry(pi/2) q[2], q[0]; cry(pi/2) q[2], q[3]; cx q[3], q[0]; sdg q[0]; ry(-pi/2) q[3]; x q[2];\n\
s q[3]; ry(pi/2) q[2]; cx q[2], q[3]; cry(pi/2) q[1], q[3]; cry(pi/2) q[1], q[2]; cx q[2], q[3]; sdg q[3]; ry(-pi/2) q[2];\n\
s q[3]; s q[0]; h q[3]; cx q[3], q[0]; cx q[0], q[3]; h q[0];\n\
ry(pi/2) q[1]; s q[2]; cx q[1], q[2]; ry(-pi/4) q[1]; ry(-pi/4) q[2]; cx q[1], q[2]; ry(-pi/2) q[1]; sdg q[2];\n",
    );
    assert_same_unitary(&recognised, phase, &inlined);
    assert_eq!(
        gates(&recognised),
        vec![
            (Gate::SqrtISwap, 2, vec![]),
            (Gate::ISwap, 2, vec![Polarity::Zero]),
            (Gate::ISwap, 2, vec![Polarity::One]),
            (Gate::ISwap, 2, vec![]),
            (Gate::SqrtISwapDg, 2, vec![]),
        ]
    );
}

#[test]
fn a_body_equal_only_up_to_phase_is_that_gate_only_where_uncontrolled() {
    // Uncontrolled: the phase is global, so `phased_x` is X.
    let (plain, _) = optimised(&format!("{LIBRARY}qubit[2] q;\nphased_x q[1];\n"));
    assert_eq!(gates(&plain), vec![(Gate::X, 1, vec![])]);
    // Controlled: the phase becomes S on the control, so the result is no CX alone.
    let (controlled, phase) = optimised(&format!(
        "{LIBRARY}qubit[2] q;\nctrl @ phased_x q[0], q[1];\n"
    ));
    let by_hand =
        import("OPENQASM 3.0;\ninclude \"stdgates.inc\";\nqubit[2] q;\ncx q[0], q[1];\ns q[0];\n");
    assert_same_unitary(&controlled, phase, &by_hand);
    assert_ne!(gates(&controlled), vec![(Gate::X, 1, vec![Polarity::One])]);
    // A controlled call of an exactly recognised gate is the controlled table gate.
    let (c, phase) = optimised(&format!(
        "{LIBRARY}qubit[3] q;\nnegctrl @ iswap q[0], q[1], q[2];\n"
    ));
    assert_eq!(gates(&c), vec![(Gate::ISwap, 2, vec![Polarity::Zero])]);
    assert!(phase.abs() < 1e-12, "phase {phase}");
}
