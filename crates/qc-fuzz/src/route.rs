//! Routed programs against unrouted ones: the input seeds a generator of small circuits (one-
//! and two-qubit gates, compute / uncompute Toffoli pairs with two or three controls of either
//! polarity whose uncompute lists its controls in another order, gates between a pair that act
//! on its controls only as controls or diagonal gates, mid-circuit measurements, gates
//! conditioned on them, resets), routed with `qchess route`'s path (`qc_front::compile_circuit_on`)
//! onto a small device (a line, a ring, a heavy-hex cell with feed-forward). The device program
//! is read back and its exact outcome distribution must equal the circuit's within 1e-9: a
//! lowering or routing that changes what a program computes is a failure.

use qc_export::{Dialect, ExportOptions, Form, MeasureScope, Target, Width};
use qc_front::{DeviceOptions, Format};
use qc_ir::exec::{exact_distribution_within, Distribution, ExactLimits};
use qc_ir::{Circuit, Clbit, Condition, Control, Gate, Instruction, Op, Qubit};
use qc_sim::{MemoryLimit, SparseSim};
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// How close the two distributions must be, outcome by outcome.
const TOLERANCE: f64 = 1e-9;
/// The memory budget of each exact run (the programs have at most 6 qubits in superposition).
const MEMORY_BYTES: u128 = 16 << 20;
/// The most amplitude updates of one exact run.
const AMPLITUDE_UPDATES: u64 = 1 << 20;

/// The devices programs are routed onto: name, qubit count, couplers.
const DEVICES: [(&str, usize, &str); 3] = [
    ("line6", 6, "[[0, 1], [1, 2], [2, 3], [3, 4], [4, 5]]"),
    ("ring6", 6, "[[0, 1], [1, 2], [2, 3], [3, 4], [4, 5], [5, 0]]"),
    // One cell of a heavy hex: a ring of 12 (the hexagon's corners and edge qubits).
    (
        "hex12",
        12,
        "[[0, 1], [1, 2], [2, 3], [3, 4], [4, 5], [5, 6], [6, 7], [7, 8], [8, 9], [9, 10], [10, 11], [11, 0]]",
    ),
];

/// The device target `DEVICES[index]` (IBM's gates, feed-forward).
fn device(index: usize) -> Result<Target, String> {
    let (name, qubits, edges) = DEVICES[index % DEVICES.len()];
    let text = format!(
        "name = \"{name}\"\ndescription = \"fuzz device\"\nqubits = {qubits}\nfeed_forward = true\n\
         native = [\"rz\", \"sx\", \"x\", \"cz\"]\nsingle_qubit = \"zsx\"\ntwo_qubit = \"cz\"\n\
         edges = {edges}\n"
    );
    Target::from_toml(&text).map_err(|e| format!("the fuzz device {name}: {e}"))
}

/// A control on `qubit` of the given polarity.
fn control(qubit: usize, on: bool) -> Control {
    let q = Qubit(qubit as u32);
    if on {
        Control::one(q)
    } else {
        Control::zero(q)
    }
}

/// A random circuit of `n` qubits (see the module's comment); every qubit is measured at the
/// end into its own bit.
fn generate(rng: &mut ChaCha8Rng, n: usize) -> Circuit {
    let mut c = Circuit::with_plain_qubits(n as u32, 0);
    let mut bits: Vec<Clbit> = Vec::new();
    let q = |i: usize| Qubit(i as u32);
    let angle = |rng: &mut ChaCha8Rng| rng.gen_range(-3.2..3.2);
    for i in 0..n {
        c.push(Instruction::gate(Gate::Ry(angle(rng)), &[q(i)], &[]));
    }
    for _ in 0..rng.gen_range(1..=4) {
        // A compute / uncompute pair, with gates between that keep its controls.
        let k = rng.gen_range(2..=3.min(n - 1));
        let mut qubits: Vec<usize> = (0..n).collect();
        qubits.shuffle(rng);
        let (controls, rest) = qubits.split_at(k);
        let target = rest[0];
        let polarity: Vec<bool> = (0..k).map(|_| rng.gen_bool(0.7)).collect();
        let toffoli = |order: &[usize]| {
            let cs: Vec<Control> = order
                .iter()
                .map(|&i| control(controls[i], polarity[i]))
                .collect();
            Instruction::gate(Gate::X, &[q(target)], &cs)
        };
        let order: Vec<usize> = (0..k).collect();
        c.push(toffoli(&order));
        for _ in 0..rng.gen_range(0..=3) {
            let a = controls[rng.gen_range(0..k)];
            let b = qubits[rng.gen_range(0..n)];
            let instr = match rng.gen_range(0..5) {
                0 if a != b => Instruction::gate(Gate::X, &[q(b)], &[control(a, rng.gen())]),
                1 if a != b => {
                    Instruction::gate(Gate::Phase(angle(rng)), &[q(b)], &[control(a, true)])
                }
                2 => Instruction::gate(Gate::Rz(angle(rng)), &[q(a)], &[]),
                3 if b != target && a != b => {
                    Instruction::gate(Gate::Ry(angle(rng)), &[q(b)], &[control(target, true)])
                }
                // Not block-diagonal on a control: the pair must be written exactly.
                _ => Instruction::gate(Gate::H, &[q(a)], &[]),
            };
            c.push(instr);
        }
        let mut uncompute = order;
        uncompute.shuffle(rng);
        c.push(toffoli(&uncompute));
        // Other gates, a mid-circuit measurement, a conditioned gate, a reset.
        for _ in 0..rng.gen_range(0..=4) {
            let a = rng.gen_range(0..n);
            let mut b = rng.gen_range(0..n - 1);
            if b >= a {
                b += 1;
            }
            let mut instr = match rng.gen_range(0..7) {
                0 => Instruction::gate(Gate::X, &[q(b)], &[control(a, true)]),
                1 => Instruction::gate(Gate::U(angle(rng), angle(rng), angle(rng)), &[q(a)], &[]),
                2 => Instruction::gate(Gate::Swap, &[q(a), q(b)], &[]),
                3 => {
                    let bit = c.add_clbit();
                    bits.push(bit);
                    Instruction::new(Op::Measure {
                        qubit: q(a),
                        clbit: bit,
                    })
                }
                4 => Instruction::new(Op::Reset { qubit: q(a) }),
                _ => Instruction::gate(Gate::Ry(angle(rng)), &[q(a)], &[]),
            };
            if !bits.is_empty() && matches!(instr.op, Op::Gate { .. }) && rng.gen_bool(0.3) {
                instr = instr.with_condition(Condition {
                    clbit: bits[rng.gen_range(0..bits.len())],
                    value: rng.gen(),
                });
            }
            c.push(instr);
        }
    }
    for i in 0..n {
        c.push(Instruction::gate(
            Gate::U(angle(rng), angle(rng), angle(rng)),
            &[q(i)],
            &[],
        ));
        let bit = c.add_clbit();
        c.push(Instruction::new(Op::Measure {
            qubit: q(i),
            clbit: bit,
        }));
    }
    c
}

/// The exact distribution of `circuit`, without outcomes below 1e-12 (`None`: over the bounds).
fn distribution(circuit: &Circuit) -> Option<Distribution> {
    let limits = ExactLimits {
        max_amplitude_updates: Some(AMPLITUDE_UPDATES),
        ..ExactLimits::default()
    };
    let mut sim = SparseSim::with_limit(MemoryLimit::bytes(MEMORY_BYTES));
    let mut d = exact_distribution_within(&mut sim, circuit, limits).ok()?;
    d.retain(|_, p| *p > 1e-12);
    Some(d)
}

/// The first outcome whose probabilities differ by more than [`TOLERANCE`], if any.
fn first_difference(want: &Distribution, got: &Distribution) -> Option<(Vec<bool>, f64, f64)> {
    want.keys().chain(got.keys()).find_map(|k| {
        let (a, b) = (
            want.get(k).copied().unwrap_or(0.0),
            got.get(k).copied().unwrap_or(0.0),
        );
        ((a - b).abs() > TOLERANCE).then(|| (k.clone(), a, b))
    })
}

/// Runs one input: its circuit routed onto its device must keep the distribution.
pub fn run(input: &str) -> Result<(), String> {
    let seed = crate::fnv1a(input.as_bytes());
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let n = rng.gen_range(3..=5);
    let circuit = generate(&mut rng, n);
    let target = device(rng.gen_range(0..DEVICES.len()))?;
    let options = ExportOptions {
        form: Form::Dynamic,
        dialect: Dialect::Portable,
        width: Width::Compact,
        measure: MeasureScope::None,
        optimize: rng.gen(),
    };
    let fail = |why: String| {
        Err(format!(
            "{why}\n--- circuit ---\n{}",
            qc_ir::text::print(&circuit)
        ))
    };
    let routed = match qc_front::compile_circuit_on(
        &circuit,
        &[],
        Format::Qasm3,
        &options,
        Some(&target),
        None,
        &DeviceOptions {
            seed,
            ..DeviceOptions::default()
        },
    ) {
        Ok(routed) => routed,
        Err(e) => return fail(format!("{} refuses a valid circuit: {e}", target.name)),
    };
    let program = match qc_export::parse_circuit(&routed.text) {
        Ok(program) => program,
        Err(e) => {
            return fail(format!(
                "the device program does not read back: {e}\n{}",
                routed.text
            ))
        }
    };
    let (Some(want), Some(got)) = (distribution(&circuit), distribution(&program)) else {
        return Ok(());
    };
    // The portable dialect writes a reset as a measurement into a scratch bit after the
    // circuit's own: the device program's distribution is compared on the circuit's bits.
    let bits = circuit.num_clbits();
    let mut got_on_bits = Distribution::new();
    for (outcome, p) in got {
        let key = outcome.get(..bits).unwrap_or(&outcome).to_vec();
        *got_on_bits.entry(key).or_insert(0.0) += p;
    }
    let got = got_on_bits;
    match first_difference(&want, &got) {
        None => Ok(()),
        Some((outcome, a, b)) => fail(format!(
            "routed onto {} it computes another distribution: outcome {outcome:?} has {a} \
             unrouted, {b} routed\n--- device program ---\n{}",
            target.name, routed.text
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Many seeds keep their distribution.
    #[test]
    fn routed_random_circuits_keep_their_distribution() {
        for seed in 0..60 {
            run(&format!("seed {seed}")).unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        }
    }
}
