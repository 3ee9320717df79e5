//! Move-like sample circuits built with `CircuitBuilder` (splits with siswap, zero-controlled
//! iSWAP slides through a path ancilla, a measurement ancilla with `if` and a conditioned `x`
//! back to |0>, captured ancillas, multi-controlled X with 0/1 controls, set-up pieces that stay
//! classical, a reset) and a deterministic random-circuit generator. Test fixtures, not part of
//! the library: the tests use them through `common`, the Qiskit interop corpus example
//! (`examples/interop_corpus.rs`) through `#[path]`.

use qc_ir::{
    AncillaKind, Circuit, CircuitBuilder, Clbit, Condition, Control, Gate, Instruction, Op, Origin,
    Qubit, Site,
};

fn sq(name: &str) -> Site {
    Site::parse(name).unwrap_or(Site::ALL[0])
}

/// The named move-like circuits.
pub fn corpus() -> Vec<(&'static str, Circuit)> {
    let mut v = Vec::new();

    // Split: knight b1 -> a3 / c3 (siswap then iswap-family), then measure the board.
    let mut b = CircuitBuilder::new();
    let (b1, a3, c3) = (b.site(sq("b1")), b.site(sq("a3")), b.site(sq("c3")));
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
        b.site(sq("a1")),
        b.site(sq("b1")),
        b.site(sq("c1")),
        b.site(sq("c3")),
        b.site(sq("d1")),
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
        let cap = b.alloc_ancilla(AncillaKind::Kept);
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
        .map(|n| b.site(sq(n)))
        .collect();
    b.x(s[0]);
    b.gate(Gate::H, &[s[1]], &[]);
    b.gate(Gate::SqrtISwap, &[s[1], s[2]], &[]);
    b.x(s[3]);
    let p = b.alloc_ancilla(AncillaKind::Path);
    // The path test, computed into `p` and uncomputed with the same controls at the end.
    let path = [
        Control::zero(s[1]),
        Control::zero(s[2]),
        Control::one(s[3]),
        Control::zero(s[4]),
        Control::one(s[0]),
    ];
    b.cx(&path, p);
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
    b.cx(&path, p);
    b.free_ancilla(p);
    for q in &s {
        b.measure(*q);
    }
    v.push(("mcx_mixed", b.into_circuit()));

    // Set-up pieces that never move (folded away), captured ancilla, a reset, two measurements.
    let mut b = CircuitBuilder::new();
    let sqs: Vec<_> = ["a1", "b1", "c1", "d1", "e1", "a8"]
        .iter()
        .map(|n| b.site(sq(n)))
        .collect();
    for q in &sqs[..5] {
        b.x(*q);
    }
    b.iswap(sqs[4], sqs[5]);
    b.sqrt_iswap(sqs[0], sqs[4]);
    let cap = b.alloc_ancilla(AncillaKind::Kept);
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

/// A deterministic random circuit on `qubits` plain qubits (splitmix64 from `seed`): random
/// gates with up to three controls of random polarity, mid-circuit measurements, gates
/// conditioned on either value of earlier bits, and a final measurement of every qubit.
pub fn random_circuit(seed: u64, qubits: u32, length: usize) -> Circuit {
    let mut state = seed;
    let mut next = move |n: u64| -> u64 {
        state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        (z ^ (z >> 31)) % n.max(1)
    };
    let gates = [
        Gate::X,
        Gate::H,
        Gate::S,
        Gate::T,
        Gate::SX,
        Gate::Y,
        Gate::Ry(0.7),
        Gate::Rz(-1.1),
        Gate::Phase(2.3),
        Gate::Swap,
        Gate::ISwap,
        Gate::ISwapDg,
        Gate::SqrtISwap,
        Gate::SqrtISwapDg,
    ];
    let mut c = Circuit::with_plain_qubits(qubits, 0);
    let mut bits: Vec<Clbit> = Vec::new();
    for q in 0..qubits {
        match next(3) {
            0 => c.push(Instruction::gate(Gate::X, &[Qubit(q)], &[])),
            1 => c.push(Instruction::gate(Gate::H, &[Qubit(q)], &[])),
            _ => {}
        }
    }
    for _ in 0..length {
        if next(8) == 0 {
            let clbit = c.add_clbit();
            c.push(Instruction::new(Op::Measure {
                qubit: Qubit(next(qubits as u64) as u32),
                clbit,
            }));
            bits.push(clbit);
            continue;
        }
        let gate = gates[next(gates.len() as u64) as usize];
        let mut order: Vec<u32> = (0..qubits).collect();
        for i in (1..order.len()).rev() {
            order.swap(i, next(i as u64 + 1) as usize);
        }
        let t = gate.num_targets();
        let k = (next(4) as usize).min(order.len() - t);
        let targets: Vec<Qubit> = order[..t].iter().map(|&q| Qubit(q)).collect();
        let controls: Vec<Control> = order[t..t + k]
            .iter()
            .map(|&q| {
                if next(2) == 0 {
                    Control::zero(Qubit(q))
                } else {
                    Control::one(Qubit(q))
                }
            })
            .collect();
        let mut instr = Instruction::gate(gate, &targets, &controls);
        if !bits.is_empty() && next(3) == 0 {
            instr.condition = Some(
                Condition {
                    clbit: bits[next(bits.len() as u64) as usize],
                    value: next(2) == 0,
                }
                .into(),
            );
        }
        c.push(instr);
    }
    for q in 0..qubits {
        let clbit = c.add_clbit();
        c.push(Instruction::new(Op::Measure {
            qubit: Qubit(q),
            clbit,
        }));
    }
    c
}
