//! print -> parse round trip of the text format, and JSON, on random circuits with every kind of
//! instruction, qubit role, condition and origin.

use proptest::prelude::*;
use qc_ir::{
    AncillaKind, Circuit, Clbit, Condition, Control, Gate, Guard, Instruction, Op, Origin, Qubit,
    QubitRole, Site,
};

fn role() -> impl Strategy<Value = QubitRole> {
    prop_oneof![
        (0usize..64).prop_map(|i| QubitRole::Site(Site::from_index(i).unwrap())),
        prop::sample::select(AncillaKind::ALL.to_vec()).prop_map(QubitRole::Ancilla),
        Just(QubitRole::Plain),
    ]
}

fn angle() -> impl Strategy<Value = f64> {
    prop_oneof![
        any::<f64>().prop_filter("finite", |x| x.is_finite()),
        (-16i32..=16, prop::sample::select(vec![1i32, 2, 4, 8]))
            .prop_map(|(k, d)| k as f64 * std::f64::consts::PI / d as f64),
    ]
}

fn gate() -> impl Strategy<Value = Gate> {
    prop_oneof![
        prop::sample::select(Gate::examples().collect::<Vec<_>>()),
        angle().prop_map(Gate::Rx),
        angle().prop_map(Gate::Phase),
        (angle(), angle(), angle()).prop_map(|(a, b, c)| Gate::U(a, b, c)),
    ]
}

fn instruction(nq: u32, nc: u32) -> impl Strategy<Value = Instruction> {
    let op = prop_oneof![
        (
            gate(),
            prop::collection::vec((0..nq, any::<bool>()), 0..3),
            0..nq,
            0..nq
        )
            .prop_map(|(gate, controls, a, b)| {
                let targets: Vec<Qubit> = if gate.num_targets() == 2 {
                    vec![Qubit(a), Qubit(b)]
                } else {
                    vec![Qubit(a)]
                };
                let controls: Vec<Control> = controls
                    .into_iter()
                    .map(|(q, p)| {
                        if p {
                            Control::one(Qubit(q))
                        } else {
                            Control::zero(Qubit(q))
                        }
                    })
                    .collect();
                Op::Gate {
                    gate,
                    targets: targets.into(),
                    controls: controls.into(),
                }
            }),
        (0..nq, 0..nc).prop_map(|(q, c)| Op::Measure {
            qubit: Qubit(q),
            clbit: Clbit(c)
        }),
        (0..nq).prop_map(|q| Op::Reset { qubit: Qubit(q) }),
        (0..nq).prop_map(|q| Op::Alloc { qubit: Qubit(q) }),
        (0..nq).prop_map(|q| Op::Free { qubit: Qubit(q) }),
        (
            0..nq,
            prop_oneof![
                (0u32..100_000).prop_map(f64::from),
                any::<f64>().prop_filter("a delay's duration", |d| d.is_finite() && *d >= 0.0),
            ]
        )
            .prop_map(|(q, duration)| Op::Delay {
                qubit: Qubit(q),
                duration: duration + 0.0,
            }),
    ];
    // One bit, or a conjunction of up to three (a contradictory draw is no condition).
    let condition = prop::option::of(prop::collection::vec((0..nc, any::<bool>()), 1..=3))
        .prop_map(|tests| {
            tests.and_then(|tests| {
                Guard::all(tests.into_iter().map(|(c, v)| Condition {
                    clbit: Clbit(c),
                    value: v,
                }))
                .ok()
            })
        });
    let origin = prop::option::of((0u32..500, "[a-z_]{1,12}").prop_map(|(m, r)| Origin {
        move_index: m,
        rule: r.into(),
    }));
    (op, condition, origin).prop_map(|(op, condition, origin)| Instruction {
        op,
        condition,
        origin,
    })
}

fn circuit() -> impl Strategy<Value = Circuit> {
    (prop::collection::vec(role(), 1..10), 1u32..5).prop_flat_map(|(mut roles, nc)| {
        // Square names must be unique.
        let mut seen = std::collections::BTreeSet::new();
        roles.retain(|r| !matches!(r, QubitRole::Site(s) if !seen.insert(*s)));
        let nq = roles.len() as u32;
        prop::collection::vec(instruction(nq, nc), 0..20)
            .prop_map(move |instrs| Circuit::from_parts(roles.clone(), nc, instrs))
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 500, ..ProptestConfig::default() })]

    /// The text form is structural: it round-trips even circuits the verifier would reject.
    #[test]
    fn text_round_trip(c in circuit()) {
        let text = qc_ir::text::print(&c);
        let back = qc_ir::text::parse(&text).map_err(|e| TestCaseError::fail(format!("{e}\n{text}")))?;
        prop_assert_eq!(&back, &c, "{}", text);
        prop_assert_eq!(qc_ir::text::print(&back), text);
    }

    #[test]
    fn json_round_trip(c in circuit()) {
        let json = serde_json::to_string(&c).unwrap();
        let back: Circuit = serde_json::from_str(&json).unwrap();
        prop_assert_eq!(back, c);
    }
}

/// A delay reads back from text and JSON; a negative, infinite or unit-less duration is a
/// parse error naming it, and the verifier refuses a bad one built in code.
#[test]
fn delays_read_write_and_bad_durations_are_refused() {
    let text = "qcir 1\nqubits q0\nclbits 0\ndelay(120.5ns) q0\n";
    let c = qc_ir::text::parse(text).expect("a delay");
    assert_eq!(
        c.instructions()[0].op,
        Op::Delay {
            qubit: Qubit(0),
            duration: 120.5
        }
    );
    assert_eq!(qc_ir::text::print(&c), text);
    for bad in [
        "delay(-1ns) q0",
        "delay(infns) q0",
        "delay(120) q0",
        "delay(NaNns) q0",
    ] {
        let err = qc_ir::text::parse(&format!("qubits q0\n{bad}\n")).unwrap_err();
        assert!(err.to_string().contains("delay"), "{bad}: {err}");
    }
    assert!(Op::delay(Qubit(0), -1.0).is_err());
    assert!(Op::delay(Qubit(0), f64::NAN).is_err());
    assert_eq!(
        Op::delay(Qubit(0), -0.0).map(|op| format!("{op:?}")),
        Ok("Delay { qubit: Qubit(0), duration: 0.0 }".into())
    );
    let mut c = Circuit::with_plain_qubits(1, 0);
    c.push(Instruction::new(Op::Delay {
        qubit: Qubit(0),
        duration: f64::INFINITY,
    }));
    let errs = qc_ir::verify(&c).unwrap_err();
    assert!(matches!(
        errs.0[0].kind,
        qc_ir::VerifyErrorKind::BadDelay { .. }
    ));
    // A JSON delay with a negative duration is read (JSON is structural) and then refused by
    // the verifier, as every circuit read from a file is checked.
    let json = r#"{"qubits":["plain"],"num_clbits":0,"instructions":[{"op":"delay","qubit":0,"duration":-5.0}]}"#;
    if let Ok(c) = serde_json::from_str::<Circuit>(json) {
        assert!(qc_ir::verify(&c).is_err());
    }
    // A delay is the identity: a circuit of gates and delays is unitary, and its inverse too.
    let mut c = Circuit::with_plain_qubits(1, 0);
    c.push(Gate::H.on(&[Qubit(0)]));
    c.push(Instruction::new(Op::Delay {
        qubit: Qubit(0),
        duration: 10.0,
    }));
    assert!(c.is_unitary());
    let mut plain = Circuit::with_plain_qubits(1, 0);
    plain.push(Gate::H.on(&[Qubit(0)]));
    assert_eq!(
        c.unitary().expect("unitary"),
        plain.unitary().expect("unitary")
    );
    assert!(c.inverse().is_ok());
}
