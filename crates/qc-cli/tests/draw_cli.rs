//! `qchess draw` of games: moves labelled with their number and notation, set-up wires of
//! untouched squares left out unless `--all-wires`, Niel's wires named by their pairs.

mod common;

use common::{ok_stdout, qchess, temp_dir};

const GAME: &str = "b1^a3c3 g8f6 a3c3^b1";

/// The wire names of a text drawing, top to bottom.
fn wire_names(drawing: &str) -> Vec<String> {
    drawing
        .lines()
        .filter_map(|l| l.split_once(": ─").map(|(name, _)| name.trim().to_string()))
        .collect()
}

#[test]
fn a_whole_game_is_drawn_move_by_move_without_untouched_set_up_wires() {
    let out = ok_stdout(&qchess(&["draw", "--moves", GAME]));
    let header = out.lines().next().unwrap();
    for label in ["set-up", "1. b1^a3c3", "1... g8f6", "2. a3c3^b1"] {
        assert!(header.contains(label), "{out}");
    }
    // The moves touch b1, a3, c3 (the knight's split and merge) and g8, f6; the other 30 pieces
    // of the start position stay put and their wires are left out.
    let mut names = wire_names(&out);
    names.sort();
    assert_eq!(names, ["a3", "b1", "c3", "f6", "g8"], "{out}");
    assert!(out.contains("30 set-up wire(s)"), "{out}");

    let all = ok_stdout(&qchess(&["draw", "--moves", GAME, "--all-wires"]));
    let names = wire_names(&all);
    // 32 pieces at the start, plus the three empty squares the moves use.
    assert_eq!(names.len(), 35, "{all}");
    assert!(names.iter().any(|n| n == "a2") && names.iter().any(|n| n == "e8"));
    assert!(!all.contains("not drawn"), "{all}");
}

#[test]
fn one_move_is_labelled_with_the_number_move_takes() {
    // Moves are numbered as the record numbers them: White's second move is `2.`, also as
    // `--move` takes it; Black's first is `1...`.
    for which in ["2", "2."] {
        let out = ok_stdout(&qchess(&["draw", "--moves", GAME, "--move", which]));
        assert_eq!(out.lines().next().unwrap().trim(), "2. a3c3^b1", "{out}");
    }
    let out = ok_stdout(&qchess(&["draw", "--moves", GAME, "--move", "1..."]));
    assert_eq!(out.lines().next().unwrap().trim(), "1... g8f6", "{out}");
    let whole = ok_stdout(&qchess(&["draw", "--moves", GAME]));
    for label in ["1. b1^a3c3", "1... g8f6", "2. a3c3^b1"] {
        assert!(whole.contains(label), "{label}: {whole}");
    }
    let missing = qchess(&["draw", "--moves", GAME, "--move", "2..."]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&missing.stderr)
            .contains("--move 2...: the game has no move 2...: its moves are 1. to 2."),
        "{missing:?}"
    );
    // A game from a FEN with Black to move at fullmove 5 starts at 5....
    let fen = "4k3/8/8/8/8/8/8/4K1N1 b - - 0 5";
    let out = ok_stdout(&qchess(&[
        "draw",
        "--fen",
        fen,
        "--moves",
        "e8d8 g1f3",
        "--move",
        "6",
    ]));
    assert_eq!(out.lines().next().unwrap().trim(), "6. g1f3", "{out}");
    let out = ok_stdout(&qchess(&["draw", "--moves", GAME, "--move", "0"]));
    assert_eq!(out.lines().next().unwrap().trim(), "set-up", "{out}");
    // The set-up alone draws every piece's wire.
    assert_eq!(wire_names(&out).len(), 32, "{out}");
}

#[test]
fn niels_wires_are_named_by_their_pairs() {
    // The rook starts as the pair e4/f4 (FEN `Re4f4`); the knight's entanglement move
    // `f6&f6d5@e4` makes the pair f6/d5 and the bishop's `e2&c4e2@d5` the pair c4/e2.
    let out = ok_stdout(&qchess(&[
        "draw",
        "--rules",
        "niels",
        "circuits/niels/entangled_group.qng",
    ]));
    // Each wire by the ancilla's name, as the compiled program's header names it, and the pair
    // it stands for.
    let names = ["anc0 (R e4/f4)", "anc1 (n f6/d5)", "anc2 (B c4/e2)"];
    assert_eq!(wire_names(&out), names, "{out}");
    // The rook's equal pair is prepared with Ry(pi/2), computed as 2 asin(sqrt(1/2)).
    assert!(out.contains("[ry(pi/2)]"), "{out}");
    // Numbered as the game file (Black moves first: `1...`).
    assert!(
        out.lines().next().unwrap().contains("1... f6&f6d5@e4"),
        "{out}"
    );
    assert!(out.lines().next().unwrap().contains("3. f4f6[f6]"), "{out}");

    let dir = temp_dir("draw_niels_svg");
    let svg_path = dir.join("pairs.svg");
    let svg_arg = svg_path.to_str().unwrap();
    ok_stdout(&qchess(&[
        "draw",
        "--rules",
        "niels",
        "circuits/niels/entangled_group.qng",
        "--svg",
        svg_arg,
    ]));
    let svg = std::fs::read_to_string(&svg_path).unwrap();
    let doc = roxmltree::Document::parse(&svg).expect("well-formed SVG");
    let wires: Vec<&str> = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("wire"))
        .filter_map(|n| n.text())
        .collect();
    assert_eq!(wires, names);
    let sections = doc
        .descendants()
        .filter(|n| n.attribute("class") == Some("section"))
        .count();
    assert_eq!(sections, 5, "set-up and four plies: {svg}");
}

/// Counts what a drawing shows, wherever its bands cut: gate boxes and control dots.
fn marks(drawing: &str) -> (usize, usize) {
    (
        drawing.matches('[').count(),
        drawing.matches(['●', '○']).count(),
    )
}

#[test]
fn width_cuts_a_long_drawing_into_bands_that_fit_and_lose_nothing() {
    let games: [&[&str]; 3] = [
        &["circuits/tour.qcg"],
        &[
            "--moves",
            "e2e4 e7e5",
            "--random-plies",
            "30",
            "--seed",
            "3",
        ],
        &["--rules", "niels", "circuits/niels/entangled_group.qng"],
    ];
    for game in games {
        let args = |extra: &[&str]| -> Vec<String> {
            let mut a = vec!["draw".to_string()];
            a.extend(game.iter().chain(extra).map(|s| s.to_string()));
            a
        };
        let run = |extra: &[&str]| {
            let a = args(extra);
            let a: Vec<&str> = a.iter().map(String::as_str).collect();
            ok_stdout(&qchess(&a))
        };
        // Standard output is a pipe here: one band, as with --width 0.
        let whole = run(&[]);
        assert_eq!(run(&["--width", "0"]), whole);
        for width in [40, 80, 120] {
            let banded = run(&["--width", &width.to_string()]);
            for line in banded.lines() {
                // Only a band of one column (one move's single gate, wider than the page) or
                // the note under the drawing may be longer.
                let long = line.chars().count() > width;
                assert!(
                    !long || line.contains("wire(s)") || line.matches('[').count() <= 1,
                    "{width}: {line}\n{banded}"
                );
            }
            assert_eq!(marks(&banded), marks(&whole), "{width}\n{banded}");
            // Every wire is named again in every band.
            let (named, wires) = (wire_names(&banded).len(), wire_names(&whole).len());
            let bands = named / wires;
            assert!(bands >= 1 && named.is_multiple_of(wires), "{banded}");
            let widest = whole.lines().map(|l| l.chars().count()).max().unwrap_or(0);
            if widest > width {
                assert!(bands > 1, "{width}: one band for a drawing {widest} wide");
            }
        }
    }
}

#[test]
fn an_svg_drawing_folds_into_rows_of_the_width_asked_for() {
    let dir = temp_dir("draw-width-svg");
    let svg = dir.join("g.svg");
    let path = svg.to_str().expect("utf-8 path");
    let width = |args: &[&str]| -> (f64, usize) {
        let mut all = vec!["draw", "circuits/full_game.qcg", "--svg", path];
        all.extend_from_slice(args);
        ok_stdout(&qchess(&all));
        let text = std::fs::read_to_string(&svg).expect("written");
        let doc = roxmltree::Document::parse(&text).expect("XML");
        let w: f64 = doc
            .root_element()
            .attribute("width")
            .and_then(|w| w.parse().ok())
            .expect("a width");
        let rows = doc
            .descendants()
            .filter(|n| n.attribute("class") == Some("row"))
            .count();
        (w, rows)
    };
    let (w, rows) = width(&[]);
    assert!(w <= 1200.0 && rows > 3, "{w} x {rows} rows");
    let (w, rows) = width(&["--width", "600"]);
    assert!(w <= 600.0 && rows > 8, "{w} x {rows} rows");
    let (w, rows) = width(&["--width", "0"]);
    assert!(w > 5000.0 && rows == 1, "{w} x {rows} rows");
}

#[test]
fn a_compiled_program_is_drawn_with_its_wires_named_and_its_gates_as_boxes() {
    let dir = temp_dir("draw-program");
    let program = dir.join("p.qasm");
    let p = program.to_str().expect("utf-8 path");
    ok_stdout(&qchess(&[
        "compile",
        "--moves",
        "b1^a3c3 g8f6 a3c3^b1",
        "-o",
        p,
    ]));
    let drawn = ok_stdout(&qchess(&["draw", "--circuit", p]));
    // The compact program keeps the squares in superposition (the knight's jump g8f6 is
    // classical and folded away).
    let mut names = wire_names(&drawn);
    names.sort();
    assert_eq!(names, ["a3", "b1", "c3"], "{drawn}");
    // The library's gates as boxes, as the game's drawing shows them: the split and the merge.
    let game = ok_stdout(&qchess(&["draw", "--moves", "b1^a3c3 g8f6 a3c3^b1"]));
    for gate in ["[siswap]", "[iswapdg]", "[siswapdg]"] {
        assert_eq!(
            drawn.matches(gate).count(),
            game.matches(gate).count(),
            "{gate}:\n{drawn}\n{game}"
        );
    }
    assert!(!drawn.contains("[cx]") && !drawn.contains("q["), "{drawn}");
    // As written: the library's bodies.
    let written = ok_stdout(&qchess(&["draw", "--circuit", p, "--as-written"]));
    assert!(
        written.contains("[h]") && !written.contains("[iswap]"),
        "{written}"
    );
    // Niel's: the program names its ancillas as the game's drawing does.
    let niels = dir.join("n.qasm");
    let n = niels.to_str().expect("utf-8 path");
    let game = "circuits/niels/entangled_group.qng";
    ok_stdout(&qchess(&["compile", "--rules", "niels", game, "-o", n]));
    let program_names = wire_names(&ok_stdout(&qchess(&["draw", "--circuit", n])));
    let game_names = wire_names(&ok_stdout(&qchess(&["draw", "--rules", "niels", game])));
    assert_eq!(program_names, ["anc0", "anc1", "anc2"]);
    for (p, g) in program_names.iter().zip(&game_names) {
        assert!(g.starts_with(&format!("{p} (")), "{p} vs {g}");
    }
}

#[test]
fn a_drawing_too_large_to_read_is_refused() {
    let dir = temp_dir("draw-huge");
    let program = dir.join("wide.qasm");
    // 3,000 wires measured after 1,500 gates spanning them all: 4.5 M cells.
    let mut text =
        String::from("OPENQASM 3.0;\ninclude \"stdgates.inc\";\nqubit[3000] q;\nbit[3000] c;\n");
    for k in 0..1500 {
        text.push_str(&format!("cx q[{}], q[{}];\n", k % 10, 2999 - k % 10));
    }
    text.push_str("c = measure q;\n");
    std::fs::write(&program, text).expect("written");
    let p = program.to_str().expect("utf-8 path");
    for extra in [&[][..], &["--svg", "x.svg"]] {
        let mut args = vec!["draw", "--circuit", p];
        args.extend_from_slice(extra);
        let out = qchess(&args);
        assert_eq!(out.status.code(), Some(2), "{extra:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("3000 wires") && err.contains("too large to read"),
            "{err}"
        );
    }
}
