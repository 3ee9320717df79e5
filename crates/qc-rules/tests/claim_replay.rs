//! A threefold-repetition claim is written into the game file with the board it measured, and a
//! replay of the file claims again after the last move and measures the same board, on every
//! simulator (docs/rules.md, rule 14). A recorded claim the replay cannot make is refused.

use qc_rules::ruleset::{CantwellError, REPETITION_BOARD_TAG};
use qc_rules::{parse_move_list, Cantwell, Ending, MoveError, QcanMove, QuantumGame, Ruleset};
use rand::SeedableRng;

/// White's knight split onto a3 and c3, then two four-ply cycles of king and knight jumps: the
/// position after the split occurs a third time (each cycle returns the state up to a global
/// phase, tests/endings.rs works it out).
const START: &str = "4k1n1/8/8/8/8/8/8/1N2K3 w - - 0 1";
const MOVES: &str = "b1^a3c3 g8f6 e1d1 f6g8 d1e1 g8f6 e1d1 f6g8 d1e1";

/// Bit k = square k: a3 is 16, c3 is 18.
const A3: u64 = 1 << 16;
const C3: u64 = 1 << 18;

fn play_moves<G: QuantumGame>(game: &mut G, moves: &[G::Move]) {
    // No move here samples anything (a split and jumps), so the seed does not matter.
    let mut dice = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    for m in moves {
        game.play(m, &mut dice).expect("move");
    }
}

qc_sim::for_each_backend!(a_claim_replays_on_the_board_it_measured, |backend| {
    let start = Cantwell::start(Some(START), None).expect("start");
    let moves = parse_move_list(MOVES).expect("moves");
    // Sampled claims (u below or above P(a3) = 1/2, a3 being the first square in superposition)
    // and a forced one (the knight on c3).
    for (u, forced, knight) in [(0.25, None, A3), (0.75, None, C3), (0.25, Some(C3), C3)] {
        let mut game = Cantwell::new_game(&start, backend()).expect("game");
        play_moves(&mut game, &moves);
        if let Some(knight) = forced {
            // The kings and the black knight are certain; the white one is where forced.
            let certain = (1 << 4) | (1 << 60) | (1 << 62);
            game.set_forced_board(Some(certain | knight));
        }
        let measured = game.claim_with(&mut || u).expect("claim").clone();
        assert_eq!(measured.ending, Ending::Repetition);
        assert_eq!(measured.bitboard & (A3 | C3), knight, "u = {u}");

        let text = Cantwell::write_game(&[], &[], &start, &game);
        assert!(
            text.contains(&format!(
                "[{REPETITION_BOARD_TAG} \"{:#018x}\"]",
                measured.bitboard
            )),
            "{text}"
        );
        let read = Cantwell::read_game(&text, None).expect("the written game reads");
        let replayed: Vec<QcanMove> = read.moves.iter().map(|m| m.mv).collect();

        let mut replay = Cantwell::game_for(&read, backend()).expect("replay");
        play_moves(&mut replay, &replayed);
        assert_eq!(
            replay.claimable(),
            Some(Ending::Repetition),
            "before the claim"
        );
        Cantwell::finish_replay(&read, &mut replay).expect("the recorded claim is made again");
        assert_eq!(replay.full_measurement(), Some(&measured), "{text}");
        assert_eq!(QuantumGame::status(&replay), QuantumGame::status(&game));
        assert_eq!(replay.fen(), game.fen());
        assert_eq!(replay.record(), game.record());
        assert_eq!(
            Cantwell::write_game(&[], &[], &start, &replay),
            text,
            "a replay writes the same file"
        );
    }
});

qc_sim::for_each_backend!(
    a_recorded_claim_the_replay_cannot_make_is_refused,
    |backend| {
        let certain = (1 << 4) | (1 << 60) | (1 << 62);
        // One cycle only: the position occurred once before, not twice.
        let early = format!(
            "[FEN \"{START}\"]\n[{REPETITION_BOARD_TAG} \"{:#018x}\"]\n\n{}\n",
            certain | A3,
            MOVES.split(' ').take(5).collect::<Vec<_>>().join(" ")
        );
        // Both halves of the split knight on the board at once: probability zero.
        let impossible = format!(
            "[FEN \"{START}\"]\n[{REPETITION_BOARD_TAG} \"{:#018x}\"]\n\n{MOVES}\n",
            certain | A3 | C3
        );
        for (text, after, want) in [
            (&early, 5, MoveError::NothingToClaim { repetitions: 1 }),
            (
                &impossible,
                9,
                MoveError::ImpossibleBoard {
                    bitboard: certain | A3 | C3,
                },
            ),
        ] {
            let read = Cantwell::read_game(text, None).expect("reads");
            let mut replay = Cantwell::game_for(&read, backend()).expect("set-up");
            let replayed: Vec<QcanMove> = read.moves.iter().map(|m| m.mv).collect();
            play_moves(&mut replay, &replayed);
            match Cantwell::finish_replay(&read, &mut replay) {
                Err(CantwellError::RecordedClaim { after_move, source }) => {
                    assert_eq!((after_move, source), (after, want), "{text}");
                }
                other => panic!("{text}: {other:?}"),
            }
            assert_eq!(replay.full_measurement(), None, "nothing changed");
            assert!(replay.claimable().is_some() || after == 5);
        }
    }
);

#[test]
fn a_malformed_claim_tag_is_refused_before_any_move() {
    for value in ["12", "0x", "0x10000000000000000", "0xzz"] {
        let text = format!("[{REPETITION_BOARD_TAG} \"{value}\"]\n1. e2e4\n");
        let read = Cantwell::read_game(&text, None).expect("reads");
        let Err(err) = Cantwell::game_for(&read, qc_sim::SparseSim::new()) else {
            panic!("{value}: accepted");
        };
        assert!(
            matches!(err, CantwellError::BadTag { name, .. } if name == REPETITION_BOARD_TAG),
            "{value}: {err}"
        );
    }
}
