//! Small user gates that match no table gate are imported as one `Op::UserGate` (name, body,
//! matrix) and run as one matrix. Checked against independent truth: random bodies of rotations
//! and `cx` on 2 and 3 qubits, called plainly and under `ctrl @`/`negctrl @`, are simulated here
//! by a brute-force state vector built from hand-written 2x2 matrices (no qchess code), and every
//! simulator must give the same state and distribution; exporting and importing again keeps the
//! distribution; malformed user gates in IR JSON are refused by the verifier without a panic.

mod common;

use common::{assert_same, dist};
use qc_export::{export_qasm2, export_qasm3, import_qasm2, import_qasm3, ExportOptions};
use qc_ir::exec::{exact_distribution, run_instructions, ClassicalRecord};
use qc_ir::{Backend, Circuit, Complex64, Distribution, Op, Qubit};
use qc_sim::{DenseSim, ReferenceSparse, SparseSim};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::f64::consts::PI;

/// Qubits of the test programs.
const N: usize = 5;

/// One step of a random gate body, on the gate's local qubits.
#[derive(Clone, Copy, Debug)]
enum Step {
    /// `rx`, `ry` or `rz` by an angle.
    Rot(char, f64, usize),
    /// `cx control, target`.
    Cx(usize, usize),
}

/// A random user gate: its qubit count and body.
struct Def {
    name: String,
    qubits: usize,
    steps: Vec<Step>,
}

/// One call: the gate, its controls (qubit, value) and its targets.
struct Call {
    def: usize,
    controls: Vec<(usize, bool)>,
    targets: Vec<usize>,
}

fn random_def(rng: &mut ChaCha8Rng, name: String, qubits: usize) -> Def {
    let steps = (0..rng.gen_range(6..12))
        .map(|_| {
            if rng.gen_bool(0.35) {
                let c = rng.gen_range(0..qubits);
                let t = (c + rng.gen_range(1..qubits)) % qubits;
                Step::Cx(c, t)
            } else {
                let axis = ['x', 'y', 'z'][rng.gen_range(0..3)];
                Step::Rot(axis, rng.gen_range(-PI..PI), rng.gen_range(0..qubits))
            }
        })
        .collect();
    Def {
        name,
        qubits,
        steps,
    }
}

/// Distinct random qubits of the program.
fn distinct(rng: &mut ChaCha8Rng, n: usize) -> Vec<usize> {
    let mut all: Vec<usize> = (0..N).collect();
    for i in 0..n {
        let j = rng.gen_range(i..N);
        all.swap(i, j);
    }
    all.truncate(n);
    all
}

fn random_calls(rng: &mut ChaCha8Rng, defs: &[Def], modifiers: bool) -> Vec<Call> {
    (0..8)
        .map(|_| {
            let def = rng.gen_range(0..defs.len());
            let controls = if modifiers {
                rng.gen_range(0..=N - defs[def].qubits)
            } else {
                0
            };
            let qubits = distinct(rng, controls + defs[def].qubits);
            Call {
                def,
                controls: qubits[..controls]
                    .iter()
                    .map(|&q| (q, rng.gen_bool(0.5)))
                    .collect(),
                targets: qubits[controls..].to_vec(),
            }
        })
        .collect()
}

/// The program in OpenQASM 3 (or 2: no modifiers there): a layer of `ry` so every basis state
/// has an amplitude, the calls, then every qubit measured.
fn program(defs: &[Def], calls: &[Call], prep: &[f64], version3: bool) -> String {
    let mut s = String::new();
    if version3 {
        s.push_str("OPENQASM 3.0;\ninclude \"stdgates.inc\";\n");
    } else {
        s.push_str("OPENQASM 2.0;\ninclude \"qelib1.inc\";\n");
    }
    for d in defs {
        let args: Vec<String> = (0..d.qubits).map(|k| format!("a{k}")).collect();
        s.push_str(&format!("gate {} {} {{", d.name, args.join(", ")));
        for step in &d.steps {
            match *step {
                Step::Rot(axis, angle, q) => s.push_str(&format!(" r{axis}({angle}) a{q};")),
                Step::Cx(c, t) => s.push_str(&format!(" cx a{c}, a{t};")),
            }
        }
        s.push_str(" }\n");
    }
    if version3 {
        s.push_str(&format!("qubit[{N}] q;\nbit[{N}] c;\n"));
    } else {
        s.push_str(&format!("qreg q[{N}];\ncreg c[{N}];\n"));
    }
    for (k, angle) in prep.iter().enumerate() {
        s.push_str(&format!("ry({angle}) q[{k}];\n"));
    }
    for call in calls {
        let mut operands = Vec::new();
        for &(q, value) in &call.controls {
            s.push_str(if value { "ctrl @ " } else { "negctrl @ " });
            operands.push(format!("q[{q}]"));
        }
        operands.extend(call.targets.iter().map(|q| format!("q[{q}]")));
        s.push_str(&format!(
            "{} {};\n",
            defs[call.def].name,
            operands.join(", ")
        ));
    }
    if version3 {
        s.push_str("c = measure q;\n");
    } else {
        s.push_str("measure q -> c;\n");
    }
    s
}

// The brute-force truth: a state vector over N qubits (qubit k = bit k of the index) and
// 2x2 matrices written out here.

type M2 = [[Complex64; 2]; 2];

fn rotation(axis: char, theta: f64) -> M2 {
    let (c, s) = ((theta / 2.0).cos(), (theta / 2.0).sin());
    let z = Complex64::new(0.0, 0.0);
    let re = |x: f64| Complex64::new(x, 0.0);
    let im = |x: f64| Complex64::new(0.0, x);
    match axis {
        'x' => [[re(c), im(-s)], [im(-s), re(c)]],
        'y' => [[re(c), re(-s)], [re(s), re(c)]],
        _ => [
            [Complex64::from_polar(1.0, -theta / 2.0), z],
            [z, Complex64::from_polar(1.0, theta / 2.0)],
        ],
    }
}

fn pauli_x() -> M2 {
    let (o, l) = (Complex64::new(0.0, 0.0), Complex64::new(1.0, 0.0));
    [[o, l], [l, o]]
}

/// Applies `m` to `target` where every `(qubit, value)` control holds.
fn apply(state: &mut [Complex64], m: &M2, target: usize, controls: &[(usize, bool)]) {
    for i in 0..state.len() {
        let on = controls.iter().all(|&(q, v)| ((i >> q) & 1 == 1) == v);
        if !on || (i >> target) & 1 == 1 {
            continue;
        }
        let j = i | (1 << target);
        let (a, b) = (state[i], state[j]);
        state[i] = m[0][0] * a + m[0][1] * b;
        state[j] = m[1][0] * a + m[1][1] * b;
    }
}

fn truth(defs: &[Def], calls: &[Call], prep: &[f64]) -> Vec<Complex64> {
    let mut state = vec![Complex64::new(0.0, 0.0); 1 << N];
    state[0] = Complex64::new(1.0, 0.0);
    for (k, &angle) in prep.iter().enumerate() {
        apply(&mut state, &rotation('y', angle), k, &[]);
    }
    for call in calls {
        for step in &defs[call.def].steps {
            let mut controls = call.controls.clone();
            match *step {
                Step::Rot(axis, angle, q) => {
                    apply(
                        &mut state,
                        &rotation(axis, angle),
                        call.targets[q],
                        &controls,
                    );
                }
                Step::Cx(c, t) => {
                    controls.push((call.targets[c], true));
                    apply(&mut state, &pauli_x(), call.targets[t], &controls);
                }
            }
        }
    }
    state
}

/// The amplitudes `backend` holds after the gates of `circuit` (measurements left out).
fn amplitudes<B: Backend>(mut backend: B, circuit: &Circuit) -> Vec<Complex64> {
    let gates: Vec<_> = circuit
        .instructions()
        .iter()
        .filter(|i| !matches!(i.op, Op::Measure { .. }))
        .cloned()
        .collect();
    let mut record = ClassicalRecord::new(circuit.num_clbits());
    let mut never = |_: Option<qc_ir::Clbit>| qc_ir::MeasureChoice::Forced(false);
    run_instructions(&mut backend, &gates, &mut record, &mut never).expect("gates run");
    (0..1usize << N)
        .map(|i| {
            let ones: Vec<Qubit> = (0..N)
                .filter(|q| (i >> q) & 1 == 1)
                .map(|q| Qubit(q as u32))
                .collect();
            backend.amplitude(&ones)
        })
        .collect()
}

/// `a` and `b` are the same state up to a global phase.
fn assert_same_state(a: &[Complex64], b: &[Complex64], what: &str) {
    let k = (0..a.len())
        .max_by(|&i, &j| a[i].norm().total_cmp(&a[j].norm()))
        .expect("a state");
    let phase = b[k] / a[k];
    assert!((phase.norm() - 1.0).abs() < 1e-9, "{what}: norms differ");
    for (i, (x, y)) in a.iter().zip(b).enumerate() {
        assert!(
            (x * phase - y).norm() < 1e-9,
            "{what}: amplitude {i}: {x} vs {y}"
        );
    }
}

fn truth_distribution(state: &[Complex64]) -> Distribution {
    state
        .iter()
        .enumerate()
        .filter(|(_, a)| a.norm_sqr() > 1e-12)
        .map(|(i, a)| ((0..N).map(|q| (i >> q) & 1 == 1).collect(), a.norm_sqr()))
        .collect()
}

fn user_gate_count(c: &Circuit) -> usize {
    c.instructions()
        .iter()
        .filter(|i| matches!(i.op, Op::UserGate { .. }))
        .count()
}

/// Random programs, their truth, and the imported circuit, for OpenQASM 3 or 2.
fn cases(version3: bool) -> Vec<(String, Vec<Complex64>, Circuit)> {
    let mut out = Vec::new();
    for seed in 0..6u64 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let defs = vec![
            random_def(&mut rng, "u2a".into(), 2),
            random_def(&mut rng, "u3a".into(), 3),
            random_def(&mut rng, "u3b".into(), 3),
        ];
        let calls = random_calls(&mut rng, &defs, version3 && seed % 2 == 1);
        let prep: Vec<f64> = (0..N).map(|_| rng.gen_range(0.3..2.8)).collect();
        let text = program(&defs, &calls, &prep, version3);
        let circuit = if version3 {
            import_qasm3(&text)
        } else {
            import_qasm2(&text)
        }
        .unwrap_or_else(|e| panic!("{e}\n{text}"));
        assert_eq!(user_gate_count(&circuit), calls.len(), "{text}");
        qc_ir::verify(&circuit).unwrap_or_else(|e| panic!("{e}\n{text}"));
        out.push((text, truth(&defs, &calls, &prep), circuit));
    }
    out
}

qc_sim::for_each_backend!(random_user_gates_match_the_brute_force_state, |backend| {
    for version3 in [true, false] {
        for (text, want, circuit) in cases(version3) {
            assert_same_state(&want, &amplitudes(backend(), &circuit), &text);
            let mut sim = backend();
            let got = exact_distribution(&mut sim, &circuit).expect("distribution");
            assert_same(&truth_distribution(&want), &got, &text);
        }
    }
});

#[test]
fn the_inlined_form_and_the_optimised_form_agree_with_the_truth() {
    for (text, want, circuit) in cases(true) {
        let inlined = qc_ir::passes::inline_user_gates(&circuit);
        assert_eq!(user_gate_count(&inlined), 0);
        assert_same_state(&want, &amplitudes(ReferenceSparse::new(), &inlined), &text);
        let (optimised, _) = qc_ir::passes::optimize(&circuit);
        assert_same_state(&want, &amplitudes(DenseSim::new(), &optimised), &text);
    }
}

#[test]
fn export_and_import_again_keep_the_distribution() {
    for (text, _, circuit) in cases(true).into_iter().chain(cases(false)) {
        let want = dist(&circuit, N);
        for options in [
            ExportOptions::default(),
            ExportOptions {
                optimize: false,
                ..Default::default()
            },
        ] {
            let e3 = export_qasm3(&circuit, &[], &options).expect("export 3");
            let back3 = import_qasm3(&e3.text).unwrap_or_else(|e| panic!("{e}\n{}", e3.text));
            assert_same(&want, &dist(&back3, N), &format!("{text}\n{}", e3.text));
            let e2 = export_qasm2(&circuit, &[], &options).expect("export 2");
            let back2 = import_qasm2(&e2.text).unwrap_or_else(|e| panic!("{e}\n{}", e2.text));
            assert_same(&want, &dist(&back2, N), &format!("{text}\n{}", e2.text));
        }
    }
}

#[test]
fn table_gates_and_phased_controlled_bodies_stay_inlined() {
    // `iswap` written out is a table gate: inlined, then recognised by the passes. `ph` has a
    // global phase, observable under `ctrl @`: inlined there, one user gate uncontrolled.
    let text = "OPENQASM 3.0;\ninclude \"stdgates.inc\";\n\
        gate myiswap a, b { s a; s b; h a; cx a, b; cx b, a; h b; }\n\
        gate ph a, b { gphase(0.4); ry(0.3) a; cx a, b; rz(0.2) b; }\n\
        qubit[3] q;\nmyiswap q[0], q[1];\nph q[1], q[2];\nctrl @ ph q[0], q[1], q[2];\n";
    let c = import_qasm3(text).expect("import");
    assert_eq!(user_gate_count(&c), 1);
    let names: Vec<&str> = c
        .instructions()
        .iter()
        .filter_map(|i| match &i.op {
            Op::UserGate { gate, .. } => Some(gate.name()),
            _ => None,
        })
        .collect();
    assert_eq!(names, ["ph"]);
}

#[test]
fn the_same_call_shares_one_gate() {
    let mut rng = ChaCha8Rng::seed_from_u64(9);
    let defs = vec![random_def(&mut rng, "g".into(), 2)];
    let calls = random_calls(&mut rng, &defs, false);
    let c = import_qasm3(&program(&defs, &calls, &[0.5; N], true)).expect("import");
    let gates: Vec<_> = c
        .instructions()
        .iter()
        .filter_map(|i| match &i.op {
            Op::UserGate { gate, .. } => Some(std::sync::Arc::as_ptr(gate)),
            _ => None,
        })
        .collect();
    assert_eq!(gates.len(), calls.len());
    assert!(gates.windows(2).all(|w| w[0] == w[1]));
}

#[test]
fn a_user_gate_keeps_the_angles_of_its_call() {
    let text = "OPENQASM 3.0;\ninclude \"stdgates.inc\";\n\
        gate g(t, u) a, b { ry(t) a; cx a, b; rx(u) b; }\nqubit[2] q;\n\
        g(pi/2, 0.3) q[0], q[1];\ng(0.1, 0.3) q[1], q[0];\n";
    let c = import_qasm3(text).expect("import");
    let params: Vec<Vec<f64>> = c
        .instructions()
        .iter()
        .filter_map(|i| match &i.op {
            Op::UserGate { gate, .. } => Some(gate.params().to_vec()),
            _ => None,
        })
        .collect();
    assert_eq!(
        params,
        [vec![std::f64::consts::FRAC_PI_2, 0.3], vec![0.1, 0.3]]
    );
    // The IR JSON keeps them.
    let json = serde_json::to_string(&c).expect("json");
    let back = qc_export::circuit_format::parse_circuit_as(
        qc_export::circuit_format::CircuitFormat::Json,
        &json,
    )
    .expect("read back");
    assert_eq!(back, c);
    // An angle that is not finite is refused by the verifier.
    let Op::UserGate { gate, .. } = &c.instructions()[0].op else {
        panic!("a user gate first")
    };
    let nan = (**gate).clone().with_params(&[f64::NAN]);
    assert!(matches!(
        nan.check(),
        Err(qc_ir::UserGateError::NonFiniteParam { .. })
    ));
}

/// The IR JSON of a circuit whose only instruction is a user gate, with `edit` applied to it.
fn edited_json(edit: impl Fn(&mut serde_json::Value)) -> String {
    let text = "OPENQASM 3.0;\ninclude \"stdgates.inc\";\n\
        gate g a, b { ry(0.3) a; cx a, b; rx(0.7) b; }\nqubit[2] q;\ng q[0], q[1];\n";
    let c = import_qasm3(text).expect("import");
    let mut json = serde_json::to_value(&c).expect("json");
    let gate = &mut json["instructions"][0]["gate"];
    assert!(gate.is_object(), "{json}");
    edit(gate);
    json.to_string()
}

#[test]
fn user_gates_survive_json_and_malformed_ones_are_refused() {
    use qc_export::circuit_format::{parse_circuit_as, CircuitFormat};
    use qc_ir::{UserGateError, VerifyErrorKind};
    let read = |text: &str| parse_circuit_as(CircuitFormat::Json, text).expect("valid JSON");
    let good = read(&edited_json(|_| {}));
    qc_ir::verify(&good).expect("a good gate verifies");
    assert_eq!(user_gate_count(&good), 1);
    let problems = |text: String| -> Vec<VerifyErrorKind> {
        match qc_ir::verify(&read(&text)) {
            Ok(()) => panic!("accepted: {text}"),
            Err(e) => e.0.into_iter().map(|e| e.kind).collect(),
        }
    };
    // A matrix entry changed: no longer unitary.
    let bad = problems(edited_json(|g| {
        g["matrix"]["data"][0] = serde_json::json!([0.5, 0.0])
    }));
    assert!(matches!(
        bad[0],
        VerifyErrorKind::UserGate(UserGateError::NotUnitary { .. })
    ));
    // A unitary that is not the body's: rows 0 and 1 exchanged.
    let swapped = problems(edited_json(|g| {
        let data = g["matrix"]["data"].as_array_mut().expect("entries");
        for c in 0..4 {
            data.swap(c, 4 + c);
        }
    }));
    assert!(matches!(
        swapped[0],
        VerifyErrorKind::UserGate(UserGateError::BodyMismatch { .. })
    ));
    // A huge declared size with few entries, and four qubits: refused before any arithmetic.
    let huge = problems(edited_json(|g| {
        g["matrix"]["dim"] = serde_json::json!(1u64 << 40)
    }));
    assert!(matches!(
        huge[0],
        VerifyErrorKind::UserGate(UserGateError::MatrixSize { .. })
    ));
    let wide = problems(edited_json(|g| g["num_qubits"] = serde_json::json!(4)));
    assert!(matches!(
        wide[0],
        VerifyErrorKind::UserGate(UserGateError::QubitCount { qubits: 4, .. })
    ));
    // A body gate outside the gate's qubits, and a name that is no identifier.
    let outside = problems(edited_json(|g| {
        g["body"][0]["targets"] = serde_json::json!([7]);
    }));
    assert!(matches!(
        outside[0],
        VerifyErrorKind::UserGate(UserGateError::BadBody { index: 0, .. })
    ));
    let named = problems(edited_json(|g| g["name"] = serde_json::json!("no name")));
    assert!(matches!(
        named[0],
        VerifyErrorKind::UserGate(UserGateError::BadName(_))
    ));
}

#[test]
fn a_backend_refuses_a_matrix_of_the_wrong_size() {
    let m = qc_ir::Matrix::identity(4);
    let err = SparseSim::new()
        .apply_matrix(&m, &[Qubit(0)], &[])
        .expect_err("4x4 on one target");
    assert!(matches!(
        err,
        qc_ir::BackendError::MatrixSize { dim: 4, targets: 1 }
    ));
    assert!(ReferenceSparse::new()
        .apply_matrix(&m, &[Qubit(0)], &[])
        .is_err());
    assert!(DenseSim::new().apply_matrix(&m, &[Qubit(0)], &[]).is_err());
}
