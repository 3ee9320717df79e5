//! The fifty-move counter and threefold repetition through `qchess play` (`claim`) and
//! `qchess simulate` (what could be claimed).

mod common;
use common::*;

/// White's knight split onto a3 and c3, then two four-ply cycles of king and knight jumps: the
/// position after the split occurs a third time (docs/rules.md, rule 14).
const FEN: &str = "4k1n1/8/8/8/8/8/8/1N2K3 w - - 0 1";
const MOVES: &str = "b1^a3c3 g8f6 e1d1 f6g8 d1e1 g8f6 e1d1 f6g8 d1e1";

#[test]
fn play_claims_threefold_repetition() {
    let too_early = format!(
        "{}\nclaim\nquit\n",
        MOVES.split(' ').take(5).collect::<Vec<_>>().join("\n")
    );
    let out = ok_stdout(&qchess_with_input(
        &["play", "--fen", FEN, "--seed", "0"],
        &too_early,
    ));
    assert!(
        out.contains("error: nothing to claim: the position occurred 1 time(s) before"),
        "{out}"
    );

    let script = format!("{}\nclaim\nquit\n", MOVES.replace(' ', "\n"));
    let out = ok_stdout(&qchess_with_input(
        &["play", "--fen", FEN, "--seed", "0"],
        &script,
    ));
    assert!(out.contains("Can claim: repetition"), "{out}");
    assert!(
        out.contains("claimed repetition: measured every square"),
        "{out}"
    );
    assert!(
        out.contains("Game over: Draw by threefold repetition"),
        "{out}"
    );
}

#[test]
fn simulate_reports_what_could_be_claimed() {
    let game = format!("[FEN \"{FEN}\"]\n\n{MOVES}\n");
    let json = ok_json(&qchess_with_input(&["simulate", "-", "--json"], &game));
    assert_eq!(json["endings"]["claimable"], "repetition", "{json}");
    assert_eq!(json["endings"]["fifty_move_counter"], 9);
    assert_eq!(json["endings"]["ended_by"], serde_json::Value::Null);
    let text = ok_stdout(&qchess_with_input(&["simulate", "-"], &game));
    assert!(
        text.contains(
            "Halfmove clock (FEN): 9   Official fifty-move counter: 9/100   Can claim: repetition"
        ),
        "{text}"
    );
}

#[test]
fn simulate_shows_a_game_ended_by_the_fifty_move_rule() {
    // Counter 99 at the start: the first ply reaches 100 and every square is measured; both kings
    // are certain, so it is a draw.
    let game = "[FEN \"4k3/8/8/8/8/8/8/4K3 w - - 99 1\"]\n\ne1d1\n";
    let json = ok_json(&qchess_with_input(&["simulate", "-", "--json"], game));
    assert_eq!(json["status"], "draw_fifty_moves", "{json}");
    assert_eq!(json["endings"]["ended_by"], "fifty_moves");
    let want = (1u64 << 3) | (1u64 << 60); // d1 and e8
    assert_eq!(json["endings"]["measured_bitboard"], want);
}

/// A claim made in `play` is saved with the board it measured, and `simulate` on the saved file
/// claims again and ends on that board whatever its own seed (docs/rules.md, rule 14); a file
/// whose recorded claim cannot be made is refused with exit 2, naming the move it follows.
#[test]
fn a_claim_saved_from_play_replays_on_the_same_board() {
    let dir = temp_dir("claim_replay");
    let mut knights = Vec::new();
    for seed in 0..8 {
        let path = dir.join(format!("claimed-{seed}.qcg"));
        let script = format!(
            "{}\nclaim\nsave {}\nquit\n",
            MOVES.replace(' ', "\n"),
            path.display()
        );
        let out = ok_stdout(&qchess_with_input(
            &["play", "--fen", FEN, "--seed", &seed.to_string()],
            &script,
        ));
        let board = out
            .split("claimed repetition: measured every square, board 0x")
            .nth(1)
            .and_then(|rest| u64::from_str_radix(&rest[..16], 16).ok())
            .unwrap_or_else(|| panic!("no claimed board in {out}"));
        knights.push(board & (1 << 16 | 1 << 18));
        let file = path.display().to_string();
        let json = ok_json(&qchess(&["simulate", &file, "--json", "--seed", "999"]));
        assert_eq!(json["status"], "draw_repetition", "{json}");
        assert_eq!(json["endings"]["ended_by"], "repetition");
        assert_eq!(json["endings"]["measured_bitboard"], board, "seed {seed}");
    }
    assert!(
        knights.contains(&(1 << 16)) && knights.contains(&(1 << 18)),
        "the seeds measure the knight on both squares: {knights:?}"
    );

    let early = format!(
        "[FEN \"{FEN}\"]\n[RepetitionClaimBoard \"0x1000000000010010\"]\n\n{}\n",
        MOVES.split(' ').take(5).collect::<Vec<_>>().join(" ")
    );
    let out = qchess_with_input(&["simulate", "-"], &early);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("records a threefold-repetition claim after move 5")
            && err.contains("occurred 1 time(s) before"),
        "{err}"
    );
}

/// A game file whose result token contradicts how its moves end the game is refused with exit 2
/// and says both (issue 26); the same moves with the right result, `*`, or a result on a game
/// still going on (a resignation) replay.
#[test]
fn simulate_refuses_a_result_the_moves_contradict() {
    let dir = temp_dir("result-token");
    let cases = [
        (
            "cantwell",
            "k7/8/8/8/8/8/8/R6K w - - 0 1",
            "a1a8",
            "White wins (king captured)",
        ),
        (
            "niels",
            "k7/8/1K6/8/8/8/8/7Q w - - 0 1",
            "h1h8",
            "White wins by checkmate",
        ),
    ];
    for (rules, fen, mv, ending) in cases {
        let name = format!("{rules}.game");
        let path = dir.join(&name);
        let file = path_str(&path);
        let write = |result: &str| {
            std::fs::write(&path, format!("[FEN \"{fen}\"]\n\n1. {mv} {result}\n"))
                .expect("write the game file");
        };
        write("0-1");
        let out = qchess(&["simulate", file, "--rules", rules]);
        assert_eq!(out.status.code(), Some(2), "{name}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(&format!(
                "the game file's result `0-1` contradicts its moves: replayed, the game ends \
                 {ending} (`1-0`)"
            )),
            "{name}: {err}"
        );
        for result in ["1-0", "*"] {
            write(result);
            let out = ok_stdout(&qchess(&["simulate", file, "--rules", rules]));
            assert!(out.contains(ending), "{name}: {out}");
        }
    }
    let resigned = dir.join("resigned.qcg");
    std::fs::write(
        &resigned,
        "[FEN \"k7/8/8/8/8/8/8/R6K w - - 0 1\"]\n\n1. a1a2 0-1\n",
    )
    .expect("write the game file");
    let out = ok_stdout(&qchess(&["simulate", path_str(&resigned)]));
    assert!(out.contains("Black to move"), "{out}");
}
