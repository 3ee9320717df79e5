//! Performance probe for `docs/performance.md` (run by `benches/compare.py`, or by hand):
//!
//! ```text
//! cargo run --release -p qc-sim --example perf -- circuit N SEED       # 200-gate circuit as JSON
//! cargo run --release -p qc-sim --example perf -- qasm N SEED M        # the same as portable
//!                                                                      # OpenQASM 3, measuring q[0..M]
//! cargo run --release -p qc-sim --example perf -- dense N SEED FUSE [single]   # qchess dense on
//!                                                                      # it (complex64 with single)
//! cargo run --release -p qc-sim --example perf -- stages FILE.qasm [double|single] [FUSE]
//!                                                                      # `qchess run`'s stages,
//!                                                                      # each timed (FUSE: fusion
//!                                                                      # limit, default the
//!                                                                      # library's)
//! cargo run --release -p qc-sim --example perf -- fused N S [double|single] [LOW]   # one fused
//!                                                                      # S-qubit block on 2^N
//!                                                                      # amplitudes (bits LOW,
//!                                                                      # LOW + 5, ...)
//! cargo run --release -p qc-sim --example perf -- sweep N              # in-place sweep of 2^N
//! cargo run --release -p qc-sim --example perf -- copy ENTRIES         # streaming copy, sparse
//! cargo run --release -p qc-sim --example perf -- sparse K             # chess-like workload
//! cargo run --release -p qc-sim --example perf -- game FILE.qcg K       # a recorded game, by move,
//!                                                                      # beside 2^K spectator branches
//! ```
//! Threads come from `RAYON_NUM_THREADS`. Each command prints one JSON object per line.
#![allow(
    clippy::print_stdout,
    reason = "a command-line probe reports on stdout"
)]

use qc_ir::{Backend, Complex64, Control, Gate, Qubit};
use qc_rules::QuantumGame;
use qc_sim::{DenseSim, MemoryLimit, SparseSim};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;
use std::time::Instant;

/// One gate of the dense benchmark circuit.
struct Op {
    gate: Gate,
    targets: Vec<u32>,
    controls: Vec<(u32, bool)>,
}

/// 200 gates from iSWAP, sqrt-iSWAP, CNOT, Toffoli, controlled iSWAP (random polarities).
fn circuit(n: u32, seed: u64) -> Vec<Op> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..200)
        .map(|_| {
            let kind = rng.gen_range(0..5);
            let mut qs: Vec<u32> = Vec::new();
            while qs.len() < 4 {
                let q = rng.gen_range(0..n);
                if !qs.contains(&q) {
                    qs.push(q);
                }
            }
            let (gate, nt, nc) = match kind {
                0 => (Gate::ISwap, 2, 0),
                1 => (Gate::SqrtISwap, 2, 0),
                2 => (Gate::X, 1, 1),
                3 => (Gate::X, 1, 2),
                _ => (Gate::ISwap, 2, 1),
            };
            Op {
                gate,
                targets: qs[..nt].to_vec(),
                controls: qs[nt..nt + nc].iter().map(|&q| (q, rng.gen())).collect(),
            }
        })
        .collect()
}

fn to_json(ops: &[Op]) -> String {
    let items: Vec<String> = ops
        .iter()
        .map(|o| {
            let controls: Vec<String> = o
                .controls
                .iter()
                .map(|(q, v)| format!("[{q},{}]", u8::from(*v)))
                .collect();
            format!(
                "{{\"gate\":\"{}\",\"targets\":{:?},\"controls\":[{}]}}",
                o.gate.name(),
                o.targets,
                controls.join(",")
            )
        })
        .collect();
    format!("[{}]", items.join(","))
}

/// The benchmark circuit in the IR on qubits `0..n`, followed by measurements of qubits
/// `0..measured` into bits `0..measured`.
fn ir_circuit(ops: &[Op], n: u32, measured: u32) -> qc_ir::Circuit {
    let mut circuit = qc_ir::Circuit::with_plain_qubits(n, measured);
    for o in ops {
        let targets: Vec<Qubit> = o.targets.iter().map(|&q| Qubit(q)).collect();
        let controls: Vec<Control> = o
            .controls
            .iter()
            .map(|&(q, v)| {
                if v {
                    Control::one(Qubit(q))
                } else {
                    Control::zero(Qubit(q))
                }
            })
            .collect();
        circuit.push(qc_ir::Instruction::gate(o.gate, &targets, &controls));
    }
    for k in 0..measured {
        circuit.push(qc_ir::Instruction::new(qc_ir::Op::Measure {
            qubit: Qubit(k),
            clbit: qc_ir::Clbit(k),
        }));
    }
    circuit
}

/// The benchmark circuit as portable OpenQASM 3, written by `qc_export` exactly as `qchess
/// compile` writes games: iSWAP, sqrt-iSWAP and the controlled iSWAPs as library gate bodies,
/// 0-controls X-wrapped, every qubit kept (full width).
fn portable_qasm(n: u32, seed: u64, measured: u32) -> String {
    let circuit = ir_circuit(&circuit(n, seed), n, measured.min(n));
    let options = qc_export::ExportOptions {
        form: qc_export::Form::Dynamic,
        dialect: qc_export::Dialect::Portable,
        width: qc_export::Width::Full,
        measure: qc_export::MeasureScope::None,
        // The benchmark circuit exactly as drawn (the passes could cancel a random pair).
        optimize: false,
    };
    match qc_export::export_qasm3(&circuit, &[], &options) {
        Ok(export) => export.text,
        Err(e) => format!("{{\"error\":\"{e}\"}}"),
    }
}

/// Where `qchess run --backend dense FILE` spends its time: reading, import (user gate bodies
/// recognised or inlined), verification, the optimisation passes, and the exact distribution
/// (gates, then the marginal of the measured qubits); also how many IR gates the import produced
/// and how many the passes left.
fn run_stages<F: qc_sim::Real>(path: &str, fuse: Option<usize>) {
    let total = Instant::now();
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => return println!("{{\"error\":\"{e}\"}}"),
    };
    let read = total.elapsed().as_secs_f64();
    let start = Instant::now();
    let circuit = match qc_export::import_qasm3(&text) {
        Ok(c) => c,
        Err(e) => return println!("{{\"error\":\"{e}\"}}"),
    };
    let import = start.elapsed().as_secs_f64();
    let start = Instant::now();
    if let Err(e) = qc_ir::verify(&circuit) {
        return println!("{{\"error\":\"{e}\"}}");
    }
    let verify = start.elapsed().as_secs_f64();
    let imported_gates = circuit.num_gates();
    let start = Instant::now();
    let (circuit, _) = qc_ir::passes::optimize(&circuit);
    let optimize = start.elapsed().as_secs_f64();
    let gates = circuit.num_gates();
    let start = Instant::now();
    let mut sim = DenseSim::<F>::zero_state(MemoryLimit::default());
    if let Some(fuse) = fuse {
        sim.set_fuse_max(fuse);
    }
    let dist = match qc_ir::exec::exact_distribution(&mut sim, &circuit) {
        Ok(d) => d,
        Err(e) => return println!("{{\"error\":\"{e}\"}}"),
    };
    let simulate = start.elapsed().as_secs_f64();
    println!(
        "{{\"what\":\"run_stages\",\"precision\":\"{}\",\"fuse\":{},\"fused_blocks\":{},\"threads\":{},\"imported_gates\":{imported_gates},\"gates\":{gates},\"read\":{read},\"import\":{import},\"verify\":{verify},\"optimize\":{optimize},\"exact_distribution\":{simulate},\"outcomes\":{},\"seconds\":{}}}",
        F::PRECISION,
        fuse.unwrap_or(qc_sim::DEFAULT_FUSE_MAX),
        sim.fused_blocks(),
        threads(),
        dist.len(),
        total.elapsed().as_secs_f64()
    );
}

fn threads() -> usize {
    rayon::current_num_threads()
}

fn run_dense<F: qc_sim::Real>(n: u32, seed: u64, fuse: usize) {
    let ops = circuit(n, seed);
    let mut sim = match DenseSim::<F>::zero_state_dense(n, MemoryLimit::default()) {
        Ok(s) => s,
        Err(e) => {
            println!("{{\"error\":\"{e}\"}}");
            return;
        }
    };
    sim.set_fuse_max(fuse);
    let circuit = ir_circuit(&ops, n, 0);
    let mut never = |_: Option<qc_ir::Clbit>| qc_ir::MeasureChoice::Forced(false);
    let start = Instant::now();
    if let Err(e) = sim.run_circuit(&circuit, &mut never) {
        println!("{{\"error\":\"{e}\"}}");
        return;
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{{\"what\":\"qchess_dense\",\"precision\":\"{}\",\"n\":{n},\"fuse\":{fuse},\"fused_blocks\":{},\"threads\":{},\"seconds\":{secs},\"per_gate\":{},\"norm\":{}}}",
        F::PRECISION,
        sim.fused_blocks(),
        threads(),
        secs / ops.len() as f64,
        sim.raw_amplitudes()
            .iter()
            .map(|a| F::norm_sqr_f64(*a))
            .sum::<f64>()
    );
}

/// One pass of the fused-block kernel with a dense `2^s x 2^s` matrix on qubits spread over the
/// index (bits low, low + 5, low + 10, ...), best of 5, beside the in-place sweep of the same
/// vector.
fn fused_block<F: qc_sim::Real>(n: u32, s: u32, low: u32) {
    let positions: Vec<u8> = (0..s).map(|j| (low + 5 * j).min(n - 1) as u8).collect();
    let d = 1usize << s;
    let offsets: Vec<usize> = (0..d)
        .map(|c| {
            (0..s as usize)
                .filter(|j| (c >> j) & 1 == 1)
                .map(|j| 1usize << positions[j])
                .sum()
        })
        .collect();
    let mut fixed = positions.clone();
    fixed.sort_unstable();
    let m: Vec<Complex64> = (0..d * d)
        .map(|k| Complex64::new((k as f64 * 0.618).fract(), (k as f64 * 0.414).fract()) * 0.1)
        .collect();
    let mut amps = vec![F::complex(Complex64::new(0.5, 0.0)); 1usize << n];
    let (mut best, mut sweep) = (f64::MAX, f64::MAX);
    let phase = F::complex(Complex64::new(0.0, 1.0));
    for _ in 0..5 {
        let start = Instant::now();
        qc_sim::fused_kernel::apply(&mut amps, &fixed, 0, &offsets, &m, true);
        best = best.min(start.elapsed().as_secs_f64());
        let start = Instant::now();
        qc_sim::kernels::phase(&mut amps, &[], 0, 0, phase, true);
        sweep = sweep.min(start.elapsed().as_secs_f64());
    }
    println!(
        "{{\"what\":\"fused_block\",\"precision\":\"{}\",\"n\":{n},\"qubits\":{s},\"avx2_fma\":{},\"threads\":{},\"seconds\":{best},\"sweep\":{sweep},\"over_sweep\":{}}}",
        F::PRECISION,
        qc_sim::fused_kernel::uses_avx2_fma(),
        threads(),
        best / sweep
    );
}

fn sweep(n: u32) {
    use rayon::prelude::*;
    let mut v = vec![Complex64::new(1.0, 0.0); 1usize << n];
    let phase = Complex64::new(0.0, 1.0);
    let mut best = f64::MAX;
    for _ in 0..5 {
        let start = Instant::now();
        v.par_chunks_mut(1 << 14).for_each(|c| {
            for a in c {
                *a *= phase;
            }
        });
        best = best.min(start.elapsed().as_secs_f64());
    }
    black_box(&v);
    println!(
        "{{\"what\":\"sweep\",\"n\":{n},\"threads\":{},\"seconds\":{best},\"gb_per_s\":{}}}",
        threads(),
        2.0 * (16u64 << n) as f64 / best / 1e9
    );
}

fn copy(entries: usize) {
    let src: Vec<(u128, Complex64)> = (0..entries as u128)
        .map(|k| (k * 7, Complex64::new(1.0, 0.0)))
        .collect();
    // Into a buffer that already exists (pages touched), as a state update would be.
    let mut dst = src.clone();
    let mut best = f64::MAX;
    for _ in 0..5 {
        let start = Instant::now();
        dst.copy_from_slice(black_box(&src));
        black_box(&dst);
        best = best.min(start.elapsed().as_secs_f64());
    }
    println!(
        "{{\"what\":\"copy\",\"entries\":{entries},\"seconds\":{best},\"gb_per_s\":{}}}",
        2.0 * (entries * 32) as f64 / best / 1e9
    );
}

/// A chess-like state: 2^k entries over k of 64 board squares, 16 classical pieces, and a few
/// ancillas; then ~200 gates that look like moves (iSWAP jumps, slides controlled on empty path
/// squares, a few splits onto empty squares and merges back).
fn sparse(k: u32) {
    let squares: Vec<Qubit> = (0..k).map(|i| Qubit(i * 64 / k.max(1))).collect();
    let amp = Complex64::new((0.5f64).powf(f64::from(k) / 2.0), 0.0);
    let entries: Vec<(u128, Complex64)> = (0..1u128 << k).map(|key| (key, amp)).collect();
    let start = Instant::now();
    let mut sim = match SparseSim::from_entries(&squares, entries, MemoryLimit::default()) {
        Ok(s) => s,
        Err(e) => {
            println!("{{\"error\":\"{e}\"}}");
            return;
        }
    };
    let build = start.elapsed().as_secs_f64();
    let classical: Vec<Qubit> = (0..64)
        .map(Qubit)
        .filter(|q| !squares.contains(q))
        .collect();
    for q in classical.iter().take(16) {
        sim.apply_gate(Gate::X, &[*q], &[]).unwrap_or(());
    }
    let size = sim.state_size();
    // Streaming copy of this very state into an existing buffer: the floor for one pass.
    let mut buffer = sim.entries().to_vec();
    let mut copy_seconds = f64::MAX;
    for _ in 0..5 {
        let t = Instant::now();
        buffer.copy_from_slice(black_box(sim.entries()));
        black_box(&buffer);
        copy_seconds = copy_seconds.min(t.elapsed().as_secs_f64());
    }
    drop(buffer);
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let pick = |rng: &mut ChaCha8Rng| squares[rng.gen_range(0..squares.len())];
    // Monomial gates: iSWAP between two quantum squares, controlled on an empty-path square.
    // Draws with a repeated square are skipped; the time is divided by the gates applied.
    let mut mono = 0.0;
    let mut gates = 0usize;
    for _ in 0..190 {
        let (a, b, c) = (pick(&mut rng), pick(&mut rng), pick(&mut rng));
        if a == b || b == c || a == c {
            continue;
        }
        let t = Instant::now();
        sim.apply_gate(Gate::ISwap, &[a, b], &[Control::zero(c)])
            .unwrap_or(());
        mono += t.elapsed().as_secs_f64();
        gates += 1;
    }
    let gates = gates.max(1) as f64;
    // A split move onto an empty square and its merge back: the state grows 1.5x, then shrinks.
    // The merge finds each pair of partners side by side (the split wrote them so) and runs in
    // place. Three rounds: the first runs on cold memory, the best of the later two is what a
    // game that keeps playing pays.
    let (source, empty) = (squares[0], Qubit(100));
    let split_merge = |sim: &mut SparseSim| {
        let t = Instant::now();
        let grown = sim.apply_gate(Gate::SqrtISwap, &[source, empty], &[]);
        let s = t.elapsed().as_secs_f64();
        let t = Instant::now();
        let merged = sim.apply_gate(Gate::SqrtISwapDg, &[source, empty], &[]);
        let m = t.elapsed().as_secs_f64();
        (s, m, grown.and(merged).map(|()| sim.state_size()))
    };
    let (split_cold, merge_cold, _) = split_merge(&mut sim);
    let (s1, m1, _) = split_merge(&mut sim);
    let (s2, m2, merged) = split_merge(&mut sim);
    let (split, merge) = (s1.min(s2), m1.min(m2));
    // The same merge when the partners are not side by side: a second split (another source onto
    // another empty square) comes in between, so the merge must sort (radix) first.
    let (source2, empty2) = (squares[squares.len() / 2], Qubit(101));
    let interleaved = |sim: &mut SparseSim| {
        let both = sim
            .apply_gate(Gate::SqrtISwap, &[source, empty], &[])
            .and_then(|()| sim.apply_gate(Gate::SqrtISwap, &[source2, empty2], &[]));
        let peak = sim.state_size();
        let t = Instant::now();
        let merged = sim.apply_gate(Gate::SqrtISwapDg, &[source, empty], &[]);
        let m = t.elapsed().as_secs_f64();
        let back = sim.apply_gate(Gate::SqrtISwapDg, &[source2, empty2], &[]);
        (m, both.and(merged).and(back).map(|()| peak))
    };
    let (sorted_cold, _) = interleaved(&mut sim);
    let (m1, _) = interleaved(&mut sim);
    let (m2, sorted_peak) = interleaved(&mut sim);
    let sorted = m1.min(m2);
    let t = Instant::now();
    let outcome = sim.measure(squares[1], qc_ir::MeasureChoice::Random(0.3));
    let measure = t.elapsed().as_secs_f64();
    println!(
        "{{\"what\":\"qchess_sparse\",\"k\":{k},\"entries\":{size},\"threads\":{},\"bytes_per_entry\":{},\"build\":{build},\"copy_seconds\":{copy_seconds},\"monomial_gates\":{gates},\"monomial_per_gate\":{},\"monomial_per_entry_ns\":{},\"split_cold_seconds\":{split_cold},\"split_seconds\":{split},\"merge_cold_seconds\":{merge_cold},\"merge_seconds\":{merge},\"merge_entries\":\"{:?}\",\"sorted_merge_cold_seconds\":{sorted_cold},\"sorted_merge_seconds\":{sorted},\"sorted_merge_from_entries\":\"{:?}\",\"measure_seconds\":{measure},\"outcome\":\"{:?}\"}}",
        threads(),
        SparseSim::bytes_per_entry(),
        mono / gates,
        mono / gates / size as f64 * 1e9,
        merged.map_err(|e| e.to_string()),
        sorted_peak.map_err(|e| e.to_string()),
        outcome.map_err(|e| e.to_string()),
    );
}

/// Replays a recorded game's circuit move by move on a fresh `SparseSim`: the game is played
/// once through `qc_rules` to get its circuit and measurement outcomes, then the circuit's
/// instructions, grouped by the move that emitted them, run with those outcomes forced. Per
/// move: time, state size, and a streaming copy of the state after the move for comparison.
/// With `spectators > 0`, that many extra qubits the game never touches are put in uniform
/// superposition first, so every board of the game is multiplied by 2^spectators entries (the
/// game's gates act exactly as on a big state; the spectators only scale it).
fn game(path: &str, spectators: u32) {
    let fail = |what: String| println!("{{\"error\":{what:?}}}");
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => return fail(format!("{path}: {e}")),
    };
    let record = match qc_rules::GameRecord::parse(&text) {
        Ok(r) => r,
        Err(e) => return fail(format!("{path}: {e}")),
    };
    let mut played = match qc_rules::Game::new(record.start.clone(), SparseSim::new()) {
        Ok(g) => g,
        Err(e) => return fail(format!("{path}: start position: {e}")),
    };
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    for (i, m) in record.moves.iter().enumerate() {
        if let Err(e) = qc_rules::QuantumGame::play(&mut played, &m.mv, &mut rng) {
            return fail(format!("{path}: move {}: {e}", i + 1));
        }
    }
    let outcomes = played.classical_record().clone();
    let instructions = qc_rules::QuantumGame::circuit(&played).instructions();
    let mut sim = SparseSim::new();
    for i in 0..spectators {
        if let Err(e) = sim.apply_gate(Gate::H, &[Qubit(10_000 + i)], &[]) {
            return fail(format!("spectator qubits: {e}"));
        }
    }
    let mut record = qc_ir::exec::ClassicalRecord::new(outcomes.bits().len());
    let mut policy = |clbit: Option<qc_ir::Clbit>| match clbit.and_then(|c| outcomes.get(c)) {
        Some(v) => qc_ir::MeasureChoice::Forced(v),
        None => qc_ir::MeasureChoice::Random(0.5),
    };
    let (mut total, mut copy_total, mut entry_moves) = (0.0, 0.0, 0usize);
    let (mut max_size, mut moves, mut slowest) = (0usize, 0usize, 0.0f64);
    let mut at = 0;
    while at < instructions.len() {
        let index = instructions[at].origin.as_ref().map(|o| o.move_index);
        let mut end = at + 1;
        while end < instructions.len()
            && instructions[end].origin.as_ref().map(|o| o.move_index) == index
        {
            end += 1;
        }
        let t = Instant::now();
        if let Err(e) = qc_ir::exec::run_instructions(
            &mut sim,
            &instructions[at..end],
            &mut record,
            &mut policy,
        ) {
            return fail(format!("{path}: replaying move {index:?}: {e}"));
        }
        let seconds = t.elapsed().as_secs_f64();
        let mut buffer = sim.entries().to_vec();
        let mut copy = f64::MAX;
        for _ in 0..5 {
            let t = Instant::now();
            buffer.copy_from_slice(black_box(sim.entries()));
            black_box(&buffer);
            copy = copy.min(t.elapsed().as_secs_f64());
        }
        if index.is_some_and(|i| i > 0) {
            moves += 1;
            total += seconds;
            copy_total += copy;
            slowest = slowest.max(seconds);
            entry_moves += sim.state_size();
        }
        max_size = max_size.max(sim.state_size());
        at = end;
    }
    // The replay must end where the game did (the spectators factor out of the overlap).
    let mut reference = played.backend().clone();
    for i in 0..spectators {
        if let Err(e) = reference.apply_gate(Gate::H, &[Qubit(10_000 + i)], &[]) {
            return fail(format!("spectator qubits: {e}"));
        }
    }
    let saved = match reference.snapshot() {
        Ok(saved) => saved,
        Err(e) => return fail(format!("the game's state: {e}")),
    };
    let fidelity = match sim.fidelity(&saved) {
        Ok(fidelity) => fidelity,
        Err(e) => return fail(format!("comparing with the game: {e}")),
    };
    println!(
        "{{\"what\":\"qchess_game\",\"file\":{path:?},\"spectators\":{spectators},\"fidelity_to_game\":{fidelity},\"threads\":{},\"moves\":{moves},\"instructions\":{},\"seconds_total\":{total},\"seconds_per_move\":{},\"slowest_move\":{slowest},\"max_entries\":{max_size},\"mean_entries\":{},\"ns_per_entry_move\":{},\"copy_seconds_per_move\":{},\"move_over_copy\":{}}}",
        threads(),
        instructions.len(),
        total / moves.max(1) as f64,
        entry_moves as f64 / moves.max(1) as f64,
        total / entry_moves.max(1) as f64 * 1e9,
        copy_total / moves.max(1) as f64,
        total / copy_total,
    );
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let num = |i: usize, default: u64| -> u64 {
        args.get(i).and_then(|s| s.parse().ok()).unwrap_or(default)
    };
    match args.first().map(String::as_str) {
        Some("circuit") => println!("{}", to_json(&circuit(num(1, 20) as u32, num(2, 1)))),
        Some("qasm") => print!(
            "{}",
            portable_qasm(num(1, 20) as u32, num(2, 1), num(3, 8) as u32)
        ),
        Some("stages") => {
            let path = args.get(1).map_or("", String::as_str);
            let fuse = args.get(3).and_then(|s| s.parse().ok());
            match args.get(2).map(String::as_str) {
                Some("single") => run_stages::<f32>(path, fuse),
                _ => run_stages::<f64>(path, fuse),
            }
        }
        Some("dense") => match args.get(4).map(String::as_str) {
            Some("single") => run_dense::<f32>(num(1, 20) as u32, num(2, 1), num(3, 2) as usize),
            _ => run_dense::<f64>(num(1, 20) as u32, num(2, 1), num(3, 2) as usize),
        },
        Some("fused") => match args.get(3).map(String::as_str) {
            Some("single") => {
                fused_block::<f32>(num(1, 20) as u32, num(2, 3) as u32, num(4, 1) as u32)
            }
            _ => fused_block::<f64>(num(1, 20) as u32, num(2, 3) as u32, num(4, 1) as u32),
        },
        Some("sweep") => sweep(num(1, 20) as u32),
        Some("copy") => copy(num(1, 1_000_000) as usize),
        Some("sparse") => sparse(num(1, 16) as u32),
        Some("game") => game(
            args.get(1).map_or("circuits/full_game.qcg", String::as_str),
            num(2, 0) as u32,
        ),
        _ => {
            println!("{{\"error\":\"usage: perf circuit|qasm|dense|sweep|copy|sparse|game ...\"}}")
        }
    }
}
