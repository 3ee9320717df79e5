//! The official engine's fifty-move rule (a per-ply counter reset by a change of at least 1 in
//! the expected piece count; every square measured at 100) and threefold repetition (register and
//! quantum state; claimed; decided by a full measurement). Positions are reached with real moves
//! under turn order; piece counts, probabilities and phases are worked out by hand in comments.

mod common;
use common::*;
use qc_ir::Backend;
use qc_rules::ruleset::CantwellError;
use qc_rules::{Board, Color, DrawReason, Ending, Game, MoveError, Status, WinReason};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn game<B: Backend>(backend: B, fen: &str) -> Game<B> {
    Game::new(Board::from_fen(fen).expect("test FEN"), backend).expect("setup")
}

fn bits(squares: &[&str]) -> u64 {
    squares.iter().fold(0, |b, s| b | 1 << sq(s).index())
}

// The fifty-move counter after each ply, and the expected piece count: a half capture moves it
// by 1/2 (no reset), a second half capture by 1 in all (reset).
qc_sim::for_each_backend!(
    the_counter_resets_when_the_expected_piece_count_moved_by_one,
    |backend| {
        let mut g = game(backend(), "7k/1p6/8/8/8/8/8/R3K3 w - - 0 1");
        // (move, counter after it, expected piece count after it)
        let steps = [
            ("a1a8", 1, 4.0),
            ("h8^g8h7", 2, 4.0), // the king splits: still 4 pieces in expectation
            ("a8xg8", 3, 3.5),   // captures the king's g8 half: 4 - 1/2, no reset
            ("b7b6", 4, 3.5),
            ("g8g7", 5, 3.5),
            ("b6b5", 6, 3.5),
            ("g7xh7", 0, 3.0), // captures the h7 half: 3, one less than at the start: reset
        ];
        for (text, plies, expected) in steps {
            play(&mut g, text);
            let counter = g.fifty_move_counter();
            assert_eq!(counter.plies, plies, "after {text}");
            assert!(
                (g.expected_piece_count() - expected).abs() < 1e-12,
                "after {text}: {}",
                g.expected_piece_count()
            );
            if plies == 0 {
                assert!((counter.reference - expected).abs() < 1e-12);
            } else {
                assert!((counter.reference - 4.0).abs() < 1e-12);
            }
        }
        assert_eq!(g.status(), WHITE_WINS, "the king is gone in both halves");
    }
);

/// White has won by capturing the black king in every branch.
const WHITE_WINS: Status = Status::Win(Color::White, WinReason::KingCaptured);

/// From a FEN halfmove clock of 96, the fourth ply reaches 100: the black king is on h6 with
/// probability 1/2 (its other half was captured), so the full measurement is a draw or a white
/// win.
fn near_fifty<B: Backend>(backend: B) -> Game<B> {
    let mut g = game(backend, "7k/8/8/8/8/8/8/R3K3 w - - 96 1");
    play_all(&mut g, "a1a8 h8^g8h7 a8xg8");
    assert_eq!(g.fifty_move_counter().plies, 99);
    assert!((g.probability(sq("h7")) - 0.5).abs() < 1e-12);
    g
}

qc_sim::for_each_backend!(
    at_one_hundred_plies_every_square_is_measured_forced_outcomes,
    |backend| {
        // Forced: the king survives (h6 occupied): a draw.
        let mut g = near_fifty(backend());
        let survive = bits(&["e1", "g8", "h6"]);
        g.set_forced_board(Some(survive));
        play(&mut g, "h7h6");
        let m = g.full_measurement().expect("measured").clone();
        assert_eq!((m.ending, m.bitboard), (Ending::FiftyMoves, survive));
        assert_eq!(g.status(), Status::Draw(DrawReason::FiftyMoves));
        assert!((g.probability(sq("h6")) - 1.0).abs() < 1e-12);
        assert!(g.legal_moves().is_empty());

        // Forced: the king is gone: white wins, as usual.
        let mut g = near_fifty(backend());
        let gone = bits(&["e1", "g8"]);
        g.set_forced_board(Some(gone));
        play(&mut g, "h7h6");
        assert_eq!(g.full_measurement().expect("measured").bitboard, gone);
        assert_eq!(g.status(), WHITE_WINS);
        assert_eq!(piece_at(&g, "h6"), None);

        // An impossible board (the rook missing) is refused and nothing changes.
        let mut g = near_fifty(backend());
        g.set_forced_board(Some(bits(&["e1", "h6"])));
        let err = g
            .play(&mv("h7h6"), &mut rand::thread_rng())
            .expect_err("impossible board");
        assert!(
            matches!(err, CantwellError::Move(MoveError::ImpossibleBoard { .. })),
            "{err}"
        );
        assert_eq!(g.moves().len(), 3);
        assert_eq!(g.fifty_move_counter().plies, 99);
        assert!(g.full_measurement().is_none());
    }
);

qc_sim::for_each_backend!(
    at_one_hundred_plies_sampled_outcomes_follow_the_born_rule,
    |backend| {
        let runs = 200;
        let mut draws = 0;
        for seed in 0..runs {
            let mut g = near_fifty(backend());
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            g.play(&mv("h7h6"), &mut rng).expect("h7h6");
            let m = g.full_measurement().expect("measured");
            let king = m.bitboard & bits(&["h6"]) != 0;
            assert_eq!(m.bitboard & !bits(&["h6"]), bits(&["e1", "g8"]));
            let want = if king {
                Status::Draw(DrawReason::FiftyMoves)
            } else {
                WHITE_WINS
            };
            assert_eq!(g.status(), want);
            draws += usize::from(king);
        }
        // P(king survives) = 1/2: 200 runs land within 60..140 except with probability < 1e-8.
        assert!((60..140).contains(&draws), "{draws} draws in {runs}");
    }
);

/// Knights shuffle; White's knight is split onto a3 and c3. Every king or knight jump on certain
/// squares multiplies the state by i, so each four-ply cycle returns it up to a global phase.
const START: &str = "4k1n1/8/8/8/8/8/8/1N2K3 w - - 0 1";
const CYCLE: &str = "g8f6 e1d1 f6g8 d1e1";

qc_sim::for_each_backend!(
    threefold_repetition_counts_register_and_quantum_state,
    |backend| {
        let mut g = game(backend(), START);
        play(&mut g, "b1^a3c3");
        assert_eq!(g.repetitions(), 0);
        play_all(&mut g, CYCLE);
        assert_eq!(g.repetitions(), 1);
        assert_eq!(g.claimable(), None);
        let err = g
            .claim_with(&mut || 0.5)
            .expect_err("only one earlier occurrence");
        assert_eq!(err, MoveError::NothingToClaim { repetitions: 1 });
        play_all(&mut g, CYCLE);
        assert_eq!(g.repetitions(), 2);
        assert_eq!(g.claimable(), Some(Ending::Repetition));
    }
);

qc_sim::for_each_backend!(
    the_same_register_with_another_quantum_state_is_no_repetition,
    |backend| {
        let mut g = game(backend(), START);
        play(&mut g, "b1^a3c3");
        // The a3 half goes to b1 and back: two jumps give it a factor i*i = -1 that the c3 half does
        // not get, so (|a3> + |c3>) becomes (-|a3> + |c3>): the same register, another state.
        play_all(&mut g, "g8f6 a3b1 f6g8 b1a3");
        assert_eq!(g.board().pieces, {
            let mut again = game(backend(), START);
            play(&mut again, "b1^a3c3");
            again.board().pieces
        });
        assert_eq!(g.repetitions(), 0);
    }
);

qc_sim::for_each_backend!(
    a_claim_measures_every_square_forced_and_sampled,
    |backend| {
        let mut g = game(backend(), START);
        play_all(&mut g, &format!("b1^a3c3 {CYCLE} {CYCLE}"));
        let forced = bits(&["a3", "e1", "e8", "g8"]);
        g.set_forced_board(Some(forced));
        let m = g.claim_with(&mut || 0.5).expect("claim").clone();
        assert_eq!((m.ending, m.bitboard), (Ending::Repetition, forced));
        assert_eq!(
            g.status(),
            Status::Draw(DrawReason::Repetition),
            "both kings are certain"
        );
        assert_eq!(piece_at(&g, "c3"), None);
        assert_eq!(g.moves().len(), 9, "a claim is not a move");

        // Sampled: u < P(a3) = 1/2 measures a3 occupied (squares are measured a1 first, so a3 is the
        // first square in superposition).
        for (u, on_a3) in [(0.25, true), (0.75, false)] {
            let mut g = game(backend(), START);
            play_all(&mut g, &format!("b1^a3c3 {CYCLE} {CYCLE}"));
            let m = g.claim_with(&mut || u).expect("claim");
            assert_eq!(m.bitboard & bits(&["a3"]) != 0, on_a3, "u = {u}");
            assert_eq!(m.bitboard & bits(&["c3"]) != 0, !on_a3, "u = {u}");
        }
    }
);

// The fifty-move ending's measured board is written into the game file, so that a replay with
// any seed ends on the same board; without the tag, replays with other seeds differ.
qc_sim::for_each_backend!(
    a_fifty_move_ending_replays_on_the_board_it_measured,
    |backend| {
        use qc_rules::ruleset::FIFTY_MOVE_BOARD_TAG;
        use qc_rules::{Cantwell, QcanMove, QuantumGame, Ruleset};
        use rand::SeedableRng;
        // The counter is at 98: the split and Black's reply make 100, and every square is measured
        // with the knight on a3 (bit 16) or c3 (bit 18), each with probability 1/2.
        let start = Cantwell::start(Some("4k3/8/8/8/8/8/8/1N2K3 w - - 98 50"), None).expect("fen");
        fn play<B: Backend>(seed: u64, game: &mut qc_rules::Game<B>, moves: &[QcanMove]) {
            let mut dice = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
            for m in moves {
                game.play(m, &mut dice).expect("move");
            }
        }
        fn knight<B: Backend>(game: &qc_rules::Game<B>) -> u64 {
            let m = game
                .full_measurement()
                .expect("the fifty-move rule measured the board");
            assert_eq!(m.ending, qc_rules::Ending::FiftyMoves);
            m.bitboard & (1 << 16 | 1 << 18)
        }
        let (mut seen, mut differs_without_tag) = (Vec::new(), false);
        for seed in 0..12 {
            let mut game = Cantwell::new_game(&start, backend()).expect("start");
            play(seed, &mut game, &[mv("b1^a3c3"), mv("e8d8")]);
            let board = knight(&game);
            seen.push(board);
            let text = Cantwell::write_game(&[], &[], &start, &game);
            assert!(text.contains(FIFTY_MOVE_BOARD_TAG), "{text}");
            let read = Cantwell::read_game(&text, None).expect("the written game reads");
            let moves: Vec<QcanMove> = read.moves.iter().map(|m| m.mv).collect();
            let mut replay = Cantwell::game_for(&read, backend()).expect("replay");
            play(seed + 1000, &mut replay, &moves);
            assert_eq!(knight(&replay), board, "seed {seed}: {text}");
            assert_eq!(replay.status(), game.status());
            let mut untagged = Cantwell::new_game(&start, backend()).expect("start");
            play(seed + 1000, &mut untagged, &moves);
            differs_without_tag |= knight(&untagged) != board;
        }
        assert!(
            seen.contains(&(1 << 16)) && seen.contains(&(1 << 18)),
            "{seen:?}"
        );
        assert!(
            differs_without_tag,
            "some replay with another seed ends elsewhere without the tag"
        );
    }
);

qc_sim::for_each_backend!(a_malformed_fifty_move_board_tag_is_refused, |backend| {
    use qc_rules::{Cantwell, Ruleset};
    for value in ["12", "0x", "0x10000000000000000", "0xzz"] {
        let text = format!("[FiftyMoveBoard \"{value}\"]\n1. e2e4\n");
        let read = Cantwell::read_game(&text, None).expect("reads");
        let Err(err) = Cantwell::game_for(&read, backend()) else {
            panic!("{value}: accepted");
        };
        assert!(
            matches!(err, CantwellError::BadTag { .. }),
            "{value}: {err}"
        );
    }
});
