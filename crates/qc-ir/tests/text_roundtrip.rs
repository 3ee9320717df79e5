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
