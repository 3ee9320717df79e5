//! The worked situations of the two papers, each checked against the rules' stated result.

use crate::chess::Square;
use crate::chess::{Color, Piece, PieceKind};
use crate::niels::fen::{NIELS_START_4X4, NIELS_START_4X5, NIELS_START_5X6, NIELS_START_8X8};
use crate::niels::{Cell, NielsMove, NielsPosition, NielsRules};
use crate::ruleset::{QuantumGame, Status, WinReason};
use qc_ir::Backend;
use qc_sim::ReferenceSparse;

fn sq(s: &str) -> Square {
    Square::parse(s).expect("test square")
}

fn mv(s: &str) -> NielsMove {
    s.parse().expect("test move")
}

fn pos(fen: &str) -> NielsPosition {
    NielsPosition::from_fen(fen, NielsRules::default()).expect("test FEN")
}

fn game(fen: &str) -> crate::niels::tests::Seeded {
    crate::niels::tests::Seeded::new(pos(fen), 7).expect("game")
}

fn conventional(p: &NielsPosition, s: &str) -> Option<Piece> {
    match p.cell(sq(s)) {
        Cell::Conventional(piece) => Some(piece),
        _ => None,
    }
}

/// Schools paper Figs. 4-5: the pawn on f5 attempts to capture the rook in equal superposition
/// on e6 (blue) and d4 (red); Black rolls a 3 (odd: blue), the rook collapses to e6 and the
/// capture succeeds.
const PAWN_VS_ROOK: &str = "7k/8/8/5P2/8/8/8/K7 w - - 0 1 rd4e6";

#[test]
fn pawn_captures_rook_that_collapses_to_e6() {
    let mut g = game(PAWN_VS_ROOK);
    let played = g.play_text("f5xe6[e6]").expect("legal").clone();
    assert_eq!(played.mv.rolls, vec![sq("e6")]);
    assert!((played.rolls[0].p_one - 0.5).abs() < 1e-12);
    let p = g.position();
    assert_eq!(
        conventional(p, "e6"),
        Some(Piece::new(Color::White, PieceKind::Pawn))
    );
    assert_eq!(p.cell(sq("d4")), Cell::Empty);
    assert_eq!(p.cell(sq("f5")), Cell::Empty);
    assert!(p.pairs.is_empty());
    // The qubit was measured, returned to |0> and freed: nothing left in superposition.
    assert_eq!(g.backend().basis_states().len(), 1);
}

#[test]
fn pawn_attempt_fails_when_rook_collapses_to_d4() {
    let mut g = game(PAWN_VS_ROOK);
    g.play_text("f5e6[d4]").expect("legal");
    let p = g.position();
    assert_eq!(
        conventional(p, "e6"),
        Some(Piece::new(Color::White, PieceKind::Pawn))
    );
    assert_eq!(
        conventional(p, "d4"),
        Some(Piece::new(Color::Black, PieceKind::Rook))
    );
}

#[test]
fn impossible_recorded_outcome_is_rejected_and_leaves_the_game_unchanged() {
    let mut g = game(PAWN_VS_ROOK);
    let before = g.circuit().instructions().len();
    assert!(g.play_text("f5e6[a1]").is_err());
    assert!(g.play_text("f5e6[e6,d4]").is_err());
    assert_eq!(g.circuit().instructions().len(), before);
    assert_eq!(g.position(), &pos(PAWN_VS_ROOK));
}

/// Schools paper Figs. 3 and 6: the indefinite knight on e5 checks the king on g4; the pawn may
/// not attempt to capture the knight on d4, as it might collapse to e5 and leave the check.
const FIG6: &str = "7k/8/8/8/6K1/4P3/8/8 w - - 0 1 nd4e5";

#[test]
fn forbidden_attempted_capture_that_might_leave_the_king_in_check() {
    let p = pos(FIG6);
    assert!(
        p.in_check(Color::White),
        "Fig. 3: the indefinite knight on e5 gives check"
    );
    let capture = mv("e3d4");
    assert!(p.pseudo_moves().contains(&capture));
    let reason = p
        .illegal_reason(&capture)
        .expect("Fig. 6: the capture is illegal");
    assert!(
        reason.to_string().contains("e5"),
        "the bad outcome is the collapse to e5: {reason}"
    );
    // Not a checkmate: the king can step out of the knight's reach.
    assert!(p.legal_moves().contains(&mv("g4g5")));
    assert_eq!(p.status(), Status::Ongoing);
}

/// Schools paper Figs. 8-10: Black's knight on f6 joins White's rook pair (e4 red, f4 blue) by
/// an entanglement move to d5; White's bishop joins as well from e2 to c4; a roll then
/// collapses the whole group in tandem.
const FIG8: &str = "7k/8/5n2/8/8/8/4B3/K7 b - - 0 1 Re4f4";

#[test]
fn entanglement_move_and_collapse_in_tandem() {
    let mut g = game(FIG8);
    // Fig. 8: the knight joins (red stays on f6, blue on d5).
    g.play_text("f6&f6d5@e4")
        .expect("entanglement move is legal");
    let p = g.position().clone();
    let (_, knight) = p.pair_at(sq("d5")).expect("knight pair");
    let (_, rook) = p.pair_at(sq("e4")).expect("rook pair");
    assert_eq!(knight.group, rook.group);
    assert_eq!(p.entangled_group_count(), 1);
    // Fig. 9: the bishop joins from e2 to c4, attacking the knight on d5.
    g.play_text("e2&c4e2@d5").expect("second joiner");
    assert_eq!(g.position().groups.len(), 1);
    assert_eq!(
        g.position().groups.values().next().map(|gr| gr.pairs.len()),
        Some(3)
    );
    // The three qubits are in a GHZ state: only all-red and all-blue have amplitude.
    let states = g.backend().basis_states();
    assert_eq!(states.len(), 2);
    for (ones, amp) in &states {
        assert!(ones.is_empty() || ones.len() == 3, "{ones:?}");
        assert!((amp.norm_sqr() - 0.5).abs() < 1e-12);
    }
    // Fig. 10: a black move, then the rook on f4 attempts to capture on f6; Black rolls a 4
    // (red): the knight collapses to f6 and, in tandem, the rook to e4 and the bishop to c4.
    g.play_text("h8g8").expect("waiting move");
    let played = g.play_text("f4xf6[f6]").expect("attempted capture").clone();
    assert_eq!(
        played.mv.rolls,
        vec![sq("f6")],
        "one roll collapses the whole group"
    );
    let p = g.position();
    assert_eq!(
        conventional(p, "f6"),
        Some(Piece::new(Color::Black, PieceKind::Knight))
    );
    assert_eq!(
        conventional(p, "e4"),
        Some(Piece::new(Color::White, PieceKind::Rook))
    );
    assert_eq!(
        conventional(p, "c4"),
        Some(Piece::new(Color::White, PieceKind::Bishop))
    );
    assert!(p.pairs.is_empty() && p.groups.is_empty());
    assert_eq!(g.backend().basis_states().len(), 1);
}

#[test]
fn collapse_in_tandem_to_blue_lets_the_rook_arrive() {
    let mut g = game(FIG8);
    g.play_text("f6&f6d5@e4").expect("join");
    g.play_text("f4xf6[d5]").expect("attempted capture");
    let p = g.position();
    // Knight to d5 (blue), rook to f4 (blue), which then arrives on the empty f6.
    assert_eq!(
        conventional(p, "d5"),
        Some(Piece::new(Color::Black, PieceKind::Knight))
    );
    assert_eq!(
        conventional(p, "f6"),
        Some(Piece::new(Color::White, PieceKind::Rook))
    );
    assert_eq!(p.cell(sq("f4")), Cell::Empty);
}

#[test]
fn diagonal_rule_allows_at_most_two_entangled_groups() {
    // Two entangled groups exist (diagonals 1 and 2); the black knight may not start a third.
    let fen = "k7/8/5n2/8/8/8/8/K7 b - - 0 1 Re4f4,Bb1c2:1,bb2b8:1,Qg1h2:2,qg2g8:2";
    let p = pos(fen);
    assert_eq!(p.entangled_group_count(), 2);
    assert!(p.free_diagonal().is_none());
    let joins: Vec<Square> = p
        .pseudo_moves()
        .iter()
        .filter_map(|m| match m {
            NielsMove::Entangle { target, .. } => Some(*target),
            _ => None,
        })
        .collect();
    assert!(
        !joins.contains(&sq("e4")) && !joins.contains(&sq("f4")),
        "{joins:?}"
    );
    // Joining an existing group needs no new diagonal (Art. 8.3.3): the knight may join the
    // queens' group by attacking h2 from g4.
    assert!(joins.contains(&sq("h2")), "{joins:?}");
    // With one group fewer the same entanglement move is allowed.
    let p = pos("k7/8/5n2/8/8/8/8/K7 b - - 0 1 Re4f4,Bb1c2:1,bb2b8:1");
    assert!(p.legal_moves().contains(&mv("f6&f6d5@e4")));
}

/// Schools paper Fig. 11: the king on e5 is in check from the queen's piece on e4 (blue); it
/// escapes by entangling with the queen so that it stands on e5 only when the queen is on h1.
const FIG11: &str = "K7/8/8/4k3/8/8/8/8 b - - 0 1 Qh1e4";

#[test]
fn king_escapes_check_by_entangling() {
    let p = pos(FIG11);
    assert!(p.in_check(Color::Black));
    let escape = mv("e5&e5d6@e4");
    assert_eq!(p.illegal_reason(&escape), None);
    let mut g = game(FIG11);
    g.play(&escape).expect("legal");
    let after = g.position();
    // The queen's piece on e4 still attacks the king's piece on e5, but a capture has zero
    // chance (Art. 8.7-8.8): no check.
    assert!(after
        .attacks(Piece::new(Color::White, PieceKind::Queen), sq("e4"))
        .contains(&sq("e5")));
    assert!(!after.capture_can_succeed(sq("e4"), sq("e5")));
    assert!(!after.in_check(Color::Black));
    // Art. 8.9: the zero-chance attempted capture of the king is allowed.
    assert!(after.legal_moves().contains(&mv("e4e5")));
    // The opposite colouring correlates the king on e5 with the queen on e4: still in check.
    assert!(p.illegal_reason(&mv("e5&d6e5@e4")).is_some());
}

#[test]
fn indefinite_checkmate_by_a_superposition_move() {
    let mut g = game("7k/6pp/8/8/3Q4/8/8/K7 w - - 0 1");
    g.play_text("d4^d8d1").expect("queen to d8 and d1 at once");
    let p = g.position();
    assert!(p.in_check(Color::Black));
    assert_eq!(p.status(), Status::Win(Color::White, WinReason::Checkmate));
    // Classically the same queen on d1 alone gives no check.
    let classical = pos("7k/6pp/8/8/8/8/8/K2Q4 b - - 0 1");
    assert_eq!(classical.status(), Status::Ongoing);
}

#[test]
fn unequal_superposition_collapses_with_four_sixths_to_the_red_square() {
    let mut g = game("7k/8/8/8/8/8/8/K3R3 w - - 0 1");
    g.play_text("e1^e4e2:op").expect("unequal superposition");
    let (id, _) = g.position().pair_at(sq("e4")).expect("pair");
    let q = g.pair_qubit(id).expect("qubit");
    assert!((g.backend().probability_one(q) - 1.0 / 3.0).abs() < 1e-12);
}

#[test]
fn small_board_starts_parse_and_have_moves() {
    for (fen, w, h) in [
        (NIELS_START_4X4, 4, 4),
        (NIELS_START_4X5, 4, 5),
        (NIELS_START_5X6, 5, 6),
        (NIELS_START_8X8, 8, 8),
    ] {
        let p = pos(fen);
        assert_eq!((p.width, p.height), (w, h), "{fen}");
        assert!(!p.legal_moves().is_empty(), "{fen}");
        assert_eq!(
            NielsPosition::from_fen(&p.to_fen(), p.rules).map(|q| q.to_fen()),
            Ok(p.to_fen())
        );
    }
    // Standard chess: 20 classical moves, plus superposition moves.
    let start = pos(NIELS_START_8X8);
    let steps = start
        .legal_moves()
        .into_iter()
        .filter(|m| matches!(m, NielsMove::Step { .. }))
        .count();
    assert_eq!(steps, 20);
}

#[test]
fn notation_round_trips_for_every_generated_move() {
    for fen in [FIG8, FIG11, PAWN_VS_ROOK, NIELS_START_8X8] {
        for rules in [
            NielsRules::default(),
            NielsRules {
                full_marks: true,
                hadamard: false,
                ..NielsRules::default()
            },
            NielsRules {
                full_marks: true,
                hadamard: true,
                ..NielsRules::default()
            },
        ] {
            let p = NielsPosition::from_fen(fen, rules).expect("fen");
            for m in p.pseudo_moves() {
                assert_eq!(m.to_string().parse::<NielsMove>(), Ok(m));
            }
        }
    }
}

#[test]
fn bad_input_gives_errors_not_panics() {
    for fen in [
        "",
        "8/8 w - -",
        "9/8/8/8 w - -",
        "8/8/8/8/8/8/8/8 x - -",
        "4/4/4/4 w - - Nd4e5",
    ] {
        assert!(
            NielsPosition::from_fen(fen, NielsRules::default()).is_err(),
            "{fen}"
        );
    }
    for text in [
        "", "e9e4", "e2^e4", "e2&e3e2", "~", "e2e4[", "e2e4[e5", "e2e4x",
    ] {
        assert!(text.parse::<NielsMove>().is_err(), "{text}");
    }
}

#[test]
fn render_shows_marks_facing_and_groups() {
    let p = pos("7k/8/5n2/8/8/8/4B3/K7 b - - 0 1 Re4f4op");
    let text = p.render();
    assert!(text.contains("Rro."), "{text}");
    assert!(text.contains("Rbp."), "{text}");
    assert!(text.contains("P(red) = 0.6667"), "{text}");
    let mut g = game(FIG8);
    g.play_text("f6&f6d5@e4").expect("join");
    let text = g.position().render();
    assert!(text.contains("nro1") && text.contains("Rro1"), "{text}");
}

#[test]
fn simulate_plays_a_legal_game_that_replays() {
    let start = pos(NIELS_START_5X6);
    let g = crate::niels::tests::simulate(start.clone(), 11, 40).expect("game");
    assert!(!g.moves().is_empty());
    let record = g.record();
    assert!(record.starts_with("1. "), "{record}");
    let file = crate::ruleset::GameFile {
        moves: crate::niels::NielsRecord::read_move_list(&record).expect("the record reads"),
        ..crate::ruleset::GameFile::new(start)
    };
    let replay = <crate::niels::Niels as crate::ruleset::Ruleset>::replay(
        &file,
        ReferenceSparse::new(),
        &mut <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(0),
    )
    .expect("replay");
    assert_eq!(replay.position(), g.position());
    assert_eq!(
        replay.circuit().num_measurements(),
        g.circuit().num_measurements()
    );
}

#[test]
fn mark_inversion_is_an_x_gate_in_the_full_game_only() {
    let start = "7k/8/8/8/8/8/8/K7 w - - 0 1 Re4e2op";
    let full = NielsRules {
        full_marks: true,
        ..NielsRules::default()
    };
    let p = NielsPosition::from_fen(start, full).expect("fen");
    assert_eq!(p.illegal_reason(&mv("~e4")), None);
    let mut g = crate::niels::tests::Seeded::new(p, 3).expect("game");
    let (id, _) = g.position().pair_at(sq("e4")).expect("pair");
    let q = g.pair_qubit(id).expect("qubit");
    assert!((g.backend().probability_one(q) - 1.0 / 3.0).abs() < 1e-12);
    g.play_text("~e2").expect("inversion");
    // Red now faces the owner: the unequal odds swap to 4/6 for blue.
    assert!((g.backend().probability_one(q) - 2.0 / 3.0).abs() < 1e-12);
    let pair = g.position().pairs.get(&id).expect("pair");
    assert!(!pair.red_faces_opponent && pair.blue_faces_opponent);
    // Art. 9.1.1: no inversion in the Simplified Game; an equal lone pair gains nothing.
    assert!(pos(start).illegal_reason(&mv("~e4")).is_some());
    let equal = NielsPosition::from_fen("7k/8/8/8/8/8/8/K7 w - - 0 1 Re4e2", full).expect("fen");
    assert!(equal.illegal_reason(&mv("~e4")).is_some());
    // Not one move apart (a piece between): no inversion.
    let apart =
        NielsPosition::from_fen("7k/8/8/8/8/4P3/8/K7 w - - 0 1 Re4e2op", full).expect("fen");
    assert!(apart.illegal_reason(&mv("~e4")).is_some());
}

#[test]
fn castling_is_blocked_by_an_indefinite_attacker_and_needs_conventional_pieces() {
    let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    assert_eq!(p.illegal_reason(&mv("e1g1")), None);
    assert_eq!(p.illegal_reason(&mv("e1c1")), None);
    // The black rook pair's piece on f5 attacks f1 down the open f-file (Art. 6.2.5).
    let p = pos("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1 rb8f5");
    assert!(p.illegal_reason(&mv("e1g1")).is_some());
    assert_eq!(p.illegal_reason(&mv("e1c1")), None);
    let mut g = game("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1");
    g.play_text("e1g1").expect("castle");
    assert_eq!(
        conventional(g.position(), "f1"),
        Some(Piece::new(Color::White, PieceKind::Rook))
    );
    // An indefinite rook cannot castle (Art. 6.2.4).
    let p = pos("4k3/8/8/8/8/8/8/4K3 w K - 0 1 Rh1h3");
    assert!(p.illegal_reason(&mv("e1g1")).is_some());
}

#[test]
fn en_passant_of_a_conventional_pawn() {
    let mut g = game("7k/3p4/8/4P3/8/8/8/K7 b - - 0 1");
    g.play_text("d7d5").expect("double step");
    assert_eq!(g.position().en_passant, Some(sq("d6")));
    g.play_text("e5d6").expect("en passant");
    assert_eq!(g.position().cell(sq("d5")), Cell::Empty);
    assert_eq!(
        conventional(g.position(), "d6"),
        Some(Piece::new(Color::White, PieceKind::Pawn))
    );
}

/// Schools paper, after Fig. 9: the rook pair, the knight pair and the bishop pair are one
/// entangled group. Black's rook on a4 may not attempt to capture the bishop on c4: the group
/// might collapse to the blue squares (bishop e2, knight d5, rook f4), opening the f-file
/// against the king on f8.
#[test]
fn forbidden_capture_of_an_entangled_bishop() {
    let fen = "5k2/8/8/8/r7/8/8/7K b - - 0 1 Re4f4:1,nf6d5:1,Bc4e2:1";
    let p = pos(fen);
    assert!(!p.in_check(Color::Black));
    let reason = p.illegal_reason(&mv("a4xc4")).expect("illegal");
    assert!(reason.to_string().contains("e2"), "{reason}");
    assert_eq!(p.illegal_reason(&mv("a4b4")), None);
    // Without the king on the f-file the capture is fine and collapses all three pairs.
    let mut g = game("7k/8/8/8/r7/8/8/7K b - - 0 1 Re4f4:1,nf6d5:1,Bc4e2:1");
    g.play_text("a4xc4[c4]").expect("legal");
    let after = g.position();
    assert_eq!(
        conventional(after, "c4"),
        Some(Piece::new(Color::Black, PieceKind::Rook))
    );
    assert_eq!(
        conventional(after, "f6"),
        Some(Piece::new(Color::Black, PieceKind::Knight))
    );
    assert_eq!(
        conventional(after, "e4"),
        Some(Piece::new(Color::White, PieceKind::Rook))
    );
    assert!(after.pairs.is_empty());
}

#[test]
fn no_box_variant_rolls_the_attacker_first_and_may_abort() {
    let rules = NielsRules {
        no_box: true,
        ..NielsRules::default()
    };
    // The white knight pair (c3 red, a5 blue) attacks the rook pair on d5.
    let fen = "7k/8/8/8/8/8/8/K7 w - - 0 1 rd5h5,Nc3a5";
    let p = NielsPosition::from_fen(fen, rules).expect("fen");
    let outcomes = p.outcomes(&mv("c3d5")).expect("outcomes");
    // Knight to a5: aborted, one roll, the rook stays indefinite (P = 1/2); knight to c3: then
    // the rook rolls (1/4 each).
    let mut probs: Vec<(usize, f64)> = outcomes
        .iter()
        .map(|o| (o.rolls.len(), o.probability))
        .collect();
    probs.sort_by(|a, b| a.partial_cmp(b).expect("numbers"));
    assert_eq!(probs, vec![(1, 0.5), (2, 0.25), (2, 0.25)]);
    let aborted = outcomes
        .iter()
        .find(|o| o.rolls == vec![sq("a5")])
        .expect("abort");
    assert!(
        aborted.position.pair_at(sq("d5")).is_some(),
        "the rook is still indefinite"
    );
    // With the box (default) the defender always rolls first.
    let boxed = pos(fen).outcomes(&mv("c3d5")).expect("outcomes");
    assert!(boxed.iter().all(|o| o.rolls.len() == 2));
}

#[test]
fn en_passant_of_an_indefinite_pawn_after_a_superposition_first_move() {
    // Art. 7.9: Black's pawn advances two squares in a superposition move (e5) while staying on
    // e7; White takes en passant on e6 as though the piece on e5 stood on e6.
    for (roll, captured) in [("e5", true), ("e7", false)] {
        let mut g = game("7k/4p3/8/3P4/8/8/8/K7 b - - 0 1");
        g.play_text("e7^e5e7").expect("superposition first move");
        assert_eq!(g.position().en_passant, Some(sq("e6")));
        g.play_text(&format!("d5xe6[{roll}]")).expect("en passant");
        let p = g.position();
        assert_eq!(
            conventional(p, "e6"),
            Some(Piece::new(Color::White, PieceKind::Pawn))
        );
        assert_eq!(p.cell(sq("e5")), Cell::Empty);
        let black_pawn = Some(Piece::new(Color::Black, PieceKind::Pawn));
        assert_eq!(
            conventional(p, "e7") == black_pawn,
            !captured,
            "roll {roll}"
        );
    }
    // Both squares ahead taken at once (e6 and e5): the skipped square is occupied, no e.p.
    let mut g = game("7k/4p3/8/3P4/8/8/8/K7 b - - 0 1");
    g.play_text("e7^e5e6").expect("superposition");
    assert_eq!(g.position().en_passant, None);
}

#[test]
fn rule_options_parse_from_names() {
    let r: NielsRules = "full+hadamard,tunnelling".parse().expect("options");
    assert!(r.full_marks && r.hadamard && r.tunnelling && !r.no_box);
    assert_eq!(
        "simplified".parse::<NielsRules>(),
        Ok(NielsRules::default())
    );
    assert!("quantum".parse::<NielsRules>().is_err());
    // The Hadamard family: each name implies the ones before it and is written back by itself.
    let plus: NielsRules = "hadamard-plus".parse().expect("hadamard-plus");
    assert!(plus.hadamard && plus.hadamard_plus && !plus.deterministic);
    let det: NielsRules = "full+deterministic".parse().expect("deterministic");
    assert!(det.full_marks && det.hadamard && det.hadamard_plus && det.deterministic);
    assert_eq!(plus.to_string(), "hadamard-plus");
    assert_eq!(det.to_string(), "full+deterministic");
    assert_eq!(det.to_string().parse::<NielsRules>(), Ok(det));
}

#[test]
fn entanglement_move_may_name_any_piece_of_the_joined_group() {
    // The knight attacks e4 from f6; naming the rook's other piece (f4) joins the same group.
    let mut g = game(FIG8);
    let played = g.play_text("f6&f6d5@f4").expect("same group").clone();
    assert_eq!(played.mv.mv, mv("f6&f6d5@e4"));
    // A piece that is in no group the knight can join is rejected.
    let p = pos(FIG8);
    assert!(p.illegal_reason(&mv("f6&f6d5@e2")).is_some());
}
