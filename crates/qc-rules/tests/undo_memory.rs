//! The undo history costs memory linear in the game and its budget counts all of it, in both
//! rulesets. The truth is the allocator's: this test binary counts the live heap bytes, so it
//! sees what the history really holds (a whole copy of the circuit per move, as undo once kept,
//! makes the heap grow with the square of the game and is missed by a count of the state
//! snapshots alone). One test only: the count is per process, and tests run in parallel.

use qc_ir::Backend;
use qc_rules::niels::{NielsGame, NielsPosition, NielsRules, RolledMove};
use qc_rules::{parse_move_list, Board, Game};
use qc_rules::{QuantumGame, UndoControls};
use rand::SeedableRng;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicIsize, Ordering};

/// The system allocator, counting the bytes live at any time.
struct Counting;

static LIVE: AtomicIsize = AtomicIsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        LIVE.fetch_add(layout.size() as isize, Ordering::Relaxed);
        // SAFETY: the caller's contract is passed on unchanged to the system allocator.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size() as isize, Ordering::Relaxed);
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        LIVE.fetch_add(
            new_size as isize - layout.size() as isize,
            Ordering::Relaxed,
        );
        // SAFETY: as above.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn live() -> i128 {
    LIVE.load(Ordering::Relaxed) as i128
}

/// Heap bytes freed by dropping the whole undo history (budget 0), and the bytes it was
/// counted for. The count must cover what is freed, and not be wildly above it either.
fn check_count_covers_history(freed: i128, counted: u128, what: &str) {
    let counted = counted as i128;
    assert!(
        freed <= counted,
        "{what}: the history held {freed} heap bytes, its budget counted only {counted}"
    );
    assert!(
        4 * freed >= counted,
        "{what}: the count ({counted}) is far above what the history held ({freed})"
    );
}

/// Quantum Chess: after a split of each knight, the other knights go back and forth (plies
/// that cost the same, below the fifty-move limit). The heap growth and the counted bytes over
/// plies N..2N must equal those over 0..N (a copy of the circuit per move would make the
/// second half cost about three times the first).
fn quantum_chess() {
    const N: usize = 40;
    let sim = qc_sim::SparseSim::new();
    let mut game = Game::new(Board::start(), sim).expect("start");
    game.set_undo_budget(None);
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let setup = parse_move_list("b1^a3c3 b8^a6c6").expect("moves");
    for mv in &setup {
        game.play(mv, &mut rng).expect("split");
    }
    let cycle = parse_move_list("g1f3 g8f6 f3g1 f6g8").expect("moves");
    let mut heap = vec![live()];
    let mut counted = vec![game.undo_bytes()];
    for half in 0..2 {
        for ply in 0..N {
            game.play(&cycle[ply % cycle.len()], &mut rng)
                .unwrap_or_else(|e| panic!("ply {} of half {half}: {e}", ply));
        }
        heap.push(live());
        counted.push(game.undo_bytes());
    }
    let first = heap[1] - heap[0];
    let second = heap[2] - heap[1];
    assert!(
        second * 4 <= first * 5,
        "the heap grew by {first} bytes over plies 0..{N} but {second} over {N}..{}",
        2 * N
    );
    // The same for the counted bytes (the list of entries doubles its room now and then).
    let (first, second) = (counted[1] - counted[0], counted[2] - counted[1]);
    assert!(
        second * 4 <= first * 5,
        "the count grew by {first} bytes over plies 0..{N} but {second} over {N}..{}",
        2 * N
    );
    let before = live();
    let all = game.undo_bytes();
    game.set_undo_budget(Some(0));
    assert_eq!(game.undo_depth(), 0);
    check_count_covers_history(before - live(), all, "Quantum Chess");
}

/// Niel's Chess: a seeded random game. Besides the state's snapshot (as large as the state, which
/// the game's superpositions decide, not its length), the counted bytes of every move's entry
/// stay bounded (they do not grow with the ply), and the count covers what the history holds.
fn niels_chess() {
    let position = NielsPosition::start(NielsRules::default());
    let mut game = NielsGame::new(position, qc_sim::SparseSim::new()).expect("start");
    game.set_undo_budget(None);
    let mut pick = rand_chacha::ChaCha8Rng::seed_from_u64(3);
    let mut dice = rand_chacha::ChaCha8Rng::seed_from_u64(4);
    let mut per_ply = Vec::new();
    for _ in 0..80 {
        let Some(mv) = game.random_move(&mut pick) else {
            break;
        };
        let before = game.undo_bytes();
        let state =
            qc_sim::SparseSim::snapshot_bytes(&game.backend().snapshot().expect("a snapshot"))
                as u128;
        game.play(&RolledMove::from(mv), &mut dice)
            .expect("a legal move");
        per_ply.push(game.undo_bytes() - before - state);
    }
    assert!(per_ply.len() >= 20, "the seeded game is long enough");
    let half = per_ply.len() / 2;
    let early = per_ply[..half].iter().max().copied().unwrap_or(0);
    let late = per_ply[half..].iter().max().copied().unwrap_or(0);
    assert!(
        late <= 2 * early,
        "an entry late in the game ({late} bytes) costs more than twice one early ({early})"
    );
    let before = live();
    let all = game.undo_bytes();
    game.set_undo_budget(Some(0));
    assert_eq!(game.undo_depth(), 0);
    check_count_covers_history(before - live(), all, "Niel's Chess");
}

#[test]
fn undo_history_is_linear_in_the_game_and_counted_whole() {
    quantum_chess();
    niels_chess();
}
