//! The SVG circuit drawing's structure, read back with an XML parser: folded into rows that fit
//! the page, each row showing exactly the wires its instructions use, every instruction drawn
//! once and in order, vertical lines from the first to the last wire an instruction acts on,
//! numbers without float noise, the highlighted move shaded. Checked on every bundled game of
//! both rulesets and on random circuits.

use qc_ir::{Circuit, Clbit, Condition, Control, Gate, Instruction, Op, Qubit};
use qc_render::game_drawing::game_drawing;
use qc_render::layout::Annotations;
use qc_render::svg_circuit::{draw_with, fold, SvgOptions};
use qc_rules::{QuantumGame, Ruleset};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use roxmltree::{Document, Node};
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

fn number(node: Node, attribute: &str) -> f64 {
    node.attribute(attribute)
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no number {attribute} on {node:?}"))
}

fn with_class<'a, 'input>(node: Node<'a, 'input>, class: &str) -> Vec<Node<'a, 'input>> {
    node.descendants()
        .filter(|n| n.attribute("class") == Some(class))
        .collect()
}

/// What [`check`] measured: how many wires the vertical lines cross without acting on them.
#[derive(Default, Debug)]
struct Crossings {
    lines: usize,
    crossed: usize,
    most: usize,
}

/// Every property of the module docs, for `circuit` drawn with `notes` and `options`.
fn check(name: &str, circuit: &Circuit, notes: &Annotations, options: &SvgOptions) -> Crossings {
    // The SVG's own columns: each row places its instructions again on its wires.
    let lay = fold(circuit, notes, options)
        .unwrap_or_else(|e| panic!("{name}: {e}"))
        .layout;
    let svg = draw_with(circuit, notes, options).unwrap_or_else(|e| panic!("{name}: {e}"));
    let doc = Document::parse(&svg).unwrap_or_else(|e| panic!("{name}: {e}"));
    let root = doc.root_element();
    // Whole-pixel sizes, coordinates to at most two decimals.
    for size in ["width", "height"] {
        assert_eq!(number(root, size).fract(), 0.0, "{name}: {size}");
    }
    for node in doc.descendants() {
        for a in node.attributes().filter(|a| !a.name().starts_with("data-")) {
            for word in a.value().split([' ', ',']) {
                if let (Some((_, decimals)), Ok(_)) = (word.split_once('.'), word.parse::<f64>()) {
                    assert!(decimals.len() <= 2, "{name}: {}={}", a.name(), a.value());
                }
            }
        }
    }
    let rows = with_class(root, "row");
    // Rows cover the columns in order, each within the page unless one column alone is wider.
    let mut next_column = 0;
    for row in &rows {
        let (start, end) = row
            .attribute("data-columns")
            .and_then(|c| c.split_once('-'))
            .map(|(a, b)| (a.parse::<usize>().unwrap(), b.parse::<usize>().unwrap()))
            .expect("data-columns");
        assert_eq!(start, next_column, "{name}");
        next_column = end;
        if let Some(page) = options.width {
            let right = with_class(*row, "wire-line")
                .iter()
                .map(|l| number(*l, "x2"))
                .fold(0.0, f64::max);
            assert!(
                right <= page || end - start == 1,
                "{name}: a row of {} columns reaches {right} > {page}",
                end - start
            );
        }
    }
    if lay.columns > 0 {
        assert_eq!(next_column, lay.columns, "{name}");
    }
    // Every drawn instruction once, in order, in the row of its column.
    let drawn: Vec<(usize, usize)> = rows
        .iter()
        .enumerate()
        .flat_map(|(r, row)| {
            with_class(*row, "op").into_iter().map(move |op| {
                (
                    r,
                    op.attribute("data-instruction").unwrap().parse().unwrap(),
                )
            })
        })
        .collect();
    let placed: Vec<usize> = lay.placed.iter().map(|p| p.instruction).collect();
    let mut all: Vec<usize> = drawn.iter().map(|d| d.1).collect();
    assert!(
        drawn.windows(2).all(|w| w[0].0 < w[1].0 || w[0].1 < w[1].1),
        "{name}: a row out of instruction order"
    );
    all.sort_unstable();
    assert_eq!(all, placed, "{name}");
    // Each in the row of its column.
    for &(r, k) in &drawn {
        let column = lay
            .placed
            .iter()
            .find(|p| p.instruction == k)
            .unwrap()
            .column;
        let (a, b) = rows[r]
            .attribute("data-columns")
            .and_then(|c| c.split_once('-'))
            .map(|(a, b)| (a.parse::<usize>().unwrap(), b.parse::<usize>().unwrap()))
            .unwrap();
        assert!((a..b).contains(&column), "{name}: instruction {k}");
    }
    let mut crossings = Crossings::default();
    for (r, row) in rows.iter().enumerate() {
        // The wires a row shows are exactly those its instructions act on.
        let shown: BTreeMap<String, f64> = with_class(*row, "wire")
            .iter()
            .map(|w| (w.text().unwrap_or("").to_string(), number(*w, "y") - 4.0))
            .collect();
        let used: BTreeSet<String> = lay
            .placed
            .iter()
            .filter(|p| drawn.contains(&(r, p.instruction)))
            .flat_map(|p| p.marks.iter().map(|(w, _)| lay.wires[*w].clone()))
            .collect();
        assert_eq!(
            shown.keys().cloned().collect::<BTreeSet<_>>(),
            used,
            "{name}, row {r}"
        );
        // A condition's label meets no box (6 px a character at 10 px, 8 px above its
        // baseline to 2 below).
        let boxes: Vec<(f64, f64, f64, f64)> = row
            .descendants()
            .filter(|n| n.has_tag_name("rect") && n.attribute("stroke").is_some())
            .map(|b| {
                let (x, y) = (number(b, "x"), number(b, "y"));
                (x, y, x + number(b, "width"), y + number(b, "height"))
            })
            .collect();
        for label in with_class(*row, "condition") {
            let w = 6.0 * label.text().unwrap_or("").chars().count() as f64;
            let (x, y) = (number(label, "x"), number(label, "y"));
            let (l, t, right, b) = (x - w / 2.0, y - 8.0, x + w / 2.0, y + 2.0);
            for &(bl, bt, br, bb) in &boxes {
                assert!(
                    right <= bl || br <= l || b <= bt || bb <= t,
                    "{name}, row {r}: condition label at ({x}, {y}) meets a box at ({bl}, {bt})"
                );
            }
        }
        // A vertical line runs from the first to the last wire its instruction acts on.
        for op in with_class(*row, "op") {
            let k: usize = op.attribute("data-instruction").unwrap().parse().unwrap();
            let p = lay.placed.iter().find(|p| p.instruction == k).unwrap();
            let ys: Vec<f64> = p.marks.iter().map(|(w, _)| shown[&lay.wires[*w]]).collect();
            let (top, bottom) = (
                ys.iter().copied().fold(f64::INFINITY, f64::min),
                ys.iter().copied().fold(f64::NEG_INFINITY, f64::max),
            );
            match with_class(op, "link").first() {
                Some(line) => {
                    assert_eq!((number(*line, "y1"), number(*line, "y2")), (top, bottom));
                    let crossed = shown
                        .values()
                        .filter(|&&y| y > top && y < bottom && !ys.contains(&y))
                        .count();
                    crossings.lines += 1;
                    crossings.crossed += crossed;
                    crossings.most = crossings.most.max(crossed);
                }
                None => assert_eq!(top, bottom, "{name}: instruction {k} has no line"),
            }
        }
    }
    // The highlighted section is shaded in every row it reaches.
    if let Some(k) = options.highlight {
        let span = &lay.sections[k].columns;
        let reached = rows
            .iter()
            .filter(|row| {
                let (a, b) = row
                    .attribute("data-columns")
                    .and_then(|c| c.split_once('-'))
                    .map(|(a, b)| (a.parse::<usize>().unwrap(), b.parse::<usize>().unwrap()))
                    .unwrap();
                a < span.end && span.start < b
            })
            .count();
        let shaded = with_class(root, "highlight");
        assert_eq!(shaded.len(), reached, "{name}");
        let tag = k.to_string();
        assert!(shaded
            .iter()
            .all(|h| h.attribute("data-section") == Some(tag.as_str())));
    }
    crossings
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

const WIDTHS: [Option<f64>; 4] = [None, Some(1200.0), Some(600.0), Some(250.0)];

#[test]
fn every_bundled_game_folds_into_rows_that_keep_the_rules() {
    let games = qchess_tests::bundled::bundled_games().expect("the bundled games");
    for g in &games {
        let (circuit, notes) = game_drawing(&g.game, None, false).expect("a drawing");
        for width in WIDTHS {
            let options = SvgOptions {
                width,
                highlight: notes.sections.len().checked_sub(1),
            };
            check(
                &format!("{} at {width:?}", g.path),
                &circuit,
                &notes,
                &options,
            );
        }
    }
    let mut niels: Vec<PathBuf> = std::fs::read_dir(repo().join("circuits/niels"))
        .expect("Niel's games")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .collect();
    niels.sort();
    for path in niels {
        let text = std::fs::read_to_string(&path).expect("a game");
        let record = qc_rules::Niels::read_game(&text, None).expect("a Niel's game file");
        let mut game = qc_rules::Niels::game_for(&record, qc_sim::SparseSim::new())
            .expect("its start position");
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        for m in &record.moves {
            game.play(&m.mv, &mut rng).expect("a move");
        }
        let (circuit, notes) = game_drawing(&game, None, false).expect("a drawing");
        for width in WIDTHS {
            let options = SvgOptions {
                width,
                highlight: notes.sections.len().checked_sub(1),
            };
            check(
                &format!("{} at {width:?}", path.display()),
                &circuit,
                &notes,
                &options,
            );
        }
    }
}

/// The whole bundled game, one row of 8,365 pixels before this drawing folded: its vertical
/// lines crossed 15 wires on average, up to 60. Folded at the default width, with each row's
/// wires in the order its moves join them, they cross 1.5 on average, at most 12.
#[test]
fn a_whole_game_reads_in_rows_with_short_lines() {
    let games = qchess_tests::bundled::bundled_games().expect("the bundled games");
    let full = games
        .iter()
        .find(|g| g.path.ends_with("full_game.qcg"))
        .expect("full_game.qcg");
    let (circuit, notes) = game_drawing(&full.game, None, false).expect("a drawing");
    let one_row = check(
        "full, one row",
        &circuit,
        &notes,
        &SvgOptions {
            width: None,
            highlight: None,
        },
    );
    let folded = check("full, folded", &circuit, &notes, &SvgOptions::default());
    let mean = |c: &Crossings| c.crossed as f64 / c.lines.max(1) as f64;
    assert!(mean(&one_row) > 5.0, "{one_row:?}");
    assert!(
        mean(&folded) * 5.0 < mean(&one_row),
        "{folded:?} (one row: {one_row:?})"
    );
    assert!(
        folded.most * 2 < one_row.most,
        "{folded:?} (one row: {one_row:?})"
    );
}

/// A random circuit with feed-forward, controls of both polarities and gates on three qubits.
fn random_circuit(rng: &mut ChaCha8Rng, n: u32, length: usize) -> Circuit {
    let mut instructions = Vec::new();
    for _ in 0..length {
        let q = Qubit(rng.gen_range(0..n));
        let other = Qubit((q.0 + rng.gen_range(1..n)) % n);
        let op = match rng.gen_range(0..5) {
            0 => Op::Measure {
                qubit: q,
                clbit: Clbit(rng.gen_range(0..4)),
            },
            1 => Instruction::gate(Gate::ISwap, &[q, other], &[]).op,
            2 => Instruction::gate(Gate::Ry(rng.gen_range(-3.0..3.0)), &[q], &[]).op,
            _ => Instruction::gate(Gate::X, &[q], &[Control::when(other, rng.gen())]).op,
        };
        let mut instruction = Instruction::new(op);
        if rng.gen_bool(0.2) {
            instruction.condition = Some(
                Condition {
                    clbit: Clbit(rng.gen_range(0..4)),
                    value: rng.gen(),
                }
                .into(),
            );
        }
        instructions.push(instruction);
    }
    Circuit::from_parts(
        (0..n).map(|_| qc_ir::QubitRole::Plain).collect(),
        4,
        instructions,
    )
}

#[test]
fn random_circuits_fold_into_rows_that_keep_the_rules() {
    let mut rng = ChaCha8Rng::seed_from_u64(28);
    for round in 0..60 {
        let n = rng.gen_range(2..9);
        let length = rng.gen_range(1..60);
        let circuit = random_circuit(&mut rng, n, length);
        for width in WIDTHS {
            let options = SvgOptions {
                width,
                highlight: None,
            };
            check(
                &format!("round {round} at {width:?}"),
                &circuit,
                &Annotations::default(),
                &options,
            );
        }
    }
}
