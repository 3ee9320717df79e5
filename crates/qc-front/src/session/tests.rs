use super::*;
use qc_ir::Choice;
use qc_rules::{QuantumGame, Ruleset};

fn spec(rules: RulesKind, backend: BackendKind, precision: Precision) -> SessionSpec {
    SessionSpec {
        rules,
        backend,
        precision,
        seed: 5,
        ..SessionSpec::default()
    }
}

fn moves<'a>(text: &'a str) -> GameInput<'a> {
    GameInput::Position {
        name: "--moves",
        fen: None,
        moves: Some(text),
    }
}

/// A few moves of each ruleset with a measurement among them.
fn opening(rules: RulesKind) -> &'static str {
    match rules {
        RulesKind::Cantwell => "b1^a3c3 d7d5 c3xd5 e7e5",
        RulesKind::Niels => "e2^e4e3 e7e5",
    }
}

#[test]
fn a_session_is_owned_and_send() {
    fn owned_and_send<T: Send + 'static>() {}
    owned_and_send::<Session>();
    owned_and_send::<std::sync::Mutex<Session>>();
}

#[test]
fn every_ruleset_reaches_every_simulator_it_names() {
    // The simulator types written out here, apart from the registry.
    let expected = |backend: BackendKind, precision: Precision| match (backend, precision) {
        (BackendKind::Sparse, Precision::Double) => Some("qc_sim::sparse::SparseSim"),
        (BackendKind::Dense, Precision::Double) => Some("qc_sim::dense::DenseSim"),
        (BackendKind::Dense, Precision::Single) => Some("qc_sim::dense::DenseSim<f32>"),
        (BackendKind::Reference, Precision::Double) => Some("qc_sim::reference::ReferenceSparse"),
        _ => None,
    };
    for rules in RulesKind::CHOICES.iter().map(|c| c.value) {
        for backend in BackendKind::CHOICES.iter().map(|c| c.value) {
            for precision in Precision::CHOICES.iter().map(|c| c.value) {
                let opened =
                    Session::open(&spec(rules, backend, precision), moves(opening(rules)), 0);
                match expected(backend, precision) {
                    Some(ty) => {
                        let s = opened.expect("opens");
                        assert_eq!(s.rules(), rules);
                        assert_eq!(s.backend_kind(), backend);
                        assert_eq!(s.precision(), precision);
                        let got = s.simulator_type();
                        let got = got.strip_suffix("<f64>").unwrap_or(got);
                        assert_eq!(got, ty, "{rules} on {backend} {precision}");
                        assert_eq!(s.moves().len(), opening(rules).split(' ').count());
                    }
                    None => assert!(
                        matches!(opened, Err(SessionError::Precision(_))),
                        "{rules} on {backend} {precision}"
                    ),
                }
            }
        }
    }
}

/// Plays `text` on a game of `R` built directly on `backend`, outcomes drawn as a session draws
/// them.
fn typed<R: Ruleset, B: qc_ir::Backend>(text: &str, backend: B, seed: u64) -> R::Game<B> {
    let start = R::start(None, None).expect("start");
    let mut game = R::new_game(&start, backend).expect("set up");
    let mut dice = crate::rng(seed);
    for m in text.split(' ') {
        game.play_text(m, &mut dice).expect("plays");
    }
    game
}

fn same_game<G: QuantumGame>(session: &Session, game: &G) {
    assert_eq!(session.record(), game.record());
    assert_eq!(session.fen(), game.fen());
    assert_eq!(session.state_size(), game.state_size());
    assert_eq!(session.board_view(true), game.board_view(true));
    assert_eq!(session.outcomes(), game.outcomes());
    assert_eq!(session.circuit(), game.circuit());
}

#[test]
fn a_session_plays_as_the_game_built_by_hand() {
    let text = opening(RulesKind::Cantwell);
    let single = spec(RulesKind::Cantwell, BackendKind::Dense, Precision::Single);
    let session = Session::open(&single, moves(text), 0).expect("opens");
    let by_hand = typed::<qc_rules::Cantwell, _>(
        text,
        qc_sim::DenseSim::<f32>::zero_state(MemoryLimit::default()),
        5,
    );
    same_game(&session, &by_hand);

    let text = opening(RulesKind::Niels);
    let reference = spec(RulesKind::Niels, BackendKind::Reference, Precision::Double);
    let mut session = Session::open(&reference, moves(text), 0).expect("opens");
    let mut by_hand = typed::<qc_rules::Niels, _>(text, qc_sim::ReferenceSparse::new(), 5);
    same_game(&session, &by_hand);
    // Moves played afterwards draw from dice that start again from the seed.
    let mut dice = crate::rng(5);
    let next = "d2^d4d3";
    // The move's ply from the standard start (White's first move is ply 0); taken back, it is
    // the same move at the same ply.
    let ply = u32::try_from(QuantumGame::moves(&by_hand).len()).expect("a short game");
    assert_eq!(
        session.play(next).expect("plays"),
        MoveView::at(
            QuantumGame::play_text(&mut by_hand, next, &mut dice).expect("plays"),
            ply
        )
    );
    same_game(&session, &by_hand);
    assert_eq!(
        session.undo().expect("undo"),
        MoveView::at(&QuantumGame::undo(&mut by_hand).expect("undo"), ply)
    );
    same_game(&session, &by_hand);
}

#[test]
fn refusals_are_typed_and_change_nothing() {
    let cantwell = spec(RulesKind::Cantwell, BackendKind::Sparse, Precision::Double);
    let bad_fen = GameInput::Position {
        name: "--moves",
        fen: Some("not a fen"),
        moves: None,
    };
    match Session::open(&cantwell, bad_fen, 0) {
        Err(SessionError::Read {
            input: Input::Fen,
            source,
        }) => assert_eq!(source.kind(), ErrorKind::Notation),
        other => panic!("expected a FEN error, got {other:?}"),
    }
    let file = "[Event \"t\"]\n\n1. b1^a3c3 e7e5 2. a3a5 *\n";
    match Session::open(
        &cantwell,
        GameInput::File {
            name: "t.qcg",
            text: file,
        },
        0,
    ) {
        Err(
            e @ SessionError::Replay {
                number: 3, line: 3, ..
            },
        ) => {
            assert_eq!(
                e.rules_error().map(RulesError::kind),
                Some(ErrorKind::Illegal)
            );
            assert!(
                e.to_string()
                    .starts_with("t.qcg: move 3 `a3a5`, line 3, column "),
                "{e}"
            );
        }
        other => panic!("expected move 3 refused, got {other:?}"),
    }
    let mut s = Session::open(&cantwell, GameInput::START, 0).expect("opens");
    match s.undo() {
        Err(SessionError::Rules(e)) => assert_eq!(e.kind(), ErrorKind::Illegal),
        other => panic!("expected a refusal, got {other:?}"),
    }
    s.play("b1^a3c3").expect("plays");
    let before = s.record();
    assert!(matches!(s.play("e2e5"), Err(SessionError::Rules(_))));
    assert!(matches!(s.play("zz"), Err(SessionError::Rules(e)) if e.kind() == ErrorKind::Notation));
    assert!(s.load("bad.qcg", "1. e2e5 *\n").is_err());
    assert_eq!(s.record(), before, "a refusal changes nothing");
}

#[test]
fn random_plies_and_loads_repeat_with_the_seed() {
    let niels = spec(RulesKind::Niels, BackendKind::Sparse, Precision::Double);
    let a = Session::open(&niels, GameInput::START, 6).expect("opens");
    let b = Session::open(&niels, GameInput::START, 6).expect("opens");
    assert_eq!(a.moves().len(), 6);
    assert_eq!(a.game_file(true), b.game_file(true));
    // The file replays exactly, in a session of its own and loaded into another.
    let file = a.game_file(true);
    let replayed = Session::open(
        &niels,
        GameInput::File {
            name: "a.qng",
            text: &file,
        },
        0,
    )
    .expect("opens");
    assert_eq!(replayed.fen(), a.fen());
    let mut loaded = Session::open(&niels, moves("e2e4"), 0).expect("opens");
    loaded.load("a.qng", &file).expect("loads");
    assert_eq!(loaded.board_view(false), a.board_view(false));
    assert_eq!(loaded.source(), "a.qng");
}

#[test]
fn a_session_behind_a_mutex_plays_from_other_threads() {
    let shared = std::sync::Arc::new(std::sync::Mutex::new(
        Session::open(
            &spec(RulesKind::Cantwell, BackendKind::Sparse, Precision::Double),
            GameInput::START,
            0,
        )
        .expect("opens"),
    ));
    let worker = {
        let shared = std::sync::Arc::clone(&shared);
        std::thread::spawn(move || {
            let mut s = shared.lock().expect("lock");
            s.play("b1^a3c3").map(|m| m.text)
        })
    };
    assert_eq!(worker.join().expect("joins").expect("plays"), "b1^a3c3");
    let s = shared.lock().expect("lock");
    assert_eq!(s.moves().len(), 1);
    assert_eq!(s.board_view(false).squares.iter().flatten().count(), 33);
}

#[test]
fn a_game_files_mistake_has_its_line_and_column() {
    let open = |rules, name, text| {
        Session::open(
            &spec(rules, BackendKind::Sparse, Precision::Double),
            GameInput::File { name, text },
            0,
        )
        .expect_err("refused")
    };
    // A token that does not read (Quantum Chess's reader, then Niel's).
    let bad = open(RulesKind::Cantwell, "a.qcg", "1. e2e4\n2. q9q9\n");
    assert_eq!(bad.place(), Some((2, 4)));
    let bad = open(
        RulesKind::Niels,
        "a.qng",
        "[Variant \"simplified\"]\n1. e2e4 {open",
    );
    assert_eq!(bad.place().map(|(line, _)| line), Some(2));
    // A move the rules refuse while replaying: the move's own place.
    let illegal = open(RulesKind::Cantwell, "a.qcg", "\n1. e2e4 e7e4\n");
    assert_eq!(illegal.place(), Some((2, 9)));
    assert!(illegal.to_string().ends_with("line 2, column 9"));
    // No place: a move list, an unknown rule option.
    let listed = Session::open(
        &spec(RulesKind::Cantwell, BackendKind::Sparse, Precision::Double),
        moves("e2e5"),
        0,
    )
    .expect_err("refused");
    assert_eq!(listed.place(), None);
    let option = open(RulesKind::Niels, "a.qng", "[Variant \"bogus\"]\n");
    assert_eq!(option.place(), None);
}

#[test]
fn the_engine_s_move_is_the_search_s_choice_played_with_the_session_s_dice() {
    use qc_engine::{Limits, SearchConfig, Searcher, StopFlag};
    // Depth 2 and no clock: a depth limit alone keeps the default time per move, which a
    // loaded machine can run out of before depth 2 (then the two searches differ).
    let limits = Limits {
        infinite: true,
        ..Limits::depth(2)
    };
    let table_bytes = 1 << 20;
    // The search run by hand on a game built by hand, its choice played with dice from the seed.
    fn by_hand<G: QuantumGame>(game: &mut G, limits: &Limits, table_bytes: usize) -> MoveView {
        let mut searcher = Searcher::new(SearchConfig {
            table_bytes,
            ..SearchConfig::default()
        });
        let found = searcher
            .search(game, limits, StopFlag::new(), &mut |_| {})
            .expect("searches");
        let best = found.best.expect("a move");
        let ply = u32::try_from(game.moves().len()).expect("a short game");
        MoveView::at(game.play(&best, &mut crate::rng(5)).expect("plays"), ply)
    }
    // White's knight is on a3 or c3; black's king stepped next to c3: the capture c3d5 wins
    // half the time, and its outcome is drawn from the session's dice.
    let fen = "8/8/8/8/3k4/8/8/1N2K3 w - - 0 1";
    let text = "b1^a3c3 d4d5";
    let cantwell = spec(RulesKind::Cantwell, BackendKind::Sparse, Precision::Double);
    let input = GameInput::Position {
        name: "--moves",
        fen: Some(fen),
        moves: Some(text),
    };
    let mut session = Session::open(&cantwell, input, 0).expect("opens");
    let start = qc_rules::Cantwell::start(Some(fen), None).expect("start");
    let mut game = qc_rules::Cantwell::new_game(&start, qc_sim::SparseSim::new()).expect("set up");
    for m in text.split(' ') {
        game.play_text(m, &mut crate::rng(0)).expect("plays");
    }
    let reply = session
        .engine_move(&limits, table_bytes, StopFlag::new())
        .expect("searches")
        .expect("a move");
    assert_eq!(reply.played, by_hand(&mut game, &limits, table_bytes));
    assert!(reply.played.text.starts_with("c3d5.m"), "{reply:?}");
    assert!(reply.played.outcome.is_some(), "{reply:?}");
    assert_eq!(reply.depth, 2);
    assert!(reply.nodes > 0);
    same_game(&session, &game);

    let niels = spec(RulesKind::Niels, BackendKind::Dense, Precision::Double);
    let text = opening(RulesKind::Niels);
    let mut session = Session::open(&niels, moves(text), 0).expect("opens");
    let mut game = typed::<qc_rules::Niels, _>(text, qc_sim::DenseSim::new(), 5);
    let reply = session
        .engine_move(&limits, table_bytes, StopFlag::new())
        .expect("searches")
        .expect("a move");
    assert_eq!(reply.played, by_hand(&mut game, &limits, table_bytes));
    same_game(&session, &game);
}

#[test]
fn the_engine_has_no_move_in_a_finished_game() {
    let finished = GameInput::Position {
        name: "--moves",
        fen: Some("4k3/8/8/8/8/8/8/4RK2 w - - 0 1"),
        moves: Some("e1e8"),
    };
    let cantwell = spec(RulesKind::Cantwell, BackendKind::Sparse, Precision::Double);
    let mut session = Session::open(&cantwell, finished, 0).expect("opens");
    assert!(session.status().is_over());
    let reply = session.engine_move(
        &qc_engine::Limits::depth(1),
        1 << 20,
        qc_engine::StopFlag::new(),
    );
    assert!(matches!(reply, Ok(None)), "{reply:?}");
    assert_eq!(session.moves().len(), 1);
}

#[test]
fn legal_moves_carry_the_squares_to_click() {
    let cantwell = spec(RulesKind::Cantwell, BackendKind::Sparse, Precision::Double);
    let session = Session::open(&cantwell, GameInput::START, 0).expect("opens");
    let legal = session.legal_moves();
    let split = legal.iter().find(|m| m.text == "b1^a3c3").expect("listed");
    let clicks: Vec<String> = split.clicks.iter().map(ToString::to_string).collect();
    assert_eq!(clicks, ["b1", "a3", "c3"]);
}

#[test]
fn a_search_that_fails_leaves_the_game_as_it_was() {
    // A simulator this small keeps little undo history: the search's trial moves soon cannot
    // be taken back, and the search fails. The limit counts the undo snapshots too, so the two
    // moves need about 520 bytes; from 768 to 4096 bytes the replay fits and the depth-2 search
    // does not (1536: the middle of that range).
    let cantwell = spec(RulesKind::Cantwell, BackendKind::Sparse, Precision::Double);
    let text = "b1^a3c3 g8^f6h6";
    let mut session = Session::open_with_limit(&cantwell, moves(text), 0, MemoryLimit::bytes(1536))
        .expect("opens");
    let before = (session.record(), session.fen(), session.board_view(true));
    // No clock (see above): on a loaded machine the default time per move could end the search
    // before it reaches a trial move it cannot take back.
    let failed = session.engine_move(
        &qc_engine::Limits {
            infinite: true,
            ..qc_engine::Limits::depth(2)
        },
        1 << 16,
        qc_engine::StopFlag::new(),
    );
    assert!(matches!(failed, Err(SessionError::Rules(_))), "{failed:?}");
    assert_eq!(
        (session.record(), session.fen(), session.board_view(true)),
        before
    );
    assert_eq!(session.state_size(), 4);
    // The game goes on from there.
    session.play("e2e4").expect("plays");
    assert_eq!(session.moves().len(), 3);
}

#[test]
fn every_move_names_its_mover_and_move_number_as_the_record_does() {
    // Random games of both rulesets, from the standard start and from a FEN with Black to move
    // at fullmove 5: each move's mover is the side to move just before it was played (asked of
    // the game, not counted), and its number is the one the game record writes before it.
    let starts = [
        (RulesKind::Cantwell, None),
        (
            RulesKind::Cantwell,
            Some("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 5"),
        ),
        (RulesKind::Niels, None),
        (
            RulesKind::Niels,
            Some("rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 5"),
        ),
    ];
    for (rules, fen) in starts {
        let input = GameInput::Position {
            name: "--moves",
            fen,
            moves: None,
        };
        let mut session = Session::open(
            &spec(rules, BackendKind::Sparse, Precision::Double),
            input,
            0,
        )
        .expect("opens");
        let mut sides = Vec::new();
        for _ in 0..9 {
            let side = session.side_to_move();
            let Some(played) = session.play_random() else {
                break;
            };
            assert_eq!(played.mover, side, "{rules} {fen:?}: {}", played.text);
            sides.push(side);
        }
        let moves = session.moves();
        assert_eq!(
            moves.iter().map(|m| m.mover).collect::<Vec<_>>(),
            sides,
            "{rules} {fen:?}"
        );
        // The record, with a number before White's moves and `N...` before a first Black move.
        let mut written = Vec::new();
        for (i, m) in moves.iter().enumerate() {
            if m.mover == Color::White {
                written.push(format!("{}.", m.number));
            } else if i == 0 {
                written.push(format!("{}...", m.number));
            }
            written.push(m.text.clone());
        }
        assert_eq!(written.join(" "), session.record(), "{rules} {fen:?}");
        let first = if fen.is_some() { 5 } else { 1 };
        assert_eq!(moves[0].number, first, "{rules} {fen:?}");
        let undone = session.undo().expect("undo");
        assert_eq!(&undone, moves.last().expect("moves"), "{rules} {fen:?}");
    }
}

/// A position and a move of each ruleset whose outcome is drawn with probability 1/2: the
/// knight split onto f3 and h3 capturing on e5 (measured: was it on f3?), White's pawn capturing
/// the pair d4/e6 on e6 (a roll: which square is the pair on?).
fn coin(rules: RulesKind) -> (&'static str, &'static str, &'static str) {
    match rules {
        RulesKind::Cantwell => ("4k3/8/8/4p3/8/8/8/4K1N1 w - - 0 1", "g1^f3h3 e8d8", "f3xe5"),
        RulesKind::Niels => ("7k/8/8/5P2/8/8/8/K7 w - - 0 1 rd4e6op", "", "f5e6"),
    }
}

/// Undo then the same move again gets the outcome it drew (the session remembers it), however
/// often: a player cannot undo until a measurement goes their way. Forgotten
/// (`forget_outcomes`), the dice roll again and give both outcomes over twenty tries. A move
/// written with its outcome plays that outcome whatever is remembered.
#[test]
fn a_move_taken_back_and_played_again_keeps_its_outcome_until_forgotten() {
    for rules in RulesKind::CHOICES.iter().map(|c| c.value) {
        let (fen, before, coin_move) = coin(rules);
        let input = GameInput::Position {
            name: "--moves",
            fen: Some(fen),
            moves: Some(before),
        };
        let mut s = Session::open(
            &spec(rules, BackendKind::Sparse, Precision::Double),
            input,
            0,
        )
        .expect("opens");
        let first = s.play(coin_move).expect("plays").text;
        for _ in 0..20 {
            assert_eq!(s.undo().expect("undo").text, first, "{rules:?}");
            assert_eq!(s.play(coin_move).expect("plays").text, first, "{rules:?}");
        }
        // Another move in between does not change what is remembered for this position.
        s.undo().expect("undo");
        s.play_random().expect("a random move");
        s.undo().expect("undo");
        assert_eq!(s.play(coin_move).expect("plays").text, first, "{rules:?}");
        let mut seen = std::collections::BTreeSet::new();
        for _ in 0..20 {
            s.undo().expect("undo");
            assert!(s.forget_outcomes() > 0);
            seen.insert(s.play(coin_move).expect("plays").text);
        }
        assert_eq!(seen.len(), 2, "{rules:?}: {seen:?}");
        // Written in, an outcome is played as written.
        let other = seen
            .iter()
            .find(|t| **t != first)
            .expect("the other outcome")
            .clone();
        s.undo().expect("undo");
        s.forget_outcomes();
        s.play(&first).expect("plays");
        s.undo().expect("undo");
        assert_eq!(s.play(&other).expect("plays").text, other, "{rules:?}");
    }
}

/// The session numbers its moves as the record does, from the start position's fullmove
/// number and side to move.
#[test]
fn moves_are_numbered_from_the_start_position() {
    for rules in RulesKind::CHOICES.iter().map(|c| c.value) {
        let input = GameInput::Position {
            name: "--moves",
            fen: Some("4k3/8/8/8/8/8/8/4K1N1 b - - 0 5"),
            moves: Some("e8d8 g1f3"),
        };
        let s = Session::open(
            &spec(rules, BackendKind::Sparse, Precision::Double),
            input,
            0,
        )
        .expect("opens");
        assert_eq!(s.first_ply(), 9, "{rules:?}");
        assert_eq!(s.move_number(0).to_string(), "5...");
        assert_eq!(s.move_number(1).to_string(), "6.");
        assert_eq!(s.record(), "5... e8d8 6. g1f3", "{rules:?}");
    }
}

#[test]
fn a_move_view_says_whether_it_is_quantum_and_how_its_outcome_is_written() {
    let spec = spec(RulesKind::Cantwell, BackendKind::Sparse, Precision::Double);
    let mut session = Session::open(&spec, moves("b1^a3c3 d7d5"), 0).expect("opens");
    let played = session.moves();
    assert_eq!((played[0].quantum, played[1].quantum), (true, false));
    let forced = session
        .with_outcome("c3xd5", &qc_rules::GivenOutcome::Bit(false))
        .expect("a bit is a Quantum Chess outcome");
    assert_eq!(forced, "c3xd5.m0");
    let capture = session.play(&forced).expect("plays");
    assert_eq!(capture.outcome_notation.as_deref(), Some(".m0"));
    assert_eq!(capture.text, format!("c3xd5{}", ".m0"));
    let squares = qc_rules::GivenOutcome::Squares(Vec::new());
    let refused = session
        .with_outcome("e7e5", &squares)
        .expect_err("squares are not");
    assert_eq!(
        refused.rules_error().map(RulesError::kind),
        Some(ErrorKind::Notation)
    );
}
