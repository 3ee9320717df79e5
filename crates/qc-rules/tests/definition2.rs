//! Definition 2: a move that fails in every branch of the superposition is illegal. Positions are
//! reached with real moves under turn order; the expected probabilities are worked out by hand.

mod common;
use common::*;
use qc_ir::Backend;
use qc_rules::cantwell::CantwellError;
use qc_rules::{Board, Color, Game, MoveError};

fn game<B: Backend>(backend: B, fen: &str) -> Game<B> {
    Game::new(Board::from_fen(fen).expect("test FEN"), backend).expect("setup")
}

/// Whether `legal_moves` lists `text` (with or without its `x`/`w` mark).
fn listed<B: Backend>(g: &Game<B>, text: &str) -> bool {
    let unmarked = text.replace(['x', 'w'], "");
    g.legal_moves()
        .iter()
        .any(|m| m.mv.to_string().replace(['x', 'w'], "") == unmarked)
}

/// Asserts `text` is refused as certainly failing and that nothing changed (same side to move,
/// same history, same state).
fn assert_refused<B: Backend>(g: &mut Game<B>, text: &str) {
    let before = (g.moves().len(), g.board().clone(), state(g));
    let err = g
        .play(&mv(text), &mut rand::thread_rng())
        .expect_err("a move failing in every branch must be refused");
    assert_eq!(
        err,
        CantwellError::Move(MoveError::CertainlyFails),
        "{text}"
    );
    assert!(err.to_string().contains("Definition 2"), "{err}");
    assert_eq!((g.moves().len(), g.board().clone(), state(g)), before);
}

qc_sim::for_each_backend!(
    capture_slide_blocked_in_every_branch_is_illegal,
    |backend| {
        // The white king splits onto a2 and a3: each is occupied with probability 1/2 (so neither
        // blocks the rook classically), but every branch holds the king on one of them.
        let mut g = game(backend(), "7k/8/8/8/p7/8/1K6/R7 w - - 0 1");
        play_all(&mut g, "b2^a2a3 h8g8");
        assert_eq!(g.board().side_to_move, Color::White);
        assert!((g.probability(sq("a2")) - 0.5).abs() < 1e-12);
        assert!((g.probability(sq("a3")) - 0.5).abs() < 1e-12);
        assert!(!listed(&g, "a1xa4"), "listed");
        for text in ["a1xa4", "Ra1xa4", "a1xa4.m0", "a1xa4.m1"] {
            assert_refused(&mut g, text);
        }
        assert_eq!(g.board().side_to_move, Color::White, "turn not spent");
        // The rook's other moves stay legal: a1a2 is an excluded slide that succeeds when the king
        // is on a3 (probability 1/2).
        assert!(listed(&g, "a1a2"));
    }
);

qc_sim::for_each_backend!(capture_slide_clear_in_one_branch_stays_legal, |backend| {
    // The king splits onto a3 and b3: the path a2 a3 is clear in the b3 branch (probability 1/2).
    let mut g = game(backend(), "7k/8/8/8/p7/8/1K6/R7 w - - 0 1");
    play_all(&mut g, "b2^a3b3 h8g8");
    assert!(listed(&g, "a1xa4"));
    let r = play(&mut g, "a1xa4.m1");
    assert_eq!((r.measured(), r.applied()), (true, true));
    assert_eq!(piece_at(&g, "a4"), Some('R'));
    assert!(
        (g.probability(sq("b3")) - 1.0).abs() < 1e-12,
        "outcome 1 = king on b3"
    );
});

qc_sim::for_each_backend!(
    castling_whose_squares_are_never_jointly_free_is_illegal,
    |backend| {
        // The queen splits onto f1 and g1: each square is free with probability 1/2, never both.
        let mut g = game(backend(), "4k3/8/8/8/8/8/5Q2/4K2R w K - 0 1");
        play_all(&mut g, "f2^f1g1 e8d8");
        assert!(!listed(&g, "e1g1"), "castling listed");
        assert_refused(&mut g, "e1g1");
        assert_refused(&mut g, "e1g1.m0");
        assert!(
            g.board().castling.white_kingside,
            "the refused castling kept the right"
        );
    }
);

qc_sim::for_each_backend!(
    castling_with_squares_jointly_free_in_one_branch_stays_legal,
    |backend| {
        // The queen splits onto g1 and g2: f1 and g1 are both free in the g2 branch (P = 1/2).
        let mut g = game(backend(), "4k3/8/8/8/8/8/5Q2/4K2R w K - 0 1");
        play_all(&mut g, "f2^g1g2 e8d8");
        assert!(listed(&g, "e1g1"));
        let r = play(&mut g, "e1g1.m1");
        assert!(r.applied());
        assert_eq!(piece_at(&g, "g1"), Some('K'));
        assert_eq!(piece_at(&g, "f1"), Some('R'));
    }
);

qc_sim::for_each_backend!(
    moving_half_an_evenly_split_rook_onto_the_other_half_is_not_listed,
    |backend| {
        // The rook splits evenly onto a2 and a3. Moving one half onto the other swaps the two
        // branches with the same phase: the state is unchanged up to a global phase, so the move
        // is illegal (Definition 2), and the legal moves must not list what playing refuses.
        let mut g = game(
            backend(),
            "rnbqkbnr/1ppppppp/8/p7/P7/8/1PPPPPPP/RNBQKBNR w KQkq - 0 2",
        );
        play_all(&mut g, "a1^a2a3 h7h6");
        for text in ["a2a3", "a3a2"] {
            assert!(!listed(&g, text), "{text} listed");
            let before = (g.moves().len(), state(&g));
            let err = g
                .play(&mv(text), &mut rand::thread_rng())
                .expect_err("playing refuses it");
            assert_eq!(err, CantwellError::Move(MoveError::Unchanged));
            assert_eq!((g.moves().len(), state(&g)), before);
        }
        // Merging the halves back changes the state and stays legal.
        assert!(listed(&g, "a2a3^a1"));
        assert!(listed(&g, "a3b3"));
    }
);
