//! `qchess uqci` driven through pipes: the example session of docs/uqci.md replayed exactly, and
//! scripted sessions whose expected replies are worked out by hand (probabilities of a split,
//! Bell values of the Bell state it makes, scores of the evaluation, full-measurement bitboards).

mod common;
use common::*;

/// Sends `script` to `qchess uqci` and returns its reply lines (the run must succeed).
fn session(script: &str) -> Vec<String> {
    let out = ok_stdout(&qchess_with_input(&["uqci"], script));
    out.lines().map(str::to_string).collect()
}

fn session_bytes(script: &[u8]) -> Vec<String> {
    let out = qchess_with_bytes(&["uqci"], script);
    ok_stdout(&out).lines().map(str::to_string).collect()
}

/// The numbers of a reply line `WORD k1 v1 k2 v2 ...` after its first `skip` words, by key.
fn values(line: &str, skip: usize) -> Vec<(String, f64)> {
    let words: Vec<&str> = line.split_whitespace().skip(skip).collect();
    words
        .chunks(2)
        .map(|kv| (kv[0].to_string(), kv[1].parse().expect("a number")))
        .collect()
}

#[test]
fn the_documented_session_runs_as_written() {
    let doc = include_str!("../../../docs/uqci.md");
    let block = doc
        .split("## Example session")
        .nth(1)
        .and_then(|s| s.split("```text\n").nth(1))
        .and_then(|s| s.split("```").next())
        .expect("docs/uqci.md has an example session");
    let mut input = String::new();
    let mut expected = Vec::new();
    for line in block.lines() {
        match line.strip_prefix("> ") {
            Some(command) => input.push_str(&format!("{command}\n")),
            None => expected.push(line.to_string()),
        }
    }
    assert!(input.contains("quit"));
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

#[test]
fn go_picks_the_move_with_the_best_expected_material() {
    // White rook a1 can take the queen on a8 for certain: 5 + 100 - 100 = +5 pawns (500 cp);
    // every other move leaves 5 + 100 - 9 - 100 = -4.
    let lines = session("position fen q6k/8/8/8/8/8/8/R6K w - - 0 1\ngo\nquit\n");
    assert_eq!(
        lines,
        ["info depth 1 score cp 500 pv a1a8", "bestmove a1a8"]
    );
    // A capture that succeeds with probability 1/2: the knight on a3 splits to b1 and c4; from b1
    // it takes the rook on c3 only when it is there. Worth 1/2 * (3 + 100 - 100) + 1/2 * (3 + 100
    // - 5 - 100) = 1/2 pawn; the other moves keep 3 - 5 = -2 at best.
    let lines =
        session("position fen 7k/8/8/8/8/N1r5/8/7K w - - 0 1 moves a3^b1c4 h8g8\ngo\nquit\n");
    assert_eq!(lines, ["info depth 1 score cp 50 pv b1c3", "bestmove b1c3"]);
}

#[test]
fn go_depth_two_sees_the_reply() {
    // White: rook b1, king h1 (105); Black: queen a8, pawn b7, king h8 (110): -5 for White.
    // Depth 1 takes the pawn on b7 (path b2..b6 clear): -4. Depth 2 sees the queen on a8 take the
    // rook back (adjacent diagonal): 100 - 9 - 100 = -9; a quiet move that keeps the rook out of
    // the queen's reach leaves -5 after Black's best reply (nothing to take): -500 cp.
    let lines = session("position fen q6k/1p6/8/8/8/8/8/1R5K w - - 0 1\ngo\ngo depth 2\nquit\n");
    assert_eq!(lines[1], "bestmove b1b7", "{lines:?}");
    assert!(lines[2].starts_with("info depth 2 score cp "), "{lines:?}");
    assert_ne!(lines[3], "bestmove b1b7", "{lines:?}");
    let score: i64 = lines[2]
        .split_whitespace()
        .nth(5)
        .expect("score")
        .parse()
        .expect("cp");
    assert_eq!(score, -500, "{lines:?}");
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

#[test]
fn nothing_a_gui_sends_ends_the_session() {
    let long = "x".repeat(200_000);
    let mut script: Vec<u8> = Vec::new();
    for line in [
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
        long.as_str(),
        "\u{0}\u{7f}",
        "position fen 8/8/8/8/8/8/8/8 w - - 0 1 moves e2e4",
    ] {
        script.extend_from_slice(line.as_bytes());
        script.extend_from_slice(b"\nisready\n");
    }
    script.extend_from_slice(b"\xff\xfe not utf-8\nisready\nfen\n");
    let lines = session_bytes(&script);
    let (errors, ready): (Vec<&String>, Vec<&String>) = lines[..lines.len() - 1]
        .iter()
        .partition(|l| l.starts_with("info string error "));
    assert_eq!(ready.len(), 16, "{lines:?}");
    assert!(ready.iter().all(|l| *l == "readyok"), "{lines:?}");
    assert_eq!(errors.len(), 16, "{lines:?}");
    assert!(errors.iter().any(|l| l.contains("longer than 65536 bytes")));
    assert!(errors.iter().any(|l| l.contains("not UTF-8")));
    // The failed positions left the start position in place; the session ends at end of input.
    assert_eq!(
        lines.last().map(String::as_str),
        Some("fen rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1")
    );
}
