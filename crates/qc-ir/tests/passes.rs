//! The passes against independent truth: textbook decompositions that must be recognised as the
//! gate they implement, and optimised circuits whose unitary (computed by the reference
//! `Circuit::unitary`) must equal the original's exactly, global phase included.

use proptest::prelude::*;
use qc_ir::passes::{fold_gate, optimize, recognise, resolve_controls, GateFold, Recognised};
use qc_ir::{text, Circuit, Complex64, Control, Gate, GateKind, Instruction, Qubit};

fn body(lines: &str, qubits: &str) -> Vec<Instruction> {
    let c = text::parse(&format!("qcir 1\nqubits {qubits}\n{lines}")).expect("test body parses");
    c.instructions().to_vec()
}

fn found(gate: Gate, targets: &[u32], controls: &[Control], exact: bool) -> impl Fn(Recognised) {
    let targets: Vec<Qubit> = targets.iter().map(|&q| Qubit(q)).collect();
    let controls = controls.to_vec();
    move |r: Recognised| {
        assert_eq!(r.gate, gate);
        let same = r.targets == targets || {
            let mut rev = targets.clone();
            rev.reverse();
            gate.num_targets() == 2 && r.targets == rev
        };
        assert!(same, "targets {:?}, expected {:?}", r.targets, targets);
        assert_eq!(r.controls, controls);
        assert_eq!(r.is_exact(), exact, "phase {}", r.phase);
    }
}

// The qchess library bodies (qc-export's library.rs, written out again here on purpose: these are
// the decompositions of the papers, checked against the table gates).
const ISWAP: &str = "s q0\ns q1\nh q0\nx q1 ctrl(q0=1)\nx q0 ctrl(q1=1)\nh q1\n";
const SISWAP: &str = "s q0\nry(pi/2) q1\nx q0 ctrl(q1=1)\nry(pi/4) q0\nry(pi/4) q1\nx q0 ctrl(q1=1)\nsdg q0\nry(-pi/2) q1\n";
const CISWAP: &str = "s q0\nry(pi/2) q1\nx q0 ctrl(q1=1)\nry(pi/2) q0 ctrl(q2=1)\nry(pi/2) q1 ctrl(q2=1)\nx q0 ctrl(q1=1)\nsdg q0\nry(-pi/2) q1\n";

#[test]
fn library_iswap_body_is_iswap_exactly() {
    let r = recognise(&body(ISWAP, "q0 q1"), 2).expect("recognised");
    found(Gate::ISwap, &[0, 1], &[], true)(r);
}

#[test]
fn library_siswap_body_is_sqrt_iswap_exactly() {
    let r = recognise(&body(SISWAP, "q0 q1"), 2).expect("recognised");
    found(Gate::SqrtISwap, &[0, 1], &[], true)(r);
}

#[test]
fn controlled_iswap_body_is_a_controlled_iswap_and_x_wrapped_one_a_zero_control() {
    let r = recognise(&body(CISWAP, "q0 q1 q2"), 3).expect("recognised");
    found(Gate::ISwap, &[0, 1], &[Control::one(Qubit(2))], true)(r);
    let wrapped = format!("x q2\n{CISWAP}x q2\n");
    let r = recognise(&body(&wrapped, "q0 q1 q2"), 3).expect("recognised");
    found(Gate::ISwap, &[0, 1], &[Control::zero(Qubit(2))], true)(r);
}

#[test]
fn toffoli_from_t_gates_is_a_doubly_controlled_x() {
    // Nielsen & Chuang, figure 4.9.
    let ccx = "h q3\nx q3 ctrl(q1=1)\ntdg q3\nx q3 ctrl(q0=1)\nt q3\nx q3 ctrl(q1=1)\ntdg q3\nx q3 ctrl(q0=1)\nt q1\nt q3\nh q3\nx q1 ctrl(q0=1)\nt q0\ntdg q1\nx q1 ctrl(q0=1)\n";
    let r = recognise(&body(ccx, "q0 q1 q3"), 3).expect("recognised");
    found(
        Gate::X,
        &[2],
        &[Control::one(Qubit(0)), Control::one(Qubit(1))],
        true,
    )(r);
}

#[test]
fn global_phase_is_reported_and_only_a_match_up_to_phase() {
    // rx(pi) = -i X.
    let r = recognise(&body("rx(pi) q0\n", "q0"), 1).expect("recognised");
    found(Gate::X, &[0], &[], false)(r.clone());
    assert!((r.phase + std::f64::consts::FRAC_PI_2).abs() < 1e-12);
    // h h = I exactly; a body on two qubits that leaves one alone.
    found(Gate::I, &[0], &[], true)(recognise(&body("h q0\nh q0\n", "q0"), 1).unwrap());
    found(Gate::H, &[1], &[], true)(recognise(&body("h q1\n", "q0 q1"), 2).unwrap());
}

/// Every single-qubit unitary is one gate (`u` at worst), whatever its angle: before, a
/// rotation by more than pi/2 with a phase between its rows (`u(2.5, -2.9, -1.4)`, whose
/// off-diagonal entries are the larger) was not recognised at all.
#[test]
fn every_single_qubit_unitary_is_recognised() {
    for i in 0..=40 {
        let theta = std::f64::consts::PI * f64::from(i) / 40.0;
        for (phi, lambda) in [(0.0, 0.0), (-2.9357, -1.4461), (1.3, 2.7), (3.1, -0.2)] {
            let gate = Gate::U(theta, phi, lambda);
            let r = qc_ir::passes::recognise_unitary(&gate.matrix())
                .unwrap_or_else(|| panic!("u({theta}, {phi}, {lambda}) not recognised"));
            assert!(
                r.gate.matrix().approx_eq_up_to_phase(&gate.matrix(), 1e-9) || r.gate == Gate::I
            );
        }
    }
}

#[test]
fn bodies_that_are_no_table_gate_are_not_recognised() {
    // A Bell-state preparation entangles: no single gate with controls.
    assert_eq!(
        recognise(&body("h q0\nx q1 ctrl(q0=1)\n", "q0 q1"), 2),
        None
    );
    // Four qubits: not searched.
    assert_eq!(
        recognise(&body("x q3 ctrl(q0=1, q1=1, q2=1)\n", "q0 q1 q2 q3"), 4),
        None
    );
}

#[test]
fn x_wrapped_zero_controls_and_inverse_pairs_go() {
    // The wraps and pairs on three qubits or fewer go as runs that are one gate (or none).
    let c = text::parse(
        "qcir 1\nqubits q0 q1 q2 q3\nx q0\nx q1\nx q3 ctrl(q0=1, q1=1)\nx q0\nx q1\nh q2\nsqiswap q2, q3\nsqiswapdg q3, q2\nh q2\nrz(0) q3\ni q0\nx q3 ctrl(q2=1)\n",
    )
    .unwrap();
    let (opt, report) = optimize(&c);
    let expected =
        text::parse("qcir 1\nqubits q0 q1 q2 q3\nx q3 ctrl(q0=0, q1=0)\nx q3 ctrl(q2=1)\n")
            .unwrap();
    assert_eq!(opt.instructions(), expected.instructions());
    assert_eq!(report.removed(), c.instructions().len() - 2);
    // Around a gate on four qubits (no run of it is searched) the passes of their own do it.
    let c = text::parse(
        "qcir 1\nqubits q0 q1 q2 q3\nx q0\nx q1\nx q3 ctrl(q0=1, q1=1, q2=1)\nx q0\nx q1\nsqiswap q2, q3 ctrl(q0=1, q1=1)\nsqiswapdg q3, q2 ctrl(q1=1, q0=1)\nrz(0) q3 ctrl(q0=1, q1=1, q2=1)\n",
    )
    .unwrap();
    let (opt, report) = optimize(&c);
    let expected =
        text::parse("qcir 1\nqubits q0 q1 q2 q3\nx q3 ctrl(q0=0, q1=0, q2=1)\n").unwrap();
    assert_eq!(opt.instructions(), expected.instructions());
    assert_eq!(report.x_wraps_absorbed, 2);
    assert_eq!(report.inverse_pairs_cancelled, 1);
    assert_eq!(report.identities_dropped, 1);
    assert_eq!(report.runs_replaced, 0);
}

#[test]
fn an_x_wrap_around_a_target_use_stays() {
    // (The H is controlled so that no run of the four gates is one table gate.)
    let c = text::parse("qcir 1\nqubits q0 q2 q3\nx q0\nh q0 ctrl(q2=1)\nx q3 ctrl(q0=1)\nx q0\n")
        .unwrap();
    let (opt, _) = optimize(&c);
    assert_eq!(opt.instructions(), c.instructions());
}

/// A random gate on 4 qubits drawn from a small set rich in X-wraps and inverse pairs, or from
/// every kind of the table (`GateKind::ALL`, with its inverse and, for rotations, a zero angle).
fn instruction() -> impl Strategy<Value = Instruction> {
    let every_kind: Vec<Gate> = GateKind::ALL
        .into_iter()
        .flat_map(|k| {
            let g = k.example();
            let zero = k.with_params(&vec![0.0; k.info().params]);
            [Some(g), Some(g.inverse()), zero]
        })
        .flatten()
        .collect();
    let gates = prop_oneof![
        prop::sample::select(every_kind),
        prop::sample::select(vec![
            Gate::X,
            Gate::H,
            Gate::S,
            Gate::Sdg,
            Gate::T,
            Gate::ISwap,
            Gate::ISwapDg,
            Gate::SqrtISwap,
            Gate::SqrtISwapDg,
            Gate::Rz(0.0),
            Gate::Ry(0.7),
            Gate::Ry(-0.7),
        ])
    ];
    (
        gates,
        Just([0u32, 1, 2, 3]).prop_shuffle(),
        0usize..3,
        any::<[bool; 2]>(),
    )
        .prop_map(|(gate, qs, ncontrols, polarity)| {
            let k = gate.num_targets();
            let targets: Vec<Qubit> = qs[..k].iter().map(|&q| Qubit(q)).collect();
            let controls: Vec<Control> = qs[k..k + ncontrols.min(4 - k)]
                .iter()
                .zip(polarity)
                .map(|(&q, on)| Control::when(Qubit(q), on))
                .collect();
            Instruction::gate(gate, &targets, &controls)
        })
}

proptest! {
    #[test]
    fn optimised_circuits_have_the_same_unitary(
        gates in prop::collection::vec(prop_oneof![
            3 => instruction(),
            2 => (0u32..4, prop::sample::select(vec![Gate::X, Gate::H, Gate::T, Gate::SX]))
                .prop_map(|(q, gate)| Instruction::gate(gate, &[Qubit(q)], &[])),
            2 => (0u32..4).prop_map(|q| Instruction::gate(Gate::X, &[Qubit(q)], &[])),
        ], 0..40)
    ) {
        let mut c = Circuit::with_plain_qubits(4, 0);
        c.extend(gates);
        let (opt, report) = optimize(&c);
        prop_assert_eq!(opt.instructions().len() + report.removed(), c.instructions().len());
        let before = c.unitary().unwrap();
        let after = opt
            .unitary()
            .unwrap()
            .scale(Complex64::from_polar(1.0, report.global_phase));
        prop_assert!(before.approx_eq(&after, 1e-12), "distance {}", before.max_distance(&after));
    }
}

/// Column `x` of `m` (the image of basis state `x`).
fn column(m: &qc_ir::Matrix, x: usize) -> Vec<Complex64> {
    (0..m.dim()).map(|r| m.get(r, x)).collect()
}

proptest! {
    /// The folding core (`fold_gate`) against the instruction's own unitary, on every basis state
    /// the known values allow: a dropped gate leaves each of them exactly as it was; a gate that
    /// acts does what the same gate with only the controls left does, and every basis state it
    /// reaches has the values it says are known afterwards (and, with no control left and known
    /// inputs mapped to one basis state, it knows them all).
    #[test]
    fn folding_a_gate_on_known_values_keeps_its_action(
        instr in instruction(),
        known in prop::collection::vec(prop::option::of(any::<bool>()), 4),
    ) {
        let qc_ir::Op::Gate { gate, targets, controls } = &instr.op else { unreachable!() };
        let unitary_of = |controls: &[Control]| {
            let mut c = Circuit::with_plain_qubits(4, 0);
            c.extend([Instruction::gate(*gate, targets, controls)]);
            c.unitary().unwrap()
        };
        let full = unitary_of(controls);
        let fold = fold_gate(*gate, targets, controls, |q| known[q.index()]);
        let allowed = (0..16usize).filter(|x| {
            known.iter().enumerate().all(|(q, k)| k.is_none_or(|v| (x >> q) & 1 == usize::from(v)))
        });
        match &fold {
            GateFold::Drop => {
                for x in allowed {
                    let mut unit = vec![Complex64::new(0.0, 0.0); 16];
                    unit[x] = Complex64::new(1.0, 0.0);
                    let image = column(&full, x);
                    let distance = image.iter().zip(&unit).map(|(a, b)| (a - b).norm()).fold(0.0, f64::max);
                    prop_assert!(distance < 1e-12, "dropped, yet |{x:04b}> moves: {fold:?}");
                }
            }
            GateFold::Act { controls: left, after } => {
                prop_assert!(left.iter().all(|c| known[c.qubit.index()].is_none()));
                let reduced = unitary_of(left);
                for x in allowed {
                    let image = column(&full, x);
                    let distance = image
                        .iter()
                        .zip(column(&reduced, x))
                        .map(|(a, b)| (a - b).norm())
                        .fold(0.0, f64::max);
                    prop_assert!(distance < 1e-12, "controls left {left:?} act differently on |{x:04b}>");
                    let reached: Vec<usize> = (0..16).filter(|&r| image[r].norm() > 1e-9).collect();
                    for (t, a) in targets.iter().zip(after) {
                        if let Some(v) = a {
                            prop_assert!(
                                reached.iter().all(|r| (r >> t.index()) & 1 == usize::from(*v)),
                                "{t:?} said to be {v} after, not so from |{x:04b}>"
                            );
                        }
                    }
                    let inputs_known = targets.iter().all(|t| known[t.index()].is_some());
                    if left.is_empty() && inputs_known && reached.len() == 1 {
                        prop_assert!(after.iter().all(Option::is_some), "{after:?} from |{x:04b}>");
                    }
                }
            }
        }
    }
}

#[test]
fn controls_known_to_hold_go_and_one_known_to_fail_drops_the_gate() {
    let known = |q: Qubit| [Some(true), Some(false), None][q.index()];
    let resolved = resolve_controls(
        &[
            Control::one(Qubit(0)),
            Control::zero(Qubit(1)),
            Control::zero(Qubit(2)),
        ],
        known,
    );
    assert_eq!(
        resolved.as_deref(),
        Some([Control::zero(Qubit(2))].as_slice())
    );
    assert_eq!(resolve_controls(&[Control::zero(Qubit(0))], known), None);
    // One qubit controlled twice: once with one polarity, never with both.
    let twice = [Control::one(Qubit(2)), Control::one(Qubit(2))];
    assert_eq!(resolve_controls(&twice, known).map(|c| c.len()), Some(1));
    let both = [Control::one(Qubit(2)), Control::zero(Qubit(2))];
    assert_eq!(resolve_controls(&both, known), None);
}
