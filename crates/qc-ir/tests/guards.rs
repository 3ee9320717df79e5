//! Conditions on several bits (`Guard`): the text format, the JSON form and the verifier. The
//! simulators run them in `crates/qc-sim/tests/guards.rs`.

use qc_ir::{text, verify, Clbit, Condition, Guard, VerifyErrorKind};

const HEAD: &str =
    "qcir 1\nqubits q0 q1 q2\nclbits 3\nh q0\nh q1\nmeasure q0 -> c0\nmeasure q1 -> c1\n";

#[test]
fn a_conjunction_prints_and_reads_back() {
    let c = text::parse(&format!(
        "{HEAD}if c1==1 && c0==0: x q2\nmeasure q2 -> c2\n"
    ))
    .expect("parses");
    let guard = c.instructions()[4].condition.clone().expect("conditioned");
    let on = |b: u32, value| Condition {
        clbit: Clbit(b),
        value,
    };
    assert_eq!(guard.conditions(), &[on(0, false), on(1, true)]);
    let printed = text::print(&c);
    assert!(printed.contains("if c0==0 && c1==1: x q2\n"), "{printed}");
    assert_eq!(text::parse(&printed).expect("reads back"), c);
    // One bit prints as it always did.
    let one = text::parse(&format!("{HEAD}if c1==1: x q2\n")).expect("parses");
    assert!(text::print(&one).contains("\nif c1==1: x q2\n"));
}

#[test]
fn a_contradiction_or_a_missing_test_is_a_parse_error() {
    let e = text::parse(&format!("{HEAD}if c0==1 && c0==0: x q2\n")).expect_err("contradiction");
    assert!(e.to_string().contains("both 0 and 1"), "{e}");
    let e = text::parse(&format!("{HEAD}if c0==1 && : x q2\n")).expect_err("missing test");
    assert!(e.to_string().contains("line 8"), "{e}");
}

#[test]
fn the_verifier_checks_every_bit_of_a_guard() {
    let c = text::parse("qcir 1\nqubits q0 q1\nclbits 2\nmeasure q0 -> c0\nif c0==1 && c1==1: x q1\nmeasure q1 -> c1\n")
        .expect("parses");
    let errors = verify(&c).expect_err("c1 read before it is written").0;
    assert_eq!(errors.len(), 1);
    assert_eq!(errors[0].index, 1);
    assert_eq!(
        errors[0].kind,
        VerifyErrorKind::ClbitReadBeforeWrite(Clbit(1))
    );
}

#[test]
fn json_keeps_one_bit_conditions_as_they_were_and_lists_several() {
    let c =
        text::parse(&format!("{HEAD}if c0==1: x q2\nif c0==1 && c1==0: z q2\n")).expect("parses");
    let json = serde_json::to_string(&c).expect("json");
    assert!(
        json.contains(r#""condition":{"clbit":0,"value":true}"#),
        "{json}"
    );
    assert!(
        json.contains(r#""condition":[{"clbit":0,"value":true},{"clbit":1,"value":false}]"#),
        "{json}"
    );
    let back: qc_ir::Circuit = serde_json::from_str(&json).expect("reads");
    assert_eq!(back, c);
    let guard = Guard::all([Condition {
        clbit: Clbit(2),
        value: true,
    }])
    .expect("one condition");
    assert!(guard.single().is_some());
}
