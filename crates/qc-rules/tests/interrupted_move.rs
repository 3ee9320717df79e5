//! A move whose simulation is interrupted (a search's stop flag or deadline, `qc_ir::interrupt`)
//! fails with `BackendError::Interrupted` after a bounded amount of work, and leaves the game
//! exactly as it was: the same basis states with the same amplitudes, bit for bit, the same
//! circuit, record and moves. Work is counted in basis states visited, never in time.

use qc_ir::interrupt::{while_interruptible, Interrupt, CHECK_EVERY};
use qc_ir::{Backend, BackendError, Complex64, Qubit};
use qc_rules::{Board, Game, QcanMove, QuantumGame, UndoControls};
use qc_sim::SparseSim;
use rand::SeedableRng;
use std::sync::atomic::AtomicBool;
use std::sync::Arc;

/// 22 plies of knight splits (`crates/qc-rules/examples/knight_splits.rs`, seed 1): 36,864
/// basis states, over the sparse simulator's parallel threshold, so its passes run in chunks.
const PLIES: &str = "a2^b4c3 a7^c8b5 h2^f1f3 h7^f6f8 a1^c2b3 g8^e7h6 g1^e2h3 a8^b6c7 c3^e4a2 \
                     f6^g8h5 b4^a6d5 f8^e6h7 h3^f2g1 b5^d4a3 e2^g3c3 h6^f5f7 b3^c1d2 b6^d7c4 \
                     c2^e1a1 e7^c6g6 f3^g5h2 c8^b6e7";
/// The next split, which takes the state to 46,080 basis states.
const NEXT: &str = "c3^d1b5";

fn knights() -> Game<SparseSim> {
    let board = Board::from_fen("n5nk/n6n/8/8/8/8/N6N/N5NK w - - 0 1").expect("the FEN");
    let mut game = Game::new(board, SparseSim::new()).expect("a game");
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(0);
    for text in PLIES.split_whitespace() {
        let mv: QcanMove = text.parse().expect("a move");
        game.play(&mv, &mut rng).expect("a legal split");
    }
    assert_eq!(game.state_size(), 36_864);
    game
}

/// Everything a move may change: the basis states with their amplitudes (compared exactly),
/// the position, the circuit, the outcomes and the moves.
type Everything = (
    Vec<(Vec<Qubit>, Complex64)>,
    String,
    usize,
    Vec<Option<bool>>,
    usize,
    usize,
);

fn everything(game: &Game<SparseSim>) -> Everything {
    (
        game.backend().basis_states(),
        game.fen(),
        game.circuit().instructions().len(),
        game.outcomes(),
        game.moves().len(),
        game.undo_depth(),
    )
}

/// Why a move was refused.
type MoveError = <Game<SparseSim> as QuantumGame>::Error;

/// The simulator's `Interrupted` error inside a move's error, with the basis states visited.
fn interrupted_after(error: &MoveError) -> Option<u64> {
    let mut cause: Option<&(dyn std::error::Error + 'static)> = Some(error);
    while let Some(e) = cause {
        if let Some(BackendError::Interrupted { visited, .. }) = e.downcast_ref() {
            return Some(*visited);
        }
        cause = e.source();
    }
    None
}

/// Plays `NEXT` under `interrupt`.
fn play_under(game: &mut Game<SparseSim>, interrupt: Interrupt) -> Result<(), Box<MoveError>> {
    let mv: QcanMove = NEXT.parse().expect("a move");
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(0);
    while_interruptible(interrupt, || {
        game.play(&mv, &mut rng).map(|_| ()).map_err(Box::new)
    })
}

#[test]
fn a_stop_raised_before_a_big_move_fails_it_at_once_and_changes_nothing() {
    let mut game = knights();
    let before = everything(&game);
    let raised = Arc::new(AtomicBool::new(true));
    let interrupt = Interrupt::new(raised, None);
    let err = play_under(&mut game, interrupt.clone()).expect_err("the move is stopped");
    let visited = interrupted_after(&err).unwrap_or_else(|| panic!("not interrupted: {err}"));
    // Stopped at its first look: no pass over the state ran.
    assert_eq!((visited, interrupt.visited()), (0, 0), "{err}");
    assert!(err.to_string().contains("interrupted"), "{err}");
    assert!(
        everything(&game) == before,
        "the interrupted move changed the game"
    );
}

#[test]
fn a_stop_during_a_big_move_comes_within_a_few_chunks_and_changes_nothing() {
    // What the whole move visits, counted under an interrupt that is never raised.
    let mut whole = knights();
    let counted = Interrupt::new(Arc::default(), None);
    play_under(&mut whole, counted.clone()).expect("the move plays");
    let full = counted.visited();
    assert_eq!(whole.state_size(), 46_080);
    // Two passes over the whole state (before and after the split) look at the interrupt.
    assert!(full >= 36_864 + 46_080, "{full}");

    // Stopped once a fifth of that is visited: mid-move, inside a gate's pass.
    let mut game = knights();
    let before = everything(&game);
    let limit = full / 5;
    let interrupt = Interrupt::new(Arc::default(), None).with_work_limit(limit);
    let err = play_under(&mut game, interrupt.clone()).expect_err("the move is stopped");
    let visited = interrupted_after(&err).unwrap_or_else(|| panic!("not interrupted: {err}"));
    // Each worker adds its chunk and then looks: at most one chunk per worker past the limit.
    let workers = std::thread::available_parallelism().map_or(64, |n| n.get()) as u64;
    assert!(
        visited > limit && visited <= limit + (workers + 1) * CHECK_EVERY as u64,
        "stopped after {visited} of {full} basis states (limit {limit}, {workers} workers)"
    );
    assert!(visited < full, "{visited} of {full}");
    assert!(
        everything(&game) == before,
        "the interrupted move changed the game"
    );

    // The game goes on as if nothing happened: the same move, uninterrupted, gives the state
    // the first game reached.
    let mv: QcanMove = NEXT.parse().expect("a move");
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(0);
    game.play(&mv, &mut rng).expect("the move plays");
    assert!(everything(&game) == everything(&whole));
    game.undo().expect("undo");
    assert!(everything(&game) == before);
}

#[test]
fn the_legal_moves_can_be_listed_until_told_to_stop() {
    let game = knights();
    let all = game.legal_moves();
    assert!(all.len() > 10);
    // Every candidate is shown the moves found so far; stopping at the first found gives none.
    let mut looks = 0;
    let mut first = None;
    let stopped = game.legal_moves_while(&mut |found| {
        looks += 1;
        first = found.first().map(|m| m.mv);
        first.is_none()
    });
    assert!(stopped.is_none());
    assert_eq!(
        first,
        Some(all[0].mv),
        "the first found is the list's first"
    );
    assert!(looks < all.len(), "stopped after {looks} candidates");
    let whole = game.legal_moves_while(&mut |_| true).expect("not stopped");
    assert_eq!(whole.len(), all.len());
}
