//! A drawing never shows an instruction before one it depends on: for every two drawn
//! instructions that share a qubit, or where one writes a classical bit the other reads or
//! writes, the earlier one's column is left of the later one's. Checked by brute force over all
//! pairs on every bundled circuit, program and game (both rulesets), and on random circuits
//! with feed-forward.

use qc_ir::{Circuit, Clbit, Condition, Control, Gate, Guard, Instruction, Op, Qubit};
use qc_render::layout::{layout, layout_annotated, Annotations, Layout, Section};
use qc_render::svg_circuit::{fold, SvgOptions};
use qc_rules::{QuantumGame, Ruleset};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::{Path, PathBuf};

/// The bit an instruction writes and the bits it reads.
fn bits(i: &Instruction) -> (Option<Clbit>, Vec<Clbit>) {
    let writes = match i.op {
        Op::Measure { clbit, .. } => Some(clbit),
        _ => None,
    };
    (
        writes,
        i.condition.iter().flat_map(|g| g.clbits()).collect(),
    )
}

/// Whether `later` depends on `earlier` (which comes first in the circuit).
fn depends(earlier: &Instruction, later: &Instruction) -> bool {
    let shared_qubit = earlier
        .op
        .qubits()
        .iter()
        .any(|q| later.op.qubits().contains(q));
    let (w1, r1) = bits(earlier);
    let (w2, r2) = bits(later);
    let reads = |r: &[Clbit], w: Option<Clbit>| w.is_some_and(|w| r.contains(&w));
    let through_bit = w1.is_some() && (reads(&r2, w1) || w1 == w2) || reads(&r1, w2);
    shared_qubit || through_bit
}

/// Every dependency the drawing shows out of order, as text (empty when none).
fn out_of_order(circuit: &Circuit, lay: &Layout) -> Vec<String> {
    let instructions = circuit.instructions();
    let mut wrong = Vec::new();
    for (a, pa) in lay.placed.iter().enumerate() {
        for pb in &lay.placed[a + 1..] {
            let (ia, ib) = (&instructions[pa.instruction], &instructions[pb.instruction]);
            if depends(ia, ib) && pa.column >= pb.column {
                wrong.push(format!(
                    "instruction {} ({:?}, column {}) depends on instruction {} ({:?}, column {})",
                    pb.instruction, ib, pb.column, pa.instruction, ia, pa.column
                ));
            }
        }
    }
    wrong
}

/// The layout the text drawing uses, and the SVG's at several page widths (its rows place their
/// instructions again on their own wires).
fn check(name: &str, circuit: &Circuit, notes: &Annotations) {
    let mut layouts = vec![("text".to_string(), layout_annotated(circuit, notes))];
    for width in [None, Some(1200.0), Some(600.0), Some(250.0)] {
        let options = SvgOptions {
            width,
            highlight: None,
        };
        let folded = fold(circuit, notes, &options).expect("a drawing");
        layouts.push((format!("SVG at {width:?}"), folded.layout));
    }
    for (drawing, lay) in layouts {
        let wrong = out_of_order(circuit, &lay);
        assert!(wrong.is_empty(), "{name}, {drawing}:\n{}", wrong.join("\n"));
        // Instructions in order in the list, every drawn one once.
        assert!(lay
            .placed
            .windows(2)
            .all(|w| w[0].instruction < w[1].instruction));
    }
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn files(dir: &Path, extensions: &[&str]) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("a bundled folder")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.extension()
                .is_some_and(|e| extensions.iter().any(|x| e == *x))
        })
        .collect();
    out.sort();
    out
}

/// The two feed-forward examples the issue names, by hand: the conditioned `x` after the
/// measurement it reads, the conditioned iSWAP after the measurement into `c0`.
#[test]
fn a_conditioned_instruction_comes_after_the_measurement_it_reads() {
    for (file, measure, conditioned) in [
        ("bell_feedforward.qc", 2, 3),
        ("split_and_measure.qc", 5, 6),
    ] {
        let text = std::fs::read_to_string(repo().join("circuits").join(file)).expect("file");
        let circuit = qc_ir::text::parse(&text).expect("IR text");
        let lay = layout(&circuit);
        let column = |k: usize| {
            lay.placed
                .iter()
                .find(|p| p.instruction == k)
                .map(|p| p.column)
                .expect("drawn")
        };
        assert!(
            column(measure) < column(conditioned),
            "{file}: measurement in column {}, the instruction it conditions in {}",
            column(measure),
            column(conditioned)
        );
    }
}

#[test]
fn every_bundled_circuit_and_program_is_drawn_in_dependency_order() {
    let root = repo();
    let mut paths = files(&root.join("circuits"), &["qc", "qasm"]);
    paths.extend(files(&root.join("circuits/tour"), &["qasm"]));
    assert!(paths.len() > 20, "{paths:?}");
    for path in paths {
        let text = std::fs::read_to_string(&path).expect("a bundled file");
        let circuit = qc_export::parse_circuit(&text).expect("a bundled circuit");
        check(
            &path.display().to_string(),
            &circuit,
            &Annotations::default(),
        );
    }
}

/// The game's circuit with its moves as sections, as `qchess draw` draws a whole game.
fn game_notes<G: QuantumGame>(game: &G) -> Annotations {
    let mut sections = vec![Section {
        start: 0,
        label: "set-up".into(),
    }];
    sections.extend(game.moves().iter().map(|m| Section {
        start: m.instructions.start,
        label: m.text(),
    }));
    Annotations {
        sections,
        wire_labels: game.wire_labels().to_vec(),
        ..Annotations::default()
    }
}

#[test]
fn every_bundled_game_is_drawn_in_dependency_order() {
    let games = qchess_tests::bundled::bundled_games().expect("the bundled games");
    assert!(games.len() > 20);
    for g in &games {
        check(&g.path, g.game.circuit(), &game_notes(&g.game));
        check(&g.path, g.game.circuit(), &Annotations::default());
    }
    for path in files(&repo().join("circuits/niels"), &["qng"]) {
        let text = std::fs::read_to_string(&path).expect("a Niel's game");
        let record = qc_rules::Niels::read_game(&text, None).expect("a Niel's game file");
        let mut game = qc_rules::Niels::game_for(&record, qc_sim::SparseSim::new())
            .expect("its start position");
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        for m in &record.moves {
            game.play(&m.mv, &mut rng).expect("a move");
        }
        let name = path.display().to_string();
        check(&name, game.circuit(), &game_notes(&game));
        check(&name, game.circuit(), &Annotations::default());
    }
}

/// A random circuit on `n` qubits with mid-circuit measurements and conditioned gates, resets
/// and measurements into bits read before (the IR lets a bit be read, then measured into); a
/// condition tests one to three bits.
fn random_circuit(rng: &mut ChaCha8Rng, n: u32, length: usize) -> Circuit {
    let clbits = 4u32;
    let mut instructions = Vec::new();
    for _ in 0..length {
        let q = Qubit(rng.gen_range(0..n));
        let other = Qubit((q.0 + rng.gen_range(1..n)) % n);
        let op = match rng.gen_range(0..5) {
            0 => Op::Measure {
                qubit: q,
                clbit: Clbit(rng.gen_range(0..clbits)),
            },
            1 => Op::Reset { qubit: q },
            2 => Instruction::gate(Gate::H, &[q], &[]).op,
            _ => Instruction::gate(Gate::X, &[q], &[Control::when(other, rng.gen())]).op,
        };
        let mut instruction = Instruction::new(op);
        if rng.gen_bool(0.4) {
            // One bit, or several (an imported register comparison).
            let tests = (0..rng.gen_range(1..=3)).map(|_| Condition {
                clbit: Clbit(rng.gen_range(0..clbits)),
                value: rng.gen(),
            });
            instruction.condition = Guard::all(tests.collect::<Vec<_>>()).ok();
        }
        instructions.push(instruction);
    }
    Circuit::from_parts(
        (0..n).map(|_| qc_ir::QubitRole::Plain).collect(),
        clbits,
        instructions,
    )
}

#[test]
fn random_circuits_with_feed_forward_are_drawn_in_dependency_order() {
    let mut rng = ChaCha8Rng::seed_from_u64(30);
    for round in 0..300 {
        let n = rng.gen_range(2..7);
        let length = rng.gen_range(1..40);
        let circuit = random_circuit(&mut rng, n, length);
        // Sections at random places too, as a game's moves.
        let mut starts: Vec<usize> = (0..3)
            .map(|_| rng.gen_range(0..=circuit.instructions().len()))
            .collect();
        starts.sort_unstable();
        let notes = Annotations {
            sections: starts
                .into_iter()
                .enumerate()
                .map(|(k, start)| Section {
                    start,
                    label: format!("{k}."),
                })
                .collect(),
            ..Annotations::default()
        };
        check(&format!("round {round}"), &circuit, &Annotations::default());
        check(&format!("round {round}, sections"), &circuit, &notes);
    }
}
