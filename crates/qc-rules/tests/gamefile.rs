//! Game files: tags, FEN start, comments, move numbers, results, canonical printing and errors
//! with line and column.

use qc_rules::Square;
use qc_rules::{
    Board, Color, FenErrorKind, FenField, GameErrorKind, GameRecord, GameResult, MoveErrorKind,
    NotationError, QcanMove, Tag,
};

fn sq(name: &str) -> Square {
    Square::parse(name).expect("test square")
}

fn parse(text: &str) -> GameRecord {
    GameRecord::parse(text).unwrap_or_else(|e| panic!("should parse: {e}\n{text}"))
}

fn qcans(record: &GameRecord) -> Vec<QcanMove> {
    record.moves.iter().map(|m| m.mv).collect()
}

/// Asserts the error position and returns its kind.
fn error_at(text: &str, line: usize, column: usize) -> GameErrorKind {
    match GameRecord::parse(text) {
        Err(NotationError::GameFile {
            line: l,
            column: c,
            kind,
        }) => {
            assert_eq!((l, c), (line, column), "position of {kind}");
            kind
        }
        other => panic!("expected a game-file error, got {other:?}"),
    }
}

const EXAMPLE: &str = r#"[Event "Test \"game\""]
[White "Alice"]
[FEN "4k3/8/8/8/8/8/8/4K3 w - - 0 1"]
[Black "Bob"]

; a line comment
1. e1^d1f1 {a split,
  spanning lines} e8d8
2.d1e1.m1 2...d8xe8 {glued move numbers}
3. 0000 1-0
"#;

#[test]
fn parses_tags_fen_comments_numbers_and_result() {
    let record = parse(EXAMPLE);
    assert_eq!(
        record.tags,
        vec![
            Tag {
                name: "Event".into(),
                value: "Test \"game\"".into()
            },
            Tag {
                name: "White".into(),
                value: "Alice".into()
            },
            Tag {
                name: "Black".into(),
                value: "Bob".into()
            },
        ]
    );
    assert_eq!(record.tag("Black"), Some("Bob"));
    assert_eq!(record.start.to_fen(), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
    assert_eq!(
        qcans(&record),
        vec![
            QcanMove::split(sq("e1"), sq("d1"), sq("f1")),
            QcanMove::standard(sq("e8"), sq("d8")),
            QcanMove {
                outcome: Some(true),
                ..QcanMove::standard(sq("d1"), sq("e1"))
            },
            QcanMove {
                mark: Some(qc_rules::VariantMark::Capture),
                ..QcanMove::standard(sq("d8"), sq("e8"))
            },
            QcanMove::null(),
        ]
    );
    let places: Vec<(usize, usize, u32)> = record
        .moves
        .iter()
        .enumerate()
        .map(|(i, m)| (m.line, m.column, record.ply(i)))
        .collect();
    assert_eq!(
        places,
        vec![(7, 4, 0), (8, 19, 1), (9, 3, 2), (9, 15, 3), (10, 4, 4)]
    );
    assert_eq!(record.result, Some(GameResult::WhiteWins));
}

#[test]
fn no_tags_means_the_standard_start() {
    let record = parse("e2e4 e7e5");
    assert_eq!(record.start, Board::start());
    assert!(record.tags.is_empty());
    assert_eq!(record.result, None);
    assert_eq!(record.moves.len(), 2);
    assert_eq!(parse(""), GameRecord::default());
}

#[test]
fn all_result_tokens() {
    for (token, result) in [
        ("1-0", GameResult::WhiteWins),
        ("0-1", GameResult::BlackWins),
        ("1/2-1/2", GameResult::Draw),
        ("*", GameResult::Unknown),
    ] {
        assert_eq!(parse(&format!("1. e2e4 {token}")).result, Some(result));
    }
}

#[test]
fn ply_continues_the_fen_counters() {
    let record = parse("[FEN \"4k3/8/8/8/8/8/8/4K3 b - - 0 5\"]\n5... e8d8 6. e1d1");
    assert_eq!(record.start.side_to_move, Color::Black);
    let plies: Vec<u32> = (0..record.moves.len()).map(|i| record.ply(i)).collect();
    assert_eq!(plies, vec![9, 10]);
}

#[test]
fn prints_the_canonical_form() {
    let record = parse(EXAMPLE);
    assert_eq!(
        record.to_string(),
        "[Event \"Test \\\"game\\\"\"]\n[White \"Alice\"]\n[Black \"Bob\"]\n\
         [FEN \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"]\n\n\
         ; a line comment\n\
         1. e1^d1f1 {a split,\n  spanning lines}\ne8d8 2. d1e1.m1 d8xe8 {glued move numbers}\n3. 0000 1-0\n"
    );
    // Each comment is kept with the moves written before it.
    let places: Vec<(usize, bool)> = record
        .comments
        .iter()
        .map(|c| (c.after, c.to_line_end))
        .collect();
    assert_eq!(places, [(0, true), (1, false), (4, false)]);
}

#[test]
fn prints_eight_full_moves_per_line_and_black_first_moves() {
    let moves = "b1c3 b8c6 c3b1 c6b8 ".repeat(5);
    let record = parse(&format!("{moves} *"));
    let text = record.to_string();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2);
    assert!(lines[0].starts_with("1. b1c3 b8c6 2. c3b1"));
    assert!(lines[0].ends_with("8. c3b1 c6b8"));
    assert_eq!(lines[1], "9. b1c3 b8c6 10. c3b1 c6b8 *");

    let black_first = parse("[FEN \"4k3/8/8/8/8/8/8/4K3 b - - 0 5\"] e8d8 e1d1");
    assert!(black_first.to_string().ends_with("\n\n5... e8d8 6. e1d1\n"));
}

#[test]
fn printing_then_parsing_gives_the_same_record() {
    for text in [
        EXAMPLE,
        "",
        "*",
        "[Site \"x\"]",
        &"g1f3 g8f6 f3g1 f6g8 ".repeat(7),
    ] {
        let record = parse(text);
        let printed = record.to_string();
        let reparsed = parse(&printed);
        assert_eq!(reparsed.tags, record.tags);
        assert_eq!(reparsed.start, record.start);
        assert_eq!(qcans(&reparsed), qcans(&record));
        assert_eq!(reparsed.ply(0), record.ply(0));
        assert_eq!(reparsed.result, record.result);
        assert_eq!(reparsed.comments, record.comments);
        assert_eq!(reparsed.to_string(), printed, "printing is canonical");
    }
}

#[test]
fn push_move_numbers_plies() {
    let mut record = GameRecord::default();
    record.push_move(QcanMove::standard(sq("e2"), sq("e4")));
    record.push_move(QcanMove::standard(sq("e7"), sq("e5")));
    assert_eq!(record.ply(1), 1);
    assert_eq!(record.to_string(), "1. e2e4 e7e5\n");
}

#[test]
fn unterminated_comment_points_at_its_start() {
    let kind = error_at("1. e2e4\n  e7e5 {never\nclosed", 2, 8);
    assert_eq!(kind, GameErrorKind::UnterminatedComment);
    assert_eq!(
        error_at("e2e4 } e7e5", 1, 6),
        GameErrorKind::UnmatchedCommentEnd
    );
}

#[test]
fn bad_tags() {
    assert!(matches!(
        error_at("[ \"x\"]", 1, 3),
        GameErrorKind::BadTag { .. }
    ));
    assert!(matches!(
        error_at("[Event x]", 1, 8),
        GameErrorKind::BadTag { .. }
    ));
    assert!(matches!(
        error_at("[Event \"x\nmore\"]", 1, 10),
        GameErrorKind::BadTag { .. }
    ));
    assert!(matches!(
        error_at("[Event \"x\" junk]", 1, 12),
        GameErrorKind::BadTag { .. }
    ));
    assert_eq!(
        error_at("e2e4\n[Event \"x\"]", 2, 1),
        GameErrorKind::TagAfterMoves
    );
    assert_eq!(
        error_at(
            "[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"]\n[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"]",
            2,
            1
        ),
        GameErrorKind::DuplicateFen
    );
}

#[test]
fn bad_fen_tag_carries_the_fen_error() {
    let kind = error_at(
        "[Event \"e\"]\n[FEN \"4k3/8/8/8/8/8/8/4K3 w KQz - 0 1\"]",
        2,
        7,
    );
    assert_eq!(
        kind,
        GameErrorKind::BadFen(Box::new(NotationError::Fen {
            field: FenField::Castling,
            text: "KQz".into(),
            kind: FenErrorKind::BadCastlingLetter { letter: 'z' }
        }))
    );
    let message = GameRecord::parse("[FEN \"8/8 w - - 0 1\"]")
        .unwrap_err()
        .to_string();
    assert_eq!(
        message,
        "game file line 1, column 7: bad [FEN] tag: bad FEN: placement field `8/8`: \
         expected 8 ranks separated by `/`, found 2"
    );
}

#[test]
fn bad_move_points_at_the_bad_character() {
    // `{c} 2.e2e4 g1i9`: `i9` starts at column 14 of line 2.
    let kind = error_at("1. e2e4 e7e5\n{c} 2.e2e4 g1i9", 2, 14);
    let GameErrorKind::BadMove(inner) = kind else {
        panic!("expected a bad move, got {kind}");
    };
    assert_eq!(
        *inner,
        NotationError::Move {
            text: "g1i9".into(),
            column: 3,
            token: "i9".into(),
            kind: MoveErrorKind::ExpectedSquare
        }
    );
    let kind = error_at("1. b1^xa3wc3", 1, 7);
    assert!(matches!(kind, GameErrorKind::BadMove(_)));
}

#[test]
fn nothing_after_the_result() {
    assert_eq!(
        error_at("1. e2e4 *\n e7e5", 2, 2),
        GameErrorKind::AfterResult {
            token: "e7e5".into()
        }
    );
    // Comments after the result are fine.
    assert_eq!(
        parse("e2e4 1/2-1/2 {agreed} ; done").result,
        Some(GameResult::Draw)
    );
}

proptest::proptest! {
    #[test]
    fn parser_never_panics_and_accepted_files_reprint_stably(
        text in "[a-h1-8^x.m0-9 \n{};\\[\\]\"FENw/*-]{0,40}|\\PC{0,20}"
    ) {
        if let Ok(record) = GameRecord::parse(&text) {
            let printed = record.to_string();
            let reparsed = GameRecord::parse(&printed)
                .map_err(|e| proptest::test_runner::TestCaseError::fail(format!("{e}\n{printed}")))?;
            proptest::prop_assert_eq!(reparsed.to_string(), printed);
        }
    }
}

/// The game-file example in `docs/notation.md` parses, and its canonical form is the one the
/// page shows (the two `text` blocks of the "Game files" section).
#[test]
fn the_documented_example_is_true() {
    let doc = include_str!("../../../docs/notation.md");
    let section = doc
        .split("## Game files")
        .nth(1)
        .and_then(|s| s.split("\n## ").next())
        .expect("docs/notation.md has a Game files section");
    let blocks: Vec<&str> = section
        .split("```text\n")
        .skip(1)
        .filter_map(|b| b.split("```").next())
        .collect();
    assert_eq!(blocks.len(), 2, "example and canonical form");
    let record = parse(blocks[0]);
    assert_eq!(record.moves.len(), 5);
    assert_eq!(record.result, Some(GameResult::Unknown));
    assert_eq!(record.to_string(), blocks[1]);
}
