//! A game file's result token against its replay, in both rulesets: a result the finished replay
//! contradicts is refused; `*`, no token, and any result on a game the replay leaves going on (a
//! resignation, a draw agreed) are accepted.

use qc_rules::niels::NielsError;
use qc_rules::ruleset::{CantwellError, GameResult, ResultContradicts, Status, WinReason};
use qc_rules::{Cantwell, Color, Niels, QuantumGame, Ruleset};
use rand::SeedableRng;

/// Replays `text` under ruleset `R` on the sparse simulator: the error, or the final status.
fn replay<R: Ruleset>(text: &str) -> Result<Status, R::Error> {
    let file = R::read_game(text, None)?;
    // No move here samples anything, so the seed does not matter.
    let mut dice = rand_chacha::ChaCha8Rng::seed_from_u64(1);
    R::replay(&file, qc_sim::SparseSim::new(), &mut dice).map(|game| game.status())
}

/// White's rook captures the king on a8 (Quantum Chess: the game ends, White wins).
const CANTWELL_WIN: &str = "[FEN \"k7/8/8/8/8/8/8/R6K w - - 0 1\"]\n\n1. a1a8";
/// A quiet rook move: the game goes on.
const CANTWELL_ON: &str = "[FEN \"k7/8/8/8/8/8/8/R6K w - - 0 1\"]\n\n1. a1a2";
/// Back-rank checkmate (Niel's Chess: White wins).
const NIELS_MATE: &str = "[FEN \"k7/8/1K6/8/8/8/8/7Q w - - 0 1\"]\n\n1. h1h8";
/// A quiet queen move: the game goes on.
const NIELS_ON: &str = "[FEN \"k7/8/1K6/8/8/8/8/7Q w - - 0 1\"]\n\n1. h1h3";

#[test]
fn a_result_the_finished_replay_contradicts_is_refused_in_quantum_chess() {
    let won = Status::Win(Color::White, WinReason::KingCaptured);
    for token in ["", " 1-0", " *"] {
        let text = format!("{CANTWELL_WIN}{token}\n");
        assert_eq!(replay::<Cantwell>(&text), Ok(won), "{text}");
    }
    for (token, written) in [
        (" 0-1", GameResult::BlackWins),
        (" 1/2-1/2", GameResult::Draw),
    ] {
        let text = format!("{CANTWELL_WIN}{token}\n");
        let err = replay::<Cantwell>(&text).expect_err("contradicted");
        assert_eq!(
            err,
            CantwellError::ResultContradicts(ResultContradicts {
                written,
                replayed: won
            })
        );
    }
    // Resigned or agreed: the moves do not show it, the result stands.
    for token in [" 0-1", " 1-0", " 1/2-1/2", " *", ""] {
        let text = format!("{CANTWELL_ON}{token}\n");
        assert_eq!(replay::<Cantwell>(&text), Ok(Status::Ongoing), "{text}");
    }
}

#[test]
fn a_result_the_finished_replay_contradicts_is_refused_in_niels_chess() {
    let won = Status::Win(Color::White, WinReason::Checkmate);
    for token in ["", " 1-0", " *"] {
        let text = format!("{NIELS_MATE}{token}\n");
        assert_eq!(replay::<Niels>(&text).ok(), Some(won), "{text}");
    }
    let err = replay::<Niels>(&format!("{NIELS_MATE} 0-1\n")).expect_err("contradicted");
    assert!(
        matches!(
            err,
            NielsError::ResultContradicts(ResultContradicts {
                written: GameResult::BlackWins,
                replayed
            }) if replayed == won
        ),
        "{err:?}"
    );
    assert_eq!(
        err.to_string(),
        "the game file's result `0-1` contradicts its moves: replayed, the game ends White wins \
         by checkmate (`1-0`)"
    );
    for token in [" 0-1", " 1/2-1/2", ""] {
        let text = format!("{NIELS_ON}{token}\n");
        assert_eq!(replay::<Niels>(&text).ok(), Some(Status::Ongoing), "{text}");
    }
}

#[test]
fn what_a_result_token_means() {
    use qc_rules::ruleset::DrawReason;
    let white = Status::Win(Color::White, WinReason::Checkmate);
    let draw = Status::Draw(DrawReason::Stalemate);
    let tokens = [
        None,
        Some(GameResult::Unknown),
        Some(GameResult::WhiteWins),
        Some(GameResult::BlackWins),
        Some(GameResult::Draw),
    ];
    for written in tokens {
        // Going on: anything stands.
        assert_eq!(ResultContradicts::check(written, Status::Ongoing), Ok(()));
    }
    let refused = |written: Option<GameResult>, replayed: Status| {
        ResultContradicts::check(written, replayed).is_err()
    };
    let over = tokens.map(|w| (refused(w, white), refused(w, draw)));
    assert_eq!(
        over,
        [
            (false, false),
            (false, false),
            (false, true),
            (true, true),
            (true, false)
        ]
    );
}
