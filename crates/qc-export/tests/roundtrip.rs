//! Export -> import -> simulate equals simulating the original, for every form, width and
//! dialect, on move-like circuits and random circuits; exported text parses with oq3_semantics.

mod common;

use common::{assert_same, corpus, dist};
use proptest::prelude::*;
use qc_export::{
    export_qasm3, import_qasm3, Dialect, ExportOptions, Form, ImportErrorKind, SemanticProblem,
    Width,
};
use qc_ir::{Circuit, Clbit, Condition, Control, Gate, Instruction, Op, Qubit};

/// The corpus circuit called `name`.
fn corpus_circuit(name: &str) -> Circuit {
    corpus()
        .into_iter()
        .find(|(n, _)| *n == name)
        .map(|(_, c)| c)
        .unwrap_or_else(|| panic!("no corpus circuit {name}"))
}

/// OpenQASM 3 of `c` with every board square declared.
fn export_full_width(c: &Circuit) -> qc_export::Export {
    export_qasm3(
        c,
        &[],
        &ExportOptions {
            width: Width::Full,
            ..Default::default()
        },
    )
    .expect("export")
}

fn all_options() -> Vec<ExportOptions> {
    let mut v = Vec::new();
    for form in [Form::Dynamic, Form::Deferred] {
        for width in [Width::Compact, Width::Full] {
            for dialect in [Dialect::Portable, Dialect::Extended] {
                v.push(ExportOptions {
                    form,
                    dialect,
                    width,
                    ..Default::default()
                });
            }
        }
    }
    v
}

fn check_round_trip(name: &str, c: &Circuit) {
    let want = dist(c, c.num_clbits());
    for o in all_options() {
        let e = export_qasm3(c, &[], &o).unwrap_or_else(|e| panic!("{name} {o:?}: {e}"));
        let back =
            import_qasm3(&e.text).unwrap_or_else(|err| panic!("{name} {o:?}: {err}\n{}", e.text));
        assert_eq!(back.num_qubits(), e.summary.qubits);
        let got = dist(&back, c.num_clbits());
        assert_same(&want, &got, &format!("{name} {o:?}\n{}", e.text));
    }
}

#[test]
fn move_like_circuits_round_trip() {
    for (name, c) in corpus() {
        check_round_trip(name, &c);
    }
}

#[test]
fn exported_programs_parse_with_oq3_semantics() {
    for (name, c) in corpus() {
        for o in all_options()
            .into_iter()
            .filter(|o| o.dialect == Dialect::Portable)
        {
            let e = export_qasm3(&c, &[], &o).expect("export");
            let r = oq3_semantics::syntax_to_semantics::parse_source_string(
                e.text.clone(),
                Some("prog.qasm"),
                None::<&[&str]>,
            );
            assert!(!r.any_errors(), "{name} {o:?}: oq3 errors\n{}", e.text);
        }
    }
}

#[test]
fn deferred_form_has_no_mid_circuit_measurement_or_if() {
    for (name, c) in corpus() {
        let o = ExportOptions {
            form: Form::Deferred,
            ..Default::default()
        };
        let e = export_qasm3(&c, &[], &o).expect("export");
        assert!(!e.text.contains("if ("), "{name}");
        let body: Vec<&str> = e
            .text
            .lines()
            .filter(|l| !l.starts_with("//") && !l.starts_with("gate "))
            .collect();
        let first_measure = body
            .iter()
            .position(|l| l.contains("measure"))
            .unwrap_or(body.len());
        assert!(
            body[first_measure..].iter().all(|l| l.contains("measure")),
            "{name}: gates after the first measurement\n{}",
            e.text
        );
    }
}

#[test]
fn compact_width_drops_classical_squares() {
    let c = corpus_circuit("classical_and_capture");
    let full = export_full_width(&c);
    let compact = export_qasm3(&c, &[], &ExportOptions::default()).expect("export");
    // Full width: the whole board plus the circuit's two ancillas.
    assert_eq!(full.summary.qubits, 64 + 2);
    // d1 only ever sees set-up x and is measured: it is folded into the shared constant qubit.
    assert!(
        compact.summary.qubits < full.summary.qubits,
        "{}",
        compact.text
    );
    assert!(!compact.text.contains("= d1 (square)"));
}

#[test]
fn export_is_deterministic_and_carries_outcomes() {
    let c = corpus_circuit("slide_measure");
    let outcomes = vec![Some(true), None, None, None, None, Some(false)];
    let a = export_qasm3(&c, &outcomes, &ExportOptions::default()).expect("export");
    let b = export_qasm3(&c, &outcomes, &ExportOptions::default()).expect("export");
    assert_eq!(a.text, b.text);
    assert!(a.text.contains("\"postselect\":\"0xxxx1\""), "{}", a.text);
    assert!(a.text.contains("recorded 1"));
}

#[test]
fn keep_probability_sums_matching_shots() {
    let c = corpus_circuit("split");
    let d = dist(&c, 3);
    // The knight is on c3 with probability 1/2.
    let p = qc_export::keep_probability(&d, &[None, None, Some(true)]);
    assert!((p - 0.5).abs() < 1e-12, "{p}");
    assert!((qc_export::keep_probability(&d, &[]) - 1.0).abs() < 1e-12);
}

fn arb_gate() -> impl Strategy<Value = Gate> {
    prop_oneof![
        Just(Gate::X),
        Just(Gate::H),
        Just(Gate::S),
        Just(Gate::T),
        Just(Gate::SX),
        Just(Gate::SXdg),
        Just(Gate::Y),
        (-3.0f64..3.0).prop_map(Gate::Ry),
        (-3.0f64..3.0).prop_map(Gate::Rz),
        (-3.0f64..3.0).prop_map(Gate::Phase),
        Just(Gate::Swap),
        Just(Gate::ISwap),
        Just(Gate::ISwapDg),
        Just(Gate::SqrtISwap),
        Just(Gate::SqrtISwapDg),
    ]
}

/// Random instruction seeds: (kind, gate, qubit picks, polarities, condition pick).
fn arb_circuit() -> impl Strategy<Value = Circuit> {
    prop::collection::vec(
        (
            0u8..10,
            arb_gate(),
            prop::collection::vec(0u32..5, 5),
            prop::collection::vec(any::<bool>(), 4),
            0u8..4,
        ),
        1..14,
    )
    .prop_map(|seeds| {
        let n = 5u32;
        let mut c = Circuit::with_plain_qubits(n, 0);
        let mut bits: Vec<Clbit> = Vec::new();
        for (kind, gate, picks, pol, cond) in seeds {
            let mut qs: Vec<u32> = Vec::new();
            for p in picks {
                if !qs.contains(&p) {
                    qs.push(p);
                }
            }
            let condition = if cond > 0 && !bits.is_empty() {
                Some(Condition {
                    clbit: bits[cond as usize % bits.len()],
                    value: cond % 2 == 0,
                })
            } else {
                None
            };
            if kind == 0 {
                let clbit = c.add_clbit();
                c.push(Instruction::new(Op::Measure {
                    qubit: Qubit(qs[0]),
                    clbit,
                }));
                bits.push(clbit);
                continue;
            }
            let t = gate.num_targets();
            if qs.len() < t {
                continue;
            }
            let nctrl = ((kind as usize) % 4).min(qs.len() - t);
            let targets: Vec<Qubit> = qs[..t].iter().map(|&q| Qubit(q)).collect();
            let controls: Vec<Control> = qs[t..t + nctrl]
                .iter()
                .zip(pol)
                .map(|(&q, on)| {
                    if on {
                        Control::one(Qubit(q))
                    } else {
                        Control::zero(Qubit(q))
                    }
                })
                .collect();
            let mut instr = Instruction::gate(gate, &targets, &controls);
            instr.condition = condition.map(Into::into);
            c.push(instr);
        }
        for q in 0..n {
            let clbit = c.add_clbit();
            c.push(Instruction::new(Op::Measure {
                qubit: Qubit(q),
                clbit,
            }));
        }
        c
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 24, .. ProptestConfig::default() })]
    #[test]
    fn random_circuits_round_trip(c in arb_circuit()) {
        check_round_trip("random", &c);
    }
}

#[test]
#[ignore = "prints a sample; run with --ignored --nocapture"]
#[allow(clippy::print_stdout, reason = "debug helper")]
fn show_sample() {
    for (name, c) in corpus() {
        if name == "slide_measure" {
            let e = export_qasm3(&c, &[], &ExportOptions::default()).expect("export");
            print!("{}", e.text);
        }
    }
}

#[test]
fn qasm2_round_trips_through_the_reader() {
    for (name, c) in corpus() {
        let want = dist(&c, c.num_clbits());
        for form in [Form::Dynamic, Form::Deferred] {
            for width in [Width::Compact, Width::Full] {
                let o = ExportOptions {
                    form,
                    width,
                    ..Default::default()
                };
                let e =
                    qc_export::export_qasm2(&c, &[], &o).unwrap_or_else(|e| panic!("{name}: {e}"));
                assert!(e.text.starts_with("OPENQASM 2.0;"));
                let back = qc_export::import_qasm2(&e.text)
                    .unwrap_or_else(|err| panic!("{name} {o:?}: {err}\n{}", e.text));
                assert_same(
                    &want,
                    &dist(&back, c.num_clbits()),
                    &format!("qasm2 {name} {o:?}\n{}", e.text),
                );
            }
        }
    }
}

#[test]
fn import_errors_name_the_line_and_construct() {
    let err = import_qasm3("OPENQASM 3.0;\nqubit[2] q;\nwhile (true) { x q[0]; }\n")
        .expect_err("while loop");
    assert_eq!(err.line, 3);
    assert!(
        matches!(&err.kind, ImportErrorKind::UnsupportedConstruct { construct } if construct.contains("while")),
        "{err}"
    );
    let err = import_qasm3("OPENQASM 3.0;\ninclude \"stdgates.inc\";\nqubit[1] q;\nfoo q[0];\n")
        .expect_err("unknown gate");
    assert_eq!(err.line, 4);
    assert!(
        matches!(&err.kind, ImportErrorKind::Semantic { problem: SemanticProblem::UnknownGate, text } if text.contains("foo")),
        "{err}"
    );
    let err = import_qasm3("OPENQASM 3.0;\nqubit[1] q;\nbit[1] c;\nc[0] = measure q[0];\nif (c[0]) if (c[0]) x q[0];\n").expect_err("nested");
    assert_eq!(err.kind, ImportErrorKind::NestedIf, "{err}");
    let err = import_qasm3("OPENQASM 3.0;\nqubit[99999999] q;\n").expect_err("huge register");
    assert_eq!(err.line, 2);
    assert!(qc_export::import_qasm2("OPENQASM 2.0;\nqreg q[1];\nx q[0] = ;\n").is_err());
    // The dispatcher picks the reader from the version line.
    let two = qc_export::import_qasm("// c\nOPENQASM 2.0;\ninclude \"qelib1.inc\";\nqreg q[2];\ncreg c0[1];\nh q[0];\nmeasure q[0] -> c0[0];\nif (c0==1) x q[1];\n").expect("qasm2");
    assert_eq!((two.num_qubits(), two.num_clbits()), (2, 1));
    assert!(qc_export::import_qasm("OPENQASM 2.0;\nqreg q[1];\nfoo q[0];\n").is_err());
    // OpenQASM 2 syntax errors name their line too (the qasm crate alone reports none).
    let err =
        qc_export::import_qasm2("OPENQASM 2.0;\ninclude \"qelib1.inc\";\nqreg q[1];\nh q[0]\n")
            .expect_err("missing semicolon");
    assert_eq!(err.line, 4, "{err}");
    let err =
        qc_export::import_qasm2("OPENQASM 2.0;\ninclude \"qelib1.inc\";\nqreg q[1];\nbar q[0];\n")
            .expect_err("unknown gate");
    assert_eq!(err.line, 4, "{err}");
    assert_eq!(
        err.kind,
        ImportErrorKind::UnknownGate {
            gate: "bar".into(),
            params: 0
        },
        "{err}"
    );
}

#[test]
fn spec_samples_import_with_the_documented_results() {
    // portable_move.qasm: exact result {01100: .5, 10010: .5} (the portable dialect, docs/backends.md).
    let c = import_qasm3(include_str!("data/portable_move.qasm")).expect("import");
    let d = dist(&c, 5);
    let key = |s: &str| -> Vec<bool> { s.chars().rev().map(|ch| ch == '1').collect() };
    assert!(
        (d[&key("01100")] - 0.5).abs() < 1e-9 && (d[&key("10010")] - 0.5).abs() < 1e-9,
        "{d:?}"
    );
    // ff3.qasm: {000: .5, 101: .5}.
    let d = dist(
        &import_qasm3(include_str!("data/ff3.qasm")).expect("import"),
        3,
    );
    assert!(
        (d[&key("000")] - 0.5).abs() < 1e-9 && (d[&key("101")] - 0.5).abs() < 1e-9,
        "{d:?}"
    );
    // ff4_ancilla.qasm uses negctrl @ and reset (extended dialect): it must import.
    assert!(import_qasm3(include_str!("data/ff4_ancilla.qasm")).is_ok());
}

#[test]
fn folding_and_deferral_preserve_the_distribution_on_random_circuits() {
    for seed in 1..=40u64 {
        let c = common::random_circuit(seed, 5, 24);
        let want = dist(&c, c.num_clbits());
        let folded = qc_ir::passes::fold_classical(&c);
        assert_same(
            &want,
            &dist(&folded, c.num_clbits()),
            &format!("fold seed {seed}"),
        );
        let deferred = qc_ir::passes::defer_measurements(&c);
        assert_same(
            &want,
            &dist(&deferred, c.num_clbits()),
            &format!("defer seed {seed}"),
        );
        let both = qc_ir::passes::fold_classical(&deferred);
        assert_same(
            &want,
            &dist(&both, c.num_clbits()),
            &format!("defer+fold seed {seed}"),
        );
        // The deferred circuit measures only at the end and has no conditions.
        let instrs = deferred.instructions();
        assert!(instrs.iter().all(|i| i.condition.is_none()));
        let first = instrs
            .iter()
            .position(|i| matches!(i.op, Op::Measure { .. }))
            .unwrap_or(instrs.len());
        assert!(
            instrs[first..]
                .iter()
                .all(|i| matches!(i.op, Op::Measure { .. })),
            "seed {seed}"
        );
    }
}

#[test]
fn options_parse_from_their_command_line_spelling() {
    assert_eq!("deferred".parse::<Form>(), Ok(Form::Deferred));
    assert_eq!("extended".parse::<Dialect>(), Ok(Dialect::Extended));
    assert_eq!("full".parse::<Width>(), Ok(Width::Full));
    let err = "sideways".parse::<Form>().expect_err("bad form");
    assert_eq!((err.what, err.given.as_str()), ("form", "sideways"));
    assert_eq!(err.expected, ["dynamic", "deferred"]);
    assert_eq!(
        err.to_string(),
        "unknown form `sideways` (expected one of: dynamic, deferred)"
    );
}

#[test]
fn keep_probability_exact_runs_the_circuit() {
    let c = corpus_circuit("slide_measure");
    let mut backend = qc_sim::ReferenceSparse::new();
    // c[0] is the measured occupancy of b1 after the knight split: 1/2.
    let p = qc_export::keep_probability_exact(&mut backend, &c, &[Some(true)]).expect("run");
    assert!((p - 0.5).abs() < 1e-12, "{p}");
}

#[test]
fn full_width_of_a_board_circuit_has_all_64_squares() {
    let c = corpus_circuit("split");
    let e = export_full_width(&c);
    assert_eq!(e.summary.qubits, 64, "{}", e.text);
    assert!(e.text.contains("h8 (square; never touched"));
}

#[test]
fn target_outputs_and_random_programs_parse_with_oq3_semantics() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../backends");
    let targets: Vec<qc_export::Target> = ["generic", "ibm", "google"]
        .iter()
        .map(|n| qc_export::Target::load(&dir, n).expect("target"))
        .collect();
    let mut circuits: Vec<Circuit> = corpus().into_iter().map(|(_, c)| c).collect();
    circuits.extend((1..=6).map(|s| common::random_circuit(s, 5, 20)));
    for c in &circuits {
        for t in &targets {
            let e =
                qc_export::export_for_target(c, &[], &ExportOptions::default(), t).expect("export");
            let r = oq3_semantics::syntax_to_semantics::parse_source_string(
                e.text.clone(),
                Some("prog.qasm"),
                None::<&[&str]>,
            );
            assert!(!r.any_errors(), "{}: oq3 errors\n{}", t.name, e.text);
        }
    }
}

#[test]
fn conditioned_measurement_and_reset_need_the_deferred_form() {
    // h q0; c0 = measure q0; if c0 { h q1; c1 = measure q1 }; if !c0 { h q2; reset q2 }; measure q1, q2.
    let mut c = Circuit::with_plain_qubits(3, 0);
    c.push(Instruction::gate(Gate::H, &[Qubit(0)], &[]));
    let c0 = c.add_clbit();
    c.push(Instruction::new(Op::Measure {
        qubit: Qubit(0),
        clbit: c0,
    }));
    let on = |v| Condition {
        clbit: c0,
        value: v,
    };
    c.push(Instruction::gate(Gate::H, &[Qubit(1)], &[]).with_condition(on(true)));
    let c1 = c.add_clbit();
    c.push(
        Instruction::new(Op::Measure {
            qubit: Qubit(1),
            clbit: c1,
        })
        .with_condition(on(true)),
    );
    c.push(Instruction::gate(Gate::H, &[Qubit(2)], &[]).with_condition(on(false)));
    c.push(Instruction::new(Op::Reset { qubit: Qubit(2) }).with_condition(on(false)));
    for q in 1..3 {
        let k = c.add_clbit();
        c.push(Instruction::new(Op::Measure {
            qubit: Qubit(q),
            clbit: k,
        }));
    }
    let want = dist(&c, 4);
    let dynamic = export_qasm3(&c, &[], &ExportOptions::default());
    assert!(
        matches!(dynamic, Err(qc_export::ExportError::Unsupported { .. })),
        "{dynamic:?}"
    );
    for width in [Width::Compact, Width::Full] {
        let e = export_qasm3(
            &c,
            &[],
            &ExportOptions {
                form: Form::Deferred,
                width,
                ..Default::default()
            },
        )
        .expect("deferred");
        assert_same(
            &want,
            &dist(&import_qasm3(&e.text).expect("import"), 4),
            &e.text,
        );
    }
    // OpenQASM 2 falls back to the deferred form by itself.
    let q2 = qc_export::export_qasm2(&c, &[], &ExportOptions::default()).expect("qasm2");
    assert!(q2.text.contains("\"form\":\"deferred\""));
    assert_same(
        &want,
        &dist(&qc_export::import_qasm2(&q2.text).expect("import"), 4),
        &q2.text,
    );
}

#[test]
fn an_invalid_circuit_is_refused_with_the_verifiers_findings() {
    // A gate conditioned on a bit no measurement wrote: the verifier's finding (instruction 1,
    // clbit 0 read before written) must reach the caller whole, not flattened into text.
    let mut c = Circuit::with_plain_qubits(1, 1);
    c.push(Instruction::gate(Gate::H, &[Qubit(0)], &[]));
    c.push(
        Instruction::gate(Gate::X, &[Qubit(0)], &[]).with_condition(Condition {
            clbit: Clbit(0),
            value: true,
        }),
    );
    let err = export_qasm3(&c, &[], &ExportOptions::default()).expect_err("invalid circuit");
    let qc_export::ExportError::Invalid(findings) = &err else {
        panic!("expected Invalid, got {err:?}");
    };
    assert_eq!(findings.0.len(), 1, "{err}");
    assert_eq!(findings.0[0].index, 1);
    assert_eq!(
        findings.0[0].kind,
        qc_ir::VerifyErrorKind::ClbitReadBeforeWrite(Clbit(0))
    );
    assert!(err.to_string().starts_with("cannot export: "), "{err}");
    assert!(err.to_string().contains("instruction 1"), "{err}");
}
