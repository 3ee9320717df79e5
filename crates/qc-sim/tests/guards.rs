//! Conditions on several bits (an imported register comparison) on every simulator, against
//! hand-computed distributions, directly and in the IR-to-IR passes that rewrite conditions
//! (the deferred form turns each bit into a control; folding drops the bits it knows).

use qc_ir::exec::exact_distribution;
use qc_ir::passes::{defer_measurements, fold_classical};
use qc_ir::{text, Circuit, Distribution};

/// q0, q1 in equal superposition, measured; q2 flipped when c0 = 1 and c1 = 0 (the register
/// `c[0:1]` equal to 1), then measured.
const EQUALS_ONE: &str = "qcir 1\nqubits q0 q1 q2\nclbits 3\nh q0\nh q1\nmeasure q0 -> c0\nmeasure q1 -> c1\nif c0==1 && c1==0: x q2\nmeasure q2 -> c2\n";

/// Equal up to rounding.
fn assert_close(a: &Distribution, b: &Distribution) {
    assert_eq!(
        a.keys().collect::<Vec<_>>(),
        b.keys().collect::<Vec<_>>(),
        "{a:?} {b:?}"
    );
    for (k, p) in a {
        assert!((p - b[k]).abs() < 1e-12, "{a:?} {b:?}");
    }
}

fn parse(text: &str) -> Circuit {
    text::parse(text).expect("parses")
}

/// The four outcomes of (c0, c1), each 1/4, with c2 = 1 exactly for c0 = 1, c1 = 0.
fn check_equals_one(d: &Distribution) {
    assert_eq!(d.len(), 4, "{d:?}");
    for (k, p) in d {
        assert!((p - 0.25).abs() < 1e-12, "{d:?}");
        assert_eq!(k[2], k[0] && !k[1], "{d:?}");
    }
}

qc_sim::for_each_backend!(a_conjunction_runs_only_when_every_bit_holds, |backend| {
    let c = parse(EQUALS_ONE);
    check_equals_one(&exact_distribution(&mut backend(), &c).expect("runs"));
});

qc_sim::for_each_backend!(the_deferred_form_makes_each_bit_a_control, |backend| {
    let deferred = defer_measurements(&parse(EQUALS_ONE));
    assert!(deferred
        .instructions()
        .iter()
        .all(|i| i.condition.is_none()));
    check_equals_one(&exact_distribution(&mut backend(), &deferred).expect("runs"));
});

qc_sim::for_each_backend!(folding_drops_the_bits_it_knows, |backend| {
    // c1 measures a qubit known to be |1>: `c1==0` never holds, so the x never runs; `c1==1`
    // holds, so the guard keeps c0 alone.
    let never = parse("qcir 1\nqubits q0 q1 q2\nclbits 3\nh q0\nx q1\nmeasure q0 -> c0\nmeasure q1 -> c1\nif c0==1 && c1==0: x q2\nmeasure q2 -> c2\n");
    let folded = fold_classical(&never);
    let d = exact_distribution(&mut backend(), &folded).expect("runs");
    assert!(d.keys().all(|k| !k[2]), "{d:?}");
    assert_close(
        &d,
        &exact_distribution(&mut backend(), &never).expect("runs"),
    );
    let kept = parse("qcir 1\nqubits q0 q1 q2\nclbits 3\nh q0\nx q1\nmeasure q0 -> c0\nmeasure q1 -> c1\nif c0==1 && c1==1: x q2\nmeasure q2 -> c2\n");
    let folded = fold_classical(&kept);
    let guards: Vec<usize> = folded
        .instructions()
        .iter()
        .filter_map(|i| i.condition.as_ref().map(|g| g.conditions().len()))
        .collect();
    assert_eq!(guards, [1], "{}", text::print(&folded));
    let d = exact_distribution(&mut backend(), &folded).expect("runs");
    assert_close(
        &d,
        &exact_distribution(&mut backend(), &kept).expect("runs"),
    );
    assert!(d.keys().all(|k| k[2] == k[0]), "{d:?}");
});
