//! The FIDE endings besides checkmate and stalemate: repetition counted on the position's
//! identity with indefinite pieces, and the dead position of kings alone (with the mates that
//! show why FIDE's other insufficient-material cases are not dead in Niel's Chess).

use crate::chess::Color;
use crate::niels::fen::NIELS_START_8X8;
use crate::niels::{NielsPosition, NielsRules};
use crate::ruleset::{DrawReason, QuantumGame, Status, WinReason};

fn pos_with(fen: &str, rules: NielsRules) -> NielsPosition {
    NielsPosition::from_fen(fen, rules).expect("test FEN")
}

fn pos(fen: &str) -> NielsPosition {
    pos_with(fen, NielsRules::default())
}

fn game(fen: &str) -> crate::niels::tests::Seeded {
    crate::niels::tests::Seeded::new(pos(fen), 11).expect("game")
}

/// Plays `moves`, returning the game status after every ply.
fn statuses(g: &mut crate::niels::tests::Seeded, moves: &[&str]) -> Vec<Status> {
    moves
        .iter()
        .map(|m| {
            g.play_text(m).expect("legal test move");
            g.status()
        })
        .collect()
}

#[test]
fn knight_shuffles_draw_on_the_third_occurrence_not_the_second() {
    let mut g = game(NIELS_START_8X8);
    let cycle = ["g1f3", "g8f6", "f3g1", "f6g8"];
    let first = statuses(&mut g, &cycle);
    assert_eq!(g.repetitions(), 2, "the start has now occurred twice");
    assert!(first.iter().all(|s| *s == Status::Ongoing), "{first:?}");
    let second = statuses(&mut g, &cycle);
    assert_eq!(g.repetitions(), 3);
    assert_eq!(
        second,
        [
            Status::Ongoing,
            Status::Ongoing,
            Status::Ongoing,
            Status::Draw(DrawReason::Repetition)
        ]
    );
    // The position alone cannot see its history.
    assert_eq!(g.position().status(), Status::Ongoing);
    assert_eq!(g.status().to_string(), "Draw by threefold repetition");
}

#[test]
fn the_same_placement_with_the_other_side_to_move_is_not_a_repetition() {
    // White's knight alternates g1/f3 (period 2), Black's rook goes a8-a6-a7-a8 (period 3):
    // the placement of ply 0 returns at ply 7 with Black to move and at ply 12 and 24 with
    // White to move. Every position repeats with period 12, so the first third occurrence is
    // the start's at ply 24; counting placements alone would stop at ply 12.
    let mut g = game("r3k3/8/8/8/8/8/8/4K1N1 w - - 0 1");
    let white = ["g1f3", "f3g1"];
    let black = ["a8a6", "a6a7", "a7a8"];
    let moves: Vec<&str> = (0..24)
        .map(|ply| {
            if ply % 2 == 0 {
                white[(ply / 2) % 2]
            } else {
                black[(ply / 2) % 3]
            }
        })
        .collect();
    let seen = statuses(&mut g, &moves);
    let first_draw = seen.iter().position(|s| *s != Status::Ongoing);
    assert_eq!(first_draw, Some(23), "{seen:?}");
    assert_eq!(seen[23], Status::Draw(DrawReason::Repetition));
}

#[test]
fn positions_differing_only_in_mark_facing_or_side_are_different_keys() {
    let full = NielsRules {
        full_marks: true,
        ..NielsRules::default()
    };
    let fen =
        |side: &str, facing: &str| format!("4k3/8/8/8/8/8/8/4K3 {side} - - 0 1 Rc1c4{facing}");
    let base = pos_with(&fen("w", "oo"), full).repetition_key();
    assert_eq!(base, pos_with(&fen("w", "oo"), full).repetition_key());
    assert_ne!(base, pos_with(&fen("w", "op"), full).repetition_key());
    assert_ne!(base, pos_with(&fen("w", "pp"), full).repetition_key());
    assert_ne!(base, pos_with(&fen("b", "oo"), full).repetition_key());
    // Red and blue swapped is another position (the collapse probabilities differ when unequal).
    let swapped = pos_with("4k3/8/8/8/8/8/8/4K3 w - - 0 1 Rc4c1op", full).repetition_key();
    assert_ne!(pos_with(&fen("w", "op"), full).repetition_key(), swapped);
    // The move counters are not part of a position's identity.
    let later = pos_with("4k3/8/8/8/8/8/8/4K3 w - - 37 60 Rc1c4oo", full).repetition_key();
    assert_eq!(base, later);
}

#[test]
fn an_entangled_group_is_part_of_the_identity() {
    let lone = pos("4k3/8/8/8/8/8/8/4K3 w - - 0 1 Rc1c4,bf5g6");
    let tied = pos("4k3/8/8/8/8/8/8/4K3 w - - 0 1 Rc1c4:1,bf5g6:1");
    assert_ne!(lone.repetition_key(), tied.repetition_key());
}

#[test]
fn pair_ids_do_not_change_the_identity() {
    // The FEN's pair tokens are numbered in order, so these two give the pairs other ids.
    let a = pos("4k3/8/8/8/8/8/8/4K3 w - - 0 1 Rc1c4:1,bf5g6:1,Nb1a3");
    let b = pos("4k3/8/8/8/8/8/8/4K3 w - - 0 1 Nb1a3,bf5g6:1,Rc1c4:1");
    assert_eq!(a.pairs.len(), 3);
    assert_ne!(
        a.pair_at(crate::chess::Square::parse("c1").expect("square"))
            .map(|(id, _)| id),
        b.pair_at(crate::chess::Square::parse("c1").expect("square"))
            .map(|(id, _)| id)
    );
    assert_eq!(a.repetition_key(), b.repetition_key());
}

#[test]
fn an_en_passant_square_counts_only_when_the_capture_is_legal() {
    // After e2-e4 with no black pawn beside it, the e.p. square changes nothing (FIDE 9.2.3).
    let with = pos("4k3/8/8/8/4P3/8/8/4K3 b - e3 0 1");
    let without = pos("4k3/8/8/8/4P3/8/8/4K3 b - - 0 1");
    assert_eq!(with.repetition_key(), without.repetition_key());
    let capturable = pos("4k3/8/8/8/3pP3/8/8/4K3 b - e3 0 1");
    let not_capturable = pos("4k3/8/8/8/3pP3/8/8/4K3 b - - 0 1");
    assert_ne!(capturable.repetition_key(), not_capturable.repetition_key());
}

#[test]
fn kings_alone_are_a_dead_position_also_when_indefinite() {
    for fen in [
        "4k3/8/8/8/8/8/8/4K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/8 w - - 0 1 Kd1f1",
        "8/8/8/8/8/8/8/4K3 b - - 0 1 kd8f8",
    ] {
        let p = pos(fen);
        assert!(p.is_dead_material(), "{fen}");
        assert_eq!(
            p.status(),
            Status::Draw(DrawReason::InsufficientMaterial),
            "{fen}"
        );
    }
}

#[test]
fn king_and_rook_against_king_is_not_a_draw() {
    let p = pos("4k3/8/8/8/8/8/8/R3K3 w - - 0 1");
    assert!(!p.is_dead_material());
    assert_eq!(p.status(), Status::Ongoing);
    // An indefinite rook is present too.
    let q = pos("4k3/8/8/8/8/8/8/4K3 w - - 0 1 Ra1a4");
    assert!(!q.is_dead_material());
    assert_eq!(q.status(), Status::Ongoing);
}

/// FIDE's K+B v K, K+N v K and same-coloured bishops are dead, but in Niel's Chess a king may
/// superpose, and a king pair guards the squares around both its pieces: each of these is mate.
#[test]
fn a_king_pair_mates_with_a_lone_minor_piece_so_those_are_not_dead() {
    for (fen, what) in [
        // Bishop d4 checks a1; the king pair b3/c2 guards a2, b1 and b2.
        ("8/8/8/8/3B4/8/8/k7 b - - 0 1 Kb3c2", "K pair + B v K"),
        // Knight c2 checks a1; the king pair a3/c1 guards a2, b1 and b2.
        ("8/8/8/8/8/8/2N5/k7 b - - 0 1 Ka3c1", "K pair + N v K"),
        // Black's bishop on h2 is on the same colour and can neither capture nor block.
        ("8/8/8/8/3B4/8/7b/k7 b - - 0 1 Kb3c2", "K pair + B v K + B"),
    ] {
        let p = pos(fen);
        assert_eq!(
            p.status(),
            Status::Win(Color::White, WinReason::Checkmate),
            "{what}"
        );
    }
    // The king may superpose from the conventional K+B v K, so such a mate can be reached.
    assert!(pos("4k3/8/8/8/8/8/8/2B1K3 w - - 0 1")
        .legal_moves()
        .iter()
        .any(
            |m| matches!(m, crate::niels::NielsMove::Superpose { from, .. }
            if from.to_string() == "e1")
        ));
    // So the same material with conventional kings is played on.
    for fen in [
        "4k3/8/8/8/8/8/8/2B1K3 w - - 0 1",
        "4k3/8/8/8/8/8/8/1N2K3 w - - 0 1",
        "2b1k3/8/8/8/8/8/8/5BK1 w - - 0 1",
    ] {
        let p = pos(fen);
        assert!(!p.is_dead_material(), "{fen}");
        assert_eq!(p.status(), Status::Ongoing, "{fen}");
    }
}

#[test]
fn a_random_game_stops_at_the_first_draw() {
    // Kings and a knight each on 4x4: a short random game must end no later than its draw.
    let g = crate::niels::tests::simulate(pos("k3/4/4/N2K w - - 0 1"), 3, 400).expect("simulate");
    let status = g.status();
    assert_ne!(status, Status::Ongoing, "400 plies without an ending");
    // No ply before the last one ended the game.
    let mut replay =
        crate::niels::tests::Seeded::new(g.initial_position().clone(), 3).expect("game");
    for m in &g.moves()[..g.moves().len() - 1] {
        replay.play_rolled(&m.mv).expect("replay");
        assert_eq!(replay.status(), Status::Ongoing);
    }
}

#[test]
fn mate_and_stalemate_have_no_legal_move_and_the_start_has_one() {
    // Qh8 mates (the king on b6 guards a7 and b7); Qb6 stalemates (a8 free but every move
    // from it attacked).
    for (fen, status) in [
        (
            "k6Q/8/1K6/8/8/8/8/8 b - - 1 1",
            Status::Win(Color::White, WinReason::Checkmate),
        ),
        (
            "k7/8/1Q6/8/8/8/8/7K b - - 1 1",
            Status::Draw(DrawReason::Stalemate),
        ),
    ] {
        let p = pos(fen);
        assert!(!p.has_legal_move(), "{fen}");
        assert!(p.legal_moves().is_empty(), "{fen}");
        assert_eq!(p.status(), status, "{fen}");
    }
    assert!(pos(NIELS_START_8X8).has_legal_move());
}
