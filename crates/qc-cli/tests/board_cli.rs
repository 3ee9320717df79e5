//! `qchess board --svg` with its options: a title, the move list beside the board, the last
//! move's squares highlighted; the options are for the picture only.

mod common;

use common::{ok_stdout, qchess, temp_dir};

fn with_class<'a>(doc: &'a roxmltree::Document, class: &str) -> Vec<roxmltree::Node<'a, 'a>> {
    doc.descendants()
        .filter(|n| {
            n.attribute("class")
                .is_some_and(|c| c.split_whitespace().any(|w| w == class))
        })
        .collect()
}

#[test]
fn a_title_the_move_list_and_the_last_move_on_the_svg_board() {
    let dir = temp_dir("board_options");
    let svg = dir.join("b.svg");
    let path = svg.to_str().expect("a path");
    ok_stdout(&qchess(&[
        "board",
        "--moves",
        "b1^a3c3 g8f6 e2e4",
        "--svg",
        path,
        "--title",
        "A split & two moves",
        "--move-list",
        "--last-move",
    ]));
    let text = std::fs::read_to_string(&svg).expect("the picture");
    let doc = roxmltree::Document::parse(&text).expect("XML");
    assert_eq!(
        with_class(&doc, "title")[0].text(),
        Some("A split & two moves")
    );
    let moves: Vec<&str> = with_class(&doc, "move")
        .iter()
        .filter_map(|n| n.text())
        .collect();
    assert_eq!(moves, ["1. b1^a3c3 g8f6", "2. e2e4"]);
    let lit: Vec<&str> = with_class(&doc, "highlight")
        .iter()
        .filter_map(|h| h.parent().and_then(|p| p.attribute("data-square")))
        .collect();
    assert_eq!(lit, ["e2", "e4"]);
    // Black moved first in Niel's entangled-group game: its list starts `1...`.
    let niels = dir.join("n.svg");
    ok_stdout(&qchess(&[
        "board",
        "--rules",
        "niels",
        "circuits/niels/entangled_group.qng",
        "--svg",
        niels.to_str().expect("a path"),
        "--move-list",
    ]));
    let text = std::fs::read_to_string(&niels).expect("the picture");
    let doc = roxmltree::Document::parse(&text).expect("XML");
    let first = with_class(&doc, "move")[0].text().map(str::to_string);
    assert_eq!(first.as_deref(), Some("1... f6&f6d5@e4"));
}

#[test]
fn the_picture_options_need_svg() {
    for flag in [&["--title", "x"][..], &["--move-list"], &["--last-move"]] {
        let mut args = vec!["board"];
        args.extend_from_slice(flag);
        let out = qchess(&args);
        assert_eq!(out.status.code(), Some(2), "{flag:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("--svg"), "{err}");
    }
}
