//! Shared test helpers: move-like circuits and distribution comparison.
#![allow(
    dead_code,
    missing_docs,
    reason = "test helpers; each test binary uses a subset"
)]

use qc_ir::exec::exact_distribution;
use qc_ir::{AncillaKind, Circuit, CircuitBuilder, Control, Distribution, Gate, Origin, Square};
use qc_sim::ReferenceSparse;

pub fn sq(name: &str) -> Square {
    Square::parse(name).expect("square")
}

/// Exact distribution of the first `bits` bits (later scratch bits are summed out).
pub fn dist(c: &Circuit, bits: usize) -> Distribution {
    let mut backend = ReferenceSparse::new();
    let full = exact_distribution(&mut backend, c).expect("simulation");
    let mut out = Distribution::new();
    for (k, p) in full {
        let mut k = k;
        k.resize(bits, false);
        *out.entry(k).or_default() += p;
    }
    out.retain(|_, p| *p > 1e-12);
    out
}

pub fn assert_same(a: &Distribution, b: &Distribution, what: &str) {
    let keys: std::collections::BTreeSet<_> = a.keys().chain(b.keys()).collect();
    for k in keys {
        let (x, y) = (
            a.get(k).copied().unwrap_or(0.0),
            b.get(k).copied().unwrap_or(0.0),
        );
        assert!(
            (x - y).abs() < 1e-9,
            "{what}: bits {k:?}: {x} vs {y}\n{a:?}\n{b:?}"
        );
    }
}

/// Named move-like circuits (with their recorded outcomes, all `None` unless stated).
pub fn corpus() -> Vec<(&'static str, Circuit)> {
    let mut v = Vec::new();

    // Split: knight b1 -> a3 / c3 (sqiswap then iswap-family), then measure the board.
    let mut b = CircuitBuilder::new();
    let (b1, a3, c3) = (b.square(sq("b1")), b.square(sq("a3")), b.square(sq("c3")));
    b.x(b1);
    b.set_origin(Some(Origin::new(1, "split")));
    b.sqrt_iswap(b1, c3);
    b.iswap(b1, a3);
    b.set_origin(None);
    for q in [b1, a3, c3] {
        b.measure(q);
    }
    v.push(("split", b.into_circuit()));

    // Slide blocked by a superposed piece: zero-controlled iswap through a path ancilla,
    // then a measurement ancilla, `if`, and the ancilla returned to |0>.
    let mut b = CircuitBuilder::new();
    let (a1, b1, c1, c3, d1) = (
        b.square(sq("a1")),
        b.square(sq("b1")),
        b.square(sq("c1")),
        b.square(sq("c3")),
        b.square(sq("d1")),
    );
    b.x(a1);
    b.x(b1);
    b.set_origin(Some(Origin::new(1, "split")));
    b.sqrt_iswap(b1, c3);
    b.set_origin(Some(Origin::new(2, "slide")));
    let p = b.alloc_ancilla(AncillaKind::Path);
    b.cx(&[Control::one(b1)], p);
    b.cx(&[Control::one(c1)], p);
    b.controlled(&[Control::zero(p)], |b| b.iswap(a1, d1));
    b.cx(&[Control::one(c1)], p);
    b.cx(&[Control::one(b1)], p);
    b.free_ancilla(p);
    b.set_origin(Some(Origin::new(3, "capture_measure")));
    let m = b.alloc_ancilla(AncillaKind::Measure);
    b.cx(&[Control::one(b1)], m);
    let k = b.measure(m);
    b.conditioned(k, true, |b| {
        b.x(m);
        let cap = b.alloc_ancilla(AncillaKind::Captured);
        b.iswap(b1, cap);
        b.iswap(a1, b1);
        let _ = cap;
    });
    b.conditioned(k, false, |b| b.gate(Gate::SqrtISwap, &[a1, c1], &[]));
    b.free_ancilla(m);
    b.set_origin(None);
    for q in [a1, b1, c1, c3, d1] {
        b.measure(q);
    }
    v.push(("slide_measure", b.into_circuit()));

    // Multi-controlled X with mixed polarities (path OR over 5 squares), controlled splits.
    let mut b = CircuitBuilder::new();
    let s: Vec<_> = ["a1", "b2", "c3", "d4", "e5", "f6", "g7", "h8"]
        .iter()
        .map(|n| b.square(sq(n)))
        .collect();
    b.x(s[0]);
    b.gate(Gate::H, &[s[1]], &[]);
    b.gate(Gate::SqrtISwap, &[s[1], s[2]], &[]);
    b.x(s[3]);
    let p = b.alloc_ancilla(AncillaKind::Path);
    b.cx(
        &[
            Control::zero(s[1]),
            Control::zero(s[2]),
            Control::one(s[3]),
            Control::zero(s[4]),
            Control::one(s[0]),
        ],
        p,
    );
    b.controlled(&[Control::one(p), Control::zero(s[4])], |b| {
        b.gate(Gate::SqrtISwap, &[s[5], s[7]], &[])
    });
    b.controlled(&[Control::zero(p), Control::one(s[2])], |b| {
        b.gate(Gate::ISwapDg, &[s[6], s[7]], &[])
    });
    b.controlled(&[Control::zero(s[2])], |b| {
        b.gate(Gate::SqrtISwapDg, &[s[5], s[6]], &[])
    });
    b.controlled(
        &[Control::one(s[2]), Control::one(s[0]), Control::zero(s[6])],
        |b| b.gate(Gate::T, &[s[5]], &[]),
    );
    b.cx(
        &[
            Control::zero(s[1]),
            Control::zero(s[2]),
            Control::one(s[3]),
            Control::zero(s[4]),
            Control::one(s[0]),
        ],
        p,
    );
    b.free_ancilla(p);
    for q in &s {
        b.measure(*q);
    }
    v.push(("mcx_mixed", b.into_circuit()));

    // Set-up pieces that never move (folded away), captured ancilla, a reset, two measurements.
    let mut b = CircuitBuilder::new();
    let sqs: Vec<_> = ["a1", "b1", "c1", "d1", "e1", "a8"]
        .iter()
        .map(|n| b.square(sq(n)))
        .collect();
    for q in &sqs[..5] {
        b.x(*q);
    }
    b.iswap(sqs[4], sqs[5]);
    b.sqrt_iswap(sqs[0], sqs[5]);
    let cap = b.alloc_ancilla(AncillaKind::Captured);
    b.controlled(&[Control::one(sqs[0])], |b| b.iswap(sqs[1], cap));
    let k0 = b.measure(sqs[0]);
    b.conditioned(k0, false, |b| b.x(sqs[2]));
    let o = b.alloc_ancilla(AncillaKind::Other);
    b.gate(Gate::H, &[o], &[]);
    b.reset(o);
    b.free_ancilla(o);
    for q in &sqs {
        b.measure(*q);
    }
    b.measure(cap);
    v.push(("classical_and_capture", b.into_circuit()));
    v
}
