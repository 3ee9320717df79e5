//! The example games in `circuits/`: every one replays through the engine with every
//! measurement outcome written in; the Bell-state games give the paper's numbers; the full game
//! is long and shows what its header says; and `circuits/tour/` (one small game per move case,
//! generated from `tests/src/cases.rs`) is up to date. Regenerate the tour with
//! `QCHESS_BLESS=1 cargo test -p qchess-tests --test examples`.

use qc_rules::Square;
use qc_rules::{Color, GameRecord, MoveType, QuantumGame, SquarePair, Status, Variant, WinReason};
use qchess_tests::cases::{play_record, play_record_on, CASES};
use std::collections::HashSet;
use std::path::{Path, PathBuf};

fn circuits_dir() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../circuits"))
}

fn game_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).expect("circuits/ is readable") {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            out.extend(game_files(&path));
        } else if path.extension().is_some_and(|e| e == "qcg") {
            out.push(path);
        }
    }
    out.sort();
    out
}

fn load(name: &str) -> GameRecord {
    let text = std::fs::read_to_string(circuits_dir().join(name)).expect("example exists");
    GameRecord::parse(&text).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn sq(name: &str) -> Square {
    Square::parse(name).expect("a square")
}

/// The pair of two different squares.
fn pair(a: &str, b: &str) -> SquarePair {
    SquarePair::new(sq(a), sq(b)).expect("two squares")
}

#[test]
fn every_example_game_replays_exactly() {
    let files = game_files(&circuits_dir());
    assert!(files.len() >= 5, "found only {files:?}");
    let mut failures = Vec::new();
    for path in &files {
        let text = std::fs::read_to_string(path).expect("readable");
        let result = GameRecord::parse(&text)
            .map_err(|e| e.to_string())
            .and_then(|r| play_record(&r).map(|_| ()).map_err(|e| e.to_string()));
        if let Err(e) = result {
            failures.push(format!("{}: {e}", path.display()));
        }
        assert!(
            text.trim_start().starts_with('[') && text.contains('{'),
            "{} has no comment header",
            path.display()
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn assert_close(actual: &[f64], expected: &[f64]) {
    for (a, e) in actual.iter().zip(expected) {
        assert!((a - e).abs() < 1e-12, "{actual:?} != {expected:?}");
    }
}

qc_sim::for_each_backend!(bell_psi_plus_matches_the_paper, |backend| {
    let game = play_record_on(backend(), &load("bell_psi_plus.qcg")).expect("replays");
    // Psi+ (up to a global phase): O1 = 1, O3 = O4 = 1/2 (circuits.md sec. 4).
    assert_close(
        &game.bell_expectations(pair("b1", "a1")),
        &[1.0, 0.0, 0.5, 0.5, 0.0, 0.0, 0.0, 0.0],
    );
    let (same, opposite) = game.same_opposite(pair("b1", "a1"));
    assert_close(&[same, opposite], &[0.0, 1.0]);
    assert!(game.probability(sq("a2")) < 1e-24);
});

qc_sim::for_each_backend!(bell_psi_minus_matches_the_paper, |backend| {
    let game = play_record_on(backend(), &load("bell_psi_minus.qcg")).expect("replays");
    assert_close(
        &game.bell_expectations(pair("b1", "a1")),
        &[0.0, 1.0, 0.5, 0.5, 0.0, 0.0, 0.0, 0.0],
    );
});

qc_sim::for_each_backend!(interference_matches_the_paper, |backend| {
    let game = play_record_on(backend(), &load("interference.qcg")).expect("replays");
    let a = 0.5 + 1.0 / (2.0 * 2f64.sqrt());
    let b = 0.5 - 1.0 / (2.0 * 2f64.sqrt());
    assert_close(
        &[
            game.probability(sq("a1")),
            game.probability(sq("b1")),
            game.probability(sq("b2")),
        ],
        &[a * a, 0.25, b * b],
    );
});

#[test]
fn the_full_game_is_long_and_shows_what_it_says() {
    let record = load("full_game.qcg");
    assert_eq!(record.start, qc_rules::Board::start());
    let game = play_record(&record).expect("replays");
    assert!(game.moves().len() >= 60);
    let seen: HashSet<(MoveType, Variant, bool)> = game
        .moves()
        .iter()
        .map(|r| (r.move_type(), r.variant(), r.measured()))
        .collect();
    let types: HashSet<MoveType> = seen.iter().map(|s| s.0).collect();
    for t in [
        MoveType::SplitJump,
        MoveType::SplitSlide,
        MoveType::MergeJump,
        MoveType::MergeSlide,
        MoveType::PawnCapture,
        MoveType::EnPassant,
        MoveType::KingsideCastle,
    ] {
        assert!(types.contains(&t), "no {t}");
    }
    assert!(seen.contains(&(MoveType::Jump, Variant::Capture, true)));
    assert!(seen.contains(&(MoveType::PawnStep, Variant::Excluded, true)));
    assert!(game.moves().iter().any(|r| r.mv.promotion.is_some()));
    assert!(game.moves().iter().any(|r| r.measured() && !r.applied()));
    assert_eq!(
        game.status(),
        Status::Win(Color::White, WinReason::KingCaptured)
    );
}

fn tour_file(index: usize, case: &qchess_tests::cases::MoveCase) -> (String, String) {
    let name = format!("{:02}_{}.qcg", index + 1, case.name);
    let text = format!(
        "[Event \"Tour {:02}: {} ({}{})\"]\n[FEN \"{}\"]\n{{ {} Generated from tests/src/cases.rs \
         (QCHESS_BLESS=1 cargo test -p qchess-tests --test examples); the last move is the \
         featured one. }}\n{}\n",
        index + 1,
        case.name,
        case.move_type,
        if case.variant == Variant::Basic {
            String::new()
        } else {
            format!(", {}", case.variant)
        },
        case.fen,
        case.about,
        case.all_moves()
    );
    (name, text)
}

#[test]
fn the_tour_is_up_to_date() {
    let dir = circuits_dir().join("tour");
    let bless = std::env::var_os("QCHESS_BLESS").is_some_and(|v| v == "1");
    if bless {
        std::fs::create_dir_all(&dir).expect("circuits/tour can be created");
        for old in game_files(&dir) {
            std::fs::remove_file(old).expect("old tour file removable");
        }
    }
    let mut stale = Vec::new();
    for (i, case) in CASES.iter().enumerate() {
        let (name, text) = tour_file(i, case);
        let path = dir.join(&name);
        if bless {
            std::fs::write(&path, &text).expect("tour file writable");
        } else if std::fs::read_to_string(&path).ok().as_deref() != Some(text.as_str()) {
            stale.push(name);
        }
    }
    let count = game_files(&dir).len();
    assert!(
        stale.is_empty() && count == CASES.len(),
        "circuits/tour is stale ({stale:?}, {count} files for {} cases): regenerate with \
         `QCHESS_BLESS=1 cargo test -p qchess-tests --test examples`",
        CASES.len()
    );
}

#[test]
fn the_one_game_tour_shows_what_its_header_lists() {
    use MoveType as T;
    use Variant as V;
    let game = play_record(&load("tour.qcg")).expect("replays");
    let seen: HashSet<(MoveType, Variant, bool)> = game
        .moves()
        .iter()
        .map(|r| (r.move_type(), r.variant(), r.measured()))
        .collect();
    for want in [
        (T::SplitJump, V::Basic, false),
        (T::PawnTwoStep, V::Basic, false),
        (T::PawnStep, V::Basic, false),
        (T::Slide, V::Basic, false),
        (T::Jump, V::Basic, false),
        (T::KingsideCastle, V::Excluded, true),
        (T::QueensideCastle, V::Basic, false),
        (T::PawnTwoStep, V::Excluded, true),
        (T::SplitSlide, V::Basic, false),
        (T::EnPassant, V::Capture, false),
        (T::PawnCapture, V::Capture, true),
        (T::Slide, V::Excluded, true),
        (T::Jump, V::Excluded, true),
        (T::Slide, V::Capture, false),
        (T::Jump, V::Capture, true),
        (T::MergeSlide, V::Basic, false),
        (T::EnPassant, V::Basic, false),
        (T::Slide, V::Capture, true),
        (T::MergeJump, V::Basic, false),
    ] {
        assert!(seen.contains(&want), "the tour has no {want:?}");
    }
}

#[test]
fn the_tours_castle_runs_only_where_its_path_square_is_empty() {
    let mut record = load("tour.qcg");
    record.moves.truncate(11);
    let game = play_record(&record).expect("replays");
    assert_eq!(game.moves()[10].move_type(), MoveType::QueensideCastle);
    // b1 held half a knight, so king and rook castled in half the branches.
    for (square, p) in [
        ("e1", 0.5),
        ("c1", 0.5),
        ("a1", 0.5),
        ("d1", 0.5),
        ("b1", 0.5),
    ] {
        assert!((game.probability(sq(square)) - p).abs() < 1e-12, "{square}");
    }
}
