//! The SVG board's structure, read back with an XML parser: one hookable element per square with
//! its description, pieces in their own colour whatever their probability, rings and labels only
//! on uncertain pieces and never over each other, lines that stop at their pieces' rings and pass
//! no other piece, the options (title, move list, highlight), numbers without float noise. Checked
//! on hand-made boards and on the board of every bundled game of both rulesets.

use qc_render::board_svg::{
    self, draw, draw_with, move_lines, BoardOptions, BLACK_PIECE, WHITE_PIECE,
};
use qc_rules::ruleset::{MarkView, PairView, SquareView};
use qc_rules::Square;
use qc_rules::{BoardView, Color, QuantumGame, Ruleset, Status};
use rand::SeedableRng;
use roxmltree::{Document, Node};
use std::path::{Path, PathBuf};

fn sq(name: &str) -> Square {
    Square::parse(name).expect("a square")
}

fn put(view: &mut BoardView, square: &str, piece: char, probability: f64) {
    view.squares[sq(square).index()] = Some(SquareView {
        piece,
        probability,
        mark: None,
    });
}

fn number(node: Node, attribute: &str) -> f64 {
    node.attribute(attribute)
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| panic!("no number {attribute} on {node:?}"))
}

fn with_class<'a, 'input>(doc: &'a Document<'input>, class: &str) -> Vec<Node<'a, 'input>> {
    doc.descendants()
        .filter(|n| {
            n.attribute("class")
                .is_some_and(|c| c.split_whitespace().any(|w| w == class))
        })
        .collect()
}

/// The piece group drawn on `square`.
fn piece_on<'a, 'input>(doc: &'a Document<'input>, square: &str) -> Option<Node<'a, 'input>> {
    with_class(doc, "piece")
        .into_iter()
        .find(|n| n.attribute("data-at") == Some(square))
}

/// A ring: centre, inner and outer radius of its stroke.
struct Ring {
    at: String,
    centre: (f64, f64),
    inner: f64,
    outer: f64,
}

fn rings(doc: &Document) -> Vec<Ring> {
    with_class(doc, "ring-track")
        .into_iter()
        .chain(with_class(doc, "ring"))
        .map(|n| {
            let (r, w) = (number(n, "r"), number(n, "stroke-width"));
            let at = n
                .ancestors()
                .find_map(|a| a.attribute("data-at"))
                .unwrap_or("")
                .to_string();
            Ring {
                at,
                centre: (number(n, "cx"), number(n, "cy")),
                inner: r - w / 2.0,
                outer: r + w / 2.0,
            }
        })
        .collect()
}

/// Whether the box (x, y, w, h) touches the ring's stroke.
fn box_meets_ring(b: (f64, f64, f64, f64), ring: &Ring) -> bool {
    let (x, y, w, h) = b;
    let (cx, cy) = ring.centre;
    let nearest = (cx.clamp(x, x + w) - cx).hypot(cy.clamp(y, y + h) - cy);
    let farthest = [(x, y), (x + w, y), (x, y + h), (x + w, y + h)]
        .iter()
        .map(|(px, py)| (px - cx).hypot(py - cy))
        .fold(0.0, f64::max);
    nearest < ring.outer && farthest > ring.inner
}

/// Every property of the module docs that holds for any board.
fn check_board(name: &str, view: &BoardView, svg: &str) {
    let doc = Document::parse(svg).unwrap_or_else(|e| panic!("{name}: {e}\n{svg}"));
    // One square element per square of the board, described.
    let squares = with_class(&doc, "square");
    assert_eq!(
        squares.len(),
        usize::from(view.width) * usize::from(view.height),
        "{name}"
    );
    for node in &squares {
        let at = sq(node.attribute("data-square").expect("data-square"));
        assert_eq!(
            node.attribute("aria-label"),
            Some(board_svg::square_label(view, at).as_str()),
            "{name}"
        );
    }
    let rings = rings(&doc);
    for square in view.board_squares() {
        let name = format!("{name}, {square}");
        let Some(content) = view.get(square) else {
            assert!(piece_on(&doc, &square.to_string()).is_none(), "{name}");
            continue;
        };
        let piece = piece_on(&doc, &square.to_string()).unwrap_or_else(|| panic!("{name}"));
        // Its own colour, at full strength, whatever the probability.
        let white = content.piece.is_ascii_uppercase();
        let glyph = piece
            .descendants()
            .find(|n| n.attribute("class") == Some("glyph"))
            .unwrap_or_else(|| panic!("{name}: no glyph"));
        let fill = if white { WHITE_PIECE } else { BLACK_PIECE };
        assert_eq!(glyph.attribute("fill"), Some(fill), "{name}");
        for faded in ["opacity", "fill-opacity"] {
            let symbols = piece
                .descendants()
                .filter(|n| n.attribute("class").is_some_and(|c| c.starts_with("glyph")));
            let mut chain = piece.ancestors().chain(symbols);
            assert!(
                chain.all(|n| n.attribute(faded).is_none_or(|v| v == "1")),
                "{name}: {faded}"
            );
        }
        assert!(
            piece
                .attribute("class")
                .is_some_and(|c| c.contains(if white { "white" } else { "black" })),
            "{name}"
        );
        // A ring and a percentage exactly when uncertain.
        let certain = content.probability >= 1.0 - 1e-9;
        let ring_here = rings.iter().filter(|r| r.at == square.to_string()).count();
        assert_eq!(
            ring_here,
            if certain { 0 } else { 2 },
            "{name}: track and arc"
        );
        let percent = with_class(&doc, "percent")
            .into_iter()
            .filter(|n| n.ancestors().any(|a| a == piece))
            .count();
        assert_eq!(percent, usize::from(!certain), "{name}");
    }
    // No label box meets any ring (its own piece's or a neighbour's).
    for label in with_class(&doc, "label-box") {
        let b = (
            number(label, "x"),
            number(label, "y"),
            number(label, "width"),
            number(label, "height"),
        );
        for ring in &rings {
            assert!(
                !box_meets_ring(b, ring),
                "{name}: label box {b:?} meets the ring of {} at {:?} (r {}..{})",
                ring.at,
                ring.centre,
                ring.inner,
                ring.outer
            );
        }
    }
    // Lines (links and pairs) stop outside the rings of their own pieces and pass outside the
    // ring of every other piece (a certain piece, without a ring: outside its symbol, which
    // stays within 17 px of its square's centre).
    let square_centre = |at: &str| -> (f64, f64) {
        let rect = squares
            .iter()
            .find(|n| n.attribute("data-square") == Some(at))
            .and_then(|n| n.children().find(|c| c.has_tag_name("rect")))
            .expect("the square's rect");
        (
            number(rect, "x") + number(rect, "width") / 2.0,
            number(rect, "y") + number(rect, "height") / 2.0,
        )
    };
    let bodies: Vec<(String, (f64, f64), f64)> = with_class(&doc, "piece")
        .into_iter()
        .filter_map(|p| {
            let at = p.attribute("data-at")?.to_string();
            Some(match rings.iter().find(|r| r.at == at) {
                Some(ring) => (at, ring.centre, ring.outer),
                None => {
                    let centre = square_centre(&at);
                    (at, centre, 17.0)
                }
            })
        })
        .collect();
    for line in with_class(&doc, "link")
        .into_iter()
        .chain(with_class(&doc, "pair"))
    {
        let d = line.attribute("d").expect("path data");
        let ends = [line.attribute("data-from"), line.attribute("data-to")];
        let marks = with_class(&doc, "mark").into_iter().map(|m| {
            let r = number(m, "r") + 1.0;
            (number(m, "cx") - r, number(m, "cy") - r, 2.0 * r, 2.0 * r)
        });
        // The percentage of one of the line's own pieces may sit on it, as a tag on a string.
        let boxes = with_class(&doc, "label-box")
            .into_iter()
            .filter(|l| {
                let percent = l.parent().and_then(|p| p.attribute("class")) == Some("percent");
                let at = l.ancestors().find_map(|a| a.attribute("data-at"));
                !(percent && ends.contains(&at))
            })
            .map(|l| {
                let (x, y) = (number(l, "x"), number(l, "y"));
                (x, y, number(l, "width"), number(l, "height"))
            });
        for (x, y, w, h) in boxes.chain(marks) {
            assert!(
                !sample_path(d).iter().any(|&(px, py)| px > x + 0.5
                    && px < x + w - 0.5
                    && py > y + 0.5
                    && py < y + h - 0.5),
                "{name}: line {d} ({ends:?}) runs through the label or mark at {x}, {y}"
            );
        }
        for (at, centre, radius) in &bodies {
            let gap = closest_approach(d, *centre);
            let own = ends.contains(&Some(at.as_str()));
            assert!(
                gap >= radius - 0.5,
                "{name}: line {d} ({ends:?}) comes within {gap:.1} px of the piece on {at} (own: {own})"
            );
        }
    }
    // Numbers of the drawing without float noise (data attributes are for programs).
    for node in doc.descendants() {
        for a in node.attributes().filter(|a| !a.name().starts_with("data-")) {
            for word in a.value().split([' ', ',', '(', ')']) {
                if let Some((_, decimals)) = word.split_once('.') {
                    if word.parse::<f64>().is_ok() {
                        assert!(decimals.len() <= 2, "{name}: {}={}", a.name(), a.value());
                    }
                }
            }
        }
    }
}

/// Points along an SVG path of `M`, `L` and `Q` commands (absolute), 200 per segment.
fn sample_path(d: &str) -> Vec<(f64, f64)> {
    let words: Vec<&str> = d.split_whitespace().collect();
    let num = |k: usize| -> f64 { words[k].parse().expect("a number") };
    let mut points = Vec::new();
    let mut at = (0.0, 0.0);
    let mut k = 0;
    while k < words.len() {
        match words[k] {
            "M" => {
                at = (num(k + 1), num(k + 2));
                points.push(at);
                k += 3;
            }
            "L" => {
                let to = (num(k + 1), num(k + 2));
                for i in 0..=200 {
                    let t = f64::from(i) / 200.0;
                    points.push((at.0 + (to.0 - at.0) * t, at.1 + (to.1 - at.1) * t));
                }
                at = to;
                k += 3;
            }
            "Q" => {
                let (c, to) = ((num(k + 1), num(k + 2)), (num(k + 3), num(k + 4)));
                for i in 0..=200 {
                    let t = f64::from(i) / 200.0;
                    let u = 1.0 - t;
                    points.push((
                        u * u * at.0 + 2.0 * u * t * c.0 + t * t * to.0,
                        u * u * at.1 + 2.0 * u * t * c.1 + t * t * to.1,
                    ));
                }
                at = to;
                k += 5;
            }
            other => panic!("unexpected path command {other} in {d}"),
        }
    }
    points
}

fn closest_approach(d: &str, point: (f64, f64)) -> f64 {
    sample_path(d)
        .into_iter()
        .map(|(x, y)| (x - point.0).hypot(y - point.1))
        .fold(f64::INFINITY, f64::min)
}

#[test]
fn every_square_is_an_element_named_for_the_web_page_and_screen_readers() {
    let mut view = BoardView::new(8, 8, Color::White);
    put(&mut view, "e4", 'N', 0.5);
    put(&mut view, "e1", 'K', 1.0);
    put(&mut view, "a7", 'p', 0.004);
    put(&mut view, "h8", 'r', 0.996);
    let svg = draw(&view);
    let doc = Document::parse(&svg).expect("XML");
    let label = |square: &str| {
        doc.descendants()
            .find(|n| n.attribute("data-square") == Some(square))
            .and_then(|n| n.attribute("aria-label"))
            .map(str::to_string)
    };
    assert_eq!(label("e4").as_deref(), Some("e4: white knight, 50%"));
    assert_eq!(label("e1").as_deref(), Some("e1: white king"));
    assert_eq!(label("a7").as_deref(), Some("a7: black pawn, <1%"));
    assert_eq!(label("h8").as_deref(), Some("h8: black rook, >99%"));
    assert_eq!(label("e5").as_deref(), Some("e5: empty"));
    // Exactly one element per square carries the hook.
    assert_eq!(
        doc.descendants()
            .filter(|n| n.attribute("data-square").is_some())
            .count(),
        64
    );
    // What is drawn over the squares lets clicks through to them.
    for class in ["pieces", "lines", "coordinates"] {
        for n in with_class(&doc, class) {
            assert_eq!(n.attribute("aria-hidden"), Some("true"), "{class}");
        }
    }
    assert_eq!(
        with_class(&doc, "pieces")[0].attribute("pointer-events"),
        Some("none")
    );
    check_board("hand-made", &view, &svg);
}

#[test]
fn pieces_keep_their_colour_and_only_uncertain_ones_get_a_ring_and_a_label() {
    let mut view = BoardView::new(8, 8, Color::White);
    // A faded black rook must read black; a certain one has no ring.
    put(&mut view, "a8", 'r', 0.1);
    put(&mut view, "h8", 'r', 1.0);
    put(&mut view, "a1", 'R', 0.1);
    put(&mut view, "h1", 'R', 1.0);
    put(&mut view, "d4", 'q', 0.5);
    put(&mut view, "e4", 'Q', 0.02);
    let svg = draw(&view);
    check_board("colours", &view, &svg);
    let doc = Document::parse(&svg).expect("XML");
    let fill = |square: &str| {
        piece_on(&doc, square)
            .and_then(|p| {
                p.descendants()
                    .find(|n| n.attribute("class") == Some("glyph"))
            })
            .and_then(|g| g.attribute("fill"))
            .map(str::to_string)
    };
    for (square, colour) in [
        ("a8", BLACK_PIECE),
        ("h8", BLACK_PIECE),
        ("d4", BLACK_PIECE),
        ("a1", WHITE_PIECE),
        ("h1", WHITE_PIECE),
        ("e4", WHITE_PIECE),
    ] {
        assert_eq!(fill(square).as_deref(), Some(colour), "{square}");
    }
    assert!(rings(&doc)
        .iter()
        .all(|r| !["h8", "h1"].contains(&r.at.as_str())));
}

#[test]
fn ring_length_is_proportional_to_probability() {
    let mut view = BoardView::new(8, 8, Color::White);
    put(&mut view, "a3", 'N', 0.25);
    let svg = draw(&view);
    let doc = Document::parse(&svg).expect("XML");
    let ring = with_class(&doc, "ring")[0];
    let c = 2.0 * std::f64::consts::PI * number(ring, "r");
    let dash: Vec<f64> = ring
        .attribute("stroke-dasharray")
        .expect("a dash")
        .split_whitespace()
        .map(|w| w.parse().expect("a number"))
        .collect();
    assert!(
        (dash[0] - 0.25 * c).abs() < 0.01 && (dash[1] - c).abs() < 0.01,
        "{dash:?}"
    );
    assert_eq!(ring.attribute("data-p"), Some("0.25"));
}

#[test]
fn labels_never_touch_rings_on_a_crowded_board() {
    // Every square holds an uncertain piece with the widest labels (`>99%`, `<1%`), Niel's marks
    // and pair numbers in the corners.
    let mut view = BoardView::new(8, 8, Color::White);
    for (k, square) in view
        .board_squares()
        .collect::<Vec<_>>()
        .into_iter()
        .enumerate()
    {
        view.squares[square.index()] = Some(SquareView {
            piece: if k % 2 == 0 { 'q' } else { 'N' },
            probability: [0.996, 0.004, 0.5, 0.333][k % 4],
            mark: (k % 3 == 0).then_some(MarkView {
                red: k % 2 == 0,
                faces_opponent: k % 4 == 0,
                diagonal: Some(1),
                label: 9,
            }),
        });
    }
    let svg = draw(&view);
    check_board("crowded", &view, &svg);
    let doc = Document::parse(&svg).expect("XML");
    assert_eq!(with_class(&doc, "percent").len(), 64);
    assert!(with_class(&doc, "pair-label").len() > 20);
}

#[test]
fn pairs_and_links_stop_at_their_rings_and_bend_around_other_pieces() {
    let mut view = BoardView::new(8, 8, Color::White);
    for s in ["a3", "c3", "f6", "h6", "e1", "e8"] {
        put(&mut view, s, 'N', 0.5);
    }
    // In the way: b3 between a3 and c3, and the whole e-file between e1 and e8.
    put(&mut view, "b3", 'p', 1.0);
    for rank in 2..=7 {
        put(&mut view, &format!("e{rank}"), 'P', 1.0);
    }
    view.links.push((sq("a3"), sq("c3"), -1.0));
    view.links.push((sq("f6"), sq("h6"), 0.8));
    view.pairs.push(PairView {
        id: 0,
        piece: 'N',
        label: 1,
        red: sq("e1"),
        blue: sq("e8"),
        p_red: 0.5,
        group: 0,
        diagonal: None,
    });
    let svg = draw(&view);
    check_board("lines", &view, &svg);
    let doc = Document::parse(&svg).expect("XML");
    let anti = with_class(&doc, "anti-correlated")[0];
    let together = with_class(&doc, "correlated")[0];
    assert_eq!(anti.attribute("data-from"), Some("a3"));
    assert_eq!(together.attribute("data-from"), Some("f6"));
    assert!(anti.attribute("stroke-dasharray").is_some());
    assert!(together.attribute("stroke-dasharray").is_none());
    assert_ne!(anti.attribute("stroke"), together.attribute("stroke"));
    let legend: Vec<&str> = with_class(&doc, "legend")
        .into_iter()
        .filter_map(|n| n.descendants().find(|t| t.has_tag_name("text")))
        .filter_map(|t| t.text())
        .collect();
    for words in [
        "occupied together (correlated)",
        "one or the other (anti-correlated)",
        "one piece in a box: its two squares",
    ] {
        assert!(legend.contains(&words), "{legend:?}");
    }
}

#[test]
fn the_caption_gives_the_side_to_move_or_the_result() {
    let text = |view: &BoardView| {
        let svg = draw(view);
        let doc = Document::parse(&svg).expect("XML");
        let status = with_class(&doc, "status")
            .first()
            .and_then(|n| n.text().map(str::to_string));
        status.expect("a status line")
    };
    let mut view = BoardView::new(8, 8, Color::Black);
    assert_eq!(text(&view), "Black to move");
    view.status = Status::Win(Color::White, qc_rules::WinReason::KingCaptured);
    assert_eq!(text(&view), "Game over: White wins (king captured)");
}

#[test]
fn a_title_a_move_list_and_the_last_move_are_shown_when_asked() {
    let mut view = BoardView::new(8, 8, Color::White);
    put(&mut view, "a3", 'N', 0.5);
    put(&mut view, "c3", 'N', 0.5);
    let plies: Vec<String> = (0..70).map(|k| format!("m{k}")).collect();
    let options = BoardOptions {
        title: Some("Split <knight>".into()),
        moves: move_lines(&plies, false),
        highlight: vec![sq("b1"), sq("a3"), sq("c3")],
        caption: false,
        legend: false,
        flipped: false,
    };
    let plain = draw(&view);
    let svg = draw_with(&view, &options);
    check_board("options", &view, &svg);
    let doc = Document::parse(&svg).expect("XML");
    assert_eq!(with_class(&doc, "title")[0].text(), Some("Split <knight>"));
    let moves: Vec<&str> = with_class(&doc, "move")
        .into_iter()
        .filter_map(|n| n.text())
        .collect();
    assert_eq!(moves.len(), 35);
    assert_eq!(moves[0], "1. m0 m1");
    assert_eq!(moves[34], "35. m68 m69");
    // The list stands right of the board, in columns within the board's height.
    let board_right = board_svg::MARGIN * 2.0 + board_svg::CELL * 8.0;
    let board_bottom = 30.0 + board_right;
    for m in with_class(&doc, "move") {
        assert!(number(m, "x") >= board_right - 0.01);
        assert!(number(m, "y") <= board_bottom);
    }
    let columns: std::collections::BTreeSet<String> = with_class(&doc, "move")
        .into_iter()
        .filter_map(|m| m.attribute("x").map(str::to_string))
        .collect();
    assert!(columns.len() >= 2, "{columns:?}");
    let width = number(doc.root_element(), "width");
    assert!(width > board_right + 60.0, "{width}");
    let highlighted: Vec<&str> = with_class(&doc, "highlight")
        .into_iter()
        .filter_map(|h| h.parent().and_then(|p| p.attribute("data-square")))
        .collect();
    assert_eq!(highlighted, ["b1", "a3", "c3"]);
    assert!(with_class(&doc, "status").is_empty() && with_class(&doc, "legend").is_empty());
    // Without options: none of them, the caption and legend under the board.
    let doc = Document::parse(&plain).expect("XML");
    for class in ["title", "move", "highlight"] {
        assert!(with_class(&doc, class).is_empty(), "{class}");
    }
    assert_eq!(with_class(&doc, "status").len(), 1);
    assert_eq!(move_lines(&plies[..3], true), ["1... m0", "2. m1 m2"]);
}

#[test]
fn a_small_board_with_pairs_and_marks() {
    // A 5 x 6 board; an entangled pair (diagonal 1) with its red mark facing the opponent.
    let mut view = BoardView::new(5, 6, Color::White);
    let (c3, e5) = (sq("c3"), sq("e5"));
    for (s, red, p) in [(c3, true, 2.0 / 3.0), (e5, false, 1.0 / 3.0)] {
        view.squares[s.index()] = Some(SquareView {
            piece: 'R',
            probability: p,
            mark: Some(MarkView {
                red,
                faces_opponent: red,
                diagonal: Some(1),
                label: 1,
            }),
        });
    }
    put(&mut view, "d4", 'k', 1.0);
    view.pairs.push(PairView {
        id: 0,
        piece: 'R',
        label: 1,
        red: c3,
        blue: e5,
        p_red: 2.0 / 3.0,
        group: 0,
        diagonal: Some(1),
    });
    let svg = draw(&view);
    check_board("small", &view, &svg);
    let doc = Document::parse(&svg).expect("XML");
    assert_eq!(with_class(&doc, "pair").len(), 1);
    assert_eq!(with_class(&doc, "mark").len(), 2);
    assert_eq!(
        doc.descendants()
            .find(|n| n.attribute("data-square") == Some("c3"))
            .and_then(|n| n.attribute("aria-label")),
        Some("c3: white rook, 67%, red mark of pair 1")
    );
    // 5 files x 6 ranks (348 x 408), then the caption (26) and three legend lines (ring,
    // pair, mark: 3 x 17) and 8 below.
    let root = doc.root_element();
    assert_eq!(
        (number(root, "width"), number(root, "height")),
        (348.0, 493.0)
    );
}

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn the_board_of_every_bundled_game_keeps_the_rules() {
    let games = qchess_tests::bundled::bundled_games().expect("the bundled games");
    let flipped = BoardOptions {
        flipped: true,
        ..BoardOptions::default()
    };
    for g in &games {
        for links in [false, true] {
            let view = g.game.board_view(links);
            check_board(&g.path, &view, &draw(&view));
            // Seen from Black's side, the lines still stop at their rings and pass no piece.
            check_board(&g.path, &view, &draw_with(&view, &flipped));
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
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(1);
        // Every position of the game, so that pairs and marks are seen mid-game.
        for m in &record.moves {
            game.play(&m.mv, &mut rng).expect("a move");
            let view = game.board_view(true);
            check_board(&path.display().to_string(), &view, &draw(&view));
        }
    }
}

/// The top left corner of the square element's rectangle.
fn corner(doc: &Document, square: &str) -> (f64, f64) {
    let rect = doc
        .descendants()
        .find(|n| n.attribute("data-square") == Some(square))
        .and_then(|n| n.children().find(|c| c.has_tag_name("rect")))
        .unwrap_or_else(|| panic!("no rectangle for {square}"));
    (number(rect, "x"), number(rect, "y"))
}

#[test]
fn a_flipped_board_is_seen_from_blacks_side() {
    let mut view = BoardView::new(8, 8, Color::Black);
    put(&mut view, "a1", 'R', 1.0);
    put(&mut view, "h8", 'r', 0.5);
    let options = BoardOptions {
        flipped: true,
        ..BoardOptions::default()
    };
    let (plain, flipped) = (draw(&view), draw_with(&view, &options));
    let (plain, flipped) = (
        Document::parse(&plain).expect("XML"),
        Document::parse(&flipped).expect("XML"),
    );
    // White's side: a1 bottom left, h8 top right. Black's side: h8 bottom left, a1 top right,
    // each square where its mirror image through the centre was.
    let (a1, h8) = (corner(&plain, "a1"), corner(&plain, "h8"));
    assert!(a1.0 < h8.0 && a1.1 > h8.1, "{a1:?} {h8:?}");
    assert_eq!(corner(&flipped, "h8"), a1);
    assert_eq!(corner(&flipped, "a1"), h8);
    assert_eq!(corner(&flipped, "e2"), corner(&plain, "d7"));
    // The coordinates follow: files h..a from the left, ranks 1..8 from the top.
    let texts = |doc: &Document| -> Vec<String> {
        with_class(doc, "coordinates")[0]
            .children()
            .filter_map(|n| n.text().map(str::to_string))
            .filter(|t| !t.trim().is_empty())
            .collect()
    };
    let letters = |doc: &Document| -> Vec<(f64, String)> {
        let mut files: Vec<(f64, String)> = with_class(doc, "coordinates")[0]
            .children()
            .filter(|n| {
                n.text()
                    .is_some_and(|t| t.chars().all(|c| c.is_ascii_lowercase()))
            })
            .map(|n| (number(n, "x"), n.text().unwrap_or_default().to_string()))
            .collect();
        files.sort_by(|a, b| a.0.total_cmp(&b.0));
        files
    };
    assert_eq!(texts(&plain).len(), 16);
    let from_left: String = letters(&flipped).into_iter().map(|(_, l)| l).collect();
    assert_eq!(from_left, "hgfedcba");
    let from_left: String = letters(&plain).into_iter().map(|(_, l)| l).collect();
    assert_eq!(from_left, "abcdefgh");
    // The piece is drawn on its square.
    let piece = piece_on(&flipped, "h8").expect("the rook");
    assert!(piece
        .descendants()
        .any(|n| n.attribute("class") == Some("glyph")));
    check_board("flipped", &view, &draw_with(&view, &options));
}

#[test]
fn a_moves_squares_are_the_ones_its_text_names() {
    let view = BoardView::new(8, 8, Color::White);
    let names = |text: &str| -> Vec<String> {
        board_svg::squares_named(text, &view)
            .iter()
            .map(ToString::to_string)
            .collect()
    };
    assert_eq!(names("b1^a3c3"), ["b1", "a3", "c3"]);
    assert_eq!(names("a3c3^b1.m1"), ["a3", "c3", "b1"]);
    assert_eq!(names("Ng1f3"), ["g1", "f3"]);
    assert_eq!(names("f4f6[f6]"), ["f4", "f6"]);
    assert_eq!(names("e2&c4e2@d5"), ["e2", "c4", "d5"]);
    assert!(names("O-O").is_empty());
    // Off a 4 x 5 board: e-file and sixth rank.
    let small = BoardView::new(4, 5, Color::White);
    let on_small: Vec<String> = board_svg::squares_named("a1e2d6d5", &small)
        .iter()
        .map(ToString::to_string)
        .collect();
    assert_eq!(on_small, ["a1", "d5"]);
}
