//! FEN: the start position against a hand-built register, round trips, and one rejection test
//! per kind of error (field and reason checked).

use qc_rules::Square;
use qc_rules::{
    Board, CastlingRights, Color, FenErrorKind, FenField, NotationError, Piece, PieceKind,
    START_FEN,
};

fn sq(name: &str) -> Square {
    Square::parse(name).expect("test square")
}

fn board(fen: &str) -> Board {
    Board::from_fen(fen).unwrap_or_else(|e| panic!("`{fen}` should parse: {e}"))
}

fn rejects(fen: &str, field: FenField, text: &str, kind: FenErrorKind) {
    let error = Board::from_fen(fen).expect_err(fen);
    assert_eq!(
        error,
        NotationError::Fen {
            field,
            text: text.to_string(),
            kind
        },
        "for `{fen}`: {error}"
    );
}

#[test]
fn start_position_matches_the_hand_written_register() {
    let start = Board::start();
    // Spot checks by square name, independent of the FEN code.
    let white = |k| Some(Piece::new(Color::White, k));
    let black = |k| Some(Piece::new(Color::Black, k));
    assert_eq!(start.piece(sq("a1")), white(PieceKind::Rook));
    assert_eq!(start.piece(sq("b1")), white(PieceKind::Knight));
    assert_eq!(start.piece(sq("d1")), white(PieceKind::Queen));
    assert_eq!(start.piece(sq("e1")), white(PieceKind::King));
    assert_eq!(start.piece(sq("h2")), white(PieceKind::Pawn));
    assert_eq!(start.piece(sq("c7")), black(PieceKind::Pawn));
    assert_eq!(start.piece(sq("d8")), black(PieceKind::Queen));
    assert_eq!(start.piece(sq("e8")), black(PieceKind::King));
    assert_eq!(start.piece(sq("e4")), None);
    assert_eq!(start.pieces.iter().filter(|p| p.is_some()).count(), 32);
    assert_eq!(start.side_to_move, Color::White);
    assert_eq!(start.en_passant, None);
    assert_eq!((start.halfmove_clock, start.fullmove_number), (0, 1));
    assert!(start.castling.white_kingside && start.castling.black_queenside);
    assert_eq!(start.to_fen(), START_FEN);
    assert_eq!(board(START_FEN), start);
}

#[test]
fn position_with_en_passant_round_trips() {
    let fen = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1";
    let b = board(fen);
    assert_eq!(b.en_passant, Some(sq("e3")));
    assert_eq!(b.side_to_move, Color::Black);
    assert_eq!(
        b.piece(sq("e4")),
        Some(Piece::new(Color::White, PieceKind::Pawn))
    );
    assert_eq!(b.piece(sq("e2")), None);
    assert_eq!(b.to_fen(), fen);

    let fen = "rnbqkbnr/ppp1p1pp/8/3pPp2/8/8/PPPP1PPP/RNBQKBNR w KQkq f6 0 3";
    assert_eq!(board(fen).en_passant, Some(sq("f6")));
    assert_eq!(board(fen).to_fen(), fen);
}

#[test]
fn partial_castling_rights_round_trip() {
    let fen = "r3k2r/8/8/8/8/8/8/R3K2R w Kq - 12 40";
    let b = board(fen);
    assert_eq!(
        b.castling,
        CastlingRights {
            white_kingside: true,
            white_queenside: false,
            black_kingside: false,
            black_queenside: true
        }
    );
    assert_eq!((b.halfmove_clock, b.fullmove_number), (12, 40));
    assert_eq!(b.to_fen(), fen);
    let none = "4k3/8/8/8/8/8/8/4K3 b - - 0 1";
    assert_eq!(board(none).castling, CastlingRights::default());
    assert_eq!(board(none).to_fen(), none);
}

#[test]
fn castling_letters_in_any_order_print_canonically() {
    assert_eq!(
        board("r3k2r/8/8/8/8/8/8/R3K2R w qkQK - 0 1").to_fen(),
        "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
    );
}

#[test]
fn four_field_fen_defaults_the_counters() {
    let b = board("4k3/8/8/8/8/8/8/4K3 w - -");
    assert_eq!((b.halfmove_clock, b.fullmove_number), (0, 1));
    assert_eq!(b.to_fen(), "4k3/8/8/8/8/8/8/4K3 w - - 0 1");
}

#[test]
fn rejects_wrong_field_count() {
    let fen = "4k3/8/8/8/8/8/8/4K3 w - - 0";
    rejects(
        fen,
        FenField::Record,
        fen,
        FenErrorKind::FieldCount { found: 5 },
    );
    rejects(
        "",
        FenField::Record,
        "",
        FenErrorKind::FieldCount { found: 0 },
    );
}

#[test]
fn rejects_rank_with_nine_squares() {
    let placement = "4k3/8/8/8/8/8/8/4K4";
    rejects(
        &format!("{placement} w - - 0 1"),
        FenField::Placement,
        placement,
        FenErrorKind::RankLength {
            rank: 1,
            squares: 9,
        },
    );
    let placement = "4k3/8/8/7/8/8/8/4K3";
    rejects(
        &format!("{placement} w - - 0 1"),
        FenField::Placement,
        placement,
        FenErrorKind::RankLength {
            rank: 5,
            squares: 7,
        },
    );
}

#[test]
fn rejects_unknown_piece_letter() {
    let placement = "4k3/8/8/8/3X4/8/8/4K3";
    rejects(
        &format!("{placement} w - - 0 1"),
        FenField::Placement,
        placement,
        FenErrorKind::UnknownPiece { letter: 'X' },
    );
    let placement = "4k3/8/8/8/08/8/8/4K3";
    rejects(
        &format!("{placement} w - - 0 1"),
        FenField::Placement,
        placement,
        FenErrorKind::UnknownPiece { letter: '0' },
    );
}

#[test]
fn rejects_seven_ranks() {
    let placement = "4k3/8/8/8/8/8/4K3";
    rejects(
        &format!("{placement} w - - 0 1"),
        FenField::Placement,
        placement,
        FenErrorKind::RankCount { found: 7 },
    );
}

#[test]
fn rejects_bad_side() {
    rejects(
        "4k3/8/8/8/8/8/8/4K3 W - - 0 1",
        FenField::Side,
        "W",
        FenErrorKind::BadSide,
    );
}

#[test]
fn rejects_bad_castling() {
    rejects(
        "r3k2r/8/8/8/8/8/8/R3K2R w KQz - 0 1",
        FenField::Castling,
        "KQz",
        FenErrorKind::BadCastlingLetter { letter: 'z' },
    );
    rejects(
        "r3k2r/8/8/8/8/8/8/R3K2R w KK - 0 1",
        FenField::Castling,
        "KK",
        FenErrorKind::DuplicateCastlingLetter { letter: 'K' },
    );
}

#[test]
fn rejects_bad_en_passant() {
    rejects(
        "4k3/8/8/8/4P3/8/8/4K3 b - e4 0 1",
        FenField::EnPassant,
        "e4",
        FenErrorKind::EnPassantRank {
            rank: 4,
            expected: 3,
        },
    );
    // White to move: the target must be on rank 6, not rank 3.
    rejects(
        "4k3/8/8/8/4P3/8/8/4K3 w - e3 0 1",
        FenField::EnPassant,
        "e3",
        FenErrorKind::EnPassantRank {
            rank: 3,
            expected: 6,
        },
    );
    rejects(
        "4k3/8/8/8/8/8/8/4K3 w - z9 0 1",
        FenField::EnPassant,
        "z9",
        FenErrorKind::BadSquare,
    );
}

#[test]
fn rejects_bad_counters() {
    rejects(
        "4k3/8/8/8/8/8/8/4K3 w - - -1 1",
        FenField::Halfmove,
        "-1",
        FenErrorKind::BadNumber,
    );
    rejects(
        "4k3/8/8/8/8/8/8/4K3 w - - 0 x",
        FenField::Fullmove,
        "x",
        FenErrorKind::BadNumber,
    );
    rejects(
        "4k3/8/8/8/8/8/8/4K3 w - - 0 99999999999",
        FenField::Fullmove,
        "99999999999",
        FenErrorKind::CounterTooLarge {
            max: qc_rules::chess::MAX_FEN_COUNTER,
        },
    );
    rejects(
        "4k3/8/8/8/8/8/8/4K3 w - - 0 0",
        FenField::Fullmove,
        "0",
        FenErrorKind::ZeroFullmove,
    );
}

#[test]
fn error_message_names_field_and_reason() {
    let message = Board::from_fen("4k3/8/8/8/8/8/8/4K4 w - - 0 1")
        .unwrap_err()
        .to_string();
    assert_eq!(
        message,
        "bad FEN: placement field `4k3/8/8/8/8/8/8/4K4`: rank 1 describes 9 squares, expected 8"
    );
}

mod random {
    use super::*;
    use proptest::prelude::*;

    fn piece_strategy() -> impl Strategy<Value = Option<Piece>> {
        prop::option::weighted(
            0.4,
            (any::<bool>(), 0usize..6).prop_map(|(white, k)| {
                let color = if white { Color::White } else { Color::Black };
                Piece::new(color, PieceKind::ALL[k])
            }),
        )
    }

    fn board_strategy() -> impl Strategy<Value = Board> {
        (
            prop::collection::vec(piece_strategy(), 64),
            any::<bool>(),
            any::<[bool; 4]>(),
            prop::option::of(0i32..8),
            0u32..200,
            1u32..500,
        )
            .prop_map(|(pieces, white, rights, ep_file, halfmove, fullmove)| {
                let mut board = Board::empty();
                for (square, piece) in Square::ALL.into_iter().zip(pieces) {
                    board.set_piece(square, piece);
                }
                board.side_to_move = if white { Color::White } else { Color::Black };
                board.castling = CastlingRights {
                    white_kingside: rights[0],
                    white_queenside: rights[1],
                    black_kingside: rights[2],
                    black_queenside: rights[3],
                };
                let ep_rank = if white { 5 } else { 2 };
                board.en_passant = ep_file.and_then(|f| Square::from_coords(f, ep_rank));
                board.halfmove_clock = halfmove;
                board.fullmove_number = fullmove;
                board
            })
    }

    proptest! {
        #[test]
        fn to_fen_then_from_fen_is_the_identity(b in board_strategy()) {
            let fen = b.to_fen();
            prop_assert_eq!(Board::from_fen(&fen), Ok(b), "fen {}", fen);
        }
    }
}
