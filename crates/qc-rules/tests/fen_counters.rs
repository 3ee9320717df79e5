//! FEN move counters (issue 12 item 10): counters beyond `MAX_FEN_COUNTER` are refused on input in
//! both rulesets, and playing on from the largest accepted counter counts on, never wraps.

mod common;
use common::*;
use qc_rules::chess::MAX_FEN_COUNTER;
use qc_rules::niels::{NielsPosition, NielsRules};
use qc_rules::{Board, FenErrorKind, Game, NotationError};
use qc_sim::ReferenceSparse;

fn counter_error(fen: &str) -> FenErrorKind {
    match Board::from_fen(fen) {
        Err(NotationError::Fen { kind, .. }) => kind,
        other => panic!("`{fen}` should be refused as a FEN error, got {other:?}"),
    }
}

#[test]
fn counters_beyond_the_limit_are_refused_not_wrapped() {
    let too_large = FenErrorKind::CounterTooLarge {
        max: MAX_FEN_COUNTER,
    };
    for counters in [
        "0 4294967295",
        "0 4294967296",
        "4294967296 1",
        "0 99999999999999999999999999",
        "1000000001 1",
    ] {
        let fen = format!("7k/8/8/8/8/8/8/K7 w - - {counters}");
        assert_eq!(counter_error(&fen), too_large, "{fen}");
    }
    assert_eq!(
        counter_error("7k/8/8/8/8/8/8/K7 w - - 0 -1"),
        FenErrorKind::BadNumber
    );
}

#[test]
fn playing_on_from_the_largest_counters_counts_on() {
    let fen = format!("7k/8/8/8/8/8/8/K7 b - - {MAX_FEN_COUNTER} {MAX_FEN_COUNTER}");
    let board = Board::from_fen(&fen).expect("the largest counters are accepted");
    let mut game = Game::new(board, ReferenceSparse::new()).expect("game starts");
    play(&mut game, "h8g8");
    assert_eq!(game.board().halfmove_clock, MAX_FEN_COUNTER + 1);
    assert_eq!(game.board().fullmove_number, MAX_FEN_COUNTER + 1);
}

#[test]
fn niels_counters_beyond_the_limit_are_refused() {
    let start = NielsPosition::start(NielsRules::default()).to_fen();
    let fields: Vec<&str> = start.split(' ').collect();
    let placement = fields[..4].join(" ");
    assert!(NielsPosition::from_fen(
        &format!("{placement} 0 {MAX_FEN_COUNTER}"),
        NielsRules::default()
    )
    .is_ok());
    for counters in ["0 4294967296", "4294967295 1", "0 1000000001"] {
        let err =
            NielsPosition::from_fen(&format!("{placement} {counters}"), NielsRules::default())
                .expect_err(counters)
                .to_string();
        assert!(err.contains("larger than 1000000000"), "{counters}: {err}");
    }
}
