//! The official app's AI protocol: views in the shape of the SDK's published types
//! (`QCEngineView`, `QCClock`) go in, a legal `QCMoveChoice` comes out, and every malformed or
//! impossible view is refused with a reason, never a panic.
//!
//! Views are written two ways: one by hand as the app sends it (every field of the types,
//! the SDK's move spelling `e2-e4`), and others built from a game played here (the board's
//! probabilities and the legal moves read from it, the history in the SDK's spelling).

use qc_engine::Searcher;
use qc_front::sdk::{self, MoveChoice, SdkError};
use qc_rules::{Cantwell, QuantumGame, Ruleset};
use qc_sim::SparseSim;
use rand::SeedableRng;
use serde_json::{json, Value};
use std::time::Duration;

/// The start position as the app sends it, written from the SDK's types: every field present,
/// only a few legal moves listed (the answer must be one of them).
const START_VIEW: &str = r#"{
  "view": {
    "gameData": {
      "position": { "startingFen": "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "history": [] },
      "board": {
        "pieces": ["R","N","B","Q","K","B","N","R","P","P","P","P","P","P","P","P",
                   ".",".",".",".",".",".",".",".",".",".",".",".",".",".",".",".",
                   ".",".",".",".",".",".",".",".",".",".",".",".",".",".",".",".",
                   "p","p","p","p","p","p","p","p","r","n","b","q","k","b","n","r"],
        "probabilities": [1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,
                          0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1],
        "ply": 0, "fiftyCount": 0, "fiftyPieceCount": 32, "castleFlags": 15, "enPassantSquare": -1
      }
    },
    "sideToMove": "white",
    "legalMoves": {
      "standard": [
        { "from": 12, "to": 28, "type": 3, "variant": 1, "willMeasure": false, "piece": "P", "notation": "e2-e4" },
        { "from": 6, "to": 21, "type": 2, "variant": 1, "willMeasure": false, "piece": "N", "notation": "g1-f3" }
      ],
      "splits": [
        { "from": 1, "targetA": 16, "targetB": 18, "type": 4, "piece": "N", "notation": "b1^a3c3" }
      ],
      "merges": [],
      "count": 3
    },
    "moveHistory": [],
    "quantumEnabled": true,
    "rules": { "quantumEnabled": true, "allowSplitMerge": true, "allowMeasurementAnnotations": true,
               "allowCastling": true, "allowEnPassant": true, "allowPromotion": true, "objective": "checkmate" }
  },
  "clock": { "remainingMs": 3000, "incrementMs": 0, "opponentRemainingMs": 3000 }
}"#;

fn dice() -> rand_chacha::ChaCha8Rng {
    rand_chacha::ChaCha8Rng::seed_from_u64(0)
}

/// A QCAN move in the SDK's spelling: `e2-e4`, `e7-e8Q`, `b1^a3c3`, `a3c3^b5`, with `.m0`/`.m1`.
fn sdk_spelling(text: &str, white: bool) -> String {
    let (body, outcome) = match text.split_once('.') {
        Some((b, o)) => (b, format!(".{o}")),
        None => (text, String::new()),
    };
    if body.contains('^') {
        return format!("{body}{outcome}");
    }
    let squares: String = body.chars().filter(|c| !"xw".contains(*c)).collect();
    let (from, rest) = squares.split_at(2);
    let (to, promotion) = rest.split_at(2);
    let promotion = if white {
        promotion.to_uppercase()
    } else {
        promotion.to_lowercase()
    };
    format!("{from}-{to}{promotion}{outcome}")
}

/// The view the app would send after `moves` (QCAN, outcomes written in), built from a game
/// played here.
fn view_after(moves: &[&str]) -> Value {
    let start = Cantwell::start(None, None).expect("start");
    let mut game = Cantwell::new_game(&start, SparseSim::new()).expect("game");
    let mut history = Vec::new();
    for m in moves {
        let white = game.side_to_move() == qc_rules::Color::White;
        let played = game.play_text(m, &mut dice()).expect("move").text();
        let measured = played.contains(".m");
        let passed = played.ends_with(".m1");
        let spelled = sdk_spelling(&played, white);
        history.push(json!({
            "moveString": spelled, "notation": spelled, "ply": history.len(),
            "wasBlocked": measured && !passed, "wasMeasurement": measured,
            "measurementPassed": if measured { Value::Bool(passed) } else { Value::Null },
        }));
    }
    let view = game.board_view(false);
    let mut pieces = Vec::new();
    let mut probabilities = Vec::new();
    for sq in qc_rules::Square::ALL {
        let s = view.get(sq);
        pieces.push(s.map_or(".".to_string(), |s| s.piece.to_string()));
        probabilities.push(s.map_or(0.0, |s| s.probability));
    }
    let (mut standard, mut splits, mut merges) = (Vec::new(), Vec::new(), Vec::new());
    for m in QuantumGame::legal_moves(&game) {
        match sdk::choice_of(&m.mv).expect("choice") {
            MoveChoice::Standard { from, to, .. } => standard.push(json!({"from": from, "to": to})),
            MoveChoice::Split {
                from,
                target_a,
                target_b,
            } => splits.push(json!({"from": from, "targetA": target_a, "targetB": target_b})),
            MoveChoice::Merge {
                source_a,
                source_b,
                to,
            } => merges.push(json!({"sourceA": source_a, "sourceB": source_b, "to": to})),
        }
    }
    json!({
        "view": {
            "gameData": {
                "position": { "startingFen": qc_rules::START_FEN, "history": [] },
                "board": { "pieces": pieces, "probabilities": probabilities, "ply": moves.len() }
            },
            "sideToMove": if game.side_to_move() == qc_rules::Color::White { "white" } else { "black" },
            "legalMoves": { "standard": standard, "splits": splits, "merges": merges },
            "moveHistory": history,
        },
        "clock": null
    })
}

fn answer(body: &str) -> Result<sdk::Answer, SdkError> {
    let request = sdk::parse_request(body)?;
    sdk::answer(
        &request,
        SparseSim::new(),
        &mut Searcher::default(),
        Duration::from_millis(200),
        Duration::from_secs(10),
        qc_engine::StopFlag::new(),
    )
}

#[test]
fn the_start_view_gets_one_of_its_listed_moves() {
    let request = sdk::parse_request(START_VIEW).expect("the SDK's shape reads");
    let a = answer(START_VIEW).expect("answer");
    assert!(sdk::listed(&a.choice, &request.view.legal_moves), "{a:?}");
    // The answer is JSON in the SDK's shape.
    let json = serde_json::to_value(&a.choice).expect("json");
    assert!(["standard", "split"].contains(&json["type"].as_str().expect("type")));
}

#[test]
fn a_history_with_measurements_is_rebuilt_exactly_and_answered_legally() {
    // A knight split, then a capture from its half on c3 that was measured and failed.
    for outcome in [".m0", ".m1"] {
        let capture = format!("c3xd5{outcome}");
        let moves = ["b1^a3c3", "d7d5", capture.as_str(), "g8f6"];
        let body = view_after(&moves).to_string();
        let request = sdk::parse_request(&body).expect("reads");
        let a = answer(&body).expect("answer");
        assert!(sdk::listed(&a.choice, &request.view.legal_moves), "{a:?}");
        // The rebuilt game is the one played here.
        let rebuilt = sdk::rebuild(&request, SparseSim::new()).expect("rebuild");
        let recorded = format!("c3d5{outcome}");
        assert!(rebuilt.record().contains(&recorded), "{}", rebuilt.record());
    }
}

#[test]
fn promotions_and_long_histories_rebuild() {
    let moves = [
        "b2b4", "a7a5", "b4xa5", "b8c6", "a5a6", "c6e5", "a6xb7", "e5c4", "b7xa8q",
    ];
    let body = view_after(&moves).to_string();
    assert!(
        body.contains("b7-a8Q"),
        "the SDK writes a white promotion uppercase"
    );
    let request = sdk::parse_request(&body).expect("reads");
    let a = answer(&body).expect("answer");
    assert!(sdk::listed(&a.choice, &request.view.legal_moves));
}

#[test]
fn bad_views_are_refused_with_a_reason() {
    let good = view_after(&["b1^a3c3", "d7d5", "c3xd5.m0"]);
    let cases: Vec<(Value, &str)> = vec![
        (json!({}), "missing field `view`"),
        (json!({"view": {"sideToMove": "white"}}), "missing field"),
        (
            {
                let mut v = good.clone();
                v["view"]["moveHistory"][2]["measurementPassed"] = Value::Null;
                v
            },
            "measurementPassed is missing",
        ),
        (
            {
                let mut v = good.clone();
                v["view"]["moveHistory"][2]["moveString"] = json!("c3-d5.m1");
                v
            },
            "contradicts",
        ),
        (
            {
                let mut v = good.clone();
                v["view"]["moveHistory"][1]["moveString"] = json!("d7-d2");
                v
            },
            "moveHistory[1]",
        ),
        (
            {
                let mut v = good.clone();
                v["view"]["moveHistory"][0]["moveString"] = json!("zz");
                v
            },
            "is not a move",
        ),
        (
            {
                let mut v = good.clone();
                v["view"]["sideToMove"] = json!("white");
                v
            },
            "sideToMove",
        ),
        (
            {
                let mut v = good.clone();
                v["view"]["gameData"]["board"]["probabilities"][18] = json!(1.0);
                v
            },
            "c3",
        ),
        (
            {
                let mut v = good.clone();
                v["view"]["gameData"]["board"]["probabilities"] = json!([1.0]);
                v
            },
            "64",
        ),
        (
            {
                let mut v = good.clone();
                v["view"]["gameData"]["position"]["setupMoves"] = json!(["b1^a3c3", "z9z9"]);
                v
            },
            "setupMoves[1] `z9z9`: not a move",
        ),
        (
            {
                let mut v = good.clone();
                v["view"]["gameData"]["position"]["startingFen"] = json!("not a fen");
                v
            },
            "startingFen",
        ),
        (
            {
                let mut v = good.clone();
                v["view"]["legalMoves"] = json!({"standard": [], "splits": [], "merges": []});
                v
            },
            "no move is legal",
        ),
    ];
    for (body, reason) in cases {
        let error = answer(&body.to_string()).expect_err(reason).to_string();
        assert!(error.contains(reason), "{error} should say {reason}");
    }
    for junk in ["", "{", "[]", "null", "{\"view\": 3}", "\u{0}"] {
        assert!(matches!(answer(junk), Err(SdkError::Json(_))), "{junk:?}");
    }
}

#[test]
fn differences_between_the_view_and_qchess_legal_moves_are_named() {
    // The start view lists three of white's moves: the others are only qchess's, none only
    // the view's.
    let a = answer(START_VIEW).expect("answer");
    assert!(a.differences.only_in_view.is_empty(), "{:?}", a.differences);
    // 20 standard moves and 6 splits (each knight to its two squares, either order counted once).
    let here = &a.differences.only_here;
    assert!(here.contains(&"d2d4".to_string()), "{here:?}");
    assert!(!here.contains(&"e2e4".to_string()), "{here:?}");
    assert!(
        !here.iter().any(|m| m == "b1^a3c3" || m == "b1^c3a3"),
        "{here:?}"
    );
    // A view that lists e2-e5 (not legal) and only the moves qchess has otherwise.
    let start = Cantwell::start(None, None).expect("start");
    let game = Cantwell::new_game(&start, SparseSim::new()).expect("game");
    let here: Vec<qc_rules::QcanMove> = QuantumGame::legal_moves(&game)
        .into_iter()
        .map(|m| m.mv)
        .collect();
    let mut body: Value = view_after(&[]);
    body["view"]["legalMoves"]["standard"]
        .as_array_mut()
        .expect("standard")
        .push(json!({"from": 12, "to": 36}));
    let request = sdk::parse_request(&body.to_string()).expect("reads");
    let d = sdk::legal_differences(&here, &request.view.legal_moves);
    assert!(d.only_here.is_empty(), "{d:?}");
    assert_eq!(
        d.only_in_view,
        vec![MoveChoice::Standard {
            from: 12,
            to: 36,
            promotion: None
        }]
    );
    assert!(
        d.to_string()
            .contains(r#"{"type":"standard","from":12,"to":36}"#),
        "{d}"
    );
    // The same lists agree.
    let same = view_after(&[]);
    let request = sdk::parse_request(&same.to_string()).expect("reads");
    assert!(sdk::legal_differences(&here, &request.view.legal_moves).is_empty());
}

/// The view after `moves`, with the first `setup` of them sent as `setupMoves` (move strings
/// only, as the SDK's `QChessPosition` has them) and the rest as history.
fn view_with_setup(moves: &[&str], setup: usize) -> Value {
    let mut v = view_after(moves);
    let history = v["view"]["moveHistory"]
        .as_array()
        .expect("history")
        .clone();
    let (first, rest) = history.split_at(setup);
    let strings: Vec<Value> = first.iter().map(|r| r["moveString"].clone()).collect();
    v["view"]["gameData"]["position"]["setupMoves"] = Value::Array(strings);
    v["view"]["moveHistory"] = Value::Array(rest.to_vec());
    v
}

#[test]
fn setup_moves_start_a_quantum_position() {
    let moves = ["b1^a3c3", "d7d5", "c3xd5.m0", "g8f6"];
    let whole = view_after(&moves).to_string();
    let whole = sdk::rebuild(
        &sdk::parse_request(&whole).expect("reads"),
        SparseSim::new(),
    )
    .expect("rebuild");
    // Setup moves with no measurement, and one whose string says its outcome.
    for setup in [2, 3] {
        let body = view_with_setup(&moves, setup).to_string();
        let request = sdk::parse_request(&body).expect("reads");
        let rebuilt = sdk::rebuild(&request, SparseSim::new()).expect("rebuild");
        assert_eq!(rebuilt.record(), whole.record(), "{setup} setup moves");
        let a = answer(&body).expect("answer");
        assert!(sdk::listed(&a.choice, &request.view.legal_moves), "{a:?}");
    }
    // A measured setup move without its outcome cannot be rebuilt exactly.
    let mut v = view_with_setup(&moves, 3);
    v["view"]["gameData"]["position"]["setupMoves"][2] = json!("c3-d5");
    let e = answer(&v.to_string()).expect_err("refused").to_string();
    assert!(
        e.contains("setupMoves[2] `c3-d5`") && e.contains(".m0 or .m1"),
        "{e}"
    );
}
