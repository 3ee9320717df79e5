//! `qc_front::counts`: the parsers (every format, every error) and the mitigations on
//! hand-constructed counts whose right answer is computed by hand.

use qc_export::header::{Conserved, MeasuredBit, RecordedBit, ZeroBit};
use qc_export::{BoardMap, Holds};
use qc_front::counts::{
    estimate_board, exact_board, parse_counts, Calibration, Counts, CountsError, CountsFormat,
    KeyProblem, Mitigation,
};
use qc_rules::Square;

fn sq(s: &str) -> Square {
    Square::parse(s).expect("square")
}

fn site(s: &str) -> qc_ir::Site {
    sq(s).site()
}

fn bits(s: &str) -> Vec<bool> {
    s.chars().map(|c| c == '1').collect()
}

#[test]
fn qiskit_keys_are_read_rightmost_first_and_registers_joined() {
    let c =
        parse_counts("{\"1 01\": 3, \"110\": 2}", Some(CountsFormat::Qiskit), 3).expect("counts");
    // "1 01" -> c2 c1 c0 = 1 0 1; "110" -> c0 = 0, c1 = 1, c2 = 1.
    assert_eq!(c.outcomes.get(&bits("101")), Some(&3));
    assert_eq!(c.outcomes.get(&bits("011")), Some(&2));
    assert_eq!(c.shots(), 5);
    // A key with a space is Qiskit without being told.
    let detected = parse_counts("{\"1 01\": 3, \"110\": 2}", None, 3).expect("detected");
    assert_eq!(detected, c);
}

#[test]
fn braket_keys_are_read_leftmost_first() {
    let text = "{\"measurement_counts\": {\"110\": 5, \"001\": 1}}";
    let c = parse_counts(text, None, 3).expect("counts");
    assert_eq!(c.outcomes.get(&bits("110")), Some(&5));
    assert_eq!(c.outcomes.get(&bits("001")), Some(&1));
    let plain = parse_counts("{\"110\": 5, \"001\": 1}", Some(CountsFormat::Braket), 3)
        .expect("plain braket");
    assert_eq!(plain, c);
    // Qiskit was asked for, but the file is Braket's.
    assert!(matches!(
        parse_counts(text, Some(CountsFormat::Qiskit), 3),
        Err(CountsError::BraketFileAsQiskit)
    ));
}

#[test]
fn csv_has_an_optional_header_comments_and_qiskit_order() {
    let text = "bits,count\n# from a device\n011,7\n\n011, 3\n100,1\n";
    let c = parse_counts(text, None, 3).expect("csv");
    assert_eq!(c.outcomes.get(&bits("110")), Some(&10));
    assert_eq!(c.outcomes.get(&bits("001")), Some(&1));
}

#[test]
fn every_error_names_the_problem_and_the_place() {
    let err = |text: &str, format: Option<CountsFormat>, width: usize| {
        parse_counts(text, format, width).expect_err("an error")
    };
    match err(
        "{\n\"01\": 1,\n\"0110\": 2\n}",
        Some(CountsFormat::Qiskit),
        2,
    ) {
        CountsError::BadKey {
            key,
            line: Some(3),
            reason:
                KeyProblem::WrongWidth {
                    found: 4,
                    expected: 2,
                },
        } => assert_eq!(key, "0110"),
        other => panic!("{other:?}"),
    }
    match err("bits,count\n01,1\n0a,2\n", None, 2) {
        CountsError::BadKey {
            line: Some(3),
            reason:
                KeyProblem::BadCharacter {
                    character: 'a',
                    position: 1,
                },
            ..
        } => {}
        other => panic!("{other:?}"),
    }
    assert!(matches!(
        err("{\"01\": 0}", Some(CountsFormat::Qiskit), 2),
        CountsError::ZeroShots
    ));
    assert!(matches!(
        err("bits,count\n", None, 2),
        CountsError::ZeroShots
    ));
    for bad in ["-1", "1.5", "\"3\""] {
        assert!(matches!(
            err(&format!("{{\"01\": {bad}}}"), Some(CountsFormat::Qiskit), 2),
            CountsError::BadCount { line: Some(1), .. }
        ));
    }
    assert!(matches!(
        err("01,x\n", None, 2),
        CountsError::BadCount { line: Some(1), .. }
    ));
    assert!(matches!(
        err("01 5\n", None, 2),
        CountsError::CsvLine { line: 1, .. }
    ));
    assert!(matches!(
        err("{\"01\": 1,\n \"10\" 2}", None, 2),
        CountsError::Json { line: 2, .. }
    ));
    assert!(matches!(
        err("[1, 2]", Some(CountsFormat::Qiskit), 2),
        CountsError::NotAnObject
    ));
    // Without a space or a wrapper, "01" means c0 = 1 in Qiskit order and c0 = 0 in Braket's.
    assert!(matches!(
        err("{\"01\": 1}", None, 2),
        CountsError::Ambiguous
    ));
    // Braket keys have no register separators.
    assert!(matches!(
        err("{\"0 1\": 1}", Some(CountsFormat::Braket), 2),
        CountsError::BadKey {
            reason: KeyProblem::BadCharacter { character: ' ', .. },
            ..
        }
    ));
    assert!(matches!(
        err(
            &format!("{{\"0\": {}, \"1\": 1}}", u64::MAX),
            Some(CountsFormat::Qiskit),
            1
        ),
        CountsError::TooManyShots
    ));
}

/// Bits: c0 recorded 1; c1 = a1 (white king, qubit 0); c2 = b1 (white king, qubit 1); c3 an
/// ancilla returned to |0>; a1 + b1 = 1 (one king).
fn king_map() -> BoardMap {
    BoardMap {
        clbits: 4,
        measured: vec![
            MeasuredBit {
                bit: 1,
                qubit: 0,
                holds: Holds::Site(site("a1")),
                piece: Some("K".into()),
            },
            MeasuredBit {
                bit: 2,
                qubit: 1,
                holds: Holds::Site(site("b1")),
                piece: Some("K".into()),
            },
        ],
        recorded: vec![RecordedBit { bit: 0, value: 1 }],
        zero: vec![ZeroBit {
            bit: 3,
            qubit: 2,
            ancilla: "path0".into(),
        }],
        fixed: Vec::new(),
        conserved: vec![Conserved {
            name: "pieces".into(),
            bits: vec![1, 2],
            total: 1,
        }],
    }
}

/// Counts from bit strings written c0 first.
fn counts(entries: &[(&str, u64)]) -> Counts {
    let mut c = Counts::new(entries[0].0.len());
    for (b, n) in entries {
        c.add(bits(b), *n).expect("add");
    }
    c
}

#[test]
fn postselection_and_symmetry_drop_exactly_the_broken_shots() {
    let map = king_map();
    let c = counts(&[
        ("1100", 60), // kept: king on a1
        ("1010", 20), // kept: king on b1
        ("0100", 10), // recorded outcome differs
        ("1101", 5),  // the ancilla reads 1
        ("1110", 3),  // two kings
        ("1000", 2),  // no king
    ]);
    let e = estimate_board(&map, &c, &Mitigation::default(), None).expect("estimate");
    assert_eq!((e.shots, e.kept), (100, 80));
    assert_eq!(e.discarded.get("postselect"), Some(&10));
    assert_eq!(e.discarded.get("ancilla"), Some(&5));
    assert_eq!(e.discarded.get("conserved_pieces"), Some(&5));
    let a1 = &e.squares[&sq("a1")];
    assert!((a1.probability - 0.75).abs() < 1e-12);
    assert!((a1.stderr - (0.75f64 * 0.25 / 80.0).sqrt()).abs() < 1e-12);
    assert_eq!(a1.piece.as_deref(), Some("K"));
    // Post-selection alone keeps the symmetry breakers: a1 reads 1 in 60 + 5 + 3 of 90.
    let only_post: Mitigation = "postselect".parse().expect("list");
    let e = estimate_board(&map, &c, &only_post, None).expect("estimate");
    assert_eq!(e.kept, 90);
    assert!((e.squares[&sq("a1")].probability - 68.0 / 90.0).abs() < 1e-12);
    // Nothing kept is an error, not a board of NaN.
    let none = counts(&[("0100", 4)]);
    assert!(matches!(
        estimate_board(&map, &none, &Mitigation::default(), None),
        Err(CountsError::NothingKept { shots: 4, .. })
    ));
    assert!(matches!(
        estimate_board(&map, &counts(&[("110", 1)]), &Mitigation::default(), None),
        Err(CountsError::WidthMismatch {
            found: 3,
            expected: 4
        })
    ));
}

#[test]
fn readout_correction_inverts_a_known_readout_error_model() {
    // True board: king on a1 with probability 0.6, on b1 with 0.4. Readout errors
    // q0 (a1): P(1|0) = 0.1, P(0|1) = 0.2; q1 (b1): P(1|0) = 0.05, P(0|1) = 0.1.
    let (e0a, e1a, e0b, e1b) = (0.1, 0.2, 0.05, 0.1);
    let read = |truth: bool, e0: f64, e1: f64, seen: bool| match (truth, seen) {
        (false, false) => 1.0 - e0,
        (false, true) => e0,
        (true, false) => e1,
        (true, true) => 1.0 - e1,
    };
    let shots = 100_000.0;
    let mut entries = Vec::new();
    for (a, b) in [(false, false), (false, true), (true, false), (true, true)] {
        let p = 0.6 * read(true, e0a, e1a, a) * read(false, e0b, e1b, b)
            + 0.4 * read(false, e0a, e1a, a) * read(true, e0b, e1b, b);
        let key = format!("1{}{}0", u8::from(a), u8::from(b));
        entries.push((key, (p * shots).round() as u64));
    }
    let entries: Vec<(&str, u64)> = entries.iter().map(|(k, n)| (k.as_str(), *n)).collect();
    let c = counts(&entries);
    let calibration = Calibration::parse(
        r#"{"qubits": [{"qubit": 0, "p1_given_0": 0.1, "p0_given_1": 0.2},
                       {"qubit": 1, "p1_given_0": 0.05, "p0_given_1": 0.1}]}"#,
    )
    .expect("calibration");
    let m: Mitigation = "postselect,readout".parse().expect("list");
    let e = estimate_board(&king_map(), &c, &m, Some(&calibration)).expect("estimate");
    let a1 = &e.squares[&sq("a1")];
    let b1 = &e.squares[&sq("b1")];
    assert!((a1.probability - 0.6).abs() < 1e-4, "{a1:?}");
    assert!((b1.probability - 0.4).abs() < 1e-4, "{b1:?}");
    // Observed P(a1 = 1) = 0.6 * 0.8 + 0.4 * 0.1 = 0.52; the error grows by 1 / (1 - 0.3).
    let raw = (0.52f64 * 0.48 / shots).sqrt() / 0.7;
    assert!((a1.stderr - raw).abs() < 1e-6, "{a1:?} vs {raw}");
    // Without the correction the marginal stays biased.
    let plain = estimate_board(&king_map(), &c, &"postselect".parse().expect("list"), None)
        .expect("estimate");
    assert!((plain.squares[&sq("a1")].probability - 0.52).abs() < 1e-4);
    // Errors: no calibration, a qubit missing, an uninvertible or improbable entry.
    assert!(matches!(
        estimate_board(&king_map(), &c, &m, None),
        Err(CountsError::MissingCalibration)
    ));
    let partial =
        Calibration::parse(r#"{"qubits": [{"qubit": 0, "p1_given_0": 0.1, "p0_given_1": 0.2}]}"#)
            .expect("calibration");
    assert!(matches!(
        estimate_board(&king_map(), &c, &m, Some(&partial)),
        Err(CountsError::QubitNotCalibrated { qubit: 1, bit: 2 })
    ));
    for bad in [
        r#"{"qubits": [{"qubit": 0, "p1_given_0": 0.6, "p0_given_1": 0.5}]}"#,
        r#"{"qubits": [{"qubit": 0, "p1_given_0": -0.1, "p0_given_1": 0.5}]}"#,
        r#"{"qubits": [{"qubit": 0, "p1_given_0": 0.1, "p0_given_1": 0.1}, {"qubit": 0, "p1_given_0": 0.1, "p0_given_1": 0.1}]}"#,
    ] {
        assert!(
            matches!(Calibration::parse(bad), Err(CountsError::Calibration(_))),
            "{bad}"
        );
    }
}

#[test]
fn exact_board_conditions_on_the_recorded_outcomes_and_tvd_is_half_l1() {
    let map = king_map();
    // c0 = 1 (kept) with the king on a1 (0.3) or b1 (0.1); c0 = 0 (another branch) 0.6.
    let dist: qc_ir::Distribution = [
        (bits("1100"), 0.3),
        (bits("1010"), 0.1),
        (bits("0100"), 0.6),
    ]
    .into_iter()
    .collect();
    let exact = exact_board(&map, &dist).expect("exact");
    assert!((exact.squares[&sq("a1")] - 0.75).abs() < 1e-12);
    assert!((exact.squares[&sq("b1")] - 0.25).abs() < 1e-12);
    let c = counts(&[("1100", 50), ("1010", 50)]);
    let m = Mitigation::default();
    let mut e = estimate_board(&map, &c, &m, None).expect("estimate");
    e.compare(&map, &c, &m, &exact);
    // |0.5 - 0.75| + |0.5 - 0.25| = 0.5, halved.
    assert!((e.tvd.expect("tvd") - 0.25).abs() < 1e-12);
    let impossible: qc_ir::Distribution = [(bits("0100"), 1.0)].into_iter().collect();
    assert!(matches!(
        exact_board(&map, &impossible),
        Err(CountsError::ImpossibleOutcomes)
    ));
}

#[test]
fn mitigation_lists_parse() {
    let m: Mitigation = "postselect,symmetry,readout".parse().expect("list");
    assert!(m.postselect && m.symmetry && m.readout);
    let none: Mitigation = "none".parse().expect("none");
    assert!(!none.postselect && !none.symmetry && !none.readout);
    assert!("postselect,magic".parse::<Mitigation>().is_err());
    let err = "postselect,readout,bogus"
        .parse::<Mitigation>()
        .expect_err("bad mitigation");
    assert_eq!(
        err.to_string(),
        "unknown mitigation `bogus` (expected a comma-separated list of: postselect, symmetry, readout, none)"
    );
}

/// Issue 30, item 11: 40,000 distinct 65-bit keys (a wide program's 100k-shot run has about as
/// many) took 107 s, the line of every key being searched from the file's start; the line is now
/// found only for a refused key. Both orders, every key read, and a bad last key still named
/// with its line. (Its time is measured side by side in docs/performance.md, not here.)
#[test]
fn many_distinct_wide_keys_are_read_and_a_bad_one_is_still_located() {
    const KEYS: u64 = 40_000;
    let key = |k: u64| {
        format!(
            "{:065b}",
            u128::from(k) * 0x9E37_79B9_7F4A_7C15 % (1u128 << 65)
        )
    };
    let members: Vec<String> = (0..KEYS)
        .map(|k| format!("\"{}\": {}", key(k), k + 1))
        .collect();
    for format in [CountsFormat::Qiskit, CountsFormat::Braket] {
        let text = format!("{{\n{}\n}}", members.join(",\n"));
        let c = parse_counts(&text, Some(format), 65).expect("counts");
        assert_eq!(c.outcomes.len() as u64, KEYS);
        assert_eq!(c.shots(), KEYS * (KEYS + 1) / 2);
        let bad = format!(
            "{{\n{},\n\"{}\": 1\n}}",
            members.join(",\n"),
            "2".repeat(65)
        );
        match parse_counts(&bad, Some(format), 65).expect_err("a bad key") {
            CountsError::BadKey { line, .. } => assert_eq!(line, Some(KEYS as usize + 2)),
            other => panic!("{other:?}"),
        }
    }
}

/// Issue 30, item 3: a bit string written twice adds up in every format (JSON kept the last
/// one, CSV added them up); beside Braket's `measurement_counts` only Braket's own result
/// members may stand.
#[test]
fn repeated_bit_strings_add_up_and_stray_members_are_refused() {
    let qiskit =
        parse_counts("{\"0001\": 5, \"0001\": 7}", Some(CountsFormat::Qiskit), 4).expect("qiskit");
    assert_eq!(qiskit.outcomes.get(&bits("1000")), Some(&12));
    assert_eq!(qiskit.shots(), 12);
    // "0 001" and "0001" are one outcome in Qiskit's order.
    let separated = parse_counts("{\"0001\": 5, \"0 001\": 7}", None, 4).expect("detected");
    assert_eq!(separated, qiskit);
    let braket = parse_counts(
        "{\"measurement_counts\": {\"0001\": 5, \"1000\": 1, \"0001\": 7}, \"measured_qubits\": [0, 1, 2, 3]}",
        None,
        4,
    )
    .expect("braket");
    assert_eq!(braket.outcomes.get(&bits("0001")), Some(&12));
    assert_eq!(braket.shots(), 13);
    let csv = parse_counts("0001,5\n0001,7\n", None, 4).expect("csv");
    assert_eq!(csv, qiskit);
    // A wrapper with a member Braket does not write is not taken for Braket's.
    match parse_counts(
        "{\"measurement_counts\": {\"0001\": 5}, \"counts\": {\"1000\": 7}}",
        None,
        4,
    ) {
        Err(CountsError::StrayMember { name }) => assert_eq!(name, "counts"),
        other => panic!("{other:?}"),
    }
    match parse_counts(
        "{\"measurement_counts\": {\"0001\": 5}, \"measurement_counts\": {\"1000\": 7}}",
        Some(CountsFormat::Braket),
        4,
    ) {
        Err(CountsError::RepeatedMember { name }) => assert_eq!(name, "measurement_counts"),
        other => panic!("{other:?}"),
    }
    // The sum of repeated strings is checked like any total.
    assert!(matches!(
        parse_counts(
            &format!("{{\"01\": {}, \"01\": 1}}", u64::MAX),
            Some(CountsFormat::Qiskit),
            2
        ),
        Err(CountsError::TooManyShots)
    ));
}

/// Issue 30, item 8: `qchess run --shots N --json` output is read (its keys in Qiskit order),
/// its output without shots is refused as such, and a file that is not counts says which
/// formats are read.
#[test]
fn run_output_is_read_and_a_file_that_is_not_counts_names_the_formats() {
    let run = "{\n  \"counts\": {\n    \"0001\": 5,\n    \"1000\": 7\n  }\n}\n";
    let c = parse_counts(run, None, 4).expect("qchess run --shots --json");
    assert_eq!(c.outcomes.get(&bits("1000")), Some(&5));
    assert_eq!(c.outcomes.get(&bits("0001")), Some(&7));
    assert_eq!(c.shots(), 12);
    let probabilities =
        "{\n  \"probabilities\": {\n    \"0001\": 0.5,\n    \"1000\": 0.5\n  }\n}\n";
    assert!(matches!(
        parse_counts(probabilities, None, 4),
        Err(CountsError::Probabilities)
    ));
    let other = "{\"shots\": 12,\n \"results\": {\"0001\": 12}}";
    match parse_counts(other, Some(CountsFormat::Qiskit), 4) {
        Err(e @ CountsError::NotCounts { line: Some(2), .. }) => {
            let message = e.to_string();
            for format in [
                "get_counts()",
                "measurement_counts",
                "--shots N --json",
                "CSV",
            ] {
                assert!(message.contains(format), "{message}");
            }
        }
        other => panic!("{other:?}"),
    }
}
