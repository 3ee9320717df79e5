//! Programs that embed in the device are placed where they need no exchange: the interaction
//! graph of a random connected part of ibm_fez's heavy hex, and all of Sycamore's grid, on
//! scrambled qubit labels, compiled with no SWAP and no CZ beyond their own. And on a calibrated
//! line, a program that fits anywhere lands on its best couplers and readouts.

use qc_ir::{Circuit, Control, CouplingMap, Gate, Instruction, Op, Qubit};
use qc_route::{compile, Calibration, Compiled, Device, Options};
use qc_sim::SparseSim;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The couplers of a bundled device target (`backends/NAME.toml`): the pairs of numbers after
/// `edges =`.
fn target_edges(name: &str) -> (usize, Vec<[usize; 2]>) {
    let path = format!("{}/../../backends/{name}.toml", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).expect("a bundled target");
    let qubits = text
        .lines()
        .find_map(|l| l.strip_prefix("qubits = "))
        .and_then(|v| v.trim().parse().ok())
        .expect("qubits");
    let (_, list) = text.split_once("edges = [").expect("edges");
    let numbers: Vec<usize> = list
        .split(|c: char| !c.is_ascii_digit())
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().expect("a qubit"))
        .collect();
    (qubits, numbers.chunks(2).map(|p| [p[0], p[1]]).collect())
}

fn q(i: usize) -> Qubit {
    Qubit(i as u32)
}

/// A circuit on `labels.len()` qubits whose two-qubit gates are CX on the couplers `pairs` (in
/// that order) of the qubits' images `labels[i]`, each after random turns of both qubits, then
/// everything measured; the number of CX gates.
fn on_couplers(labels: &[usize], pairs: &[[usize; 2]], rng: &mut ChaCha8Rng) -> (Circuit, usize) {
    let n = labels.len();
    let mut logical = vec![usize::MAX; labels.iter().max().map_or(0, |m| m + 1)];
    for (i, &p) in labels.iter().enumerate() {
        logical[p] = i;
    }
    let mut c = Circuit::with_plain_qubits(n as u32, 0);
    let turn = |c: &mut Circuit, rng: &mut ChaCha8Rng, i: usize| {
        let a = [0; 3].map(|_| rng.gen_range(-3.2..3.2));
        c.push(Instruction::gate(Gate::U(a[0], a[1], a[2]), &[q(i)], &[]));
    };
    for &[a, b] in pairs {
        let (x, y) = (logical[a], logical[b]);
        turn(&mut c, rng, x);
        turn(&mut c, rng, y);
        c.push(Instruction::gate(Gate::X, &[q(y)], &[Control::one(q(x))]));
    }
    for i in 0..n {
        turn(&mut c, rng, i);
        let bit = c.add_clbit();
        c.push(Instruction::new(Op::Measure {
            qubit: q(i),
            clbit: bit,
        }));
    }
    (c, pairs.len())
}

fn route(c: &Circuit, dev: &Device, calibration: &Calibration) -> Compiled {
    compile(
        c,
        dev,
        calibration,
        &Options::default(),
        &mut SparseSim::new(),
    )
    .expect("routes")
}

/// `count` qubits of the device grown at random from one, connected.
fn connected_part(
    edges: &[[usize; 2]],
    qubits: usize,
    count: usize,
    rng: &mut ChaCha8Rng,
) -> Vec<usize> {
    let mut part = vec![rng.gen_range(0..qubits)];
    while part.len() < count {
        let grow: Vec<usize> = edges
            .iter()
            .filter_map(|&[a, b]| match (part.contains(&a), part.contains(&b)) {
                (true, false) => Some(b),
                (false, true) => Some(a),
                _ => None,
            })
            .collect();
        let Some(&next) = grow.choose(rng) else { break };
        part.push(next);
    }
    part
}

#[test]
fn a_part_of_the_heavy_hex_on_scrambled_labels_is_placed_with_no_exchange() {
    let (qubits, edges) = target_edges("ibm_fez");
    let dev = Device::new(
        "ibm_fez",
        CouplingMap::new(qubits, &edges).expect("map"),
        true,
    );
    let calibration = Calibration::uniform(&dev);
    for seed in 0..3 {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut part = connected_part(&edges, qubits, 60, &mut rng);
        part.shuffle(&mut rng);
        let mut inside: Vec<[usize; 2]> = edges
            .iter()
            .copied()
            .filter(|[a, b]| part.contains(a) && part.contains(b))
            .collect();
        inside.shuffle(&mut rng);
        let (c, cx) = on_couplers(&part, &inside, &mut rng);
        let routed = route(&c, &dev, &calibration);
        assert_eq!(
            routed.report.exchanges, 0,
            "seed {seed}: {:?}",
            routed.report
        );
        assert_eq!(routed.report.two_qubit_gates, cx, "seed {seed}");
    }
}

#[test]
fn all_of_sycamore_on_scrambled_labels_is_placed_with_no_exchange() {
    let (qubits, edges) = target_edges("sycamore");
    let dev = Device::new(
        "sycamore",
        CouplingMap::new(qubits, &edges).expect("map"),
        true,
    );
    let calibration = Calibration::uniform(&dev);
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let mut labels: Vec<usize> = (0..qubits).collect();
    labels.shuffle(&mut rng);
    // Every coupler twice, in random order: the interaction graph is the grid itself.
    let mut pairs: Vec<[usize; 2]> = edges.iter().chain(&edges).copied().collect();
    pairs.shuffle(&mut rng);
    let (c, cx) = on_couplers(&labels, &pairs, &mut rng);
    let routed = route(&c, &dev, &calibration);
    assert_eq!(routed.report.exchanges, 0, "{:?}", routed.report);
    assert!(routed.report.two_qubit_gates <= cx);
}

/// BackendProperties JSON for a line of `errors.len() + 1` qubits: the CZ error of each
/// coupler `k`-`k+1`, every readout error `readout[k]`.
fn line_properties(errors: &[f64], readout: &[f64]) -> String {
    let qubits: Vec<String> = readout
        .iter()
        .map(|r| format!("[{{\"name\": \"readout_error\", \"value\": {r}}}]"))
        .collect();
    let gates: Vec<String> = errors
        .iter()
        .enumerate()
        .map(|(k, e)| format!("{{\"gate\": \"cz\", \"qubits\": [{k}, {}], \"parameters\": [{{\"name\": \"gate_error\", \"value\": {e}}}]}}", k + 1))
        .chain((0..readout.len()).map(|k| format!("{{\"gate\": \"sx\", \"qubits\": [{k}], \"parameters\": [{{\"name\": \"gate_error\", \"value\": 0.0002}}]}}")))
        .collect();
    format!(
        "{{\"backend_name\": \"line\", \"qubits\": [{}], \"gates\": [{}]}}",
        qubits.join(", "),
        gates.join(", ")
    )
}

#[test]
fn a_program_that_fits_anywhere_lands_on_the_best_couplers_and_readouts() {
    // A line of 8: the couplers 5-6 and 6-7 are ten times better than the others, and so are
    // the readouts of 5, 6 and 7. A chain of three qubits fits anywhere; its best place is there.
    let errors = [0.02, 0.02, 0.02, 0.02, 0.02, 0.002, 0.002];
    let readout = [0.05, 0.05, 0.05, 0.05, 0.05, 0.005, 0.005, 0.005];
    let edges: Vec<[usize; 2]> = (0..7).map(|k| [k, k + 1]).collect();
    let dev = Device::new("line", CouplingMap::new(8, &edges).expect("map"), true);
    let calibration =
        Calibration::from_backend_properties(&line_properties(&errors, &readout), &dev, "cz")
            .expect("calibration");
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let (c, cx) = on_couplers(&[0, 1, 2], &[[0, 1], [1, 2], [0, 1], [1, 2]], &mut rng);
    let routed = route(&c, &dev, &calibration);
    assert_eq!(routed.report.exchanges, 0);
    assert_eq!(routed.report.two_qubit_gates, cx);
    let mut used: Vec<usize> = routed.tracks.iter().filter_map(|t| t.start).collect();
    used.sort_unstable();
    assert_eq!(used, [5, 6, 7]);
}

#[test]
fn a_routed_program_moves_onto_cheaper_qubits_of_the_same_shape() {
    use qc_route::embedding::relabel_cheaper;
    use qc_route::linalg::{Mat2, Mat4};
    use qc_route::program::{Step, StepOp};
    use qc_route::router::Routing;
    use qc_route::{QubitTrack, Usable};

    // A line of 4 whose coupler 0-1 is bad and 2-3 good: a CX on 0-1, both measured, belongs on
    // 2-3, written the same way with every qubit renamed in the steps and the layout.
    let errors = [0.05, 0.01, 0.001];
    let readout = [0.02, 0.02, 0.01, 0.01];
    let edges: Vec<[usize; 2]> = (0..3).map(|k| [k, k + 1]).collect();
    let dev = Device::new("line", CouplingMap::new(4, &edges).expect("map"), true);
    let calibration =
        Calibration::from_backend_properties(&line_properties(&errors, &readout), &dev, "cz")
            .expect("calibration");
    let usable = Usable::new(&dev, &calibration);
    let step = |op| Step { op, cond: None };
    let mut routing = Routing {
        steps: vec![
            step(StepOp::One {
                q: 0,
                m: Mat2::IDENTITY,
            }),
            step(StepOp::Two {
                hi: 0,
                lo: 1,
                m: Mat4::CX_HI_LO,
            }),
            step(StepOp::Measure { q: 0, clbit: 0 }),
            step(StepOp::Measure { q: 1, clbit: 1 }),
        ],
        tracks: vec![
            QubitTrack {
                start: Some(0),
                measurements: vec![(0, 0)],
                lives: vec![0],
            },
            QubitTrack {
                start: Some(1),
                measurements: vec![(1, 1)],
                lives: vec![1],
            },
        ],
        swaps: 0,
        mirrored: 0,
        last_pos: vec![Some(0), Some(1)],
    };
    assert!(relabel_cheaper(
        &mut routing,
        &[(0, 1, 1)],
        &usable,
        &calibration,
        qc_route::vf2::Bounds::default()
    ));
    let StepOp::Two { hi, lo, .. } = routing.steps[1].op else {
        panic!("a two-qubit step")
    };
    let mut pair = [hi, lo];
    pair.sort_unstable();
    assert_eq!(pair, [2, 3]);
    let StepOp::One { q: turned, .. } = routing.steps[0].op else {
        panic!("a one-qubit step")
    };
    assert_eq!(turned, hi);
    for (k, t) in routing.tracks.iter().enumerate() {
        let StepOp::Measure { q: measured, .. } = routing.steps[2 + k].op else {
            panic!("a measurement")
        };
        assert_eq!(t.measurements, vec![(k, measured)]);
        assert_eq!(t.start, Some(measured));
        assert_eq!(t.lives, vec![measured]);
        assert_eq!(routing.last_pos[k], Some(measured));
    }
    // Already on the cheapest qubits: nothing moves.
    let again = routing.clone();
    let runs = [(hi, lo, 1)];
    assert!(!relabel_cheaper(
        &mut routing,
        &runs,
        &usable,
        &calibration,
        qc_route::vf2::Bounds::default()
    ));
    assert_eq!(routing.steps, again.steps);
}
