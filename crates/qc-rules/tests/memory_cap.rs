//! A game played under a cap on the heap ends with a typed memory error, never with an aborted
//! process. This test binary's allocator refuses any allocation that would take the live heap
//! past a cap, as the kernel refuses address space under `prlimit --as`; an allocation the
//! simulator did not count against its memory limit (nor reserve fallibly) then aborts the whole
//! test binary ("memory allocation of N bytes failed"), which is what the knight game below did
//! under every cap from 60 MB to 200 MB before (its undo snapshots, the copies that compare a
//! state with the one before the move, were neither). The simulator gets three quarters of the
//! cap, as the default limit takes three quarters of an address-space limit.
//!
//! One test only: the cap is per process, and tests run in parallel.

use qc_rules::{Board, Game, MoveError, QcanMove, QuantumGame};
use qc_sim::{MemoryLimit, SparseSim};
use rand::SeedableRng;
use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The system allocator, refusing what would take the live heap past [`CAP`].
struct Capped;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static CAP: AtomicUsize = AtomicUsize::new(usize::MAX);

/// Counts `size` more bytes unless that passes the cap.
fn take(size: usize) -> bool {
    let cap = CAP.load(Ordering::Relaxed);
    let mut live = LIVE.load(Ordering::Relaxed);
    loop {
        if live.saturating_add(size) > cap {
            return false;
        }
        match LIVE.compare_exchange_weak(live, live + size, Ordering::Relaxed, Ordering::Relaxed) {
            Ok(_) => return true,
            Err(now) => live = now,
        }
    }
}

unsafe impl GlobalAlloc for Capped {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if !take(layout.size()) {
            return std::ptr::null_mut();
        }
        // SAFETY: the caller's contract is passed on unchanged to the system allocator.
        let ptr = unsafe { System.alloc(layout) };
        if ptr.is_null() {
            LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        }
        ptr
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: as above.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let old = layout.size();
        if new_size > old && !take(new_size - old) {
            return std::ptr::null_mut();
        }
        // SAFETY: as above.
        let new = unsafe { System.realloc(ptr, layout, new_size) };
        if new.is_null() {
            if new_size > old {
                LIVE.fetch_sub(new_size - old, Ordering::Relaxed);
            }
        } else if new_size < old {
            LIVE.fetch_sub(old - new_size, Ordering::Relaxed);
        }
        new
    }
}

#[global_allocator]
static ALLOCATOR: Capped = Capped;

/// The knight game of `tests/hostile/knight_splits.qcg` (written by the `knight_splits`
/// example): its start and its moves.
fn knight_game() -> (Board, Vec<QcanMove>) {
    let text = include_str!("../../../tests/hostile/knight_splits.qcg");
    let fen = text
        .lines()
        .find_map(|l| l.strip_prefix("[FEN \"")?.strip_suffix("\"]"))
        .expect("a FEN tag");
    let mut in_comment = false;
    let mut moves = Vec::new();
    for word in text
        .lines()
        .filter(|l| !l.starts_with('['))
        .flat_map(str::split_whitespace)
    {
        in_comment = (in_comment || word.starts_with('{')) && !word.ends_with('}');
        if in_comment || word.ends_with('}') || word.ends_with('.') {
            continue;
        }
        moves.push(word.parse().expect("a move"));
    }
    (Board::from_fen(fen).expect("the FEN"), moves)
}

/// Plays the first `plies` moves on a simulator limited to three quarters of `cap` heap bytes
/// (above what is live now); how many were played, and the error that stopped the game.
fn play_under_cap(cap: usize, plies: usize) -> (usize, Option<MoveError>) {
    let (board, moves) = knight_game();
    let limit = MemoryLimit::bytes((cap / 4 * 3) as u128);
    let mut game = Game::new(board, SparseSim::with_limit(limit)).expect("the start");
    let mut dice = rand_chacha::ChaCha8Rng::seed_from_u64(0);
    CAP.store(LIVE.load(Ordering::Relaxed) + cap, Ordering::Relaxed);
    let mut stopped = None;
    let mut played = 0;
    for mv in moves.iter().take(plies) {
        match game.play_with(mv, &mut || rand::Rng::gen(&mut dice)) {
            Ok(_) => played += 1,
            Err(e) => {
                stopped = Some(e);
                break;
            }
        }
    }
    // The status and the board as a front end shows them after the game.
    let _ = (
        game.status(),
        game.board_view(false),
        game.most_likely_board(),
    );
    drop(game);
    CAP.store(usize::MAX, Ordering::Relaxed);
    (played, stopped)
}

#[test]
fn a_knight_game_under_a_heap_cap_refuses_with_a_memory_error() {
    const PLIES: usize = 30;
    const MB: usize = 1 << 20;
    let mut outcomes = Vec::new();
    for cap in [4 * MB, 8 * MB, 16 * MB, 32 * MB, 64 * MB, 128 * MB] {
        let (played, stopped) = play_under_cap(cap, PLIES);
        if let Some(e) = &stopped {
            assert!(
                matches!(e, MoveError::Memory(_) | MoveError::Backend(_)),
                "cap {cap}: not a memory error: {e}"
            );
            let text = e.to_string();
            assert!(text.contains("over the limit"), "cap {cap}: {text}");
        }
        outcomes.push((cap / MB, played, stopped.is_none()));
    }
    // The smallest cap stops the game, the largest lets it finish.
    assert!(!outcomes[0].2, "{outcomes:?}");
    assert_eq!(
        outcomes.last().map(|o| (o.1, o.2)),
        Some((PLIES, true)),
        "{outcomes:?}"
    );
}
