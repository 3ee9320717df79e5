//! Criterion micro-benchmarks for qc-sim: sparse monomial and branching gates against a streaming
//! copy of the same state, and dense kernels against an in-place sweep of the same vector.
//! Whole-workload figures and the comparison with Qulacs and Qiskit Aer come from
//! `examples/perf.rs` and `benches/compare.py` (see `docs/performance.md`).

use criterion::{black_box, criterion_main, BenchmarkId, Criterion};
use qc_ir::exec::exact_distribution;
use qc_ir::{Backend, Complex64, Control, Gate, Qubit};
use qc_ir::{Circuit, Clbit, Instruction, Op};
use qc_sim::{DenseSim, MemoryLimit, Precision, Real, SparseSim};

fn sparse_state(k: u32) -> SparseSim {
    // 2^k entries on 64 board qubits: qubits 0..k in superposition, a few classical pieces.
    let qubits: Vec<Qubit> = (0..k).map(Qubit).collect();
    let amp = Complex64::new((0.5f64).powf(f64::from(k) / 2.0), 0.0);
    let entries = (0..1u128 << k).map(|key| (key, amp)).collect();
    let mut sim = SparseSim::from_entries(&qubits, entries, MemoryLimit::default()).unwrap();
    for q in 40..48 {
        sim.apply_gate(Gate::X, &[Qubit(q)], &[]).unwrap();
    }
    sim
}

fn sparse(c: &mut Criterion) {
    let mut group = c.benchmark_group("sparse");
    group.sample_size(10);
    for k in [16u32, 20] {
        let sim = sparse_state(k);
        let entries: Vec<(u128, Complex64)> = (0..1u128 << k)
            .map(|key| (key, Complex64::new(1.0, 0.0)))
            .collect();
        group.bench_with_input(BenchmarkId::new("streaming_copy", k), &k, |b, _| {
            let mut dst = entries.clone();
            b.iter(|| dst.copy_from_slice(black_box(&entries)))
        });
        group.bench_with_input(BenchmarkId::new("controlled_iswap", k), &k, |b, _| {
            let mut s = sim.clone();
            b.iter(|| {
                s.apply_gate(
                    Gate::ISwap,
                    &[Qubit(3), Qubit(5)],
                    &[Control::zero(Qubit(7))],
                )
                .unwrap()
            })
        });
        group.bench_with_input(BenchmarkId::new("sqrt_iswap_into_empty", k), &k, |b, _| {
            b.iter_batched(
                || sim.clone(),
                |mut s| {
                    s.apply_gate(Gate::SqrtISwap, &[Qubit(3), Qubit(50)], &[])
                        .unwrap();
                    s
                },
                criterion::BatchSize::LargeInput,
            )
        });
    }
    group.finish();
}

/// The dense kernels on 2^20 amplitudes in precision `F` (names end in `_f64` or `_f32`), and the
/// run path (`exact_distribution` of a 60-gate circuit on 20 qubits).
fn dense_in<F: Real>(group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>) {
    let n = 20u32;
    let suffix = if F::PRECISION == Precision::Single {
        "f32"
    } else {
        "f64"
    };
    let mut sim = DenseSim::<F>::zero_state_dense(n, MemoryLimit::default()).unwrap();
    for q in 0..n {
        sim.apply_gate(Gate::H, &[Qubit(q)], &[]).unwrap();
    }
    let cases: [(&str, Gate, Vec<Qubit>, Vec<Control>); 4] = [
        ("iswap_20", Gate::ISwap, vec![Qubit(2), Qubit(17)], vec![]),
        (
            "sqrt_iswap_20",
            Gate::SqrtISwap,
            vec![Qubit(2), Qubit(17)],
            vec![],
        ),
        (
            "cnot0_20",
            Gate::X,
            vec![Qubit(9)],
            vec![Control::zero(Qubit(1))],
        ),
        (
            "toffoli_20",
            Gate::X,
            vec![Qubit(9)],
            vec![Control::one(Qubit(1)), Control::one(Qubit(18))],
        ),
    ];
    for (name, gate, targets, controls) in cases {
        group.bench_function(format!("{name}_{suffix}"), |b| {
            b.iter(|| sim.apply_gate(gate, &targets, &controls).unwrap())
        });
    }
    let mut circuit = Circuit::with_plain_qubits(n, 4);
    for q in 0..n {
        circuit.push(Instruction::gate(Gate::H, &[Qubit(q)], &[]));
    }
    for i in 0..60u32 {
        let (a, b) = (Qubit(i * 7 % n), Qubit((i * 7 + 3 + i % 5) % n));
        circuit.push(Instruction::gate(Gate::SqrtISwap, &[a, b], &[]));
    }
    for q in 0..4 {
        circuit.push(Instruction::new(Op::Measure {
            qubit: Qubit(q),
            clbit: Clbit(q),
        }));
    }
    group.bench_function(format!("run_60_gates_20_{suffix}"), |b| {
        b.iter(|| {
            let mut sim = DenseSim::<F>::zero_state(MemoryLimit::default());
            exact_distribution(&mut sim, &circuit).unwrap()
        })
    });
}

fn dense(c: &mut Criterion) {
    let mut group = c.benchmark_group("dense");
    group.sample_size(10);
    let n = 20u32;
    let mut vector = vec![Complex64::new(1.0, 0.0); 1 << n];
    group.bench_function("sweep_20", |b| {
        b.iter(|| {
            for a in vector.iter_mut() {
                *a *= Complex64::new(0.0, 1.0);
            }
        })
    });
    dense_in::<f64>(&mut group);
    dense_in::<f32>(&mut group);
    group.finish();
}

mod group {
    use super::{dense, sparse};
    criterion::criterion_group!(benches, sparse, dense);
}

criterion_main!(group::benches);
