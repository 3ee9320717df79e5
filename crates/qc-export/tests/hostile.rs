//! Hostile input for the OpenQASM readers: truncated, binary, deep, huge numbers, unterminated
//! comments, includes of other files, and the constructs `oq3_semantics` panics on. Every input
//! must give a circuit or an `ImportError` with a line and column; a panic fails the test (the
//! test harness turns it into a failure) and a stack overflow aborts it. The mutation test runs
//! 3,000 rounds by default; `HOSTILE_ROUNDS=60000` runs a longer search.

use qc_export::{import_qasm, import_qasm2, import_qasm3, ImportError, ImportErrorKind};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const V3: &str = "OPENQASM 3.0;\ninclude \"stdgates.inc\";\n";
const V2: &str = "OPENQASM 2.0;\ninclude \"qelib1.inc\";\n";

fn err3(body: &str) -> ImportError {
    import_qasm3(&format!("{V3}{body}")).expect_err(body)
}

fn err2(body: &str) -> ImportError {
    import_qasm2(&format!("{V2}{body}")).expect_err(body)
}

#[test]
fn deep_nesting_is_refused_with_line_and_column() {
    let n = 100_000;
    let parens = format!("{}1{}", "(".repeat(n), ")".repeat(n));
    let e = err3(&format!("qubit q;\nrz({parens}) q;\n"));
    assert_eq!(
        (e.line, &e.kind),
        (
            4,
            &ImportErrorKind::NestingTooDeep {
                max: qc_export::guard3::MAX_NESTING
            }
        ),
        "{e}"
    );
    assert!(e.column > 4, "{e}");
    let e = err3(&format!("qubit q;\nrz({}1) q;\n", "-".repeat(n)));
    assert_eq!(e.line, 4, "{e}");
    let e = err3(&format!("qubit q;\nrz({}) q;\n", vec!["1"; n].join("+")));
    assert_eq!(e.line, 4, "{e}");
    let e = err3(&format!("{}\n", "{".repeat(n)));
    assert_eq!(e.line, 3, "{e}");
    let e = err2(&format!("qreg q[1];\nrz({parens}) q[0];\n"));
    assert_eq!(e.line, 4, "{e}");
    assert!(e.column > 4, "{e}");
    assert!(
        matches!(
            e.kind,
            ImportErrorKind::Angle(qc_ir::angle::AngleError::TooDeep { .. })
        ),
        "{e}"
    );
    let e = err2(&format!("qreg q[1];\nrz({}1) q[0];\n", "-".repeat(n)));
    assert_eq!(e.line, 4, "{e}");
    let e = err2(&format!(
        "qreg q[1];\nrz({}) q[0];\n",
        vec!["1"; n].join("+")
    ));
    assert_eq!(e.line, 4, "{e}");
}

#[test]
fn a_gate_call_the_parser_left_without_its_name_is_refused() {
    // Found by the fuzz harness: `measure` before a gate call parses as a call without a gate
    // name, on which oq3_semantics unwraps (a panic) unless the guard refuses it first.
    let e = err3("qubit q;\nmeasure rx(pi) q;\n");
    assert_eq!((e.line, e.column), (4, 1), "{e}");
    assert_eq!(e.kind, ImportErrorKind::GateCallWithoutName, "{e}");
    let e = err3("gate g a { measure rx(pi) a; }\nqubit q;\ng q;\n");
    assert_eq!((e.line, e.column), (3, 12), "{e}");
}

#[test]
fn a_parser_assertion_becomes_an_error() {
    // Found by the fuzz harness: a keyword in a gate's qubit list trips an assertion inside
    // oq3_parser, which no pre-check foresees; the panic must come back as an error.
    let e = err3("gate g a,for b { h a; }\nqubit[2] q;\ng q[0], q[1];\n");
    assert!(matches!(e.kind, ImportErrorKind::ParserPanic { .. }), "{e}");
    assert!(
        e.to_string().starts_with("cannot read"),
        "no position is invented: {e}"
    );
}

#[test]
fn huge_numbers_are_refused() {
    for body in [
        "qubit[99999999999999999999999999999999999999999999] q;",
        "qubit[4294967296] q;",
        "qubit[4294967295] q;",
        "qubit[2] q;\nx q[18446744073709551616];",
        "qubit q;\nrz(1e999) q;",
        "qubit q;\nrz(1/0) q;",
        "qubit[2] q;\nctrl(99999999999) @ x q[0], q[1];",
    ] {
        let e = err3(body);
        assert!(e.line >= 3, "{body}: {e}");
    }
    for body in [
        "qreg q[99999999999999999999999999];",
        "qreg q[2147483648];",
        "creg c[18446744073709551616];",
        "qreg q[2];\nx q[99999999999999999999];",
        "qreg q[1];\nrz(1e999) q[0];",
        "qreg q[1];\ncreg c[1];\nif (c==99999999999999999999) x q[0];",
    ] {
        let e = err2(body);
        assert!(e.line >= 3, "{body}: {e}");
    }
}

#[test]
fn unterminated_comments_and_strings_are_errors() {
    let e = err3("qubit q;\n/* never closed\nx q;\n");
    assert_eq!((e.line, e.column), (4, 1), "{e}");
    let e = err2("qreg q[1];\n  /* never closed\n");
    assert_eq!((e.line, e.column), (4, 3), "{e}");
    let e = import_qasm3("OPENQASM 3.0;\ninclude \"stdgates.inc;\n").expect_err("string");
    assert_eq!((e.line, e.column), (2, 9), "{e}");
}

#[test]
fn includes_of_other_files_are_refused_without_reading_them() {
    // `oq3_source_file` would read (and panic on a missing) file: refused before it runs.
    for file in ["/etc/passwd", "does-not-exist.inc", "qelib1.inc"] {
        let e = import_qasm3(&format!("OPENQASM 3.0;\ninclude \"{file}\";\n")).expect_err(file);
        assert_eq!((e.line, e.column), (2, 1), "{e}");
    }
    let e = import_qasm2("OPENQASM 2.0;\ninclude \"stdgates.inc\";\n").expect_err("2");
    assert_eq!(e.line, 2, "{e}");
}

#[test]
fn constructs_oq3_semantics_panics_on_are_errors() {
    // Each of these makes oq3_semantics 0.7 panic when handed to it directly.
    for body in [
        // `if (!c)` is read (as `c == 0`); `!` anywhere else is what panics.
        "qubit q;\nbit c;\nc = measure q;\nif (!c && c) { x q; }",
        "qubit q;\nrz(!1) q;",
        "qubit q;\nrz(sin(0.5)) q;",
        "qubit q;\nrz(5 % 2) q;",
        "qubit q;\nrz(1 << 2) q;",
        "qubit q;\nrz(-true) q;",
        // `measure q -> c;` is read; the arrow without a target is not.
        "qubit q;\nbit c;\nmeasure q -> ;",
        "let a = 1;",
        "int[8] x = 5;",
        "array[int[8], 2] a;",
        // Slices with both ends are read; one end missing makes the semantic pass panic.
        "qubit[2] q;\nx q[0:];",
        "qubit[2] q;\nx q[:1];",
        "uint n = 2;\nqubit[n] q;",
        "cal { }",
        "defcal x $0 { }",
        // `delay[10ns] q;` is read (see below); a duration that is no literal, has no unit, is
        // in `dt`, negative or imaginary, is not (`delay q;`: below).
        "qubit q;\ndelay[10] q;",
        "qubit q;\ndelay[10dt] q;",
        "qubit q;\ndelay[-10ns] q;",
        "qubit q;\ndelay[1im] q;",
        "qubit q;\ndelay[2 * 10ns] q;",
        "qubit q;\ndelay[] q;",
        "qubit q;\nrz(1im) q;",
        "qubit q;\nbit c;\nc = measure q;\nif (c < 1) { x q; }",
        "qubit q;\nbit c;\nc = measure q;\nif (c && c) { x q; }",
        "qreg q[2];",
        "def f() { }",
        // Loops over ranges and sets are read; a loop without braces or its values is not.
        "qubit q;\nfor int i in [0:2] x q;",
        "qubit q;\nfor int i in [:2] { x q; }",
        "while (true) { }",
        "qubit q;\npow(2) @ x q;",
        "#pragma foo\nqubit q;",
        "@annotation\nqubit q;",
        "input float t;",
        "qubit q;\nrz(\"a\") q;",
        "bit[2] c = \"01\";",
        "qubit q;\nbox { x q; }",
        "end;",
        "qubit q;\n1 + 2;",
    ] {
        let e = err3(body);
        assert!(e.line >= 3, "{body}: {e}");
    }
}

#[test]
fn physical_qubits_read_as_qubit_k_and_a_huge_one_is_refused() {
    // `$k` is qubit k (a device program's register, declared before any other).
    let c = import_qasm3(&format!(
        "{V3}qubit q;\nbit[1] c;\nx $2;\nc[0] = measure $2;\nx q;"
    ))
    .expect("physical qubits");
    assert_eq!(c.num_qubits(), 4);
    let on: Vec<Vec<qc_ir::Qubit>> = c
        .instructions()
        .iter()
        .map(|i| i.op.qubits().to_vec())
        .collect();
    let (two, q) = (qc_ir::Qubit(2), qc_ir::Qubit(3));
    assert_eq!(on, [vec![two], vec![two], vec![q]]);
    // A number no register holds: refused by the declaration's bound, no allocation.
    for k in ["70000", "18446744073709551615", "99999999999999999999999"] {
        let e = err3(&format!("qubit q;\nx ${k};"));
        assert_eq!((e.line, e.column), (4, 3), "${k}: {e}");
        assert!(e.to_string().contains("beyond the largest register"), "{e}");
    }
}

/// Valid programs of both versions, to cut and mutate.
fn seeds() -> Vec<String> {
    vec![
        include_str!("data/portable_move.qasm").to_string(),
        include_str!("data/ff3.qasm").to_string(),
        include_str!("data/ff4_ancilla.qasm").to_string(),
        format!(
            "{V3}gate g(a, b) x, y {{ ctrl @ rz(a/2 - -b) x, y; inv @ h x; gphase(-a); }}\n\
             qubit[3] q;\nbit[2] c;\ng(pi/4, 0.1) q[0], q[1];\nnegctrl(2) @ x q[0], q[1], q[2];\n\
             c[0] = measure q[0];\nif (c[0] == 1) {{ x q[1]; }} else {{ reset q[1]; }}\nc[1] = measure q[2];\n"
        ),
        format!(
            "{V2}gate g(a) x, y {{ cx x, y; rz(a*2) y; }}\nqreg q[3];\ncreg c0[1];\ncreg c[2];\n\
             g(pi/2) q[0], q[1];\nrzz(0.3) q[1], q[2];\nmeasure q[0] -> c0[0];\nif (c0==1) x q[1];\n\
             measure q[1] -> c[0];\nbarrier q;\n"
        ),
    ]
}

#[test]
fn truncated_programs_never_panic() {
    for seed in seeds() {
        for (cut, _) in seed.char_indices() {
            let _ = import_qasm(&seed[..cut]);
            let _ = import_qasm3(&seed[..cut]);
            let _ = import_qasm2(&seed[..cut]);
        }
    }
}

#[test]
fn mutated_and_binary_programs_never_panic() {
    let mut rng = ChaCha8Rng::seed_from_u64(12);
    let alphabet: Vec<char> = "()[]{};,.-+*/!~%<>=@$\"'#\n 0123456789eExqcrzhpiabgt\u{0}\u{ff}π"
        .chars()
        .collect();
    let seeds = seeds();
    let rounds = std::env::var("HOSTILE_ROUNDS").map_or(3000, |r| r.parse().unwrap_or(3000));
    for round in 0..rounds {
        let mut text: Vec<char> = seeds[round % seeds.len()].chars().collect();
        for _ in 0..rng.gen_range(1..6) {
            let at = rng.gen_range(0..=text.len());
            match rng.gen_range(0..4) {
                0 if at < text.len() => {
                    let end = (at + rng.gen_range(1..8)).min(text.len());
                    text.drain(at..end);
                }
                1 => text.insert(at, alphabet[rng.gen_range(0..alphabet.len())]),
                2 if at < text.len() => {
                    let end = (at + rng.gen_range(1..12)).min(text.len());
                    let piece: Vec<char> = text[at..end].to_vec();
                    for (k, c) in piece.into_iter().enumerate() {
                        text.insert(end + k, c);
                    }
                }
                _ => {
                    let bytes: Vec<u8> = (0..rng.gen_range(1..16)).map(|_| rng.gen()).collect();
                    let junk: Vec<char> = String::from_utf8_lossy(&bytes).chars().collect();
                    for (k, c) in junk.into_iter().enumerate() {
                        text.insert(at.min(text.len()) + k, c);
                    }
                }
            }
        }
        let text: String = text.into_iter().collect();
        let _ = import_qasm(&text);
        let _ = import_qasm3(&text);
        let _ = import_qasm2(&text);
    }
}

/// A two-qubit gate of 4 096 body gates in twelve nested lines (each level calls the one below
/// twice) that matches no table gate, so each call is one user gate holding its body.
fn doubling_gates(v3: bool) -> String {
    let mut s = String::from("gate g1(t) a, b { rz(t) a; cx a, b; }\n");
    for k in 2..=12 {
        s += &format!(
            "gate g{k}(t) a, b {{ g{}(t) a, b; g{}(t) b, a; }}\n",
            k - 1,
            k - 1
        );
    }
    s += if v3 { "qubit[2] q;\n" } else { "qreg q[2];\n" };
    s
}

#[test]
fn user_gate_calls_count_as_their_bodies_against_the_instruction_limit() {
    // A call is one instruction holding its body; it counts as the body would inlined. Otherwise
    // a few kilobytes of program would hold billions of gates: in the bodies of ever new angles,
    // and in the inlined form `--no-optimize`, export and the IR text write even for one angle.
    // 1 024 calls of a 4 096-gate body fill the limit exactly; the 1 025th goes over.
    let limit = qc_export::env::MAX_INSTRUCTIONS;
    let calls = limit / 4096 + 1;
    let angles: String = (1..=calls)
        .map(|i| format!("g12({}) q[0], q[1];\n", i as f64 * 1e-3))
        .collect();
    let same: String = "g12(0.5) q[0], q[1];\n".repeat(calls);
    for e in [
        err3(&(doubling_gates(true) + &angles)),
        err2(&(doubling_gates(false) + &angles)),
        err3(&(doubling_gates(true) + &same)),
    ] {
        assert_eq!(
            e.kind,
            ImportErrorKind::TooManyInstructions { max: limit },
            "{e}"
        );
        // Two header lines, 12 gate lines, the register, then the call that goes over.
        assert_eq!(e.line, 2 + 13 + calls, "{e}");
    }
    // One call fewer fits: 1 024 instructions sharing one gate, 2^22 once inlined.
    let fits: String = "g12(0.5) q[0], q[1];\n".repeat(calls - 1);
    let c = import_qasm3(&format!("{V3}{}{fits}", doubling_gates(true))).expect("fits");
    assert_eq!(c.instructions().len(), calls - 1);
    let inlined = qc_ir::passes::inline_user_gates(&c);
    assert_eq!(inlined.instructions().len(), limit);
}

/// A delay without its duration (`delay q;`, on which the OpenQASM 3 parser stops on an
/// internal check without a place) is an error naming the line and column; a gate whose name
/// begins with `delay` is not one.
#[test]
fn a_delay_without_its_duration_is_an_error_with_its_place() {
    for (body, line, column) in [
        ("qubit q;\ndelay q;", 4, 1),
        ("qubit q;\nx q; delay  q;", 4, 6),
        ("qubit q;\nif (true) {\n  delay q;\n}", 5, 3),
    ] {
        let e = err3(body);
        assert_eq!((e.line, e.column), (line, column), "{body}: {e}");
        assert!(
            e.to_string().contains("no duration in brackets"),
            "{body}: {e}"
        );
    }
    let c = import_qasm3(&format!(
        "{V3}gate delayed a {{ x a; }}\nqubit q;\ndelayed q; // delay q;\ndelay[5ns] q;"
    ))
    .expect("a gate named delayed, a comment and a delay");
    assert_eq!(c.instructions().len(), 2);
}

/// A delay in s, ms, us or ns is read as nanoseconds, on every qubit of a register operand.
#[test]
fn delays_are_read_in_nanoseconds() {
    let c = import_qasm3(&format!(
        "{V3}qubit[2] q;\ndelay[1.5us] q;\ndelay[20ns] q[1];\ndelay[2ms] $0;"
    ))
    .expect("delays");
    let delays: Vec<(u32, f64)> = c
        .instructions()
        .iter()
        .filter_map(|i| match i.op {
            qc_ir::Op::Delay { qubit, duration } => Some((qubit.0, duration)),
            _ => None,
        })
        .collect();
    // `$0` is qubit 0, declared before `q` (qubits 1 and 2).
    assert_eq!(delays, [(1, 1500.0), (2, 1500.0), (2, 20.0), (0, 2e6)]);
}
