//! The structure of circuit drawings: sections (moves) labelled and on columns of their own,
//! hidden wires absent, wires named by what they stand for, the gate table's names, vertical
//! lines on the middle of the marks they join; the same facts in text and in SVG.

use qc_ir::{Circuit, Gate, Qubit};
use qc_render::layout::{layout_annotated, Annotations, Section};
use qc_render::{svg_circuit, text_circuit};
use qc_rules::WireLabel;

/// A two-move circuit: `1. b1^a3c3` splits b1 (two gates), `2. g8f6` jumps; h8's set-up `x`
/// is never touched again.
fn two_moves() -> (Circuit, Annotations) {
    let circuit = qc_ir::text::parse(
        "qubits b1 a3 c3 f6 g8 h8\nx b1\nx g8\nx h8\nsiswap b1, a3\niswap b1, c3\niswap g8, f6\n",
    )
    .unwrap();
    let notes = Annotations {
        sections: vec![
            Section {
                start: 0,
                label: "set-up".into(),
            },
            Section {
                start: 3,
                label: "1. b1^a3c3".into(),
            },
            Section {
                start: 5,
                label: "2. g8f6".into(),
            },
        ],
        hidden: [Qubit(5)].into_iter().collect(),
        note: Some("(1 set-up wire left out)".into()),
        ..Annotations::default()
    };
    (circuit, notes)
}

#[test]
fn moves_are_labelled_and_never_share_a_column() {
    let (circuit, notes) = two_moves();
    let lay = layout_annotated(&circuit, &notes);
    let labels: Vec<&str> = lay.sections.iter().map(|s| s.label.as_str()).collect();
    assert_eq!(labels, ["set-up", "1. b1^a3c3", "2. g8f6"]);
    // Without sections, g8f6 would share column 0 with the set-up x of b1's neighbours; with
    // them each instruction lies in its own section's columns. Instructions 3 and 4 are move 1.
    let section_of_instruction = [0, 0, 1, 1, 2];
    assert_eq!(lay.placed.len(), 5, "h8's x is hidden: {lay:?}");
    for (p, &k) in lay.placed.iter().zip(&section_of_instruction) {
        assert!(
            lay.sections[k].columns.contains(&p.column),
            "instruction in column {} outside {:?}",
            p.column,
            lay.sections[k]
        );
    }
    for pair in lay.sections.windows(2) {
        assert_eq!(pair[0].columns.end, pair[1].columns.start);
    }
}

#[test]
fn text_drawing_labels_moves_and_leaves_hidden_wires_out() {
    let (circuit, notes) = two_moves();
    let text = text_circuit::draw_annotated(&circuit, &notes).expect("a drawing");
    let lines: Vec<&str> = text.lines().collect();
    let header = lines[0];
    for label in ["set-up", "1. b1^a3c3", "2. g8f6"] {
        assert!(header.contains(label), "{text}");
    }
    // Two separators between three sections, on the header and on every wire row.
    assert_eq!(header.matches('┊').count(), 2, "{text}");
    let wire_rows: Vec<&&str> = lines.iter().filter(|l| l.contains(": ─")).collect();
    assert_eq!(wire_rows.len(), 5, "{text}");
    assert!(wire_rows.iter().all(|l| l.matches('┊').count() == 2));
    assert!(!text.contains("h8"), "hidden wire drawn: {text}");
    assert!(text.ends_with("(1 set-up wire left out)\n"), "{text}");
    // Each label starts just after its separator (or at the first column).
    let column_of = |s: &str, needle: &str| s.find(needle).map(|b| s[..b].chars().count());
    let first_separator = header.chars().position(|c| c == '┊').unwrap();
    assert_eq!(
        column_of(header, "1. b1^a3c3"),
        Some(first_separator + 2),
        "{text}"
    );
}

#[test]
fn vertical_lines_run_through_the_middle_of_the_marks_they_join() {
    let circuit =
        qc_ir::text::parse("qubits a1 b1 c1\nx c1 ctrl(a1=1, b1=0)\nsiswap a1, c1\n").unwrap();
    let text = text_circuit::draw(&circuit).expect("a drawing");
    let rows: Vec<Vec<char>> = text.lines().map(|l| l.chars().collect()).collect();
    // Every `│` on a spacer row has a mark right above and right below it (never a plain wire).
    for (r, row) in rows.iter().enumerate() {
        for (c, &ch) in row.iter().enumerate() {
            if ch != '│' || r == 0 || r + 1 >= rows.len() {
                continue;
            }
            for neighbour in [&rows[r - 1], &rows[r + 1]] {
                let above = neighbour.get(c).copied().unwrap_or(' ');
                assert!(
                    !matches!(above, '─' | ' '),
                    "bar at row {r}, column {c} joins `{above}`:\n{text}"
                );
            }
        }
    }
}

#[test]
fn a_wire_is_named_by_what_it_stands_for() {
    // anc0 stands for one pair over the whole drawing; anc1 for two pairs one after the other.
    let circuit = qc_ir::text::parse(
        "qubits anc0 anc1\nalloc anc0\nry(pi/2) anc0\nalloc anc1\nx anc1\nmeasure anc1 -> c0\nif c0==1: x anc1\nfree anc1\nalloc anc1\nh anc1\n",
    )
    .unwrap();
    let label = |instruction: usize, qubit: u32, label: &str| WireLabel {
        instruction,
        qubit: Qubit(qubit),
        label: label.into(),
    };
    let notes = Annotations {
        wire_labels: vec![
            label(0, 0, "R d4/e6"),
            label(2, 1, "n f6/d5"),
            label(7, 1, "B c4/e2"),
        ],
        ..Annotations::default()
    };
    // The circuit's name first (as the compiled program's header and comments name the qubit),
    // then what it stands for.
    let text = text_circuit::draw_annotated(&circuit, &notes).expect("a drawing");
    assert!(text.starts_with("anc0 (R d4/e6): ─"), "{text}");
    assert!(text.contains("anc1: ─"), "{text}");
    assert!(
        text.contains("|0> n f6/d5") && text.contains("|0> B c4/e2"),
        "{text}"
    );
    assert!(text.contains("[ry(pi/2)]"), "{text}");
    let svg = svg_circuit::draw_annotated(&circuit, &notes).expect("a drawing");
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let wires: Vec<&str> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("wire"))
        .filter_map(|n| n.text())
        .collect();
    assert_eq!(wires, ["anc0 (R d4/e6)", "anc1"]);
    assert!(svg.contains("|0⟩ n f6/d5") && svg.contains("|0⟩ B c4/e2"));
}

#[test]
fn svg_drawing_has_the_same_sections_wires_and_note() {
    let (circuit, notes) = two_moves();
    let svg = svg_circuit::draw_annotated(&circuit, &notes).expect("a drawing");
    let doc = roxmltree::Document::parse(&svg).expect("well-formed SVG");
    let texts = |class: &str| -> Vec<String> {
        doc.descendants()
            .filter(|n| n.attribute("class") == Some(class))
            .filter_map(|n| n.text().map(str::to_string))
            .collect()
    };
    assert_eq!(texts("section"), ["set-up", "1. b1^a3c3", "2. g8f6"]);
    assert_eq!(texts("wire"), ["b1", "a3", "c3", "f6", "g8"]);
    assert_eq!(texts("note"), ["(1 set-up wire left out)"]);
    let separators: Vec<f64> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("separator"))
        .map(|n| n.attribute("x1").unwrap().parse().unwrap())
        .collect();
    assert_eq!(separators.len(), 2);
    // Every gate box lies between the separators of its own section.
    let boxes: Vec<(String, f64)> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("gate"))
        .map(|n| {
            (
                n.text().unwrap().to_string(),
                n.attribute("x").unwrap().parse().unwrap(),
            )
        })
        .collect();
    for (name, x) in &boxes {
        let section = separators.iter().filter(|s| *s < x).count();
        let expected = match name.as_str() {
            "x" => 0,
            "siswap" => 1,
            _ if *x < separators[1] => 1,
            _ => 2,
        };
        assert_eq!(section, expected, "{name} at {x}");
    }
    // Boxes on one wire never overlap, however long their labels.
    let wide = qc_ir::text::parse("qubits q0 q1\nry(1.2309594173407747) q0\nrz(0.1) q0\n").unwrap();
    let svg = svg_circuit::draw(&wide).expect("a drawing");
    let doc = roxmltree::Document::parse(&svg).unwrap();
    let rects: Vec<(f64, f64)> = doc
        .descendants()
        .filter(|n| n.has_tag_name("rect") && n.attribute("stroke").is_some())
        .map(|n| {
            let x: f64 = n.attribute("x").unwrap().parse().unwrap();
            let w: f64 = n.attribute("width").unwrap().parse().unwrap();
            (x, x + w)
        })
        .collect();
    assert_eq!(rects.len(), 2);
    assert!(rects[0].1 < rects[1].0, "{rects:?}");
}

#[test]
fn every_gate_is_drawn_with_the_table_name() {
    for gate in Gate::examples() {
        let targets: Vec<Qubit> = (0..gate.num_targets() as u32).map(Qubit).collect();
        let mut circuit = Circuit::with_plain_qubits(targets.len() as u32, 0);
        circuit.push(qc_ir::Instruction::gate(gate, &targets, &[]));
        let text = text_circuit::draw(&circuit).expect("a drawing");
        let name = gate.name();
        let boxed = format!("[{name}");
        assert_eq!(
            text.matches(&boxed).count(),
            targets.len(),
            "{name}:\n{text}"
        );
        let svg = svg_circuit::draw(&circuit).expect("a drawing");
        assert!(svg.contains(&format!(">{name}")), "{name}: {svg}");
    }
}

#[test]
fn text_drawing_of_two_moves() {
    let (circuit, notes) = two_moves();
    insta::assert_snapshot!(text_circuit::draw_annotated(&circuit, &notes).expect("a drawing"));
}
