//! Shared test helpers: move-like circuits and distribution comparison.
#![allow(
    dead_code,
    unused_imports,
    missing_docs,
    reason = "test helpers; each test binary uses a subset"
)]

use qc_ir::exec::exact_distribution;
use qc_ir::{Circuit, Distribution};
use qc_rules::Square;

pub mod samples;
use qc_sim::ReferenceSparse;
pub use samples::{corpus, random_circuit};

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
