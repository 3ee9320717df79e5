//! QCAN parsing and printing: every form to its expected value, canonical printing, round trips
//! and one rejection test per kind of malformed input (with the column checked).

use proptest::prelude::*;
use qc_rules::Square;
use qc_rules::{
    parse_move_list, MoveErrorKind, MoveShape, NotationError, PieceKind, QcanMove, VariantMark,
};

fn sq(name: &str) -> Square {
    Square::parse(name).expect("test square")
}

fn parse(text: &str) -> QcanMove {
    match text.parse() {
        Ok(m) => m,
        Err(e) => panic!("`{text}` should parse: {e}"),
    }
}

/// Asserts `text` is rejected with `kind` at `column` naming `token`.
fn rejects(text: &str, kind: MoveErrorKind, column: usize, token: &str) {
    let error = text.parse::<QcanMove>().expect_err(text);
    assert_eq!(
        error,
        NotationError::Move {
            text: text.to_string(),
            column,
            token: token.to_string(),
            kind
        },
        "for `{text}`: {error}"
    );
}

#[test]
fn standard_move() {
    assert_eq!(parse("a2a4"), QcanMove::standard(sq("a2"), sq("a4")));
    assert_eq!(
        parse("a2a4").shape,
        MoveShape::Standard {
            source: Square::from_index(8).unwrap(),
            target: Square::from_index(24).unwrap()
        }
    );
}

#[test]
fn castling_is_the_kings_move() {
    assert_eq!(parse("e1g1"), QcanMove::standard(sq("e1"), sq("g1")));
    assert_eq!(parse("e8c8"), QcanMove::standard(sq("e8"), sq("c8")));
}

#[test]
fn split_and_merge_keep_the_order_of_the_squares() {
    assert_eq!(
        parse("b1^a3c3").shape,
        MoveShape::Split {
            source: sq("b1"),
            target1: sq("a3"),
            target2: sq("c3")
        }
    );
    assert_eq!(
        parse("b1^c3a3").shape,
        MoveShape::Split {
            source: sq("b1"),
            target1: sq("c3"),
            target2: sq("a3")
        }
    );
    assert_eq!(
        parse("a3c3^b1").shape,
        MoveShape::Merge {
            source1: sq("a3"),
            source2: sq("c3"),
            target: sq("b1")
        }
    );
}

#[test]
fn promotion_in_either_case() {
    let expected = QcanMove {
        promotion: Some(PieceKind::Queen),
        ..QcanMove::standard(sq("a7"), sq("a8"))
    };
    assert_eq!(parse("a7a8q"), expected);
    assert_eq!(parse("a7a8Q"), expected);
    assert_eq!(parse("a7a8n").promotion, Some(PieceKind::Knight));
    assert_eq!(parse("a7a8B").promotion, Some(PieceKind::Bishop));
    assert_eq!(parse("a2a1r").promotion, Some(PieceKind::Rook));
}

#[test]
fn outcome_suffix() {
    assert_eq!(parse("a1a2.m0").outcome, Some(false));
    assert_eq!(parse("a1a2.m1").outcome, Some(true));
    assert_eq!(parse("a1a2").outcome, None);
    assert_eq!(parse("b1^a3c3.m1").outcome, Some(true));
}

#[test]
fn piece_prefix_in_either_case() {
    assert_eq!(
        parse("Pa2a4"),
        QcanMove {
            piece: Some(PieceKind::Pawn),
            ..QcanMove::standard(sq("a2"), sq("a4"))
        }
    );
    assert_eq!(
        parse("Nb1^a3c3"),
        QcanMove {
            piece: Some(PieceKind::Knight),
            ..QcanMove::split(sq("b1"), sq("a3"), sq("c3"))
        }
    );
    assert_eq!(
        parse("nb8^a6c6"),
        QcanMove {
            piece: Some(PieceKind::Knight),
            ..QcanMove::split(sq("b8"), sq("a6"), sq("c6"))
        }
    );
    // `b` before a rank digit is the file of the source; before a file letter it is a bishop.
    assert_eq!(parse("b1c3").piece, None);
    assert_eq!(parse("bc1e3").piece, Some(PieceKind::Bishop));
    assert_eq!(parse("Bc1e3").piece, Some(PieceKind::Bishop));
}

#[test]
fn variant_marks() {
    assert_eq!(
        parse("b1xc3"),
        QcanMove {
            mark: Some(VariantMark::Capture),
            ..QcanMove::standard(sq("b1"), sq("c3"))
        }
    );
    assert_eq!(
        parse("b1wc3.m0"),
        QcanMove {
            mark: Some(VariantMark::Excluded),
            outcome: Some(false),
            ..QcanMove::standard(sq("b1"), sq("c3"))
        }
    );
    assert_eq!(
        parse("a2xa4.m0"),
        QcanMove {
            mark: Some(VariantMark::Capture),
            outcome: Some(false),
            ..QcanMove::standard(sq("a2"), sq("a4"))
        }
    );
    assert_eq!(
        parse("Pb7xa8Q.m1"),
        QcanMove {
            piece: Some(PieceKind::Pawn),
            mark: Some(VariantMark::Capture),
            promotion: Some(PieceKind::Queen),
            outcome: Some(true),
            ..QcanMove::standard(sq("b7"), sq("a8"))
        }
    );
}

#[test]
fn null_move() {
    assert_eq!(parse("0000"), QcanMove::null());
    assert_eq!(parse("0000").shape, MoveShape::Null);
}

#[test]
fn uppercase_squares_are_accepted_and_printed_lowercase() {
    assert_eq!(parse("E2E4"), parse("e2e4"));
    assert_eq!(parse("E2E4").to_string(), "e2e4");
}

#[test]
fn printing_is_canonical() {
    for (input, canonical) in [
        ("a2a4", "a2a4"),
        ("b1^a3c3", "b1^a3c3"),
        ("a3c3^b1", "a3c3^b1"),
        ("a7a8q", "a7a8Q"),
        ("pa2a4", "Pa2a4"),
        ("nb8^a6c6", "Nb8^a6c6"),
        ("b1wc3.m0", "b1wc3.m0"),
        ("a2xa4.m1", "a2xa4.m1"),
        ("0000", "0000"),
        ("e1g1", "e1g1"),
    ] {
        assert_eq!(parse(input).to_string(), canonical, "printing `{input}`");
    }
}

#[test]
fn values_qcan_cannot_express_do_not_reparse() {
    let marked_split = QcanMove {
        mark: Some(VariantMark::Capture),
        ..QcanMove::split(sq("b1"), sq("a3"), sq("c3"))
    };
    assert_eq!(marked_split.to_string(), "b1^xa3c3");
    assert!(marked_split.to_string().parse::<QcanMove>().is_err());
    let null_with_outcome = QcanMove {
        outcome: Some(true),
        ..QcanMove::null()
    };
    assert!(null_with_outcome.to_string().parse::<QcanMove>().is_err());
}

#[test]
fn rejects_bad_squares() {
    rejects("i9a1", MoveErrorKind::ExpectedSquare, 1, "i9");
    rejects("a2i9", MoveErrorKind::ExpectedSquare, 3, "i9");
    rejects("a2a9", MoveErrorKind::ExpectedSquare, 3, "a9");
    rejects("b1^a3", MoveErrorKind::ExpectedSquare, 6, "");
    rejects("a2", MoveErrorKind::ExpectedAfterSource, 3, "");
    rejects("a2-a4", MoveErrorKind::ExpectedAfterSource, 3, "-");
}

#[test]
fn rejects_empty_input() {
    rejects("", MoveErrorKind::Empty, 1, "");
}

#[test]
fn rejects_equal_split_targets_and_merge_sources() {
    rejects("b1^a3a3", MoveErrorKind::SplitTargetsEqual, 6, "a3");
    rejects("a3a3^b1", MoveErrorKind::MergeSourcesEqual, 3, "a3");
}

#[test]
fn rejects_source_equal_to_target() {
    rejects("a2a2", MoveErrorKind::SourceEqualsTarget, 3, "a2");
    rejects("b1^b1c3", MoveErrorKind::SourceEqualsTarget, 4, "b1");
    rejects("b1^a3b1", MoveErrorKind::SourceEqualsTarget, 6, "b1");
    rejects("a3c3^c3", MoveErrorKind::SourceEqualsTarget, 6, "c3");
}

#[test]
fn rejects_marks_on_split_and_merge() {
    rejects("b1^xa3wc3", MoveErrorKind::MarkOnSplitMerge, 4, "x");
    rejects("b1^a3wc3", MoveErrorKind::MarkOnSplitMerge, 6, "w");
    rejects("a3c3^wb5", MoveErrorKind::MarkOnSplitMerge, 6, "w");
    rejects("a3xc3^b5", MoveErrorKind::MarkOnSplitMerge, 3, "x");
    rejects("b1x^a3c3", MoveErrorKind::MarkOnSplitMerge, 3, "x");
    let message = "b1^xa3wc3".parse::<QcanMove>().unwrap_err().to_string();
    assert!(message.contains("not supported yet"), "{message}");
    assert!(message.contains("column 4"), "{message}");
}

#[test]
fn rejects_bad_promotion_letters() {
    rejects("a7a8K", MoveErrorKind::BadPromotion, 5, "K");
    rejects("a7a8p", MoveErrorKind::BadPromotion, 5, "p");
    rejects("a7a8z", MoveErrorKind::BadPromotion, 5, "z");
}

#[test]
fn rejects_bad_outcomes() {
    rejects("a2a4.m2", MoveErrorKind::BadOutcome, 5, ".m2");
    rejects("a2a4.m", MoveErrorKind::BadOutcome, 5, ".m");
    rejects("a2a4.x1", MoveErrorKind::BadOutcome, 5, ".x1");
    rejects("a2a4.m01", MoveErrorKind::BadOutcome, 5, ".m01");
}

#[test]
fn rejects_trailing_text() {
    rejects("a2a4 ", MoveErrorKind::TrailingText, 5, " ");
    rejects("b1^a3c3q", MoveErrorKind::TrailingText, 8, "q");
    rejects("a7a8Qq", MoveErrorKind::TrailingText, 6, "q");
    rejects("a2a4.m1!", MoveErrorKind::BadOutcome, 5, ".m1!");
    rejects("0000x", MoveErrorKind::TrailingText, 5, "x");
    rejects("0000.m1", MoveErrorKind::TrailingText, 5, ".m1");
}

#[test]
fn error_message_names_token_column_and_expectation() {
    let message = "a2i9".parse::<QcanMove>().unwrap_err().to_string();
    assert_eq!(
        message,
        "bad QCAN move `a2i9`: expected a square a1..h8, found `i9` at column 3"
    );
}

#[test]
fn move_list_parses_and_locates_errors() {
    let moves = parse_move_list("  e2e4 e7e5\n g1^f3h3\t0000 ").expect("valid list");
    assert_eq!(
        moves,
        vec![
            QcanMove::standard(sq("e2"), sq("e4")),
            QcanMove::standard(sq("e7"), sq("e5")),
            QcanMove::split(sq("g1"), sq("f3"), sq("h3")),
            QcanMove::null(),
        ]
    );
    assert_eq!(parse_move_list("   \n "), Ok(vec![]));
    let error = parse_move_list("e2e4 e7e5\n  g1^f3f3 b8c6").unwrap_err();
    let NotationError::MoveList {
        number,
        line,
        column,
        error,
    } = error
    else {
        panic!("expected a move-list error, got {error:?}");
    };
    assert_eq!((number, line, column), (3, 2, 8));
    assert!(matches!(
        *error,
        NotationError::Move {
            kind: MoveErrorKind::SplitTargetsEqual,
            column: 6,
            ..
        }
    ));
}

fn square_strategy() -> impl Strategy<Value = Square> {
    (0usize..64).prop_map(|i| Square::from_index(i).expect("index < 64"))
}

fn kind_strategy() -> impl Strategy<Value = PieceKind> {
    prop::sample::select(PieceKind::ALL.to_vec())
}

/// Every value QCAN can express: distinct squares, marks and promotions only on standard moves,
/// nothing attached to the null move.
fn move_strategy() -> impl Strategy<Value = QcanMove> {
    let squares = (square_strategy(), square_strategy(), square_strategy());
    let extras = (
        prop::option::of(kind_strategy()),
        prop::option::of(prop::sample::select(vec![
            VariantMark::Capture,
            VariantMark::Excluded,
        ])),
        prop::option::of(prop::sample::select(vec![
            PieceKind::Knight,
            PieceKind::Bishop,
            PieceKind::Rook,
            PieceKind::Queen,
        ])),
        prop::option::of(any::<bool>()),
    );
    (0u8..4, squares, extras).prop_filter_map(
        "squares must differ",
        |(shape, (a, b, c), (piece, mark, promotion, outcome))| {
            let base = QcanMove {
                piece,
                outcome,
                ..QcanMove::null()
            };
            match shape {
                0 if a != b => Some(QcanMove {
                    shape: MoveShape::Standard {
                        source: a,
                        target: b,
                    },
                    mark,
                    promotion,
                    ..base
                }),
                1 if a != b && b != c && a != c => Some(QcanMove {
                    shape: MoveShape::Split {
                        source: a,
                        target1: b,
                        target2: c,
                    },
                    ..base
                }),
                2 if a != b && b != c && a != c => Some(QcanMove {
                    shape: MoveShape::Merge {
                        source1: a,
                        source2: b,
                        target: c,
                    },
                    ..base
                }),
                3 => Some(QcanMove::null()),
                _ => None,
            }
        },
    )
}

proptest! {
    #[test]
    fn printing_then_parsing_gives_the_same_move(m in move_strategy()) {
        let text = m.to_string();
        prop_assert_eq!(text.parse::<QcanMove>(), Ok(m), "text `{}`", text);
    }

    #[test]
    fn parsing_lowercase_input_then_printing_is_idempotent(m in move_strategy()) {
        let text = m.to_string().to_lowercase();
        let reparsed: QcanMove = text.parse().map_err(|e| TestCaseError::fail(format!("{e}")))?;
        prop_assert_eq!(reparsed.to_string().to_lowercase(), text);
    }

    #[test]
    fn rejections_point_inside_the_text(text in "[a-hKQRBNPkqrbnpxw0-9^.m ]{0,12}|\\PC{0,8}") {
        if let Err(error) = text.parse::<QcanMove>() {
            let NotationError::Move { text: t, column, token, .. } = error else {
                return Err(TestCaseError::fail("not a Move error"));
            };
            prop_assert_eq!(&t, &text);
            let chars: Vec<char> = text.chars().collect();
            prop_assert!(column >= 1 && column <= chars.len() + 1);
            let at: String = chars[column - 1..].iter().collect();
            prop_assert!(at.starts_with(&token), "token `{}` not at column {}", token, column);
        }
    }
}
