//! Every move type and variant on constructed positions, checking the full state (amplitudes)
//! against values worked out by hand from the circuits of `circuits.md` sec. 3.

mod common;
use common::*;
use qc_rules::cantwell::CantwellError;
use qc_rules::{MoveError, MoveType, UndoControls, Variant};

qc_sim::for_each_backend!(basic_jump_is_one_iswap, |backend| {
    let mut g = free_game_on(backend(), &[("b1", 'N')]);
    let r = play(&mut g, "b1c3");
    assert_eq!(
        (r.move_type(), r.variant(), r.measured()),
        (MoveType::Jump, Variant::Basic, false)
    );
    assert_state(&g, &[("c3", c(0.0, 1.0))]);
    assert_eq!(piece_at(&g, "c3"), Some('N'));
    assert_eq!(piece_at(&g, "b1"), None);
    assert_eq!(g.circuit().instructions()[r.instructions.clone()].len(), 1);
});

qc_sim::for_each_backend!(
    split_jump_then_jump_on_a_superposition_figure_1,
    |backend| {
        let mut g = free_game_on(backend(), &[("a3", 'N')]);
        let r = play(&mut g, "a3^b1c4");
        assert_eq!(r.move_type(), MoveType::SplitJump);
        assert_state(&g, &[("b1", c(0.0, R)), ("c4", c(0.0, R))]);
        play(&mut g, "b1c3");
        assert_state(&g, &[("c3", c(-R, 0.0)), ("c4", c(0.0, R))]);
        assert_eq!(piece_at(&g, "b1"), None);
        assert_eq!(piece_at(&g, "c3"), Some('N'));
    }
);

#[test]
fn excluded_jump_measures_the_target_empty() {
    let setup = [("b1", 'N'), ("a5", 'B')];
    let mut g = free_game(&setup);
    play(&mut g, "a5^c3b6");
    assert_state(&g, &[("b1 c3", c(0.0, R)), ("b1 b6", c(0.0, R))]);
    let r = play(&mut g, "b1c3.m1");
    assert_eq!(
        (r.move_type(), r.variant()),
        (MoveType::Jump, Variant::Excluded)
    );
    assert_eq!(
        (r.measured(), r.outcome(), r.applied()),
        (true, Some(true), true)
    );
    assert_state(&g, &[("b6 c3", c(-1.0, 0.0))]);
    assert_eq!(piece_at(&g, "c3"), Some('N'));

    let mut g = free_game(&setup);
    play(&mut g, "a5^c3b6");
    let r = play(&mut g, "Nb1wc3.m0");
    assert_eq!((r.outcome(), r.applied()), (Some(false), false));
    assert_state(&g, &[("b1 c3", c(0.0, 1.0))]);
    assert_eq!(piece_at(&g, "c3"), Some('B'));
    assert_eq!(piece_at(&g, "b6"), None, "the measurement emptied b6");
}

qc_sim::for_each_backend!(
    capture_jump_with_a_certain_source_measures_nothing,
    |backend| {
        let mut g = free_game_on(backend(), &[("b1", 'N'), ("c3", 'p')]);
        let r = play(&mut g, "b1xc3");
        assert_eq!((r.variant(), r.measured()), (Variant::Capture, false));
        assert_state(&g, &[("c3 cap0", c(-1.0, 0.0))]);
        assert_eq!(piece_at(&g, "c3"), Some('N'));
    }
);

#[test]
fn capture_jump_from_a_superposed_source_measures_it() {
    let mut g = free_game(&[("a3", 'N'), ("c3", 'p')]);
    play(&mut g, "a3^b1c4");
    play(&mut g, "b1c3.m1");
    assert_state(&g, &[("c3 cap0", c(0.0, -1.0))]);
    let mut g = free_game(&[("a3", 'N'), ("c3", 'p')]);
    play(&mut g, "a3^b1c4");
    let r = play(&mut g, "b1c3.m0");
    assert!(!r.applied());
    assert_state(&g, &[("c3 c4", c(0.0, 1.0))]);
    assert_eq!(piece_at(&g, "c3"), Some('p'));
}

qc_sim::for_each_backend!(slide_through_a_superposed_square_figure_7, |backend| {
    let mut g = free_game_on(backend(), &[("d1", 'N'), ("c1", 'B')]);
    play(&mut g, "d1^b2f2");
    let r = play(&mut g, "c1a3");
    assert_eq!(
        (r.move_type(), r.variant()),
        (MoveType::Slide, Variant::Basic)
    );
    assert_state(&g, &[("a3 f2", c(-R, 0.0)), ("b2 c1", c(0.0, R))]);
    // One quantum path square is a direct 0-control: a single instruction.
    assert_eq!(r.instructions.len(), 1);
});

qc_sim::for_each_backend!(
    slide_with_two_superposed_path_squares_uses_and_frees_a_path_ancilla,
    |backend| {
        let mut g = free_game_on(backend(), &[("a1", 'R'), ("c1", 'N'), ("b1", 'N')]);
        play_all(&mut g, "c1^a2e2 b1^a3c3");
        play(&mut g, "a1a4");
        assert_state(
            &g,
            &[
                ("a1 a2 a3", c(-0.5, 0.0)),
                ("a1 a2 c3", c(-0.5, 0.0)),
                ("a1 a3 e2", c(-0.5, 0.0)),
                ("a4 c3 e2", c(0.0, -0.5)),
            ],
        );
        assert!(g.circuit().qubit_names().iter().any(|n| n == "path0"));
    }
);

qc_sim::for_each_backend!(excluded_slide, |backend| {
    let mut g = free_game_on(backend(), &[("a1", 'R'), ("b1", 'N')]);
    play(&mut g, "b1^a3c3");
    let r = play(&mut g, "a1a3.m1");
    assert_eq!(r.variant(), Variant::Excluded);
    assert_state(&g, &[("a3 c3", c(-1.0, 0.0))]);
    assert_eq!(piece_at(&g, "a3"), Some('R'));
});

qc_sim::for_each_backend!(capture_slide_measures_source_and_path, |backend| {
    for (outcome, expected) in [
        (1, vec![("a4 cap0 e2", c(0.0, -1.0))]),
        (0, vec![("a1 a2 a4", c(0.0, 1.0))]),
    ] {
        let mut g = free_game_on(backend(), &[("a1", 'R'), ("c1", 'N'), ("a4", 'p')]);
        play(&mut g, "c1^a2e2");
        let r = play(&mut g, &format!("a1xa4.m{outcome}"));
        assert_eq!(
            (r.move_type(), r.variant()),
            (MoveType::Slide, Variant::Capture)
        );
        assert_state(&g, &expected);
    }
});

qc_sim::for_each_backend!(
    split_onto_a_same_type_piece_and_merge_back_from_superposed_sources,
    |backend| {
        let mut g = free_game_on(backend(), &[("b1", 'N'), ("c2", 'N')]);
        play(&mut g, "c2^a3e3");
        let before = state(&g);
        play(&mut g, "b1^a3c3");
        assert_state(
            &g,
            &[
                ("a3 c3", c(-R, 0.0)),
                ("a3 e3", c(-0.5, 0.0)),
                ("c3 e3", c(-0.5, 0.0)),
            ],
        );
        // Merge t2 t1 ^ s undoes split s ^ t1 t2 exactly, also with two pieces.
        let r = play(&mut g, "c3a3^b1");
        assert_eq!(r.move_type(), MoveType::MergeJump);
        assert_eq!(state(&g).len(), before.len());
        for ((k1, a1), (k2, a2)) in state(&g).iter().zip(&before) {
            assert_eq!(k1, k2);
            assert!((a1 - a2).norm() < 1e-9);
        }
        // The other source order is not the inverse when a target was occupied.
        g.undo().expect("undo");
        play(&mut g, "a3c3^b1");
        assert_ne!(state(&g).len(), 0);
        let differs = state(&g)
            .iter()
            .zip(&before)
            .any(|((k1, a1), (k2, a2))| k1 != k2 || (a1 - a2).norm() > 1e-6)
            || state(&g).len() != before.len();
        assert!(differs, "a3c3^b1 must not undo b1^a3c3 with two pieces");
    }
);

qc_sim::for_each_backend!(split_slide_and_merge_slide_figures_17_and_19, |backend| {
    let mut g = free_game_on(backend(), &[("a1", 'R'), ("c1", 'N')]);
    play(&mut g, "c1^a2e2");
    let before = state(&g);
    let r = play(&mut g, "a1^a3b1");
    assert_eq!(r.move_type(), MoveType::SplitSlide);
    assert_state(
        &g,
        &[
            ("a3 e2", c(-0.5, 0.0)),
            ("b1 e2", c(-0.5, 0.0)),
            ("a2 b1", c(-R, 0.0)),
        ],
    );
    let r = play(&mut g, "b1a3^a1");
    assert_eq!(r.move_type(), MoveType::MergeSlide);
    let after: Vec<_> = state(&g);
    assert_eq!(after.len(), before.len());
    for ((k1, a1), (k2, a2)) in after.iter().zip(&before) {
        assert_eq!(k1, k2);
        assert!(
            (a1 - a2).norm() < 1e-9,
            "merge undoes split: {k1} {a1} vs {a2}"
        );
    }
});

#[test]
fn pawn_two_step_through_a_superposed_piece_figure_23() {
    let mut g = free_game(&[("b2", 'P'), ("a1", 'N')]);
    play(&mut g, "a1^b3c2");
    let r = play(&mut g, "b2b4");
    assert_eq!(
        (r.move_type(), r.variant()),
        (MoveType::PawnTwoStep, Variant::Basic)
    );
    assert_state(&g, &[("b4 c2", c(-R, 0.0)), ("b2 b3", c(0.0, R))]);
    assert_eq!(g.board().en_passant, Some(sq("b3")), "decision 14");
    // Pawn capture from the superposed pawn measures its source.
    let mut g2 = free_game(&[("b2", 'P'), ("a1", 'N'), ("c5", 'r')]);
    play_all(&mut g2, "a1^b3c2 b2b4");
    let r = play(&mut g2, "b4xc5.m1");
    assert_eq!(r.move_type(), MoveType::PawnCapture);
    assert_state(&g2, &[("c2 c5", c(-1.0, 0.0))]);
    assert_eq!(piece_at(&g2, "c5"), Some('P'));
}

#[test]
fn pawn_step_basic_and_excluded() {
    let mut g = free_game(&[("e2", 'P')]);
    play(&mut g, "e2e3");
    assert_state(&g, &[("e3", c(0.0, 1.0))]);
    let mut g = free_game(&[("e2", 'P'), ("g4", 'n')]);
    play(&mut g, "g4^e3h6");
    let r = play(&mut g, "e2e3.m1");
    assert_eq!(
        (r.move_type(), r.variant()),
        (MoveType::PawnStep, Variant::Excluded)
    );
    assert_state(&g, &[("e3 h6", c(-1.0, 0.0))]);
}

qc_sim::for_each_backend!(
    pawn_capture_of_a_superposed_piece_is_cnot_t_to_s,
    |backend| {
        let mut g = free_game_on(backend(), &[("e4", 'P'), ("b6", 'n')]);
        play(&mut g, "b6^d5c8");
        let r = play(&mut g, "e4xd5");
        assert_eq!((r.variant(), r.measured()), (Variant::Capture, false));
        assert_state(&g, &[("d5", c(0.0, R)), ("c8 e4", c(0.0, R))]);
        assert_eq!(piece_at(&g, "d5"), Some('P'));
        assert_eq!(piece_at(&g, "e4"), Some('P'));
    }
);

qc_sim::for_each_backend!(
    en_passant_basic_with_certain_squares_needs_no_ancilla,
    |backend| {
        let mut g = free_game_on(backend(), &[("e5", 'P'), ("d7", 'p')]);
        play(&mut g, "d7d5");
        let r = play(&mut g, "e5d6");
        assert_eq!(
            (r.move_type(), r.variant()),
            (MoveType::EnPassant, Variant::Basic)
        );
        assert_state(&g, &[("d6", c(0.0, 1.0))]);
        assert_eq!(piece_at(&g, "d5"), None);
    }
);

qc_sim::for_each_backend!(
    en_passant_basic_from_a_superposed_pawn_keeps_the_record_ancilla,
    |backend| {
        let mut g = free_game_on(backend(), &[("e2", 'P'), ("g2", 'N'), ("d7", 'p')]);
        play_all(&mut g, "g2^e3h4 e2e4 e4e5 d7d5");
        play(&mut g, "e5d6");
        assert_state(&g, &[("cap0 d6 h4", c(R, 0.0)), ("d5 e2 e3", c(-R, 0.0))]);
        assert_eq!(piece_at(&g, "d5"), Some('p'));
        assert_eq!(piece_at(&g, "d6"), Some('P'));
    }
);

qc_sim::for_each_backend!(en_passant_excluded, |backend| {
    let mut g = free_game_on(backend(), &[("e5", 'P'), ("b5", 'N'), ("d7", 'p')]);
    play_all(&mut g, "b5^d6a3 d7d5");
    let r = play(&mut g, "e5d6.m1");
    assert_eq!(r.variant(), Variant::Excluded);
    // The flag s & ep is only known after the measurement, so the record ancilla is emitted.
    assert_state(&g, &[("a3 cap0 d6", c(-1.0, 0.0))]);
});

qc_sim::for_each_backend!(en_passant_capture, |backend| {
    let mut g = free_game_on(backend(), &[("e5", 'P'), ("b7", 'n'), ("d7", 'p')]);
    play_all(&mut g, "b7^d6a5 d7d5");
    let r = play(&mut g, "e5xd6");
    assert_eq!((r.variant(), r.measured()), (Variant::Capture, false));
    assert_state(&g, &[("cap1 d6 d7", c(0.0, -R)), ("a5 cap0 d6", c(R, 0.0))]);
});

#[test]
fn kingside_castle_basic_and_excluded() {
    let mut b = board(&[("e1", 'K'), ("h1", 'R')]);
    b.castling.white_kingside = true;
    let mut g = qc_rules::Game::new(b.clone(), qc_sim::ReferenceSparse::new()).expect("setup");
    g.set_force_win(true);
    let r = play(&mut g, "e1g1");
    assert_eq!(r.move_type(), MoveType::KingsideCastle);
    assert_state(&g, &[("f1 g1", c(-1.0, 0.0))]);
    assert!(!g.board().castling.white_kingside);
    assert_eq!(piece_at(&g, "f1"), Some('R'));

    b.set_piece(sq("h3"), qc_rules::Piece::from_fen_char('N'));
    let mut g = qc_rules::Game::new(b, qc_sim::ReferenceSparse::new()).expect("setup");
    g.set_force_win(true);
    g.set_force_turn(true);
    play(&mut g, "h3^g1f4");
    let r = play(&mut g, "e1g1.m1");
    assert_eq!(r.variant(), Variant::Excluded);
    assert_state(&g, &[("f1 f4 g1", c(0.0, -1.0))]);
}

#[test]
fn queenside_castle_is_controlled_by_b1() {
    let mut b = board(&[("e1", 'K'), ("a1", 'R'), ("a3", 'N')]);
    b.castling.white_queenside = true;
    let mut g = qc_rules::Game::new(b, qc_sim::ReferenceSparse::new()).expect("setup");
    g.set_force_win(true);
    g.set_force_turn(true);
    play(&mut g, "a3^b1c4");
    let r = play(&mut g, "e1c1");
    assert_eq!(
        (r.move_type(), r.variant()),
        (MoveType::QueensideCastle, Variant::Basic)
    );
    assert_state(&g, &[("c1 c4 d1", c(0.0, -R)), ("a1 b1 e1", c(0.0, R))]);
}

qc_sim::for_each_backend!(promotion, |backend| {
    let mut g = free_game_on(backend(), &[("a7", 'P')]);
    let err = g
        .play(&mv("a7a8"), &mut rand::thread_rng())
        .expect_err("needs a piece");
    assert!(matches!(
        err,
        CantwellError::Move(MoveError::PromotionMissing { .. })
    ));
    play(&mut g, "a7a8q");
    assert_state(&g, &[("a8", c(0.0, 1.0))]);
    assert_eq!(piece_at(&g, "a8"), Some('Q'));
});

type ErrorCheck = fn(&MoveError) -> bool;

#[test]
fn impossible_moves_are_rejected_and_change_nothing() {
    let mut b = board(&[
        ("e1", 'K'),
        ("h1", 'R'),
        ("b1", 'N'),
        ("d2", 'P'),
        ("c1", 'B'),
        ("e8", 'k'),
        ("f3", 'p'),
    ]);
    b.castling.white_queenside = false;
    let mut g = qc_rules::Game::new(b, qc_sim::ReferenceSparse::new()).expect("setup");
    let cases: &[(&str, ErrorCheck)] = &[
        ("e8e7", |e| matches!(e, MoveError::NotYourPiece { .. })),
        ("a3a4", |e| matches!(e, MoveError::EmptySource { .. })),
        ("b1b3", |e| matches!(e, MoveError::BadPattern { .. })),
        ("c1e3", |e| matches!(e, MoveError::PathBlocked { .. })),
        ("b1d2", |e| matches!(e, MoveError::TargetOccupied { .. })),
        ("d2^d3d4", |e| matches!(e, MoveError::PawnSplitMerge { .. })),
        ("e1g1", |e| {
            matches!(e, MoveError::CastlingWithoutRights { .. })
        }),
        ("d2e3", |e| {
            matches!(e, MoveError::PawnCaptureWithoutVictim { .. })
        }),
        ("Bb1c3", |e| matches!(e, MoveError::PrefixMismatch { .. })),
        ("b1xc3", |e| matches!(e, MoveError::MarkMismatch { .. })),
        ("d2d3q", |e| matches!(e, MoveError::PromotionNotAllowed)),
        ("0000", |e| matches!(e, MoveError::NullMove)),
    ];
    let before = state(&g);
    let len = g.circuit().instructions().len();
    for (m, check) in cases {
        let Err(CantwellError::Move(err)) = g.play(&mv(m), &mut rand::thread_rng()) else {
            panic!("{m}: not refused by a rule");
        };
        assert!(check(&err), "{m}: unexpected error {err}");
        assert_eq!(state(&g), before);
        assert_eq!(g.circuit().instructions().len(), len);
        assert_eq!(g.board().side_to_move, white());
    }
}

qc_sim::for_each_backend!(split_onto_an_opponent_piece_is_rejected, |backend| {
    let mut g = free_game_on(backend(), &[("b1", 'N'), ("c3", 'p')]);
    let err = g
        .play(&mv("b1^a3c3"), &mut rand::thread_rng())
        .expect_err("split capture");
    assert!(matches!(
        err,
        CantwellError::Move(MoveError::SplitMergeOntoOtherPiece { .. })
    ));
});

#[test]
fn a_move_that_changes_nothing_is_illegal_and_the_turn_stays() {
    let mut g = free_game(&[("b1", 'N'), ("c2", 'N')]);
    play(&mut g, "c2^a3e3");
    // Knight onto its own kind with certainty would be ISWAP|11>: nothing changes.
    let mut g2 = free_game(&[("b1", 'N'), ("c3", 'N')]);
    let err = g2
        .play(&mv("b1c3"), &mut rand::thread_rng())
        .expect_err("no-op");
    assert_eq!(err, CantwellError::Move(MoveError::Unchanged));
    assert!(g2.moves().is_empty());
}

#[test]
fn an_impossible_forced_outcome_is_an_error_and_changes_nothing() {
    let mut g = free_game(&[("b1", 'N'), ("a5", 'B')]);
    play(&mut g, "a5^c3b6");
    let before = state(&g);
    // Forcing .m0 on a move whose capture measurement is certain.
    let mut g2 = free_game(&[("b1", 'N'), ("c3", 'p')]);
    let err = g2
        .play(&mv("b1c3.m0"), &mut rand::thread_rng())
        .expect_err("certain");
    assert_eq!(
        err,
        CantwellError::Move(MoveError::ImpossibleOutcome { outcome: false })
    );
    assert_eq!(state(&g), before);
}

qc_sim::for_each_backend!(undo_restores_everything, |backend| {
    let mut g = free_game_on(backend(), &[("b1", 'N'), ("a5", 'B')]);
    let before = state(&g);
    let board = g.board().clone();
    play_all(&mut g, "a5^c3b6 b1c3");
    g.undo().expect("undo");
    g.undo().expect("undo");
    assert_eq!(state(&g), before);
    assert_eq!(g.board(), &board);
    assert_eq!(g.circuit().instructions().len(), 1 + 1);
});

qc_sim::for_each_backend!(every_instruction_has_an_origin, |backend| {
    let mut g = free_game_on(backend(), &[("a1", 'R'), ("c1", 'N'), ("a4", 'p')]);
    play(&mut g, "c1^a2e2");
    play(&mut g, "a1xa4.m1");
    assert!(g
        .circuit()
        .instructions()
        .iter()
        .all(|i| i.origin.is_some()));
    let rules: Vec<String> = g
        .circuit()
        .instructions()
        .iter()
        .filter_map(|i| i.origin.as_ref().map(|o| o.rule.to_string()))
        .collect();
    assert!(rules.contains(&"capture_slide".to_string()));
    assert!(rules.contains(&"split_jump".to_string()));
    assert!(qc_ir::verify(g.circuit()).is_ok());
});

qc_sim::for_each_backend!(capture_slide_ir_follows_decision_5, |backend| {
    let mut g = free_game_on(backend(), &[("a1", 'R'), ("c1", 'N'), ("a4", 'p')]);
    play(&mut g, "c1^a2e2");
    let r = play(&mut g, "a1xa4.m1");
    let mut c = qc_ir::Circuit::new();
    for q in g.circuit().qubit_roles() {
        c.add_qubit(*q);
    }
    for _ in 0..g.circuit().num_clbits() {
        c.add_clbit();
    }
    c.extend(
        g.circuit().instructions()[r.instructions.clone()]
            .iter()
            .cloned(),
    );
    let text = qc_ir::text::print(&c);
    let body: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with("qubit") && !l.starts_with("clbit") && !l.trim().is_empty())
        .collect();
    // a1 is certainly occupied: only the superposed path square a2 enters the predicate.
    assert_eq!(
        body,
        [
            "qcir 1",
            "alloc meas0  # move 2 capture_slide",
            "x meas0 ctrl(a2=0)  # move 2 capture_slide",
            "measure meas0 -> c0  # move 2 capture_slide",
            "if c0==1: x meas0  # move 2 capture_slide",
            "free meas0  # move 2 capture_slide",
            "alloc cap0  # move 2 capture_slide",
            "if c0==1: iswap a4, cap0  # move 2 capture_slide",
            "if c0==1: iswap a1, a4  # move 2 capture_slide",
        ]
    );
});

qc_sim::for_each_backend!(
    split_slide_arms_sharing_a_superposed_path_square,
    |backend| {
        let mut g = free_game_on(backend(), &[("a1", 'R'), ("c1", 'N')]);
        play(&mut g, "c1^a2e2");
        play(&mut g, "a1^a3a5");
        assert_state(
            &g,
            &[
                ("a3 e2", c(-0.5, 0.0)),
                ("a5 e2", c(-0.5, 0.0)),
                ("a1 a2", c(0.0, R)),
            ],
        );
    }
);

qc_sim::for_each_backend!(
    decision_13_the_other_target_is_not_a_path_square,
    |backend| {
        let mut g = free_game_on(backend(), &[("a1", 'R'), ("c3", 'R')]);
        play(&mut g, "c3^a3c5");
        play(&mut g, "a1^a3a5");
        // Were a3 a path control of the arm to a5, the a3 branch would stay |a1 a3>.
        assert_state(
            &g,
            &[
                ("a3 a5", c(-R, 0.0)),
                ("a5 c5", c(-0.5, 0.0)),
                ("a3 c5", c(-0.5, 0.0)),
            ],
        );
    }
);

#[test]
fn legal_moves_from_the_start_position() {
    let g = qc_rules::Game::new(qc_rules::Board::start(), qc_sim::ReferenceSparse::new())
        .expect("setup");
    let moves = g.legal_moves();
    let text: Vec<String> = moves.iter().map(|m| m.mv.to_string()).collect();
    // 16 pawn moves, 4 knight moves, 2 knight splits per knight (ordered pairs of 2 targets).
    assert_eq!(moves.len(), 16 + 4 + 4, "{text:?}");
    for m in ["e2e4", "g1f3", "g1^f3h3", "b1^c3a3"] {
        assert!(text.contains(&m.to_string()), "{m} missing from {text:?}");
    }
}

#[test]
fn capturing_the_king_with_certainty_wins_and_superposed_kings_play_on() {
    let b = board(&[("e1", 'K'), ("b1", 'N'), ("c3", 'k'), ("h8", 'r')]);
    let mut g = qc_rules::Game::new(b.clone(), qc_sim::ReferenceSparse::new()).expect("setup");
    play(&mut g, "b1c3");
    assert_eq!(
        g.status(),
        qc_rules::Status::Win(qc_rules::Color::White, qc_rules::WinReason::KingCaptured)
    );
    let err = g
        .play(&mv("e1e2"), &mut rand::thread_rng())
        .expect_err("over");
    assert!(matches!(
        err,
        CantwellError::Move(MoveError::GameOver { .. })
    ));
    assert!(g.legal_moves().is_empty());

    // A king in superposition that is captured on one branch only: the game goes on.
    let b = board(&[("e1", 'K'), ("b6", 'N'), ("e8", 'k'), ("a1", 'r')]);
    let mut g = qc_rules::Game::new(b, qc_sim::ReferenceSparse::new()).expect("setup");
    play(&mut g, "e1e2");
    play(&mut g, "e8^d7f7");
    let r = play(&mut g, "b6xd7");
    assert!(
        !r.measured(),
        "the knight is certainly on b6: nothing to measure"
    );
    assert_eq!(g.status(), qc_rules::Status::Ongoing);
    assert!((g.probability(sq("f7")) - 0.5).abs() < 1e-12);
    assert_eq!(piece_at(&g, "f7"), Some('k'));
    assert_eq!(piece_at(&g, "d7"), Some('N'));
}

/// Decision 2: U|101> = (-|011> + |101>)/sqrt2 and U|110> = i(|011> + |101>)/sqrt2 in the basis
/// |t2, t1, s> (the circuit, not the paper's eq. 7/8 columns).
#[test]
fn decision_2_two_piece_columns_of_the_split() {
    let mut g = free_game(&[("b1", 'N'), ("c3", 'N')]);
    play(&mut g, "b1^a3c3");
    assert_state(&g, &[("a3 b1", c(-R, 0.0)), ("b1 c3", c(R, 0.0))]);

    let mut g = free_game(&[("d2", 'N'), ("a3", 'N'), ("c3", 'N')]);
    play(&mut g, "d2^b1f1");
    play(&mut g, "b1^a3c3");
    assert_state(
        &g,
        &[
            ("a3 b1 f1", c(-0.5, 0.0)),
            ("b1 c3 f1", c(-0.5, 0.0)),
            ("a3 b1 c3", c(0.0, R)),
        ],
    );
}

#[test]
fn the_record_carries_the_outcome_and_a_certain_m1_is_accepted() {
    let mut g = free_game(&[("b1", 'N'), ("a5", 'B')]);
    play(&mut g, "a5^c3b6");
    let r = play(&mut g, "b1c3");
    assert!(r.measured());
    let text = r.mv.to_string();
    assert!(text == "b1c3.m0" || text == "b1c3.m1", "{text}");
    let mut g = free_game(&[("b1", 'N'), ("c3", 'p')]);
    let r = play(&mut g, "b1xc3.m1");
    assert!(!r.measured() && r.applied());
}

qc_sim::for_each_backend!(
    split_and_merge_slides_with_the_second_arm_blocked,
    |backend| {
        let mut g = free_game_on(backend(), &[("a1", 'R'), ("c1", 'N')]);
        play(&mut g, "c1^a2e2");
        let before = state(&g);
        play(&mut g, "a1^b1a3");
        assert_state(
            &g,
            &[
                ("b1 e2", c(-0.5, 0.0)),
                ("a3 e2", c(-0.5, 0.0)),
                ("a2 b1", c(-R, 0.0)),
            ],
        );
        play(&mut g, "a3b1^a1");
        let after = state(&g);
        assert_eq!(after.len(), before.len());
        for ((k1, a1), (k2, a2)) in after.iter().zip(&before) {
            assert_eq!(k1, k2);
            assert!((a1 - a2).norm() < 1e-9, "{k1}: {a1} vs {a2}");
        }
    }
);

#[test]
fn en_passant_written_with_x_is_accepted_whatever_its_variant() {
    // The basic en passant of `en_passant_basic_from_a_superposed_pawn_keeps_the_record_ancilla`,
    // written as chess players do: same record, same state.
    let mut g = free_game(&[("e2", 'P'), ("g2", 'N'), ("d7", 'p')]);
    play_all(&mut g, "g2^e3h4 e2e4 e4e5 d7d5");
    let r = play(&mut g, "e5xd6");
    assert_eq!(
        (r.move_type(), r.variant()),
        (MoveType::EnPassant, Variant::Basic)
    );
    assert_state(&g, &[("cap0 d6 h4", c(R, 0.0)), ("d5 e2 e3", c(-R, 0.0))]);
    // The excluded en passant of `en_passant_excluded`, written with x.
    let mut g = free_game(&[("e5", 'P'), ("b5", 'N'), ("d7", 'p')]);
    play_all(&mut g, "b5^d6a3 d7d5");
    let r = play(&mut g, "e5xd6.m1");
    assert_eq!(r.variant(), Variant::Excluded);
    assert_state(&g, &[("a3 cap0 d6", c(-1.0, 0.0))]);
}

#[test]
fn marks_other_than_x_on_pawn_captures_are_still_checked() {
    let mut g = free_game(&[("e2", 'P'), ("g2", 'N'), ("d7", 'p')]);
    play_all(&mut g, "g2^e3h4 e2e4 e4e5 d7d5");
    let err = g
        .play(&mv("e5wd6"), &mut rand::thread_rng())
        .expect_err("a basic en passant is not excluded");
    assert!(
        matches!(
            err,
            CantwellError::Move(MoveError::MarkMismatch {
                written: Variant::Excluded,
                classified: Variant::Basic,
                ..
            })
        ),
        "{err:?}"
    );
    // An x on a knight's basic jump is still wrong: it captures nothing.
    let mut g = free_game(&[("b1", 'N')]);
    let err = g
        .play(&mv("b1xc3"), &mut rand::thread_rng())
        .expect_err("nothing to capture");
    assert!(
        matches!(err, CantwellError::Move(MoveError::MarkMismatch { .. })),
        "{err:?}"
    );
}

#[test]
fn outcome_suffix_on_a_certain_move_is_validated_and_not_recorded() {
    let mut g = free_game(&[("b1", 'N')]);
    let r = play(&mut g, "b1c3.m1");
    assert_eq!(
        (r.measured(), r.outcome(), r.applied()),
        (false, None, true)
    );
    assert_eq!(r.mv.to_string(), "b1c3");
    assert_state(&g, &[("c3", c(0.0, 1.0))]);
    assert_eq!(g.circuit().num_measurements(), 0);

    let mut g = free_game(&[("b1", 'N')]);
    let before = state(&g);
    let err = g
        .play(&mv("b1c3.m0"), &mut rand::thread_rng())
        .expect_err("a certain move is always applied");
    assert_eq!(
        err,
        CantwellError::Move(MoveError::ImpossibleOutcome { outcome: false })
    );
    assert_eq!(state(&g), before);
    assert!(g.moves().is_empty());
}

#[test]
fn undo_history_stays_within_its_budget() {
    use qc_ir::Backend;
    type Sim = qc_sim::ReferenceSparse;
    let mut g = free_game(&[("b1", 'N'), ("a5", 'B'), ("h1", 'R')]);
    // The default budget is a third of the backend's memory limit (the reference backend has
    // one too since it keeps to the machine's memory).
    assert_eq!(
        g.undo_budget(),
        g.backend().memory_limit_bytes().map(|limit| limit / 3)
    );
    // The bytes of each snapshot the game takes before a move (1, 2 and 4 basis states).
    let mut sizes = Vec::new();
    let mut after_first = Vec::new();
    for (i, m) in ["a5^c3b6", "b1^a3d2", "h1h4"].into_iter().enumerate() {
        sizes.push(Sim::snapshot_bytes(&g.backend().snapshot().expect("a snapshot")) as u128);
        play(&mut g, m);
        if i == 0 {
            after_first = state(&g);
        }
    }
    assert!(sizes[0] < sizes[1] && sizes[1] < sizes[2], "{sizes:?}");
    assert_eq!(g.undo_depth(), 3);
    // Each entry counts its snapshot's bytes (and the rest it holds).
    assert!(g.undo_bytes() > sizes.iter().sum::<u128>());
    // One byte short of the whole history: the oldest entry is dropped, the two newest stay.
    let budget = g.undo_bytes() - 1;
    g.set_undo_budget(Some(budget));
    assert_eq!(g.undo_depth(), 2);
    g.undo().expect("undo move 3");
    g.undo().expect("undo move 2");
    assert_eq!(state(&g), after_first);
    assert_eq!(
        g.undo(),
        Err(CantwellError::Move(MoveError::UndoBeyondBudget {
            budget_bytes: budget
        }))
    );
    assert_eq!(state(&g), after_first, "a refused undo changes nothing");
    assert_eq!(g.moves().len(), 1);
    // Moves played under the budget keep fitting it.
    play(&mut g, "b1^a3d2");
    play(&mut g, "h1h4");
    assert_eq!(g.undo_depth(), 2);
}

qc_sim::for_each_backend!(
    default_undo_budget_is_a_third_of_the_backend_limit,
    |backend| {
        let board = free_game_on(backend(), &[("b1", 'N')]).board().clone();
        let sim = qc_sim::SparseSim::with_limit(qc_sim::MemoryLimit::bytes(3_000_000));
        let g = qc_rules::Game::new(board, sim).expect("setup");
        assert_eq!(g.undo_budget(), Some(1_000_000));
    }
);

#[test]
fn a_king_beside_the_c_file_lists_each_step_once() {
    // Regression (issue 15): the castling candidate d1c1 was listed again beside the king step.
    let b = board(&[("d1", 'K'), ("e8", 'k')]);
    let g = qc_rules::Game::new(b, qc_sim::ReferenceSparse::new()).expect("setup");
    let text: Vec<String> = g.legal_moves().iter().map(|m| m.mv.to_string()).collect();
    // Five king steps (c1, e1, c2, d2, e2) and every ordered pair of them as a split.
    assert_eq!(text.len(), 5 + 5 * 4, "{text:?}");
    let distinct: std::collections::BTreeSet<&String> = text.iter().collect();
    assert_eq!(distinct.len(), text.len(), "{text:?}");
}
