//! The search against an independent reference: a plain expectimax without pruning, without a
//! transposition table and without move ordering, written here on `QuantumGame` alone. At every
//! depth the engine's score must be the reference's best value (alpha-beta, Star1 and the table
//! only skip what cannot change it), on positions with superpositions and measured moves, in
//! both rulesets.

use qc_engine::eval::{evaluate, Weights, WIN};
use qc_engine::{Answer, EngineGame, Limits, SearchConfig, Searcher, StopFlag};
use qc_rules::{Cantwell, Niels, QuantumGame, Ruleset, Status};
use qc_sim::SparseSim;
use rand::SeedableRng;
use std::time::{Duration, Instant};

fn fixed() -> rand_chacha::ChaCha8Rng {
    rand_chacha::ChaCha8Rng::seed_from_u64(0)
}

/// Expectimax by brute force, scored as the engine scores (see `qc_engine::search`).
fn reference<G: QuantumGame>(game: &mut G, depth: u32, ply: u32, weights: &Weights) -> f64 {
    match game.status() {
        Status::Ongoing => {}
        Status::Win(winner, _) => {
            let score = WIN - f64::from(ply) * 0.01;
            return if winner == game.side_to_move() {
                score
            } else {
                -score
            };
        }
        Status::Draw(_) => return 0.0,
    }
    if depth == 0 {
        return evaluate(&game.board_view(false), weights);
    }
    let mut best = f64::NEG_INFINITY;
    for m in game.legal_moves() {
        let Ok(outcomes) = game.move_outcomes(&m.mv) else {
            continue;
        };
        if outcomes.is_empty() {
            continue;
        }
        let mut value = 0.0;
        for o in outcomes {
            game.play(&o.mv, &mut fixed()).expect("outcome plays");
            value -= o.probability * reference(game, depth - 1, ply + 1, weights);
            game.undo().expect("undo");
        }
        best = best.max(value);
    }
    if best == f64::NEG_INFINITY {
        0.0
    } else {
        best
    }
}

fn game<R: Ruleset>(fen: &str, moves: &[&str]) -> R::Game<SparseSim> {
    let start = R::start(Some(fen), None).expect("fen");
    let mut g = R::new_game(&start, SparseSim::new()).expect("game");
    for m in moves {
        g.play_text(m, &mut fixed()).expect("move");
    }
    g
}

/// The engine's search to `depth` (a forced result may end it sooner).
fn search_depth<G: EngineGame>(g: &mut G, depth: u32) -> qc_engine::Found<G::Move> {
    let limits = Limits {
        depth: Some(depth),
        move_time: Some(Duration::from_secs(600)),
        ..Limits::default()
    };
    let before = g.fen();
    let found = Searcher::new(SearchConfig::default())
        .search(g, &limits, StopFlag::new(), &mut |_| {})
        .expect("search");
    assert_eq!(g.fen(), before, "the search leaves the game as it was");
    found
}

fn agrees<G: EngineGame>(g: &mut G, depth: u32) {
    let found = search_depth(g, depth);
    assert_eq!(found.depth, depth);
    let want = reference(g, depth, 0, &Weights::FULL);
    assert!(
        (found.score - want).abs() < 1e-6,
        "depth {depth}: engine {} ({:?}), reference {want}",
        found.score,
        found.best
    );
}

/// A knight split on a3/c3 facing a pawn and a bishop: captures from a superposed source are
/// measured (chance nodes), the pawn can take a half knight.
const SPLIT: (&str, &[&str]) = ("4k3/8/8/8/1p6/8/8/1N2K2b w - - 0 1", &["b1^a3c3", "e8d7"]);

#[test]
fn quantum_chess_scores_equal_brute_force_expectimax() {
    let (fen, moves) = SPLIT;
    let mut g = game::<Cantwell>(fen, moves);
    for depth in 1..=2 {
        agrees(&mut g, depth);
    }
    // Three plies on a smaller board: a split knight and a pawn that can take half of it.
    let mut g = game::<Cantwell>("7k/8/8/8/8/2p5/8/N6K w - - 0 1", &["a1^b3c2"]);
    agrees(&mut g, 3);
}

#[test]
fn quantum_chess_scores_equal_brute_force_from_a_queen_pair() {
    // A rook facing a queen split between two squares of its file.
    // (Depth 3 would have the reference visit about 10^7 positions: the queen's splits.)
    let mut g = game::<Cantwell>("3q3k/8/8/8/8/8/8/3R3K b - - 0 1", &["d8^d5d6"]);
    for depth in 1..=2 {
        agrees(&mut g, depth);
    }
}

#[test]
fn niels_chess_scores_equal_brute_force_expectimax() {
    // A rook against a queen pair on e6/e7: capturing rolls the pair.
    let mut g = game::<Niels>("7k/8/8/8/8/8/8/K3R3 w - - 0 1 qe6e7", &[]);
    for depth in 1..=2 {
        agrees(&mut g, depth);
    }
}

#[test]
fn takes_a_certain_king_at_once() {
    let mut g = game::<Cantwell>("k7/8/8/8/8/8/8/R6K w - - 0 1", &[]);
    let found = search_depth(&mut g, 3);
    assert_eq!(found.best.map(|m| m.to_string()).as_deref(), Some("a1a8"));
    assert!(found.score > WIN - 1.0, "{}", found.score);
}

#[test]
fn a_deadline_ends_the_search_and_a_move_is_still_given() {
    let mut g = game::<Cantwell>(qc_rules::START_FEN, &["b1^a3c3", "g8^f6h6", "e2e4"]);
    let started = Instant::now();
    let limits = Limits::move_time(Duration::from_millis(150));
    let found = Searcher::default()
        .search(&mut g, &limits, StopFlag::new(), &mut |_| {})
        .expect("search");
    let spent = started.elapsed();
    assert!(found.best.is_some());
    assert!(
        spent < Duration::from_millis(150 + 250),
        "took {spent:?} for 150 ms"
    );
    // A raised stop flag ends it at once, with a move.
    let stop = StopFlag::new();
    stop.stop();
    let infinite = Limits {
        infinite: true,
        ..Limits::default()
    };
    let found = Searcher::default()
        .search(&mut g, &infinite, stop, &mut |_| {})
        .expect("search");
    assert!(found.best.is_some());
}

#[test]
fn the_published_best_move_is_the_move_the_search_answers() {
    for (fen, moves, limits) in [
        (SPLIT.0, SPLIT.1, Limits::depth(2)),
        (
            qc_rules::START_FEN,
            &["b1^a3c3", "g8^f6h6", "e2e4"][..],
            Limits::move_time(Duration::from_millis(60)),
        ),
    ] {
        let mut g = game::<Cantwell>(fen, moves);
        let answer = Answer::new();
        let mut searcher = Searcher::default();
        searcher.publish_to(Some(answer.clone()));
        let found = searcher
            .search(&mut g, &limits, StopFlag::new(), &mut |_| {})
            .expect("search");
        // What a thread answering at the deadline would have given, before the search ended.
        let stop = StopFlag::new();
        stop.stop();
        let published = answer.wait(None, false, &stop);
        let best = found.best.map(|m| m.to_string());
        assert!(best.is_some());
        assert_eq!(published, best, "{fen} {moves:?}");
    }
}

#[test]
fn a_move_is_published_before_any_child_is_played() {
    // The stop is raised before the search starts, so no child position is ever played (0
    // nodes), nor every legal move listed: the first legal move found is published, and the
    // thread that answers gives it at once. Before, the whole list was made and ordered first
    // (seconds on a state of a million basis states), and the move published was the first in
    // the engine's order (here the capture f6xe4), not the first legal one.
    let mut g = game::<Cantwell>(qc_rules::START_FEN, &["b1^a3c3", "g8^f6h6", "e2e4"]);
    let first_legal = g.legal_moves()[0].mv.to_string();
    let (found, published) = stopped_search(&mut g, &|_| true);
    assert_eq!(found.nodes, 0, "no child was played");
    assert_eq!(published.as_deref(), Some(first_legal.as_str()));
    assert_eq!(found.best.map(|m| m.to_string()), published);
}

#[test]
fn a_search_stopped_before_its_first_allowed_move_is_listed_still_answers_one() {
    // A GUI's `searchmoves` names only the last legal move; the stop is raised before the search
    // starts. The listing goes on until that move is found, so the answer is it, not none (which
    // UQCI writes `bestmove 0000`, the end of the game to a GUI).
    let mut g = game::<Cantwell>(qc_rules::START_FEN, &[]);
    let last = g.legal_moves().last().expect("legal moves").mv.to_string();
    let (found, published) = stopped_search(&mut g, &|m| m.to_string() == last);
    assert_eq!(found.best.map(|m| m.to_string()), Some(last.clone()));
    assert_eq!(published, Some(last));
}

/// A search among the moves `allowed` accepts, publishing to an answer, with its stop raised
/// before it starts: what it found, and the move the answering thread gives.
fn stopped_search<G: EngineGame>(
    g: &mut G,
    allowed: &dyn Fn(&G::Move) -> bool,
) -> (qc_engine::Found<G::Move>, Option<String>) {
    let answer = Answer::new();
    let mut searcher = Searcher::default();
    searcher.publish_to(Some(answer.clone()));
    let stop = StopFlag::new();
    stop.stop();
    let limits = Limits::move_time(Duration::from_secs(60));
    let found = searcher
        .search_among(g, &limits, stop.clone(), allowed, &mut |_| {})
        .expect("search");
    (found, answer.wait(None, false, &stop))
}

/// A work limit alone (no time) ends the search by a count: the work spent reaches the limit by
/// at most one move's state, and two searches give the same move, score and nodes whatever
/// the machine's load.
#[test]
fn a_work_limit_without_a_clock_ends_the_search_by_a_count() {
    let (fen, moves) = SPLIT;
    let mut g = game::<Cantwell>(fen, moves);
    let limits = Limits {
        work: Some(3_000),
        ..Limits::default()
    };
    let mut run = || {
        Searcher::new(SearchConfig::default())
            .search(&mut g, &limits, StopFlag::new(), &mut |_| {})
            .expect("search")
    };
    let first = run();
    let largest_state = 8;
    assert!(
        (3_000..3_000 + largest_state).contains(&first.work),
        "work {}",
        first.work
    );
    assert!(first.depth >= 2, "depth {}", first.depth);
    let second = run();
    assert_eq!(
        (first.best, first.score, first.nodes, first.depth),
        (second.best, second.score, second.nodes, second.depth)
    );
}
