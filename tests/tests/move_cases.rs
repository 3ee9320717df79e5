//! The move-case table: every case plays through the engine and classifies as it says, the table
//! covers every move type and variant, and each featured move's circuit is snapshotted (IR text of
//! the move alone, and of the whole case game), in every format of `qchess_tests::formats` (IR text
//! and OpenQASM 3).
//!
//! Snapshots live in `tests/tests/snapshots/`; accept changes with `INSTA_UPDATE=always cargo test
//! -p qchess-tests` (or `cargo insta accept`) after checking the diff.

use qc_rules::{MoveType, QuantumGame, Variant};
use qchess_tests::cases::{play, play_on, PlayedCase, CASES};
use qchess_tests::formats::FORMATS;
use qchess_tests::metrics::{counts_text, ir_lines, metrics};
use std::collections::BTreeSet;

fn played(name: &str) -> PlayedCase {
    let case = qchess_tests::cases::case(name).unwrap_or_else(|| panic!("no case {name}"));
    play(case).unwrap_or_else(|e| panic!("case {name}: {e}"))
}

// Every case plays and classifies as written on every simulator, with the same circuit as on the
// reference simulator (classification reads the simulator's support, so a simulator that gets a
// state wrong shows here).
qc_sim::for_each_backend!(every_case_plays_and_classifies_as_written, |backend| {
    let mut failures = Vec::new();
    for case in CASES {
        match (play_on(backend(), case), play(case)) {
            (Ok(got), Ok(want)) if got.game.circuit() != want.game.circuit() => {
                failures.push(format!(
                    "{}: another circuit than the reference's",
                    case.name
                ));
            }
            (Ok(_), Ok(_)) => {}
            (Err(e), _) | (_, Err(e)) => failures.push(format!("{}: {e}", case.name)),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
});

#[test]
fn case_names_are_unique() {
    let names: BTreeSet<&str> = CASES.iter().map(|c| c.name).collect();
    assert_eq!(names.len(), CASES.len());
}

#[test]
fn the_table_covers_every_reachable_type_and_variant() {
    use MoveType as T;
    use Variant as V;
    let have: BTreeSet<(&str, &str, bool)> = CASES
        .iter()
        .map(|c| (c.move_type.as_str(), c.variant.as_str(), c.measured))
        .collect();
    let want = [
        (T::Jump, V::Basic, false),
        (T::Jump, V::Excluded, true),
        (T::Jump, V::Capture, false),
        (T::Jump, V::Capture, true),
        (T::Slide, V::Basic, false),
        (T::Slide, V::Excluded, true),
        (T::Slide, V::Capture, false),
        (T::Slide, V::Capture, true),
        (T::SplitJump, V::Basic, false),
        (T::SplitSlide, V::Basic, false),
        (T::MergeJump, V::Basic, false),
        (T::MergeSlide, V::Basic, false),
        (T::PawnStep, V::Basic, false),
        (T::PawnStep, V::Excluded, true),
        (T::PawnTwoStep, V::Basic, false),
        (T::PawnTwoStep, V::Excluded, true),
        (T::PawnCapture, V::Capture, false),
        (T::PawnCapture, V::Capture, true),
        (T::EnPassant, V::Basic, false),
        (T::EnPassant, V::Excluded, true),
        (T::EnPassant, V::Capture, false),
        (T::EnPassant, V::Capture, true),
        (T::KingsideCastle, V::Basic, false),
        (T::KingsideCastle, V::Excluded, true),
        (T::QueensideCastle, V::Basic, false),
        (T::QueensideCastle, V::Excluded, true),
    ];
    let missing: Vec<String> = want
        .iter()
        .filter(|(t, v, m)| !have.contains(&(t.as_str(), v.as_str(), *m)))
        .map(|(t, v, m)| format!("{t}/{v}/measured={m}"))
        .collect();
    assert!(missing.is_empty(), "no case for {missing:?}");
}

qc_sim::for_each_backend!(
    measured_cases_emit_exactly_one_measurement_and_unmeasured_none,
    |backend| {
        for case in CASES {
            let p = play_on(backend(), case).unwrap_or_else(|e| panic!("case {}: {e}", case.name));
            let m = metrics(p.featured_circuit().instructions());
            let want = usize::from(case.measured);
            assert_eq!(m.measurements, want, "case {}", case.name);
        }
    }
);

/// Hand-checked circuits of the simplest cases: a test that fails if lowering changes, independent
/// of the snapshot files.
#[test]
fn simple_cases_have_the_circuits_of_circuits_md() {
    let lines = |name: &str| {
        let p = played(name);
        let c = p.featured_circuit();
        ir_lines(p.game.circuit(), c.instructions())
            .lines()
            .map(|l| l.split("  #").next().unwrap_or("").trim().to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(lines("jump_basic"), ["iswap b1, c3"]);
    assert_eq!(lines("split_jump"), ["siswap b1, a3", "iswap b1, c3"]);
    assert_eq!(lines("kingside_castle"), ["iswap e1, g1", "iswap h1, f1"]);
    assert_eq!(lines("slide_basic_path"), ["iswap a1, a5 ctrl(a3=0)"]);
}

fn snapshot_header(p: &PlayedCase, name: &str) -> String {
    let case = qchess_tests::cases::case(name).unwrap_or_else(|| panic!("no case {name}"));
    let c = p.featured_circuit();
    let m = metrics(c.instructions());
    format!(
        "case: {}\nfen: {}\nmoves: {}\nfeatured: {} ({} {}{})\nqubits: {}, gates: {} ({}), two-qubit depth: {}, measurements: {}\n\n",
        case.name,
        case.fen,
        case.all_moves(),
        p.featured.mv,
        p.featured.move_type(),
        p.featured.variant(),
        if p.featured.measured() { ", measured" } else { "" },
        m.qubits,
        m.gates,
        counts_text(&m.gate_counts),
        m.two_qubit_depth,
        m.measurements,
    )
}

#[test]
fn featured_move_circuits() {
    for case in CASES {
        let p = played(case.name);
        for format in FORMATS {
            insta::assert_snapshot!(
                format!("{}_move_{}", format.name, case.name),
                snapshot_header(&p, case.name) + &(format.featured)(&p)
            );
        }
    }
}

#[test]
fn whole_case_circuits() {
    for case in CASES {
        let p = played(case.name);
        for format in FORMATS {
            insta::assert_snapshot!(
                format!("{}_game_{}", format.name, case.name),
                (format.whole)(p.game.circuit())
            );
        }
    }
}
