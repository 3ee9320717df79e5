//! No two elements of a circuit drawing meet: the SVG is read back with an XML parser, every
//! gate box, control dot, connector line and text (gate labels aside, which sit inside their
//! boxes; conditions, life marks, wire names, section labels) is collected with its geometry,
//! and no two of them may intersect, except by design a connector and the boxes and dots of its
//! own instruction, which it joins. Checked on every bundled game of both rulesets (the whole
//! game at several page widths, and every move alone), every bundled circuit and program, and
//! random circuits with feed-forward, ancillas, resets and sections.
//!
//! The text drawing shares the layout: there every condition must be written (it used to be
//! dropped where another instruction's line ran through the place under its wire).

use qc_ir::{Circuit, Clbit, Condition, Control, Gate, Instruction, Op, Qubit};
use qc_render::game_drawing::game_drawing;
use qc_render::layout::{layout_annotated, Annotations, Section};
use qc_render::svg_circuit::{draw_with, SvgOptions};
use qc_render::text_circuit;
use qc_rules::{QuantumGame, Ruleset, WireLabel};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use roxmltree::{Document, Node};
use std::path::{Path, PathBuf};

/// The root element's font size, which texts without their own inherit.
const FONT: f64 = 12.0;

/// What an element is, for the messages and for the one exception.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Box,
    Dot,
    Connector,
    Text,
    Separator,
}

/// One drawn element: its kind, the instruction it belongs to (if any), what it says, and its
/// extent (a line has zero width).
#[derive(Clone, Debug)]
struct Element {
    kind: Kind,
    owner: Option<usize>,
    what: String,
    x: (f64, f64),
    y: (f64, f64),
}

fn number(node: Node, attribute: &str) -> f64 {
    node.attribute(attribute)
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no number {attribute} on {node:?}"))
}

/// The box a text takes: a monospace character is 0.6 em wide, the glyphs reach 0.8 em above
/// the baseline and 0.2 em below.
fn text_extent(node: Node) -> ((f64, f64), (f64, f64)) {
    let size = node
        .attribute("font-size")
        .and_then(|s| s.parse().ok())
        .unwrap_or(FONT);
    let width = 0.6 * size * node.text().unwrap_or("").chars().count() as f64;
    let (x, y) = (number(node, "x"), number(node, "y"));
    let left = match node.attribute("text-anchor") {
        Some("middle") => x - width / 2.0,
        Some("end") => x - width,
        _ => x,
    };
    ((left, left + width), (y - 0.8 * size, y + 0.2 * size))
}

/// The instruction an element belongs to: the `data-instruction` of its `op` group.
fn owner(node: Node) -> Option<usize> {
    node.ancestors()
        .find(|a| a.attribute("class") == Some("op"))
        .and_then(|op| op.attribute("data-instruction"))
        .and_then(|k| k.parse().ok())
}

/// Every element of one row of the drawing.
fn elements(row: Node) -> Vec<Element> {
    let mut out = Vec::new();
    for node in row.descendants().filter(Node::is_element) {
        let class = node.attribute("class").unwrap_or("");
        let what = format!("{} {class} {:?}", node.tag_name().name(), node.text());
        let (kind, x, y) = match (node.tag_name().name(), class) {
            ("rect", _) if node.attribute("stroke").is_some() => {
                let (x, y) = (number(node, "x"), number(node, "y"));
                let (w, h) = (number(node, "width"), number(node, "height"));
                (Kind::Box, (x, x + w), (y, y + h))
            }
            ("circle", _) => {
                let (x, y, r) = (number(node, "cx"), number(node, "cy"), number(node, "r"));
                (Kind::Dot, (x - r, x + r), (y - r, y + r))
            }
            ("line", "link" | "separator") => {
                let x = number(node, "x1");
                assert_eq!(x, number(node, "x2"), "a vertical line: {what}");
                let (a, b) = (number(node, "y1"), number(node, "y2"));
                let kind = if class == "link" {
                    Kind::Connector
                } else {
                    Kind::Separator
                };
                (kind, (x, x), (a.min(b), a.max(b)))
            }
            // A gate's name sits inside its box, which stands for it.
            ("text", "gate") => continue,
            ("text", _) => {
                let (x, y) = text_extent(node);
                (Kind::Text, x, y)
            }
            _ => continue,
        };
        out.push(Element {
            kind,
            owner: owner(node),
            what,
            x,
            y,
        });
    }
    out
}

/// Whether two extents share more than an edge (a point meets a range only strictly inside it).
fn overlap(a: (f64, f64), b: (f64, f64)) -> bool {
    const EPS: f64 = 1e-6;
    let point = |r: (f64, f64)| r.1 - r.0 < EPS;
    match (point(a), point(b)) {
        (true, true) => (a.0 - b.0).abs() < EPS,
        (true, false) => b.0 + EPS < a.0 && a.0 < b.1 - EPS,
        (false, true) => a.0 + EPS < b.0 && b.0 < a.1 - EPS,
        (false, false) => a.0.max(b.0) + EPS < a.1.min(b.1),
    }
}

/// The one meeting drawn on purpose: a connector and the boxes and dots it joins.
fn by_design(a: &Element, b: &Element) -> bool {
    let joins = |line: &Element, mark: &Element| {
        line.kind == Kind::Connector && matches!(mark.kind, Kind::Box | Kind::Dot)
    };
    a.owner.is_some() && a.owner == b.owner && (joins(a, b) || joins(b, a))
}

/// Every pair of elements of the SVG that meet, as text (empty when none).
fn meetings(svg: &str) -> Vec<String> {
    let doc = Document::parse(svg).expect("the drawing is XML");
    let mut found = Vec::new();
    for row in doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("row"))
    {
        let all = elements(row);
        for (i, a) in all.iter().enumerate() {
            for b in &all[i + 1..] {
                if overlap(a.x, b.x) && overlap(a.y, b.y) && !by_design(a, b) {
                    found.push(format!(
                        "instruction {:?} {} at {:?}x{:?} meets instruction {:?} {} at {:?}x{:?}",
                        a.owner, a.what, a.x, a.y, b.owner, b.what, b.x, b.y
                    ));
                }
            }
        }
    }
    found
}

/// The page widths every drawing is checked at (`None`: one row).
const WIDTHS: [Option<f64>; 4] = [None, Some(1200.0), Some(600.0), Some(250.0)];

/// Draws `circuit` at every width of [`WIDTHS`] and fails on the first drawing where two
/// elements meet; also checks the text drawing writes every condition.
fn check(name: &str, circuit: &Circuit, notes: &Annotations) {
    for width in WIDTHS {
        let options = SvgOptions {
            width,
            highlight: None,
        };
        let svg = draw_with(circuit, notes, &options).unwrap_or_else(|e| panic!("{name}: {e}"));
        let found = meetings(&svg);
        assert!(
            found.is_empty(),
            "{name} at width {width:?}: {} meeting(s), the first:\n{}",
            found.len(),
            found.iter().take(5).cloned().collect::<Vec<_>>().join("\n")
        );
    }
    check_text(name, circuit, notes);
}

/// Every conditioned instruction the layout places has its condition written in the text
/// drawing: as many `if cN=v` as the layout has conditions.
fn check_text(name: &str, circuit: &Circuit, notes: &Annotations) {
    let lay = layout_annotated(circuit, notes);
    let text = text_circuit::draw_annotated(circuit, notes).expect("a drawing");
    let mut want: Vec<String> = lay
        .placed
        .iter()
        .filter_map(|p| p.condition.clone())
        .collect();
    want.sort();
    let mut written: Vec<String> = text
        .match_indices("if c")
        .map(|(at, _)| {
            text[at + 3..]
                .split(|c: char| c.is_whitespace() || c == '│' || c == '┊')
                .next()
                .unwrap_or("")
                .to_string()
        })
        .collect();
    written.sort();
    assert_eq!(written, want, "{name}: conditions written\n{text}");
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

/// A game's whole drawing and each of its moves' drawings.
fn check_game<G: QuantumGame>(name: &str, game: &G) {
    let (circuit, notes) = game_drawing(game, None, false).expect("a drawing");
    check(&format!("{name}, whole game"), &circuit, &notes);
    for n in 0..=game.moves().len() {
        let (circuit, notes) = game_drawing(game, Some(n), false).expect("a move");
        check(&format!("{name}, move {n}"), &circuit, &notes);
    }
}

/// The case the issue names: in the whole tour, move `e8g8.m1` (an excluded castle: the
/// ancilla measured, then a conditioned `x` and two conditioned iSWAPs) drew the first iSWAP's
/// line through the conditioned `x` box and its `if c0=1`.
#[test]
fn the_tour_s_excluded_castle_draws_its_gates_apart() {
    let games = qchess_tests::bundled::bundled_games().expect("the bundled games");
    let tour = games
        .iter()
        .find(|g| g.path.ends_with("circuits/tour.qcg"))
        .expect("tour.qcg");
    let (circuit, notes) = game_drawing(&tour.game, None, false).expect("a drawing");
    let svg = draw_with(&circuit, &notes, &SvgOptions::default()).expect("a drawing");
    let found = meetings(&svg);
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn no_two_elements_meet_in_any_bundled_game() {
    let games = qchess_tests::bundled::bundled_games().expect("the bundled games");
    assert!(games.len() > 20);
    for g in &games {
        check_game(&g.path, &g.game);
    }
    let niels = files(&repo().join("circuits/niels"), &["qng"]);
    assert!(niels.len() > 5);
    for path in niels {
        let text = std::fs::read_to_string(&path).expect("a game");
        let record = qc_rules::Niels::read_game(&text, None).expect("a Niel's game file");
        let mut game = qc_rules::Niels::game_for(&record, qc_sim::SparseSim::new())
            .expect("its start position");
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        for m in &record.moves {
            game.play(&m.mv, &mut rng).expect("a move");
        }
        check_game(&path.display().to_string(), &game);
    }
}

#[test]
fn no_two_elements_meet_in_any_bundled_circuit_or_program() {
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

/// A random circuit on `n` qubits, the last two of them ancillas that come and go: gates on
/// one to three qubits with controls of both polarities, measurements, resets, conditions.
fn random_circuit(rng: &mut ChaCha8Rng, n: u32, length: usize) -> (Circuit, Vec<WireLabel>) {
    let mut instructions = Vec::new();
    let mut labels = Vec::new();
    let ancillas = [n, n + 1];
    let mut live = [false, false];
    for _ in 0..length {
        let q = Qubit(rng.gen_range(0..n));
        let other = Qubit((q.0 + rng.gen_range(1..n)) % n);
        let op = match rng.gen_range(0..8) {
            0 => Op::Measure {
                qubit: q,
                clbit: Clbit(rng.gen_range(0..4)),
            },
            1 => Instruction::gate(Gate::ISwap, &[q, other], &[]).op,
            2 => Instruction::gate(Gate::Ry(rng.gen_range(-3.0..3.0)), &[q], &[]).op,
            3 => Op::Reset { qubit: q },
            4 | 5 => {
                // An ancilla's life: alloc, a gate with it as control or target, free.
                let k = rng.gen_range(0..2);
                let a = Qubit(ancillas[k]);
                if live[k] && rng.gen_bool(0.5) {
                    live[k] = false;
                    Op::Free { qubit: a }
                } else if live[k] {
                    Instruction::gate(Gate::X, &[a], &[Control::when(q, rng.gen())]).op
                } else {
                    live[k] = true;
                    labels.push(WireLabel {
                        instruction: instructions.len(),
                        qubit: a,
                        label: format!("R {q}/{other}"),
                    });
                    Op::Alloc { qubit: a }
                }
            }
            _ => Instruction::gate(Gate::X, &[q], &[Control::when(other, rng.gen())]).op,
        };
        let mut instruction = Instruction::new(op);
        if rng.gen_bool(0.25) {
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
    let roles = (0..n + 2).map(|_| qc_ir::QubitRole::Plain).collect();
    (Circuit::from_parts(roles, 4, instructions), labels)
}

#[test]
fn no_two_elements_meet_in_random_circuits() {
    let mut rng = ChaCha8Rng::seed_from_u64(41);
    for round in 0..150 {
        let n = rng.gen_range(2..8);
        let length = rng.gen_range(1..50);
        let (circuit, wire_labels) = random_circuit(&mut rng, n, length);
        check(&format!("round {round}"), &circuit, &Annotations::default());
        // As a game: moves at random places, the ancillas' labels.
        let mut starts: Vec<usize> = (0..4).map(|_| rng.gen_range(0..=length)).collect();
        starts.sort_unstable();
        let notes = Annotations {
            sections: starts
                .into_iter()
                .enumerate()
                .map(|(k, start)| Section {
                    start,
                    label: format!("{}. m{k}", k + 1),
                })
                .collect(),
            wire_labels,
            ..Annotations::default()
        };
        check(&format!("round {round}, as a game"), &circuit, &notes);
    }
}
