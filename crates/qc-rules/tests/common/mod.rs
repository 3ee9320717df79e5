//! Shared helpers for the qc-rules integration tests.
#![allow(dead_code, reason = "each test file uses a different subset")]

use qc_ir::{Backend, Complex64};
pub use qc_rules::QuantumGame;
use qc_rules::Square;
use qc_rules::{Board, Color, Game, Piece, PlayedQcan, QcanMove};
use qc_sim::ReferenceSparse;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

pub const R: f64 = std::f64::consts::FRAC_1_SQRT_2;

pub fn sq(s: &str) -> Square {
    Square::parse(s).expect("test square")
}

pub fn c(re: f64, im: f64) -> Complex64 {
    Complex64::new(re, im)
}

/// A board from `("e1", 'K')` pairs, White to move, no rights.
pub fn board(pieces: &[(&str, char)]) -> Board {
    let mut b = Board::empty();
    for (s, p) in pieces {
        b.set_piece(sq(s), Piece::from_fen_char(*p));
    }
    b
}

/// A game with turn order and win conditions off (UQCI forceturn / forcewin), on the
/// reference simulator.
pub fn free_game(pieces: &[(&str, char)]) -> Game<ReferenceSparse> {
    free_game_on(ReferenceSparse::new(), pieces)
}

/// [`free_game`] on `backend` (for `qc_sim::for_each_backend!` tests).
pub fn free_game_on<B: Backend>(backend: B, pieces: &[(&str, char)]) -> Game<B> {
    let mut g = Game::new(board(pieces), backend).expect("setup");
    g.set_force_turn(true);
    g.set_force_win(true);
    g
}

pub fn mv(text: &str) -> QcanMove {
    text.parse()
        .unwrap_or_else(|e| panic!("bad test move {text}: {e}"))
}

pub fn play<B: Backend>(g: &mut Game<B>, text: &str) -> PlayedQcan {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    g.play(&mv(text), &mut rng)
        .unwrap_or_else(|e| panic!("{text}: {e}"))
        .clone()
}

pub fn play_all<B: Backend>(g: &mut Game<B>, moves: &str) {
    for m in moves.split_whitespace() {
        play(g, m);
    }
}

/// The state as (sorted names of the qubits that are 1, amplitude).
pub fn state<B: Backend>(g: &Game<B>) -> Vec<(String, Complex64)> {
    let c = g.circuit();
    let mut out: Vec<(String, Complex64)> = g
        .backend()
        .basis_states()
        .into_iter()
        .map(|(ones, a)| {
            let mut names: Vec<String> = ones.iter().map(|&q| c.qubit_name(q)).collect();
            names.sort();
            (names.join(" "), a)
        })
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// Asserts the whole state equals `expected` (names in any order within a key).
pub fn assert_state<B: Backend>(g: &Game<B>, expected: &[(&str, Complex64)]) {
    let got = state(g);
    let mut want: Vec<(String, Complex64)> = expected
        .iter()
        .map(|(k, a)| {
            let mut names: Vec<&str> = k.split_whitespace().collect();
            names.sort();
            (names.join(" "), *a)
        })
        .collect();
    want.sort_by(|a, b| a.0.cmp(&b.0));
    let keys = |v: &[(String, Complex64)]| v.iter().map(|(k, _)| k.clone()).collect::<Vec<_>>();
    assert_eq!(keys(&got), keys(&want), "basis states differ: got {got:?}");
    for ((k, a), (_, b)) in got.iter().zip(&want) {
        assert!(
            (a - b).norm() < 1e-9,
            "amplitude of |{k}>: got {a}, want {b}"
        );
    }
}

pub fn piece_at<B: Backend>(g: &Game<B>, s: &str) -> Option<char> {
    g.board().piece(sq(s)).map(|p| p.fen_char())
}

pub fn white() -> Color {
    Color::White
}
