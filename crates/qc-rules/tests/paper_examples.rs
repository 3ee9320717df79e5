//! The paper's worked examples (Cantwell sec. 11) and the Bell operators of `circuits.md` sec. 4.

mod common;
use common::*;
use qc_rules::{bell_expectations, same_opposite, SquarePair};

/// The pair of two different squares.
fn pair(a: &str, b: &str) -> SquarePair {
    SquarePair::new(sq(a), sq(b)).expect("two squares")
}

const S8: f64 = 0.353_553_390_593_273_8; // 1 / (2 sqrt 2)

qc_sim::for_each_backend!(interference_example_sec_11_2, |backend| {
    let mut g = free_game_on(backend(), &[("a1", 'K')]);
    play_all(&mut g, "a1^a2b1 a2^a1b2 b1^a1b2");
    assert_state(
        &g,
        &[
            ("a1", c(-(0.5 + S8), 0.0)),
            ("b1", c(0.0, -0.5)),
            ("b2", c(-(0.5 - S8), 0.0)),
        ],
    );
    assert!((g.probability(sq("a1")) - 0.7286).abs() < 1e-4);
    assert!((g.probability(sq("b1")) - 0.25).abs() < 1e-12);
    assert!((g.probability(sq("b2")) - 0.0214).abs() < 1e-4);
    assert_eq!(g.probability(sq("a2")), 0.0);
    assert_eq!(piece_at(&g, "a2"), None, "a2 has probability zero: cleared");
});

qc_sim::for_each_backend!(
    interference_example_with_the_last_split_swapped,
    |backend| {
        let mut g = free_game_on(backend(), &[("a1", 'K')]);
        play_all(&mut g, "a1^a2b1 a2^a1b2 b1^b2a1");
        assert!((g.probability(sq("a1")) - 0.0214).abs() < 1e-4);
        assert!((g.probability(sq("b2")) - 0.7286).abs() < 1e-4);
        assert!((g.probability(sq("b1")) - 0.25).abs() < 1e-12);
    }
);

qc_sim::for_each_backend!(board_probabilities_sum_out_ancillas, |backend| {
    let mut g = free_game_on(backend(), &[("a1", 'K')]);
    play_all(&mut g, "a1^a2b1 a2^a1b2 b1^a1b2");
    let boards = g.board_probabilities();
    let a1 = 1u64 << sq("a1").index();
    let b1 = 1u64 << sq("b1").index();
    let b2 = 1u64 << sq("b2").index();
    let got: Vec<u64> = boards.iter().map(|(b, _)| *b).collect();
    assert_eq!(got, vec![a1, b1, b2]);
    assert!((boards[0].1 - (0.5 + S8).powi(2)).abs() < 1e-12);
    assert_eq!(g.state_size(), 3);
});

// Sec. 11.1 with `a2b1` for the paper's `b1a2` (b1 is empty then, and ISWAP is symmetric: the
// same gate on the same two squares).
qc_sim::for_each_backend!(bell_states_psi_plus_then_psi_minus, |backend| {
    let mut g = free_game_on(backend(), &[("a1", 'K')]);
    play_all(&mut g, "a1^a2b1 b1a1 a2b1");
    assert_state(&g, &[("a1", c(-R, 0.0)), ("b1", c(-R, 0.0))]);
    let o = g.bell_expectations(pair("b1", "a1"));
    let want = [1.0, 0.0, 0.5, 0.5, 0.0, 0.0, 0.0, 0.0];
    for k in 0..8 {
        assert!(
            (o[k] - want[k]).abs() < 1e-12,
            "Psi+: O{} = {}",
            k + 1,
            o[k]
        );
    }
    assert_eq!(g.same_opposite(pair("b1", "a1")), (0.0, 1.0));

    play_all(&mut g, "a1a2 a2a1");
    let o = g.bell_expectations(pair("b1", "a1"));
    let want = [0.0, 1.0, 0.5, 0.5, 0.0, 0.0, 0.0, 0.0];
    for k in 0..8 {
        assert!(
            (o[k] - want[k]).abs() < 1e-12,
            "Psi-: O{} = {}",
            k + 1,
            o[k]
        );
    }
});

#[test]
fn bell_operators_order_matters_for_o3_o4() {
    let mut rho = qc_ir::Matrix::zeros(4);
    // Psi^{+i} = (|01> + i|10>)/sqrt2, |x y> with x = sq1 -> index x + 2y.
    let amp = [(2usize, c(R, 0.0)), (1usize, c(0.0, R))];
    for &(i, a) in &amp {
        for &(j, b) in &amp {
            rho.set(i, j, a * b.conj());
        }
    }
    let o = bell_expectations(&rho);
    assert!((o[2] - 1.0).abs() < 1e-12 && o[3].abs() < 1e-12, "{o:?}");
    let sum: f64 = o.iter().sum();
    assert!((sum - 2.0).abs() < 1e-12, "O1+..+O8 = 2 for every state");
    let (same, opp) = same_opposite(&o);
    assert!((same - 0.0).abs() < 1e-12 && (opp - 1.0).abs() < 1e-12);
}

qc_sim::for_each_backend!(two_empty_squares_are_the_same, |backend| {
    let g = free_game_on(backend(), &[("a1", 'K')]);
    let o = g.bell_expectations(pair("c3", "d4"));
    for x in &o[4..] {
        assert!((x - 0.5).abs() < 1e-12);
    }
    assert_eq!(g.same_opposite(pair("c3", "d4")), (1.0, 0.0));
});

// Sec. 11.1's Phi states cannot be pure on two squares: every move conserves the number of
// pieces (captured ones move into ancillas), so in `|00> + |11>` on two squares the rest of the
// board holds two more pieces in one branch and records which branch it is. The paper traces
// that record out and writes a pure state; done correctly the pair is the classical mixture
// `(|00><00| + |11><11|)/2`. Here a rook slide whose path crosses a split knight builds exactly
// that "same" correlation: <O5..O8> = 1/2 each, O1..O4 = 0, same = 1, and the phase moves that
// turn Phi- into Phi+ in the paper change nothing observable.
qc_sim::for_each_backend!(
    phi_construction_gives_sameness_without_coherence,
    |backend| {
        let mut g = free_game_on(backend(), &[("b1", 'N'), ("c1", 'R')]);
        // Knight on a3 or c3; the rook slides c1 -> c5 only where c3 is empty (knight on a3).
        play_all(&mut g, "b1^a3c3 c1c5");
        assert!((g.probability(sq("c5")) - 0.5).abs() < 1e-12);
        let o = g.bell_expectations(pair("a3", "c5"));
        let want = [0.0, 0.0, 0.0, 0.0, 0.5, 0.5, 0.5, 0.5];
        for k in 0..8 {
            assert!((o[k] - want[k]).abs() < 1e-12, "O{} = {}", k + 1, o[k]);
        }
        assert_eq!(g.same_opposite(pair("a3", "c5")), (1.0, 0.0));
        // A phase round trip of the rook (c5c6, c6c5) leaves every Bell expectation unchanged.
        play_all(&mut g, "c5c6 c6c5");
        let after = g.bell_expectations(pair("a3", "c5"));
        for k in 0..8 {
            assert!(
                (after[k] - o[k]).abs() < 1e-12,
                "O{} changed: {} -> {}",
                k + 1,
                o[k],
                after[k]
            );
        }
    }
);
