//! The interface, checked the same way on both rulesets: moves from text, exact undo, seeded
//! reproducibility, status, legal moves with kinds, the instructions of move N, game files.
//! Expected values come from the rules (hand-computed probabilities, FENs written by hand).

use super::*;
use crate::chess::Square;
use crate::niels::RolledMove;
use crate::QcanMove;
use qc_sim::ReferenceSparse;
use rand::SeedableRng;

fn dice(seed: u64) -> rand_chacha::ChaCha8Rng {
    rand_chacha::ChaCha8Rng::seed_from_u64(seed)
}

fn game<R: Ruleset>(fen: Option<&str>, options: Option<&str>) -> R::Game<ReferenceSparse> {
    let start = R::start(fen, options).expect("start position");
    R::new_game(&start, ReferenceSparse::new()).expect("game")
}

/// What undo must restore: position, circuit, outcomes, state.
fn fingerprint(g: &impl QuantumGame) -> (String, usize, Vec<Option<bool>>, usize, String) {
    (
        g.fen(),
        g.circuit().instructions().len(),
        g.outcomes(),
        g.state_size(),
        g.record(),
    )
}

/// Plays `first`, checks that undo restores everything, then plays `then` on the restored game.
fn undo_is_exact<G: QuantumGame>(mut g: G, first: &[&str], then: &str) {
    for m in first {
        g.play_text(m, &mut dice(1)).expect("setup move");
    }
    let before = fingerprint(&g);
    let view_before = g.board_view(false);
    let played = g.play_text(then, &mut dice(2)).expect("move").clone();
    assert_ne!(fingerprint(&g), before, "the move changed nothing");
    let taken = g.undo().expect("undo");
    assert_eq!(taken, played);
    assert_eq!(fingerprint(&g), before);
    assert_eq!(g.board_view(false), view_before, "probabilities restored");
    // Playing again after the undo works on the restored state.
    g.play_text(then, &mut dice(2)).expect("replayed move");
}

#[test]
fn undo_restores_the_snapshot_in_both_rulesets() {
    undo_is_exact(game::<Cantwell>(None, None), &["b1^a3c3"], "g8^f6h6");
    undo_is_exact(
        game::<Niels>(Some("7k/8/8/8/8/8/8/K3R3 w - - 0 1"), None),
        &["e1^e4e2"],
        "h8g8",
    );
    // A Niel's roll: the pair collapses, and undo brings the superposition back.
    undo_is_exact(game::<Niels>(Some(ROOK_PAIR), None), &[], "e1xe6[e6]");
}

/// A white rook attacking a black rook pair (e6 or e7, 1/2 each).
const ROOK_PAIR: &str = "7k/8/8/8/8/8/8/K3R3 w - - 0 1 re6e7";

#[test]
fn undo_with_no_move_is_an_error() {
    assert!(QuantumGame::undo(&mut game::<Cantwell>(None, None)).is_err());
    assert!(QuantumGame::undo(&mut game::<Niels>(None, None)).is_err());
}

/// The Niel's unequal split of the Simplified Game: the red square (facing the opponent) 4/6.
#[test]
fn board_view_gives_the_dice_probabilities_and_marks() {
    let mut g = game::<Niels>(Some("7k/8/8/8/8/8/8/K3R3 w - - 0 1"), None);
    g.play_text("e1^e4e2:op", &mut dice(0)).expect("split");
    let view = g.board_view(false);
    let e4 = view
        .get(Square::parse("e4").expect("sq"))
        .expect("piece on e4");
    assert!((e4.probability - 4.0 / 6.0).abs() < 1e-12);
    assert_eq!(e4.piece, 'R');
    assert!(e4.mark.is_some_and(|m| m.red && m.faces_opponent));
    assert_eq!(view.pairs.len(), 1);
    assert_eq!((view.width, view.height), (8, 8));
    // A Quantum Chess split: each half 1/2, the two squares perfectly anti-correlated.
    let mut q = game::<Cantwell>(None, None);
    q.play_text("b1^a3c3", &mut dice(0)).expect("split");
    let view = q.board_view(true);
    let a3 = view.get(Square::parse("a3").expect("sq")).expect("knight");
    assert!((a3.probability - 0.5).abs() < 1e-12);
    assert_eq!(view.links.len(), 1);
    assert!((view.links[0].2 + 1.0).abs() < 1e-12, "{:?}", view.links);
}

#[test]
fn a_seed_reproduces_a_game_and_another_seed_may_not() {
    fn outcomes_of<R: Ruleset>(fen: &str, moves: &[&str], seed: u64) -> Vec<Option<String>> {
        let mut g = game::<R>(Some(fen), None);
        let mut rng = dice(seed);
        for m in moves {
            g.play_text(m, &mut rng).expect("move");
        }
        g.moves().iter().map(PlayedMove::outcome_summary).collect()
    }
    // Quantum Chess: a split, then a capture by one half (measured, 1/2 each way).
    let qc = "4k3/8/8/3p4/8/8/8/1N2K3 w - - 0 1";
    let qc_moves = ["b1^a3c3", "e8e7", "c3xd5"];
    // Niel's: an attempted capture of a pair (a roll, 1/2 each way).
    let niels_moves = ["e1xe6"];
    for seed in 0..4 {
        assert_eq!(
            outcomes_of::<Niels>(ROOK_PAIR, &niels_moves, seed),
            outcomes_of::<Niels>(ROOK_PAIR, &niels_moves, seed)
        );
        assert_eq!(
            outcomes_of::<Cantwell>(qc, &qc_moves, seed),
            outcomes_of::<Cantwell>(qc, &qc_moves, seed)
        );
    }
    let rolls: std::collections::BTreeSet<_> = (0..40)
        .map(|seed| outcomes_of::<Niels>(ROOK_PAIR, &niels_moves, seed))
        .collect();
    assert_eq!(
        rolls.len(),
        2,
        "both squares come up over 40 seeds: {rolls:?}"
    );
    let measured: std::collections::BTreeSet<_> = (0..40)
        .map(|seed| outcomes_of::<Cantwell>(qc, &qc_moves, seed))
        .collect();
    assert_eq!(measured.len(), 2, "both outcomes come up: {measured:?}");
}

#[test]
fn status_has_one_spelling_for_both_rulesets() {
    // Niel's: kings only is a draw by insufficient material.
    let g = game::<Niels>(Some("4k3/8/8/8/8/8/8/4K3 w - - 0 1"), None);
    assert_eq!(
        QuantumGame::status(&g),
        Status::Draw(DrawReason::InsufficientMaterial)
    );
    assert_eq!(
        QuantumGame::status(&g).to_string(),
        "Draw (insufficient material)"
    );
    assert!(QuantumGame::legal_moves(&g).is_empty());
    // Niel's: bishop d4 checks a1, the king pair b3/c2 guards a2, b1 and b2.
    let mate = game::<Niels>(Some("8/8/8/8/3B4/8/8/k7 b - - 0 1 Kb3c2"), None);
    assert_eq!(
        QuantumGame::status(&mate),
        Status::Win(Color::White, WinReason::Checkmate)
    );
    assert_eq!(
        QuantumGame::status(&mate).to_string(),
        "White wins by checkmate"
    );
    // Quantum Chess: capturing the king wins.
    let mut q = game::<Cantwell>(Some("4k3/8/8/8/8/8/8/4K2R w - - 0 1"), None);
    q.play_text("h1h8", &mut dice(0)).expect("rook");
    q.play_text("e8d8", &mut dice(0)).expect("king");
    q.play_text("h8d8", &mut dice(0)).expect("capture");
    assert_eq!(
        QuantumGame::status(&q),
        Status::Win(Color::White, WinReason::KingCaptured)
    );
    assert_eq!(QuantumGame::status(&q).name(), "white_wins");
    assert_eq!(
        QuantumGame::status(&q).to_string(),
        "White wins (king captured)"
    );
    assert!(QuantumGame::legal_moves(&q).is_empty());
}

#[test]
fn legal_moves_carry_their_kinds() {
    let q = game::<Cantwell>(None, None);
    fn kind<M: GameMove>(moves: &[LegalMove<M>], text: &str) -> Option<&'static str> {
        moves
            .iter()
            .find(|m| m.mv.to_string() == text)
            .map(LegalMove::kind_name)
    }
    let moves = QuantumGame::legal_moves(&q);
    assert_eq!(kind(&moves, "b1a3"), Some("jump"));
    assert_eq!(kind(&moves, "e2e4"), Some("pawn_two_step"));
    assert_eq!(kind(&moves, "e2e3"), Some("pawn_step"));
    assert_eq!(kind(&moves, "b1^a3c3"), Some("split_jump"));
    assert_eq!(q.side_to_move(), Color::White);
    let n = game::<Niels>(Some("7k/8/8/8/4p3/8/8/K3R3 w - - 0 1"), Some("tunnelling"));
    let moves = QuantumGame::legal_moves(&n);
    assert_eq!(kind(&moves, "e1e4"), Some("capture"));
    assert_eq!(kind(&moves, "e1^e2e3"), Some("superposition"));
    assert_eq!(kind(&moves, "e1*e5"), Some("tunnelling"));
}

#[test]
fn quantum_moves_are_the_splits_merges_and_niels_non_classical_kinds() {
    fn quantum<M: GameMove>(moves: &[LegalMove<M>]) -> Vec<String> {
        let mut kinds: Vec<String> = moves
            .iter()
            .filter(|m| M::is_quantum(m.kind))
            .map(|m| m.kind_name().to_string())
            .collect();
        kinds.sort();
        kinds.dedup();
        kinds
    }
    // A knight split and a merge back onto its square.
    let mut q = game::<Cantwell>(None, None);
    q.play_text("b1^a3c3", &mut dice(0)).expect("split");
    q.play_text("e7e5", &mut dice(0)).expect("pawn");
    let moves = QuantumGame::legal_moves(&q);
    assert_eq!(quantum(&moves), ["merge_jump", "split_jump"]);
    assert!(moves
        .iter()
        .any(|m| m.kind_name() == "jump" && !QcanMove::is_quantum(m.kind)));
    let n = game::<Niels>(Some("7k/8/8/8/4p3/8/8/K3R3 w - - 0 1"), Some("tunnelling"));
    let moves = QuantumGame::legal_moves(&n);
    assert_eq!(quantum(&moves), ["superposition", "tunnelling"]);
}

#[test]
fn a_moves_text_is_its_bare_text_then_its_outcome_notation() {
    fn split<M: GameMove>(text: &str) -> (String, Option<String>) {
        let mv: M = text.parse().expect("a move");
        let bare = mv.without_outcomes().to_string();
        let notation = mv.outcome_notation();
        assert_eq!(
            mv.to_string(),
            format!("{bare}{}", notation.clone().unwrap_or_default())
        );
        (bare, notation)
    }
    assert_eq!(
        split::<QcanMove>("b1xc3.m1"),
        ("b1xc3".into(), Some(".m1".into()))
    );
    assert_eq!(split::<QcanMove>("Nb1^a3c3.m0").1.as_deref(), Some(".m0"));
    assert_eq!(split::<QcanMove>("e2e4"), ("e2e4".into(), None));
    assert_eq!(split::<RolledMove>("f5xe6[e6]").1.as_deref(), Some("[e6]"));
    assert_eq!(
        split::<RolledMove>("c6^c6e5:op[e5,c6]").1.as_deref(),
        Some("[e5,c6]")
    );
    assert_eq!(split::<RolledMove>("e2e4").1, None);
}

#[test]
fn an_outcome_is_written_in_as_the_ruleset_writes_it() {
    let e6 = Square::parse("e6").expect("a square");
    let d5 = Square::parse("d5").expect("a square");
    let qcan: QcanMove = "b1xc3.m0".parse().expect("a move");
    let one = qcan.with_outcome(&GivenOutcome::Bit(true)).expect("a bit");
    assert_eq!(one.to_string(), "b1xc3.m1");
    let wrong = qcan.with_outcome(&GivenOutcome::Squares(vec![e6]));
    assert_eq!(
        wrong
            .expect_err("squares are not a Quantum Chess outcome")
            .to_string(),
        "Quantum Chess writes 0 or 1 as a move's outcome, not squares"
    );
    let niels: RolledMove = "f5xe6".parse().expect("a move");
    let rolled = niels
        .with_outcome(&GivenOutcome::Squares(vec![e6, d5]))
        .expect("squares");
    assert_eq!(rolled.outcome_notation().as_deref(), Some("[e6,d5]"));
    assert_eq!(rolled.without_outcomes(), niels);
    let wrong = niels.with_outcome(&GivenOutcome::Bit(false));
    assert_eq!(
        wrong
            .expect_err("a bit is not a Niel's Chess outcome")
            .to_string(),
        "Niel's Chess writes a square or a list of squares as a move's outcome, not a bit"
    );
}

#[test]
fn move_instructions_pick_one_move_of_the_circuit() {
    let mut q = game::<Cantwell>(None, None);
    q.play_text("b1^a3c3", &mut dice(0)).expect("split");
    q.play_text("e7e5", &mut dice(0)).expect("pawn");
    // The set-up is one X per occupied square of the start (32 pieces).
    assert_eq!(q.move_instructions(0), Some(0..32));
    let split = q.move_instructions(1).expect("move 1");
    assert_eq!(split.start, 32);
    assert!(q.move_instructions(3).is_none());
    let mut n = game::<Niels>(Some(ROOK_PAIR), None);
    n.play_text("e1xe6[e6]", &mut dice(0)).expect("capture");
    n.play_text("h8g8", &mut dice(0)).expect("king");
    n.play_text("e6e2", &mut dice(0)).expect("rook");
    let roll = n.move_instructions(1).expect("move 1");
    let measured = n.circuit().instructions()[roll]
        .iter()
        .any(|i| matches!(i.op, qc_ir::Op::Measure { .. }));
    assert!(measured, "the roll is a measurement of move 1");
    assert_eq!(n.outcomes().iter().filter(|o| o.is_some()).count(), 1);
}

#[test]
fn written_games_read_back_in_both_rulesets() {
    fn round_trip<R: Ruleset>(fen: Option<&str>, options: Option<&str>, moves: &[&str]) {
        let start = R::start(fen, options).expect("start");
        let mut g = R::new_game(&start, ReferenceSparse::new()).expect("game");
        for m in moves {
            g.play_text(m, &mut dice(5)).expect("move");
        }
        let tags = vec![Tag::new("Event", "test")];
        let text = R::write_game(&tags, &[], &start, &g);
        let read = R::read_game(&text, None).expect("reads back");
        assert_eq!(read.tags, tags, "{text}");
        let mut again = R::new_game(&read.start, ReferenceSparse::new()).expect("game");
        for m in &read.moves {
            // Every outcome is written in: another seed gives the same game.
            again.play(&m.mv, &mut dice(99)).expect("replay");
        }
        assert_eq!(again.fen(), g.fen(), "{text}");
        assert_eq!(again.record(), g.record());
        assert_eq!(R::options_name(&read.start), R::options_name(&start));
    }
    round_trip::<Cantwell>(None, None, &["b1^a3c3", "e7e5", "a3b5", "e5e4"]);
    round_trip::<Niels>(
        Some("7k/8/8/8/8/8/8/K3R3 w - - 0 1"),
        Some("full+tunnelling"),
        &["e1^e4e2:op", "h8g8", "e4xe8"],
    );
    assert!(Cantwell::start(None, Some("full")).is_err());
}

/// A game file's comments are read with their places and written back there, in both
/// rulesets, also by a game played from the file and written again: the opening comment, one
/// between two moves (also over two lines), a `;` comment to the end of its line, one after the
/// last move.
#[test]
fn comments_are_kept_where_they_were_written() {
    fn keeps<R: Ruleset>(fen_tag: &str, moves: [&str; 3]) {
        let [a, b, c] = moves;
        let text = format!(
            "[Event \"comments\"]\n{fen_tag}\n{{ An opening comment\n  over two lines. }}\n1. {a} {{ a split }} {b} ; to the end\n2. {c} {{ last }}\n"
        );
        let read = R::read_game(&text, None).expect("reads");
        let places: Vec<(usize, &str, bool)> = read
            .comments
            .iter()
            .map(|c| (c.after, c.text.as_str(), c.to_line_end))
            .collect();
        assert_eq!(
            places,
            [
                (0, " An opening comment\n  over two lines. ", false),
                (1, " a split ", false),
                (2, " to the end", true),
                (3, " last ", false),
            ],
            "{}",
            R::NAME
        );
        let mut g = R::new_game(&read.start, ReferenceSparse::new()).expect("game");
        for m in &read.moves {
            g.play(&m.mv, &mut dice(1)).expect("move");
        }
        let written = R::write_game(&read.tags, &read.comments, &read.start, &g);
        let again = R::read_game(&written, None).expect("reads back");
        assert_eq!(again.comments, read.comments, "{written}");
        assert_eq!(again.tags, read.tags, "{written}");
        // A comment ends its line: the opening one stands before the first move number.
        assert!(
            written.contains("{ An opening comment\n  over two lines. }\n1. "),
            "{written}"
        );
        assert!(written.contains("{ a split }\n"), "{written}");
    }
    keeps::<Cantwell>(
        "[FEN \"4k3/8/8/8/8/8/8/4K1N1 w - - 0 1\"]",
        ["g1^f3h3", "e8d8", "f3g1"],
    );
    keeps::<Niels>(
        "[FEN \"4k3/8/8/8/8/8/8/4K1N1 w - - 0 1\"]",
        ["g1f3", "e8d8", "f3g1"],
    );
}

/// The probability of the outcome that happened and what it meant, against hand-computed
/// amplitudes: two splits leave a quarter of the knight on d4 (1/2 * 1/2).
#[test]
fn measured_moves_give_the_outcome_probability_and_meaning() {
    let fen = "4k3/8/4p3/8/8/8/8/4K1N1 w - - 0 1";
    let setup = ["g1^f3h3", "e8d8", "f3^d4g5", "d8e8"];
    for (mv, p, meaning) in [
        (
            "d4xe6.m1",
            0.25,
            "the white knight was on d4: the move took place",
        ),
        (
            "d4xe6.m0",
            0.75,
            "the white knight was not on d4: the move did not take place",
        ),
    ] {
        let mut q = game::<Cantwell>(Some(fen), None);
        for m in setup {
            q.play_text(m, &mut dice(0)).expect("setup");
        }
        let played = q.play_text(mv, &mut dice(0)).expect("capture");
        let got = played.extras()["outcome_probability"]
            .as_f64()
            .expect("a probability");
        assert!((got - p).abs() < 1e-12, "{mv}: {got} vs {p}");
        assert_eq!(played.extras()["meaning"], meaning, "{mv}");
        assert_eq!(played.meaning(), Some(meaning));
        assert!(played.detail().contains(meaning), "{}", played.detail());
    }
    // Niel's Art. 7.5: the red square (d4, facing the opponent) comes up with chance 4/6.
    for (roll, p, meaning) in [
        ("f5e6[d4]", 4.0 / 6.0, "the black rook was on d4, not on e6"),
        ("f5e6[e6]", 2.0 / 6.0, "the black rook was on e6, not on d4"),
    ] {
        let mut n = game::<Niels>(Some("7k/8/8/5P2/8/8/8/K7 w - - 0 1 rd4e6op"), None);
        let played = QuantumGame::play_text(&mut n, roll, &mut dice(0)).expect("roll");
        let outcome = &played.extras()["roll_outcomes"][0];
        let got = outcome["probability"].as_f64().expect("a probability");
        assert!((got - p).abs() < 1e-12, "{roll}: {got} vs {p}");
        assert_eq!(outcome["meaning"], meaning, "{roll}");
    }
}

/// A Quantum Chess FEN lists every square a piece may be on; the most likely board keeps the
/// likeliest measurement only (the knight's untouched half on h3, 1/2, against 1/4 each).
#[test]
fn the_most_likely_board_is_one_measurement() {
    let mut q = game::<Cantwell>(Some("4k3/8/4p3/8/8/8/8/4K1N1 w - - 0 1"), None);
    for m in ["g1^f3h3", "e8d8", "f3^d4g5"] {
        q.play_text(m, &mut dice(0)).expect("move");
    }
    assert!(
        q.fen().starts_with("3k4/8/4p3/6N1/3N4/7N/8/4K3 b"),
        "{}",
        q.fen()
    );
    let (fen, p) = q.most_likely_board().expect("Quantum Chess has one");
    assert!(fen.starts_with("3k4/8/4p3/8/8/7N/8/4K3 b"), "{fen}");
    assert!((p - 0.5).abs() < 1e-12, "{p}");
    let n = game::<Niels>(Some("7k/8/8/5P2/8/8/8/K7 w - - 0 1 rd4e6op"), None);
    assert_eq!(n.most_likely_board(), None, "Niel's FEN is exact");
}

/// Every rule option a ruleset lists (for menus) is one its `start` takes, alone, and is written
/// back under its own name; and a switch the ruleset says it has is set on its game.
fn listed_options_are_taken<R: Ruleset>() {
    for &(name, help) in R::RULE_OPTIONS {
        assert!(!help.is_empty(), "{name}");
        let start = R::start(None, Some(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        let written = R::options_name(&start).expect("a ruleset with options names them");
        assert!(written.split('+').any(|w| w == name), "{name}: {written}");
    }
}

#[test]
fn the_rule_options_menus_list_are_the_rulesets_own() {
    listed_options_are_taken::<Cantwell>();
    listed_options_are_taken::<Niels>();
    assert!(Cantwell::RULE_OPTIONS.is_empty());
    assert_eq!(Niels::RULE_OPTIONS.len(), 6);
}

#[test]
fn switches_apply_where_the_ruleset_says_so() {
    // Quantum Chess has both: with forceturn on, Black's piece may move first.
    for switch in Switch::ALL {
        assert_eq!(Cantwell::switch_unsupported(switch), None);
        assert!(Niels::switch_unsupported(switch).is_some());
    }
    let mut g = game::<Cantwell>(None, None);
    assert_eq!(g.endings().fifty, 0);
    assert!(g.play_text("g8f6", &mut dice(1)).is_err());
    g.set_switch(Switch::ForceTurn, true);
    g.play_text("g8f6", &mut dice(1))
        .expect("forceturn lets Black move first");
    assert_eq!(g.endings().fifty, 1, "a knight's move counts");
}
