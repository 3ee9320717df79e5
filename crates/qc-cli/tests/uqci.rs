//! `qchess uqci` driven through pipes, under both rulesets: the example sessions of docs/uqci.md
//! replayed exactly, and scripted sessions whose expected replies are worked out by hand
//! (probabilities of a split or a Niel's superposition, Bell values of the Bell state a split
//! makes, scores of the evaluation, full-measurement bitboards, endings), hostile and random
//! lines that must not end the session.

mod common;
use common::*;

/// Sends `script` to `qchess ARGS` and returns its reply lines (the run must succeed).
fn replies(args: &[&str], script: &str) -> Vec<String> {
    let out = ok_stdout(&qchess_with_input(args, script));
    out.lines().map(str::to_string).collect()
}

/// A Quantum Chess session.
fn session(script: &str) -> Vec<String> {
    replies(&["uqci"], script)
}

/// A Niel's Chess session (`--rules niels`).
fn niels(script: &str) -> Vec<String> {
    replies(&["uqci", "--rules", "niels"], script)
}
/// The numbers of a reply line `WORD k1 v1 k2 v2 ...` after its first `skip` words, by key.
fn values(line: &str, skip: usize) -> Vec<(String, f64)> {
    let words: Vec<&str> = line.split_whitespace().skip(skip).collect();
    words
        .chunks(2)
        .map(|kv| (kv[0].to_string(), kv[1].parse().expect("a number")))
        .collect()
}

/// The commands and the replies of the example session under `heading` in docs/uqci.md.
fn documented_session(heading: &str) -> (String, Vec<String>) {
    let doc = include_str!("../../../docs/uqci.md");
    let block = doc
        .split(&format!("\n{heading}\n"))
        .nth(1)
        .and_then(|s| s.split("```text\n").nth(1))
        .and_then(|s| s.split("```").next())
        .unwrap_or_else(|| panic!("docs/uqci.md has a section `{heading}`"));
    let mut input = String::new();
    let mut expected = Vec::new();
    for line in block.lines() {
        match line.strip_prefix("> ") {
            Some(command) => input.push_str(&format!("{command}\n")),
            None => expected.push(line.to_string()),
        }
    }
    assert!(input.contains("quit"));
    (input, expected)
}

#[test]
fn every_simulator_answers_the_documented_sessions_alike() {
    // `--backend` picks the simulator the session plays on (it was always the sparse one, which
    // the test above runs): the replies are the same on the others, and single precision is
    // refused off the dense simulator.
    for (heading, rules) in [
        ("## Example session", "cantwell"),
        ("## Example session: Niel's Chess", "niels"),
        (
            "### Example session: a GUI writes the outcomes back",
            "cantwell",
        ),
    ] {
        let (input, expected) = documented_session(heading);
        for backend in ["dense", "reference"] {
            let args = ["uqci", "--rules", rules, "--backend", backend];
            assert_eq!(replies(&args, &input), expected, "{rules} on {backend}");
        }
    }
    // No input: the engine exits before reading, which could break a pipe still being written.
    let refused = qchess_with_input(&["uqci", "--precision", "single"], "");
    assert_eq!(refused.status.code(), Some(2));
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(
        err.contains("precision `single` needs the dense simulator"),
        "{err}"
    );
}

#[test]
fn the_documented_sessions_run_as_written() {
    let (input, expected) = documented_session("## Example session");
    assert_eq!(session(&input), expected);
    let (input, expected) = documented_session("## Example session: Niel's Chess");
    assert_eq!(niels(&input), expected);
    let (input, expected) =
        documented_session("### Example session: a GUI writes the outcomes back");
    assert_eq!(session(&input), expected);
    let (input, expected) = documented_session(
        "### Example session: searchmoves, mate scores and the engine's options",
    );
    assert_eq!(session(&input), expected);
}

#[test]
fn uci_handshake_lists_the_options() {
    let lines = session("uci\nisready\nquit\n");
    assert!(lines[0].starts_with("id name qchess "), "{lines:?}");
    assert!(lines[1].starts_with("id author "));
    for option in ["forceturn", "forcewin", "forcemeasure", "seed"] {
        assert!(
            lines
                .iter()
                .any(|l| l.starts_with(&format!("option name {option} type "))),
            "{option} missing: {lines:?}"
        );
    }
    assert_eq!(lines[lines.len() - 2..], ["uqciok", "readyok"]);
}

#[test]
fn a_split_reads_out_as_worked_out_by_hand() {
    // sqrt-iSWAP(a1, b3) then iSWAP(a1, c2) send |a1> to i(|b3> + |c2>)/sqrt2: P = 1/2 each, and
    // the pair (b3, c2) is Psi+ up to a phase: <O1> = 1, <O2> = 0, <O3> = <O4> = |(1 -+ i)/2|^2
    // = 1/2, and the Phi projectors see nothing.
    let lines = session(
        "position fen 7k/8/8/8/8/8/8/N6K w - - 0 1 moves a1^b3c2\nprobs\ncalcbell b3 c2\nmoves\nquit\n",
    );
    let probs: Vec<&str> = lines[0].split_whitespace().collect();
    assert_eq!(probs[0], "probs");
    let want = [
        ("h1", "K", 1.0),
        ("c2", "N", 0.5),
        ("b3", "N", 0.5),
        ("h8", "k", 1.0),
    ];
    assert_eq!(probs.len(), 1 + 3 * want.len(), "{probs:?}");
    for (k, (sq, piece, p)) in want.iter().enumerate() {
        assert_eq!((probs[1 + 3 * k], probs[2 + 3 * k]), (*sq, *piece));
        let got: f64 = probs[3 + 3 * k].parse().expect("probability");
        assert!((got - p).abs() < 1e-6, "{sq}: {got}");
    }
    assert!(lines[1].starts_with("bell b3 c2 "), "{}", lines[1]);
    let bell = values(&lines[1], 3);
    let want = [1.0, 0.0, 0.5, 0.5, 0.0, 0.0, 0.0, 0.0];
    for (k, ((name, got), w)) in bell.iter().zip(want).enumerate() {
        assert_eq!(name, &format!("O{}", k + 1));
        assert!((got - w).abs() < 1e-6, "{name} = {got}");
    }
    // Black's king on h8: 3 steps (g8, g7, h7) and 3 * 2 ordered splits.
    let moves: Vec<&str> = lines[2].split_whitespace().skip(1).collect();
    assert_eq!(moves.len(), 9, "{moves:?}");
    for m in ["h8g8", "h8g7", "h8h7", "h8^g8h7", "h8^h7g8"] {
        assert!(moves.contains(&m), "{m} missing");
    }
}

/// What qc-engine's own search answers on the position `fen` (rule options `options`) after
/// `moves` (none measured: their outcomes are not drawn), searched to `depth` within a bare
/// `go`'s work from an empty table of the default `Hash` size, written as UQCI writes it: one
/// `info depth` line per finished depth (no time: it is a count), then `bestmove`.
fn engine_answer<R: qc_rules::Ruleset>(
    fen: &str,
    options: Option<&str>,
    moves: &[&str],
    depth: u32,
) -> Vec<String> {
    use qc_rules::QuantumGame;
    use rand::SeedableRng;
    let start = R::start(Some(fen), options).expect("a FEN");
    let mut game = R::new_game(&start, qc_sim::SparseSim::new()).expect("a game");
    for m in moves {
        let mut dice = rand_chacha::ChaCha8Rng::seed_from_u64(0);
        game.play_text(m, &mut dice).expect("a move");
    }
    let limits = qc_engine::Limits {
        depth: Some(depth),
        work: Some(qc_front::uqci::BARE_GO_WORK),
        ..qc_engine::Limits::default()
    };
    let mut lines = Vec::new();
    let found = qc_engine::Searcher::new(qc_engine::SearchConfig::default())
        .search(&mut game, &limits, qc_engine::StopFlag::new(), &mut |it| {
            let score = match it.mate {
                Some(n) => format!("mate {n}"),
                None => format!("cp {}", (it.score * 100.0).round() as i64),
            };
            lines.push(format!(
                "info depth {} score {score} nodes {} pv {}",
                it.depth,
                it.nodes,
                it.pv.join(" ")
            ));
        })
        .expect("the search");
    let best = found
        .best
        .map_or_else(|| "0000".to_string(), |m| m.to_string());
    lines.push(format!("bestmove {best}"));
    lines
}

/// A bare `go` (depth 1) and `go depth 2` answer exactly what qc-engine's search answers on the
/// same position within the same work (UQCI has no search of its own; qc-engine's tests check
/// that search against a brute-force expectimax), in both rulesets, and the moves make sense by
/// hand: a rook takes a queen given away; the knight half on b1 takes the rook on c3 when it is
/// there; depth 2 does not take the pawn on b7, which the queen on a8 would take back.
#[test]
fn bare_go_is_the_engines_search_bounded_by_work() {
    type Case<'a> = (&'a str, Option<&'a str>, &'a [&'a str], u32, &'a str);
    let cantwell: [Case; 4] = [
        ("q6k/8/8/8/8/8/8/R6K w - - 0 1", None, &[], 1, "a1a8"),
        (
            "7k/8/8/8/8/N1r5/8/7K w - - 0 1",
            None,
            &["a3^b1c4", "h8g8"],
            1,
            "b1c3",
        ),
        ("q6k/1p6/8/8/8/8/8/1R5K w - - 0 1", None, &[], 1, ""),
        ("q6k/1p6/8/8/8/8/8/1R5K w - - 0 1", None, &[], 2, ""),
    ];
    let niels: [Case; 4] = [
        ("q6k/8/8/8/8/8/8/R6K w - - 0 1", None, &[], 1, "a1a8"),
        ("7k/8/8/8/8/8/8/K3R3 w - - 0 1 qe6e7", None, &[], 1, ""),
        (
            "7k/8/8/8/8/8/8/K3R3 w - - 0 1 qe6e7",
            Some("deterministic"),
            &[],
            1,
            "",
        ),
        ("q2k/1p2/4/1R1K w - - 0 1", None, &[], 2, ""),
    ];
    let script = |fen: &str, moves: &[&str], depth: u32| {
        let moves = if moves.is_empty() {
            String::new()
        } else {
            format!(" moves {}", moves.join(" "))
        };
        format!("position fen {fen}{moves}\ngo depth {depth}\nquit\n")
    };
    let answers_as_the_engine = |lines: &[String], engine: Vec<String>, best: &str| {
        assert_eq!(lines, engine);
        if !best.is_empty() {
            assert_eq!(lines.last(), Some(&format!("bestmove {best}")));
        }
    };
    for (fen, options, moves, depth, best) in cantwell {
        let lines = session(&script(fen, moves, depth));
        let engine = engine_answer::<qc_rules::Cantwell>(fen, options, moves, depth);
        answers_as_the_engine(&lines, engine, best);
        if depth == 2 {
            assert_ne!(
                lines.last().map(String::as_str),
                Some("bestmove b1b7"),
                "{lines:?}"
            );
        }
    }
    for (fen, options, moves, depth, best) in niels {
        let mut args = vec!["uqci", "--rules", "niels"];
        if let Some(options) = options {
            args.extend(["--variant", options]);
        }
        let lines = replies(&args, &script(fen, moves, depth));
        let engine = engine_answer::<qc_rules::Niels>(fen, options, moves, depth);
        answers_as_the_engine(&lines, engine, best);
    }
    // `go` is `go depth 1`; a second `go` answers the same (the table is emptied first).
    let fen = "q6k/1p6/8/8/8/8/8/1R5K w - - 0 1";
    let lines = session(&format!("position fen {fen}\ngo depth 2\ngo\ngo\nquit\n"));
    let once = engine_answer::<qc_rules::Cantwell>(fen, None, &[], 1);
    assert_eq!(lines[3..], [once.clone(), once].concat());
}

#[test]
fn options_change_the_rules_as_documented() {
    // forcemeasure true (default): `.m1` post-selects the capture; `.m0` its failure.
    let base = "position fen 7k/8/8/8/8/N1p5/8/7K w - - 0 1 moves a3^b1c4 h8g8 b1xc3";
    let lines = session(&format!("{base}.m1\nprobs\n{base}.m0\nprobs\nquit\n"));
    assert_eq!(lines[0], "probs h1 K 1.000000 c3 N 1.000000 g8 k 1.000000");
    assert_eq!(
        lines[1],
        "probs h1 K 1.000000 c3 p 1.000000 c4 N 1.000000 g8 k 1.000000"
    );
    // forcemeasure false: the suffix is ignored and the outcome sampled (P = 1/2 each): over 16
    // seeds both outcomes occur (probability 1 - 2^-15).
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..16 {
        let lines = session(&format!(
            "setoption name forcemeasure value false\nsetoption name seed value {seed}\n{base}.m1\nprobs\nquit\n"
        ));
        seen.insert(lines[0].clone());
    }
    assert_eq!(seen.len(), 2, "{seen:?}");
    // forceturn: two White moves in a row.
    let lines = session(
        "position startpos moves e2e4 d2d4\nsetoption name forceturn value true\nposition startpos moves e2e4 d2d4\nfen\nquit\n",
    );
    assert!(
        lines[0].starts_with("info string error position: move 2 `d2d4`"),
        "{lines:?}"
    );
    assert_eq!(
        lines[1],
        "fen rnbqkbnr/pppppppp/8/8/3PP3/8/PPP2PPP/RNBQKBNR b KQkq d3 0 1"
    );
    // forcewin: the captured king does not end the game.
    let take_king = "position fen 7k/8/8/8/8/8/8/K6R w - - 0 1 moves h1h8\nstatus\n";
    let lines = session(&format!(
        "{take_king}setoption name forcewin value true\n{take_king}quit\n"
    ));
    assert!(lines[0].starts_with("status white_wins "), "{lines:?}");
    assert!(lines[1].starts_with("status ongoing "), "{lines:?}");
}

#[test]
fn repetition_and_fifty_moves_through_the_protocol() {
    // Knight split, then two cycles: the third occurrence. The claim measures every square: both
    // kings and the black knight are certain (e1, e8, g8), the white knight on a3 or c3.
    let repeat = "position fen 4k1n1/8/8/8/8/8/8/1N2K3 w - - 0 1 moves b1^a3c3 g8f6 e1d1 f6g8 d1e1 g8f6 e1d1 f6g8 d1e1";
    let certain = (1u64 << 4) | (1 << 60) | (1 << 62);
    let mut boards = std::collections::BTreeSet::new();
    for seed in 0..12 {
        let lines = session(&format!(
            "setoption name seed value {seed}\n{repeat}\nstatus\nclaim\nmoves\nquit\n"
        ));
        assert_eq!(
            lines[0],
            "status ongoing side b fifty 9 claim repetition ended_by none"
        );
        let hex = lines[1]
            .strip_prefix("claim repetition board 0x")
            .expect("claim reply");
        let board = u64::from_str_radix(hex, 16).expect("hex bitboard");
        assert!(
            board == certain | 1 << 16 || board == certain | 1 << 18,
            "{board:#x}"
        );
        boards.insert(board);
        assert_eq!(
            lines[2],
            "status draw side b fifty 9 claim none ended_by repetition"
        );
        assert_eq!(lines[3], "moves");
    }
    assert_eq!(
        boards.len(),
        2,
        "both halves of the knight are measured over 12 seeds"
    );
    // Counter 99: one ply reaches 100; kings certain: a draw; no move, bestmove 0000.
    let lines =
        session("position fen 4k3/8/8/8/8/8/8/4K3 w - - 99 1 moves e1d1\nstatus\ngo\nquit\n");
    assert_eq!(
        lines,
        [
            "status draw side b fifty 100 claim none ended_by fifty_moves",
            "bestmove 0000"
        ]
    );
}

/// Sends each of `hostile` (then `isready`) to `qchess ARGS`, then a line that is not UTF-8 and
/// `fen`: every hostile line must answer exactly one `info string error ...`, every `isready`
/// its `readyok`, and the session must end normally with `fen` answering `want_fen` (the failed
/// positions left the start in place).
fn survives(args: &[&str], hostile: &[&str], want_fen: &str) {
    let long = "x".repeat(200_000);
    let mut script: Vec<u8> = Vec::new();
    for line in hostile
        .iter()
        .copied()
        .chain([long.as_str(), "\u{0}\u{7f}"])
    {
        script.extend_from_slice(line.as_bytes());
        script.extend_from_slice(b"\nisready\n");
    }
    script.extend_from_slice(b"\xff\xfe not utf-8\nisready\nfen\n");
    let out = qchess_with_bytes(args, &script);
    let lines: Vec<String> = ok_stdout(&out).lines().map(str::to_string).collect();
    let (errors, ready): (Vec<&String>, Vec<&String>) = lines[..lines.len() - 1]
        .iter()
        .partition(|l| l.starts_with("info string error "));
    let sent = hostile.len() + 3;
    assert_eq!(ready.len(), sent, "{args:?}: {lines:?}");
    assert!(ready.iter().all(|l| *l == "readyok"), "{lines:?}");
    assert_eq!(errors.len(), sent, "{args:?}: {lines:?}");
    assert!(errors.iter().any(|l| l.contains("longer than 65536 bytes")));
    assert!(errors.iter().any(|l| l.contains("not UTF-8")));
    assert_eq!(lines.last().map(String::as_str), Some(want_fen));
}

/// Lines that are wrong under either ruleset.
const HOSTILE: [&str; 13] = [
    "position fen not a fen",
    "position startpos moves e2e5",
    "position startpos moves e2e4 moves",
    "position",
    "setoption name seed value -1",
    "setoption name forceturn value maybe",
    "setoption",
    "go depth x",
    "go depth 0",
    "calcbell z9 a1",
    "calcbell a1",
    "claim",
    "position fen 8/8/8/8/8/8/8/8 w - - 0 1 moves e2e4",
];

#[test]
fn nothing_a_gui_sends_ends_the_session() {
    survives(
        &["uqci"],
        &HOSTILE,
        "fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    );
    let mut niels_lines = HOSTILE.to_vec();
    niels_lines.extend([
        // Niel's own mistakes: a bad pair, a board too wide, an impossible roll, a roll on a
        // move that rolls nothing, options that do not apply, Bell values of squares.
        "position fen 7k/8/8/8/8/8/8/K3R3 w - - 0 1 re6e6",
        "position fen 9k/9/9/9/9/9/9/K8 w - - 0 1",
        "position fen 7k/8/8/8/8/8/8/K3R3 w - - 0 1 re6e7 moves e1e6[e5]",
        "position startpos moves e2e4[e4]",
        "position startpos moves e2^e4e3 e7e5 e4e5",
        "setoption name forceturn value true",
        "setoption name forcewin value true",
        "calcbell e6 e7",
        "position startpos moves [[[[",
        "position fen 7k/8/8/8/8/8/8/K3R3 w - - 0 1 re6e7op:9",
    ]);
    survives(
        &["uqci", "--rules", "niels"],
        &niels_lines,
        "fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 -",
    );
}

/// Random lines made of protocol words, moves of both rulesets, numbers and junk, thousands of
/// them: the session answers each and ends normally (a panic would end it with an error code
/// and cut the replies short).
#[test]
fn random_lines_never_end_the_session() {
    use rand::{Rng, SeedableRng};
    let words = [
        "uci",
        "ucinewgame",
        "position",
        "startpos",
        "fen",
        "moves",
        "setoption",
        "name",
        "value",
        "forceturn",
        "forcewin",
        "forcemeasure",
        "seed",
        "true",
        "false",
        "go",
        "depth",
        "stop",
        "calcbell",
        "probs",
        "status",
        "claim",
        "e2e4",
        "e7e5",
        "b1^a3c3",
        "a3c3^b1",
        "b1xc3.m1",
        "g8f6",
        "e2^e4e3",
        "e1e6[e7]",
        "d7^d5d6:op",
        "Ze4",
        "He4",
        "~e4",
        "e1*e5",
        "f6&f6d5@e4",
        "0000",
        "7k/8/8/8/8/8/8/K3R3",
        "w",
        "b",
        "-",
        "0",
        "1",
        "99",
        "18446744073709551616",
        "re6e7",
        "KQkq",
        "a1",
        "h8",
        "z9",
        "[",
        "]",
        "^",
        "%",
    ];
    for args in [&["uqci"][..], &["uqci", "--rules", "niels"]] {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(16);
        let mut script = String::new();
        let mut sent = 0;
        for _ in 0..600 {
            let n = rng.gen_range(0..8);
            let line: Vec<&str> = (0..n)
                .map(|_| words[rng.gen_range(0..words.len())])
                .collect();
            let line = line.join(" ");
            // Searches are left to their own tests (depth 2 may take seconds).
            if line.contains("go") || line.contains("quit") {
                continue;
            }
            script.push_str(&line);
            script.push_str("\nisready\n");
            sent += 1;
        }
        let out = qchess_with_input(args, &script);
        let text = ok_stdout(&out);
        assert_eq!(text.matches("readyok").count(), sent, "{args:?}");
    }
}

/// The `probs` reply as (square, piece, probability).
fn probs(line: &str) -> Vec<(String, String, f64)> {
    let words: Vec<&str> = line.split_whitespace().collect();
    assert_eq!(words.first(), Some(&"probs"), "{line}");
    words[1..]
        .chunks(3)
        .map(|w| {
            (
                w[0].into(),
                w[1].into(),
                w[2].parse().expect("a probability"),
            )
        })
        .collect()
}

fn assert_probs(line: &str, want: &[(&str, &str, f64)]) {
    let got = probs(line);
    assert_eq!(got.len(), want.len(), "{line}");
    for ((sq, piece, p), (wsq, wpiece, wp)) in got.iter().zip(want) {
        assert_eq!((sq.as_str(), piece.as_str()), (*wsq, *wpiece), "{line}");
        assert!((p - wp).abs() < 1e-6, "{sq}: {p} vs {wp}");
    }
}

#[test]
fn niels_superpositions_read_out_as_the_rules_say() {
    // Art. 7.1-7.5: an equal superposition is 1/2 each; an unequal one (red mark facing the
    // opponent, `:op`) puts the piece on the red square with a roll of 1-4, 4/6. The FEN writes
    // the pair in its last field, `<piece><red><blue><red facing><blue facing>` (docs/niels.md).
    let lines = niels(
        "position fen 7k/8/8/8/8/8/8/K3R3 w - - 0 1 moves e1^e4e2\nprobs\nfen\n\
         position fen 7k/8/8/8/8/8/8/K3R3 w - - 0 1 moves e1^e4e2:op\nprobs\nfen\nquit\n",
    );
    let half = 0.5;
    assert_probs(
        &lines[0],
        &[
            ("a1", "K", 1.0),
            ("e2", "R", half),
            ("e4", "R", half),
            ("h8", "k", 1.0),
        ],
    );
    assert_eq!(lines[1], "fen 7k/8/8/8/8/8/8/K7 b - - 1 1 Re4e2oo");
    assert_probs(
        &lines[2],
        &[
            ("a1", "K", 1.0),
            ("e2", "R", 2.0 / 6.0),
            ("e4", "R", 4.0 / 6.0),
            ("h8", "k", 1.0),
        ],
    );
    assert_eq!(lines[3], "fen 7k/8/8/8/8/8/8/K7 b - - 1 1 Re4e2op");
}

#[test]
fn niels_rolls_are_forced_or_sampled_as_the_options_say() {
    // A queen pair e6/e7 (1/2 each) attacked by the rook: `[e6]` takes the queen, `[e7]` finds
    // it on e7 and the rook lands on the empty e6.
    let base = "position fen 7k/8/8/8/8/8/8/K3R3 w - - 0 1 qe6e7 moves e1e6";
    let lines = niels(&format!("{base}[e6]\nprobs\n{base}[e7]\nprobs\nquit\n"));
    assert_probs(
        &lines[0],
        &[("a1", "K", 1.0), ("e6", "R", 1.0), ("h8", "k", 1.0)],
    );
    assert_probs(
        &lines[1],
        &[
            ("a1", "K", 1.0),
            ("e6", "R", 1.0),
            ("e7", "q", 1.0),
            ("h8", "k", 1.0),
        ],
    );
    // forcemeasure false: the bracket is ignored and the dice roll; over 16 seeds both squares
    // come up (probability 1 - 2^-15); the same seed gives the same roll.
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..16 {
        let script = format!(
            "setoption name forcemeasure value false\nsetoption name seed value {seed}\n{base}[e6]\nprobs\nquit\n"
        );
        let once = niels(&script);
        assert_eq!(once, niels(&script), "seed {seed} replays");
        seen.insert(once[0].clone());
    }
    assert_eq!(seen.len(), 2, "{seen:?}");
    // An impossible roll is refused and the previous position stays.
    let lines = niels(&format!("{base}[e5]\nfen\nquit\n"));
    assert!(
        lines[0].starts_with("info string error position: move 1 `e1e6[e5]`"),
        "{lines:?}"
    );
    assert_eq!(
        lines[1],
        "fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1 -"
    );
}

#[test]
fn niels_endings_through_the_protocol() {
    // Qh8 mates: the king on b6 guards a7 and b7, the queen the 8th rank. Qb6 (from b5) is
    // stalemate: a8 is not attacked, a7, b7 and b8 are. Two kings alone are dead. Knights out and
    // back twice: the start occurs a third time. From a halfmove clock of 99, one ply reaches 100.
    let lines = niels(
        "position fen k7/8/1K6/8/8/8/8/7Q w - - 0 1 moves h1h8\nstatus\nmoves\ngo\n\
         position fen k7/8/8/1Q6/8/8/8/7K w - - 0 1 moves b5b6\nstatus\n\
         position fen 4k3/8/8/8/8/8/8/4K3 w - - 0 1\nstatus\n\
         position fen 4k1n1/8/8/8/8/8/8/1N2K3 w - - 0 1 moves b1c3 g8f6 c3b1 f6g8 b1c3 g8f6 c3b1 f6g8\nstatus\n\
         position fen 4k3/8/8/8/8/8/8/R3K3 w - - 99 1 moves e1d1\nstatus\nquit\n",
    );
    assert_eq!(
        lines,
        [
            "status white_wins side b fifty 1 claim none ended_by checkmate",
            "moves",
            "bestmove 0000",
            "status draw side b fifty 1 claim none ended_by stalemate",
            "status draw side w fifty 0 claim none ended_by insufficient_material",
            "status draw side w fifty 8 claim none ended_by repetition",
            "status draw side b fifty 100 claim none ended_by fifty_moves",
        ]
    );
}

#[test]
fn niels_options_that_do_not_apply_say_why() {
    let lines = niels("uci\nsetoption name forceturn value true\nsetoption name forcewin value true\nsetoption name forceturn value false\nsetoption name forcewin value false\ncalcbell e2 e4\nclaim\nisready\nquit\n");
    assert!(
        !lines
            .iter()
            .any(|l| l.contains("forceturn type") || l.contains("forcewin type")),
        "{lines:?}"
    );
    assert!(lines
        .iter()
        .any(|l| l == "option name forcemeasure type check default true"));
    let errors: Vec<&String> = lines
        .iter()
        .filter(|l| l.starts_with("info string error "))
        .collect();
    assert_eq!(errors.len(), 4, "{lines:?}");
    assert!(errors[0].contains("forceturn") && errors[0].contains("side to move"));
    assert!(errors[1].contains("forcewin") && errors[1].contains("never captured"));
    assert!(errors[2].contains("calcbell") && errors[2].contains("not qubits"));
    assert!(errors[3].contains("claim") && errors[3].contains("end the game at once"));
    assert_eq!(lines.last().map(String::as_str), Some("readyok"));
    // --variant: the rule options of every position (tunnelling: e1*e5 through the pawn).
    let out = ok_stdout(&qchess_with_input(
        &["uqci", "--rules", "niels", "--variant", "tunnelling"],
        "position fen 7k/8/8/8/4p3/8/8/K3R3 w - - 0 1\nmoves\nquit\n",
    ));
    assert!(out.split_whitespace().any(|m| m == "e1*e5"), "{out}");
    // (No input is piped: the engine exits before it would read any.)
    let out = qchess(&["uqci", "--rules", "niels", "--variant", "bogus"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("bogus"));
    let out = qchess(&["uqci", "--variant", "full"]);
    assert_eq!(
        out.status.code(),
        Some(2),
        "Quantum Chess has no rule options"
    );
}

/// The issue's reproduction: the knight on g4 (half of a split) attempts to take f2, a measured
/// capture that succeeds with probability 1/2.
const KNIGHT_TRIES_F2: &str = "e2e4 g8^f6h6 e4e5 h6g4 d2d3 g4xf2";

#[test]
fn the_same_position_always_gives_the_same_state_and_reports_its_outcome() {
    // Sent five times, the position draws the same outcome and says which; written back, it
    // gives the same board and nothing is drawn; the king's capture on f2 is then legal exactly
    // when `qchess simulate` says so with the same outcome, and leads to the same FEN. Over 8
    // seeds both outcomes occur (probability 1 - 2^-7).
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..8 {
        let position = format!("position startpos moves {KNIGHT_TRIES_F2}\nprobs\n");
        let lines = session(&format!(
            "setoption name seed value {seed}\n{}quit\n",
            position.repeat(5)
        ));
        assert_eq!(lines.len(), 10, "{lines:?}");
        for pair in lines.chunks(2) {
            assert_eq!(pair, &lines[..2], "seed {seed}");
        }
        let pinned = lines[0]
            .strip_prefix("info string outcome 6 ")
            .unwrap_or_else(|| panic!("the drawn outcome is reported: {lines:?}"));
        assert!(["g4xf2.m0", "g4xf2.m1"].contains(&pinned), "{pinned}");
        seen.insert(pinned.to_string());
        let written = KNIGHT_TRIES_F2.replace("g4xf2", pinned);
        let again = session(&format!(
            "setoption name seed value {seed}\nposition startpos moves {written}\nprobs\n\
             position startpos moves {KNIGHT_TRIES_F2} e1xf2\nfen\nquit\n"
        ));
        assert_eq!(again[0], lines[1], "written back: the same board");
        let simulated = qchess(&["simulate", "--moves", &format!("{written} e1xf2"), "--json"]);
        if simulated.status.success() {
            let json = ok_json(&simulated);
            assert_eq!(again[1], "info string outcome 6 g4xf2.m1", "{again:?}");
            assert_eq!(
                again[2],
                format!("fen {}", json["final_fen"].as_str().unwrap())
            );
        } else {
            assert_eq!(pinned, "g4xf2.m0");
            assert!(
                again[1].starts_with("info string error position: move 7 `e1xf2`: f2 is occupied"),
                "{again:?}"
            );
        }
    }
    assert_eq!(seen.len(), 2, "{seen:?}");
}

#[test]
fn an_ending_draws_the_same_whether_the_outcome_was_written_or_drawn() {
    // The capture b1xc3 (measured) is the 100th ply: when the knight was not on b1 the game ends
    // by the fifty-move rule, which measures every square, the black knight's split among them.
    // Written back with the reported outcome, the position measures the same board.
    let mut endings = std::collections::BTreeSet::new();
    for seed in 0..12 {
        let moves = "a3^b1c4 g8^f6h6 b1xc3";
        let ask = |moves: &str| {
            session(&format!(
                "setoption name seed value {seed}\n\
                 position fen 6nk/8/8/8/8/N1p5/8/7K w - - 97 1 moves {moves}\nstatus\nprobs\nquit\n"
            ))
        };
        let drawn = ask(moves);
        let pinned = drawn[0]
            .strip_prefix("info string outcome 3 ")
            .unwrap_or_else(|| panic!("{drawn:?}"));
        let written = ask(&moves.replace("b1xc3", pinned));
        assert_eq!(written, drawn[1..], "seed {seed}");
        if pinned == "b1xc3.m0" {
            assert!(drawn[1].ends_with("ended_by fifty_moves"), "{drawn:?}");
            endings.insert(drawn[2].clone());
        }
    }
    assert_eq!(
        endings.len(),
        2,
        "both halves of the knight measured: {endings:?}"
    );
}

#[test]
fn writing_an_outcome_back_does_not_change_later_ones() {
    // Two captures of half a split knight, each measured with probability 1/2. A GUI that wrote
    // the first reported outcome back before the second capture was played gets the same second
    // outcome as one that never wrote anything: a move's generator hashes the moves before it as
    // played, whatever was written. Over 8 seeds every combination of outcomes is seen.
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..8 {
        let ask = |moves: &str| {
            session(&format!(
                "setoption name seed value {seed}
                 position fen 6nk/8/8/8/8/N1p5/5P2/7K w - - 0 1 moves {moves}
quit
"
            ))
        };
        let moves = "a3^b1c4 g8^f6h6 b1xc3 h6g4 h1g1 g4xf2";
        let drawn = ask(moves);
        assert_eq!(drawn.len(), 2, "{drawn:?}");
        let first = drawn[0]
            .strip_prefix("info string outcome 3 ")
            .expect("move 3");
        let pinned = ask(&moves.replace("b1xc3", first));
        assert_eq!(pinned, drawn[1..], "seed {seed}");
        seen.insert(drawn);
    }
    assert_eq!(seen.len(), 4, "{seen:?}");
}

#[test]
fn niels_rolls_are_fixed_by_the_position_and_reported() {
    let mut seen = std::collections::BTreeSet::new();
    for seed in 0..8 {
        let position = "position fen 7k/8/8/8/8/8/8/K3R3 w - - 0 1 qe6e7 moves e1e6\nprobs\n";
        let lines = niels(&format!(
            "setoption name seed value {seed}\n{}quit\n",
            position.repeat(3)
        ));
        assert_eq!(lines.len(), 6, "{lines:?}");
        for pair in lines.chunks(2) {
            assert_eq!(pair, &lines[..2], "seed {seed}");
        }
        let pinned = lines[0]
            .strip_prefix("info string outcome 1 ")
            .unwrap_or_else(|| panic!("{lines:?}"));
        assert!(["e1e6[e6]", "e1e6[e7]"].contains(&pinned), "{pinned}");
        let written = niels(&format!(
            "position fen 7k/8/8/8/8/8/8/K3R3 w - - 0 1 qe6e7 moves {pinned}\nprobs\nquit\n"
        ));
        assert_eq!(written, lines[1..2]);
        seen.insert(pinned.to_string());
    }
    assert_eq!(seen.len(), 2, "{seen:?}");
}

/// A `qchess uqci` process driven one command at a time, as a GUI drives it; its replies are read
/// on a thread of their own, so that a test waits for a reply with a bound instead of hanging.
struct Gui {
    child: std::process::Child,
    input: std::process::ChildStdin,
    output: std::sync::mpsc::Receiver<String>,
}

/// The longest a test waits for one reply: far beyond any search time asked for (a bound against
/// hanging, not a measure of speed).
const REPLY_BOUND: std::time::Duration = std::time::Duration::from_secs(60);

impl Gui {
    fn start(args: &[&str]) -> Gui {
        use std::io::BufRead;
        use std::process::{Command, Stdio};
        let mut child = Command::new(env!("CARGO_BIN_EXE_qchess"))
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the qchess binary runs");
        let input = child.stdin.take().expect("piped stdin");
        let stdout = child.stdout.take().expect("piped stdout");
        let (send, output) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            for line in std::io::BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if send.send(line).is_err() {
                    break;
                }
            }
        });
        Gui {
            child,
            input,
            output,
        }
    }

    /// Sends `command` (one line or several).
    fn send(&mut self, command: &str) {
        use std::io::Write;
        writeln!(self.input, "{command}").expect("the engine reads");
    }

    /// The replies up to and including the first that `last` accepts.
    fn until(&mut self, last: impl Fn(&str) -> bool) -> Vec<String> {
        let mut replies = Vec::new();
        loop {
            let line = self
                .output
                .recv_timeout(REPLY_BOUND)
                .unwrap_or_else(|e| panic!("no reply ({e}) after {replies:?}"));
            let done = last(&line);
            replies.push(line);
            if done {
                return replies;
            }
        }
    }

    /// Sends `command` then `isready`, and returns the replies before `readyok`.
    fn ask(&mut self, command: &str) -> Vec<String> {
        self.send(&format!("{command}\nisready"));
        let mut replies = self.until(|l| l == "readyok");
        replies.pop();
        replies
    }

    /// Sends `quit`: the engine must end cleanly; returns what it sent before ending.
    fn quit(mut self) -> Vec<String> {
        self.send("quit");
        let rest: Vec<String> = self.output.iter().collect();
        assert!(self.child.wait().expect("the engine ends").success());
        rest
    }
}

#[test]
fn go_under_a_time_control_searches_apart_from_the_commands() {
    // `go movetime` answers a legal move after `info depth` lines in the documented form;
    // `go infinite` keeps its move until `stop` while `isready`, `probs` and `moves` are
    // answered; a `position` during a search ends it first; `quit` during a search ends the
    // session cleanly after its `bestmove`. Both rulesets.
    for (args, position, over) in [
        (
            &["uqci"][..],
            "position startpos moves e2e4 g8^f6h6",
            "position fen 7k/8/8/8/8/8/8/K6R w - - 0 1 moves h1h8",
        ),
        (
            &["uqci", "--rules", "niels"][..],
            "position startpos moves e2e4",
            "position fen k7/8/1K6/8/8/8/8/7Q w - - 0 1 moves h1h8",
        ),
    ] {
        let mut gui = Gui::start(args);
        let legal = gui.ask(&format!("{position}\nmoves"));
        let legal: Vec<&str> = legal[0].split_whitespace().skip(1).collect();
        // Under a load no iteration may finish in 300 ms: the move is then the first in the
        // engine's order, still legal.
        gui.send("go movetime 300");
        let lines = gui.until(|l| l.starts_with("bestmove "));
        let best = lines
            .last()
            .and_then(|l| l.strip_prefix("bestmove "))
            .expect("bestmove");
        assert!(legal.contains(&best), "{best} not in {legal:?}");
        // A depth limit within a generous time: exactly one iteration, whatever the load.
        gui.send("go depth 1 movetime 60000");
        let lines = gui.until(|l| l.starts_with("bestmove "));
        let (best, infos) = lines.split_last().expect("a bestmove line");
        let best = best.strip_prefix("bestmove ").expect("bestmove");
        assert!(legal.contains(&best), "{best} not in {legal:?}");
        assert_eq!(infos.len(), 1, "{lines:?}");
        for (k, info) in infos.iter().enumerate() {
            // info depth D score cp S nodes N nps X time T pv M ...
            let words: Vec<&str> = info.split_whitespace().collect();
            assert!(words.len() >= 14, "{info}");
            let keys = [0, 1, 3, 4, 6, 8, 10, 12].map(|i| words[i]);
            assert_eq!(
                keys,
                ["info", "depth", "score", "cp", "nodes", "nps", "time", "pv"],
                "{info}"
            );
            for i in [2, 7, 9, 11] {
                assert!(words[i].parse::<u64>().is_ok(), "{info}");
            }
            assert!(words[5].parse::<i64>().is_ok(), "{info}");
            assert_eq!(words[2], (k + 1).to_string(), "iterations in order: {info}");
            assert!(
                legal.contains(&words[13]),
                "the line starts with a legal move: {info}"
            );
        }

        gui.send("go infinite");
        let ready = gui.ask("");
        let read = gui.ask("probs\nmoves");
        let waiting: Vec<&String> = ready.iter().chain(&read).collect();
        assert!(
            waiting.iter().all(|l| l.starts_with("info depth ")
                || l.starts_with("probs")
                || l.starts_with("moves")),
            "answered during the search, no move yet: {waiting:?}"
        );
        assert!(read.iter().any(|l| l.starts_with("probs ")), "{read:?}");
        gui.send("stop");
        let stopped = gui.until(|l| l.starts_with("bestmove "));
        let best = stopped
            .last()
            .and_then(|l| l.strip_prefix("bestmove "))
            .expect("bestmove");
        assert!(legal.contains(&best), "{best} not in {legal:?}");
        // The search held the session's game: `probs` read a copy built again from the
        // position, which must be the same game.
        let during = read.iter().find(|l| l.starts_with("probs "));
        assert_eq!(
            during,
            gui.ask("probs").first(),
            "probs during and after the search"
        );

        gui.send("go infinite");
        let replies = gui.ask("position startpos");
        let moves: Vec<&String> = replies
            .iter()
            .filter(|l| l.starts_with("bestmove"))
            .collect();
        assert_eq!(
            moves.len(),
            1,
            "the search ended before the position: {replies:?}"
        );
        let fen = gui.ask("fen");
        assert!(fen.len() == 1 && fen[0].starts_with("fen "), "{fen:?}");
        // Once the game is over the search ends at once, but `go infinite` still waits for
        // `stop` before `bestmove 0000`.
        gui.send(over);
        gui.send("go infinite");
        // Time for a search that wrongly answered at once to show it (no time is measured).
        std::thread::sleep(std::time::Duration::from_millis(500));
        let waiting = [gui.ask(""), gui.ask("status")].concat();
        assert_eq!(waiting.len(), 1, "{waiting:?}");
        assert!(waiting[0].starts_with("status white_wins"), "{waiting:?}");
        assert_eq!(gui.ask("stop"), ["bestmove 0000"]);
        gui.send(position);
        gui.send("go infinite");
        let rest = gui.quit();
        assert_eq!(
            rest.iter().filter(|l| l.starts_with("bestmove ")).count(),
            1,
            "{rest:?}"
        );
    }
}

#[test]
fn a_gui_that_writes_the_outcomes_back_replays_the_same_game() {
    // Random games of 50 plies, sent as a GUI sends them: the whole position every ply. Every
    // drawn outcome is reported, the same at every ply after it; the game with the reported
    // outcomes written in gives the same board, status and FEN, and draws nothing.
    let mut measured = 0;
    for walk in 0..6 {
        measured += random_walk(walk, 50);
    }
    assert!(measured >= 10, "{measured} measured moves");
}

/// Plays a random game of up to `plies` plies as a GUI would (moves from `moves`, picked with
/// `walk` as the seed) and checks it against the same game with its reported outcomes written in;
/// returns the number of outcomes drawn.
fn random_walk(walk: u64, plies: usize) -> usize {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(walk);
    let mut gui = Gui::start(&["uqci", "--seed", &walk.to_string()]);
    let mut moves: Vec<String> = Vec::new();
    let mut reported: Vec<String> = Vec::new();
    for _ in 0..plies {
        let outcomes = gui.ask(&format!("position startpos moves {}", moves.join(" ")));
        // Every move `moves` listed is accepted (the list leaves out a move that would only
        // change the state's global phase, which playing refuses).
        assert!(
            !outcomes
                .first()
                .is_some_and(|l| l.starts_with("info string error")),
            "walk {walk}: a listed move is refused: {outcomes:?}"
        );
        // Earlier reports are kept (a move's outcome never changes), new ones come after.
        assert_eq!(outcomes[..reported.len()], reported[..], "walk {walk}");
        assert!(outcomes.len() <= reported.len() + 1, "{outcomes:?}");
        reported = outcomes;
        let legal = gui.ask("moves");
        let legal: Vec<&str> = legal[0].split_whitespace().skip(1).collect();
        if legal.is_empty() {
            break;
        }
        moves.push(legal[rng.gen_range(0..legal.len())].to_string());
    }
    let outcomes = gui.ask(&format!("position startpos moves {}", moves.join(" ")));
    let board = |gui: &mut Gui| [gui.ask("probs"), gui.ask("status"), gui.ask("fen")];
    let drawn = board(&mut gui);
    let mut written = moves.clone();
    for line in &outcomes {
        let words: Vec<&str> = line.split_whitespace().collect();
        let [_, _, "outcome", n, mv] = words[..] else {
            panic!("`info string outcome N MOVE`: {line}")
        };
        let n: usize = n.parse().expect("a move number");
        assert_eq!(written[n - 1], mv.split('.').next().unwrap(), "{line}");
        written[n - 1] = mv.to_string();
    }
    assert_eq!(
        gui.ask(&format!("position startpos moves {}", written.join(" "))),
        Vec::<String>::new(),
        "walk {walk}: nothing left to draw"
    );
    assert_eq!(board(&mut gui), drawn, "walk {walk}");
    gui.quit();
    outcomes.len()
}

/// The replies to `go ...` (sent with `position` first) up to and including its `bestmove`.
fn searched(gui: &mut Gui, position: &str, go: &str) -> Vec<String> {
    gui.send(&format!("{position}\n{go}"));
    gui.until(|l| l.starts_with("bestmove "))
}

#[test]
fn searchmoves_names_every_bad_move_and_searches_the_legal_rest() {
    let mut gui = Gui::start(&["uqci"]);
    // A word that is no move, a move the pawn cannot make, a move written twice and once with
    // its outcome: each bad one named with why, the legal one searched alone (one root move is
    // answered without searching, so no `info depth` line).
    let replies = searched(
        &mut gui,
        "position startpos",
        "go searchmoves zz e2e5 e2e4 e2e4 e2e4.m1",
    );
    assert_eq!(
        replies,
        [
            "info string error go searchmoves: `zz` is not a move: bad QCAN move `zz`: expected \
             a square a1..h8, found `zz` at column 1",
            "info string error go searchmoves: `e2e5` is not legal in this position: P cannot \
             move from e2 to e5 (not its movement pattern)",
            "bestmove e2e4",
        ]
    );
    // No legal move left in the list: said so, and every legal move is searched (one depth, in
    // a generous time), never `bestmove 0000` while the game goes on.
    let legal = gui.ask("moves");
    let legal: Vec<&str> = legal[0].split_whitespace().skip(1).collect();
    let replies = searched(
        &mut gui,
        "position startpos",
        "go searchmoves a1a2 e7e5 depth 1 movetime 60000",
    );
    assert_eq!(
        replies[..3],
        [
            "info string error go searchmoves: `a1a2` is not legal in this position: a2 is \
             occupied with certainty by P, which this move cannot capture",
            "info string error go searchmoves: `e7e5` is not legal in this position: p on e7 \
             belongs to Black, but it is White's turn",
            "info string error go searchmoves: none of the moves listed is legal here, so every \
             legal move is searched",
        ],
        "{replies:?}"
    );
    assert!(
        replies[3].starts_with("info depth 1 score cp "),
        "{replies:?}"
    );
    let best = replies[4].strip_prefix("bestmove ").expect("bestmove");
    assert!(legal.contains(&best), "{best} not in {legal:?}");
    // Once the game is over there is nothing to search: the move is named, `bestmove 0000`.
    let replies = searched(
        &mut gui,
        "position fen 7k/8/8/8/8/8/8/K6R w - - 0 1 moves h1h8",
        "go searchmoves a8a7",
    );
    assert_eq!(replies.len(), 2, "{replies:?}");
    assert!(
        replies[0].starts_with(
            "info string error go searchmoves: `a8a7` is not legal in this position: "
        ),
        "{replies:?}"
    );
    assert_eq!(replies[1], "bestmove 0000");
    gui.quit();
}

#[test]
fn a_certain_king_capture_scores_mate_and_a_likely_one_centipawns() {
    let mut gui = Gui::start(&["uqci"]);
    let certain = "position fen 7k/8/8/8/8/8/8/K6R w - - 0 1";
    // The bare search (bounded by work) and the timed one (one depth in a generous time) both
    // see the rook take the king for certain: mate in 1.
    let bare = searched(&mut gui, certain, "go");
    assert_eq!(bare.len(), 2, "{bare:?}");
    assert!(
        bare[0].starts_with("info depth 1 score mate 1 nodes ") && bare[0].ends_with(" pv h1h8"),
        "{bare:?}"
    );
    let timed = searched(&mut gui, certain, "go depth 1 movetime 60000");
    assert_eq!(timed.len(), 2, "{timed:?}");
    assert!(
        timed[0].starts_with("info depth 1 score mate 1 nodes ") && timed[0].ends_with(" pv h1h8"),
        "{timed:?}"
    );
    // Black to move can only step where the rook on a8 takes the king for certain: mated in 1.
    let mated = "position fen R6k/6pp/8/8/8/8/8/K7 b - - 0 1";
    let bare = searched(&mut gui, mated, "go depth 2");
    assert!(
        bare[1].starts_with("info depth 2 score mate -1 nodes "),
        "{bare:?}"
    );
    let timed = searched(&mut gui, mated, "go depth 2 movetime 60000");
    assert!(
        timed[1].starts_with("info depth 2 score mate -1 nodes "),
        "{timed:?}"
    );
    // The king split over g8 and g7: the rook takes it with probability 1/2 only. By hand, the
    // capture is worth 1/2 x (1000 - 0.01) (won at the first ply) + 1/2 x the evaluation where
    // the king survived on g7 (for White: two rooks up, the king attacked): centipawns, no mate.
    let likely = "position fen 7k/8/8/8/8/8/8/K5RR b - - 0 1 moves h8^g8g7";
    let survived = {
        use qc_rules::{QuantumGame, Ruleset};
        use rand::SeedableRng;
        let start =
            qc_rules::Cantwell::start(Some("7k/8/8/8/8/8/8/K5RR b - - 0 1"), None).expect("a FEN");
        let mut game =
            qc_rules::Cantwell::new_game(&start, qc_sim::SparseSim::new()).expect("a game");
        let mut dice = rand_chacha::ChaCha8Rng::seed_from_u64(0);
        for m in ["h8^g8g7", "g1xg8.m0"] {
            game.play_text(m, &mut dice).expect("a move");
        }
        -qc_engine::eval::evaluate(&game.board_view(false), &qc_engine::eval::Weights::FULL)
    };
    let by_hand = 0.5 * (qc_engine::eval::WIN - 0.01) + 0.5 * survived;
    let bare = searched(&mut gui, likely, "go");
    assert_eq!(
        bare,
        [
            format!(
                "info depth 1 score cp {} nodes 215 pv g1g8",
                (by_hand * 100.0).round()
            ),
            "bestmove g1g8".to_string()
        ]
    );
    let timed = searched(&mut gui, likely, "go depth 1 movetime 60000");
    assert!(timed[0].starts_with("info depth 1 score cp "), "{timed:?}");
    gui.quit();
}

#[test]
fn hash_threads_and_multipv_are_announced_and_checked() {
    let lines = session("uci\nquit\n");
    for option in [
        "option name Hash type spin default 16 min 1 max 1024",
        "option name Threads type spin default 1 min 1 max 1024",
        "option name MultiPV type spin default 1 min 1 max 256",
    ] {
        assert!(lines.iter().any(|l| l == option), "{option}: {lines:?}");
    }
    let replies = session(
        "setoption name Hash value 0\nsetoption name Hash value 2048\nsetoption name Hash value 64\n\
         setoption name Threads value 0\nsetoption name Threads value 4\nsetoption name Threads value 1\n\
         setoption name MultiPV value x\nsetoption name MultiPV value 257\nsetoption name MultiPV value 3\nquit\n",
    );
    assert_eq!(
        replies,
        [
            "info string error setoption hash: value must be a whole number from 1 to 1024, got `0`",
            "info string error setoption hash: value must be a whole number from 1 to 1024, got `2048`",
            "info string error setoption threads: value must be a whole number from 1 to 1024, got `0`",
            "info string Threads 4: accepted, the search runs on one thread",
            "info string error setoption multipv: value must be a whole number from 1 to 256, got `x`",
            "info string error setoption multipv: value must be a whole number from 1 to 256, got `257`",
        ]
    );
}

/// The `(multipv, score, first move)` of each `info depth 2` line of `replies`.
fn ranked(replies: &[String]) -> Vec<(usize, i64, String)> {
    replies
        .iter()
        .filter(|l| l.starts_with("info depth 2 multipv "))
        .map(|l| {
            let w: Vec<&str> = l.split_whitespace().collect();
            assert_eq!((w[5], w[6]), ("score", "cp"), "{l}");
            let pv = w.iter().position(|&x| x == "pv").expect("a pv");
            (
                w[4].parse().expect("a rank"),
                w[7].parse().expect("a score"),
                w[pv + 1].to_string(),
            )
        })
        .collect()
}

#[test]
fn multipv_ranks_the_best_root_moves_with_their_exact_scores() {
    // The rook against the queen, two plies deep in a generous time: MultiPV 3 reports three
    // different moves, best first, and they are the first three of the whole ranking (MultiPV
    // above the number of moves scores every move exactly); MultiPV 1's one line is their first.
    let position = "position fen q6k/1p6/8/8/8/8/8/1R5K w - - 0 1";
    let go = "go depth 2 movetime 60000";
    let mut gui = Gui::start(&["uqci"]);
    gui.send("setoption name MultiPV value 3");
    let three = ranked(&searched(&mut gui, position, go));
    gui.send("setoption name MultiPV value 256");
    let all = ranked(&searched(&mut gui, position, go));
    gui.send("setoption name MultiPV value 1");
    let one = searched(&mut gui, position, go);
    gui.quit();
    assert_eq!(three.iter().map(|r| r.0).collect::<Vec<_>>(), [1, 2, 3]);
    assert!(all.len() > 3, "{all:?}");
    assert!(
        all.windows(2).all(|w| w[0].1 >= w[1].1),
        "best first: {all:?}"
    );
    let scores = |r: &[(usize, i64, String)]| r.iter().map(|x| x.1).collect::<Vec<_>>();
    assert_eq!(scores(&three), scores(&all[..3]), "{three:?} {all:?}");
    let mut moves: Vec<&String> = three.iter().map(|r| &r.2).collect();
    moves.sort();
    moves.dedup();
    assert_eq!(moves.len(), 3, "{three:?}");
    let best = one
        .iter()
        .find(|l| l.starts_with("info depth 2 score cp "))
        .expect("one depth-2 line");
    let words: Vec<&str> = best.split_whitespace().collect();
    assert_eq!(words[5].parse::<i64>().ok(), Some(three[0].1), "{best}");
}
