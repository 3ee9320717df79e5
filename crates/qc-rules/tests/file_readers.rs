//! What every ruleset's game-file reader shares: a leading byte-order mark (what Windows Notepad
//! writes) is accepted, an invisible character in a bad move is named by its escape, and both
//! readers refuse the same misplaced parts (a second result, a move after the result, a second
//! FEN tag, a tag after the moves or the result).

use qc_rules::niels::{GameFileProblem, NielsError, NielsRecord};
use qc_rules::ruleset::OrderProblem;
use qc_rules::{GameErrorKind, GameRecord, NotationError};

const BOM: char = '\u{feff}';

#[test]
fn a_leading_byte_order_mark_is_accepted_by_both_readers() {
    let text = format!("{BOM}[Event \"Notepad\"]\n\n1. e2e4 e7e5 *\n");
    let record = GameRecord::parse(&text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(record.moves.len(), 2);
    assert_eq!(record.tags[0].value, "Notepad");
    let niels = NielsRecord::parse(&text).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(niels.moves.len(), 2);
    assert_eq!(niels.tags[0].value, "Notepad");
    // Moves only, the mark glued to the first move number.
    let text = format!("{BOM}1. e2e4 e7e5\n");
    assert_eq!(GameRecord::parse(&text).expect("moves").moves.len(), 2);
    assert_eq!(NielsRecord::parse(&text).expect("moves").moves.len(), 2);
}

#[test]
fn an_invisible_character_in_a_bad_move_is_shown_escaped() {
    for text in ["1. e2e4 \u{feff}e7e5\n", "1. e2\u{200b}e4\n"] {
        let messages = [
            GameRecord::parse(text).expect_err("a bad move").to_string(),
            NielsRecord::parse(text)
                .expect_err("a bad move")
                .to_string(),
        ];
        for message in messages {
            assert!(
                message.contains("\\u{feff}") || message.contains("\\u{200b}"),
                "{message}"
            );
            assert!(
                !message.contains(['\u{feff}', '\u{200b}']),
                "an invisible character in {message:?}"
            );
        }
    }
}

/// A file the Quantum Chess reader refuses for the order of its parts, with the problem; Niel's
/// reader must refuse it for the same reason.
fn misplaced() -> Vec<(String, OrderProblem)> {
    let fen = "[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 0 1\"]";
    let after = |token: &str| OrderProblem::AfterResult {
        token: token.to_string(),
    };
    vec![
        ("1. e1e2 e8e7 1-0 0-1\n".into(), after("0-1")),
        ("1. e1e2 * e8e7\n".into(), after("e8e7")),
        ("1. e1e2 e8e7 * 2.\n".into(), after("2.")),
        (
            format!("{fen}\n{fen}\n\n1. e1e2\n"),
            OrderProblem::DuplicateFen,
        ),
        (
            "1. e1e2\n[Event \"x\"]\n".into(),
            OrderProblem::TagAfterMoves,
        ),
        ("*\n[Event \"x\"]\n".into(), OrderProblem::TagAfterMoves),
    ]
}

#[test]
fn both_readers_refuse_the_same_misplaced_parts() {
    for (text, problem) in misplaced() {
        let cantwell = match GameRecord::parse(&text) {
            Err(NotationError::GameFile { kind, .. }) => kind,
            other => panic!("{text:?}: {other:?}"),
        };
        let want = match &problem {
            OrderProblem::TagAfterMoves => GameErrorKind::TagAfterMoves,
            OrderProblem::DuplicateFen => GameErrorKind::DuplicateFen,
            OrderProblem::AfterResult { token } => GameErrorKind::AfterResult {
                token: token.clone(),
            },
        };
        assert_eq!(cantwell, want, "{text:?}");
        // Niel's FEN is its own (the standard 8x8 start here).
        let text = text.replace(
            "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
            "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w - - 0 1",
        );
        match NielsRecord::parse(&text) {
            Err(NielsError::GameFile {
                problem: GameFileProblem::Order(found),
                ..
            }) => assert_eq!(found, problem, "{text:?}"),
            other => panic!("Niel's reader on {text:?}: {other:?}"),
        }
    }
}
