//! `qchess play` driven through a pipe (rustyline reads plain lines when standard input is not
//! a terminal): every command of the list answers, unknown input names the commands, a
//! saved game loads back into a new session, the same for both rulesets.

mod common;

use common::{ok_stdout, qchess_with_input, temp_dir};

/// The commands a player can type, besides moves (issue 15).
const COMMANDS: &[&str] = &[
    "board", "history", "moves", "undo", "probs", "bell", "draw", "svg", "load", "save", "fen",
    "help", "quit",
];

const KNIGHT_FEN: &str = "4k3/8/8/4p3/8/8/8/4K1N1 w - - 0 1";

#[test]
fn every_command_answers_and_unknown_input_names_them_all() {
    let dir = temp_dir("play_commands");
    let svg = dir.join("board.svg");
    let script = format!(
        "g1^f3h3\nhistory\ndraw 1\nsvg {}\nfoo\nhelp\nquit\nboard\n",
        svg.display()
    );
    let out = ok_stdout(&qchess_with_input(&["play", "--fen", KNIGHT_FEN], &script));
    // history: the move with its number.
    assert!(out.contains("  1. g1^f3h3"), "{out}");
    // draw 1: a split jump is sqrt-iSWAP(g1, f3) then iSWAP(g1, h3) (docs/rules.md).
    let drawing: Vec<&str> = out
        .lines()
        .skip_while(|l| !l.starts_with("g1:"))
        .take(5)
        .collect();
    assert!(
        drawing[0].contains("[siswap]") && drawing[0].contains("[iswap]"),
        "{drawing:?}"
    );
    assert!(drawing.iter().any(|l| l.starts_with("f3:")), "{drawing:?}");
    assert!(drawing.iter().any(|l| l.starts_with("h3:")), "{drawing:?}");
    // svg: a picture that parses, with the knight's two squares.
    let text = std::fs::read_to_string(&svg).expect("svg written");
    let doc = roxmltree::Document::parse(&text).expect("svg is XML");
    assert_eq!(doc.root_element().tag_name().name(), "svg");
    // foo: not a parser error but the list of commands.
    let unknown = out
        .lines()
        .find(|l| l.contains("`foo`"))
        .expect("an answer to foo");
    assert!(!unknown.contains("QCAN"), "{unknown}");
    for command in COMMANDS {
        assert!(unknown.contains(command), "`{command}` missing: {unknown}");
        assert!(
            out.lines().any(|l| l.starts_with(&format!("  {command} "))),
            "help lacks `{command}`: {out}"
        );
    }
    // quit ends the session: the `board` after it is not answered.
    assert_eq!(out.matches("Legend:").count(), 2, "{out}");
}

#[test]
fn a_saved_game_loads_into_a_new_session() {
    for (rules, fen, moves) in [
        ("cantwell", KNIGHT_FEN, "g1^f3h3\ne8d8\nf3xe5\n"),
        ("niels", "7k/8/8/5P2/8/8/8/K7 w - - 0 1 rd4e6op", "f5e6\n"),
    ] {
        let dir = temp_dir(&format!("play_load_{rules}"));
        let saved = dir.join("game.txt");
        let first = ok_stdout(&qchess_with_input(
            &["play", "--rules", rules, "--fen", fen, "--seed", "5"],
            &format!("{moves}save {}\nrecord\nquit\n", saved.display()),
        ));
        let record = first.lines().last().expect("the record");
        // A new session from the start position, another seed: load replays the file's
        // outcomes, so the record is the same.
        let second = ok_stdout(&qchess_with_input(
            &["play", "--rules", rules, "--seed", "9"],
            &format!("load {}\nrecord\nquit\n", saved.display()),
        ));
        assert!(
            second.contains(&format!("loaded {}", saved.display())),
            "{second}"
        );
        assert_eq!(second.lines().last(), Some(record), "{rules}: {second}");
        let missing = ok_stdout(&qchess_with_input(
            &["play", "--rules", rules],
            "load /nonexistent/game\nfen\n",
        ));
        assert!(
            missing.contains("error: cannot read /nonexistent/game"),
            "{missing}"
        );
    }
}

/// Runs `qchess play args` in `dir` with `script` on standard input; its standard output.
fn play_in(dir: &std::path::Path, args: &[&str], script: &str) -> String {
    use std::io::Write;
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_qchess"))
        .arg("play")
        .args(args)
        .current_dir(dir)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("qchess runs");
    child
        .stdin
        .take()
        .expect("stdin")
        .write_all(script.as_bytes())
        .expect("the script is written");
    ok_stdout(&child.wait_with_output().expect("qchess finishes"))
}

#[test]
fn save_without_a_name_writes_a_new_file_or_the_games_own_and_says_where() {
    for (rules, ext, fen, moves) in [
        ("cantwell", "qcg", KNIGHT_FEN, "g1^f3h3\ne8d8\n"),
        (
            "niels",
            "qng",
            "7k/8/8/5P2/8/8/8/K7 w - - 0 1 rd4e6op",
            "f5e6\n",
        ),
    ] {
        let dir = temp_dir(&format!("play_save_default_{rules}"));
        let _ = std::fs::remove_file(dir.join(format!("game.{ext}")));
        let _ = std::fs::remove_file(dir.join(format!("game-2.{ext}")));
        // A file already there is never overwritten: the first free name is taken.
        std::fs::write(dir.join(format!("game.{ext}")), "someone's file").expect("write");
        let args = ["--rules", rules, "--fen", fen, "--seed", "3"];
        let out = play_in(&dir, &args, &format!("{moves}save\nrecord\nsave\nquit\n"));
        let new_file = format!("game-2.{ext}");
        assert!(
            out.contains(&format!("saved to {new_file} (a new file")),
            "{rules}: {out}"
        );
        // The second `save` writes the same file again: it is now the game's file.
        assert!(
            out.contains(&format!("saved to {new_file} (the game's file)")),
            "{rules}: {out}"
        );
        let kept = std::fs::read_to_string(dir.join(format!("game.{ext}"))).expect("read");
        assert_eq!(kept, "someone's file");
        // The file holds the game: loaded into a new session, it gives the same record.
        let record = out
            .lines()
            .find(|l| l.starts_with("1."))
            .expect("the record line");
        let again = play_in(
            &dir,
            &["--rules", rules],
            &format!("load {new_file}\nrecord\n"),
        );
        assert!(again.lines().any(|l| l == record), "{rules}: {again}");

        // Started from a game file, `save` writes the game back to it.
        let out = play_in(
            &dir,
            &["--rules", rules, &new_file],
            "random\nrecord\nsave\n",
        );
        assert!(
            out.contains(&format!("saved to {new_file} (the game's file)")),
            "{rules}: {out}"
        );
        let record = out.lines().rfind(|l| l.starts_with("1."));
        let again = play_in(
            &dir,
            &["--rules", rules],
            &format!("load {new_file}\nrecord\n"),
        );
        assert_eq!(again.lines().rfind(|l| l.starts_with("1.")), record);
    }
}

/// Issue 30, item 13: Bell values of one square twice describe no state: `bell f3 f3` is
/// refused (and the session goes on), in `play` and in UQCI's `calcbell` alike.
#[test]
fn bell_of_one_square_twice_is_refused() {
    let out = ok_stdout(&qchess_with_input(
        &["play", "--fen", KNIGHT_FEN],
        "g1^f3h3\nbell f3 f3\nbell f3 h3\nquit\n",
    ));
    let refusal = out
        .lines()
        .find(|l| l.starts_with("error:") || l.starts_with("O1="))
        .expect("an answer to bell f3 f3");
    assert!(
        refusal.starts_with("error:") && refusal.contains("`f3 f3`"),
        "{refusal}\n{out}"
    );
    // The pair of two squares still answers: f3 and h3 are never both occupied.
    assert!(out.contains("same=0.0000 opposite=1.0000"), "{out}");
    let uqci = ok_stdout(&qchess_with_input(
        &["uqci"],
        "position fen 7k/8/8/8/8/8/8/N6K w - - 0 1 moves a1^b3c2\ncalcbell b3 b3\nquit\n",
    ));
    assert!(
        uqci.lines()
            .any(|l| l.starts_with("info string error calcbell:") && l.contains("`b3 b3`")),
        "{uqci}"
    );
    assert!(!uqci.contains("bell b3 b3"), "{uqci}");
}

/// The lines of `out` that report a move played (`played ...`), in order.
fn played_lines(out: &str) -> Vec<&str> {
    out.lines().filter(|l| l.starts_with("played ")).collect()
}

/// Issue 30 item 7: every move form docs/notation.md documents is read by the ruleset's move
/// reader and played, not refused as "neither a move nor a command".
#[test]
fn every_documented_move_form_is_played() {
    // Quantum Chess: a piece letter, upper-case squares, a split with a lower-case letter.
    let out = ok_stdout(&qchess_with_input(
        &["play", "--seed", "1"],
        "Ng1f3\nnb8^a6c6\nundo\nundo\nE2E4\nbc1e3\nquit\n",
    ));
    let errors: Vec<&str> = out.lines().filter(|l| l.starts_with("error")).collect();
    // Not Black's move: the reader read it, the rules refuse it with their reason.
    assert_eq!(errors.len(), 1, "{out}");
    assert!(errors[0].starts_with("error: bc1e3: "), "{out}");
    let played = played_lines(&out);
    assert_eq!(played.len(), 3, "{out}");
    assert!(played[0].starts_with("played Ng1f3 "), "{played:?}");
    assert!(played[1].starts_with("played Nb8^a6c6 "), "{played:?}");
    assert!(played[2].starts_with("played e2e4 "), "{played:?}");

    // Niel's Chess, Hadamard Game: a superposition move, the Z move and the Hadamard move.
    let niels = |variant: &str, fen: &str, script: &str| {
        ok_stdout(&qchess_with_input(
            &[
                "play",
                "--rules",
                "niels",
                "--variant",
                variant,
                "--fen",
                fen,
                "--seed",
                "1",
            ],
            script,
        ))
    };
    let out = niels(
        "hadamard",
        "7k/8/8/8/8/8/8/K3R3 w - - 0 1",
        "e1^e4e2\nh8g8\nZe2\ng8h8\nHe4\nquit\n",
    );
    assert!(!out.contains("error"), "{out}");
    let played = played_lines(&out);
    assert_eq!(played.len(), 5, "{out}");
    assert!(played[2].starts_with("played Ze2 "), "{played:?}");
    assert!(played[4].starts_with("played He4 "), "{played:?}");
    // The full game: mark inversion.
    let out = niels("full", "7k/8/8/8/8/8/8/K7 w - - 0 1 Re4e2op", "~e4\nquit\n");
    assert!(!out.contains("error"), "{out}");
    assert!(
        played_lines(&out) == ["played ~e4 (mark_inversion no roll)"],
        "{out}"
    );
}

/// A word the move reader refuses: with a square in it, the reader's error; without, the list of
/// commands (a mistyped command).
#[test]
fn a_refused_word_gets_the_readers_error_or_the_commands() {
    let out = ok_stdout(&qchess_with_input(&["play"], "g1^f3f3\nboadr\nquit\n"));
    assert!(out.contains("error: g1^f3f3: bad QCAN move"), "{out}");
    let mistyped = out
        .lines()
        .find(|l| l.contains("`boadr`"))
        .expect("an answer to boadr");
    assert!(
        mistyped.contains("neither a move nor a command"),
        "{mistyped}"
    );
    assert!(!mistyped.contains("QCAN"), "{mistyped}");
}

/// `moves e2` lists the moves of the piece on e2 only, `help` gives the notation by example and
/// says what a split and a merge are.
#[test]
fn moves_of_one_piece_and_help_with_notation_examples() {
    let out = ok_stdout(&qchess_with_input(
        &["play"],
        "moves g1\nmoves e4\nmoves z9\nhelp\nquit\n",
    ));
    let g1 = out
        .lines()
        .find(|l| l.starts_with("jump:"))
        .expect("the knight's jumps");
    assert_eq!(g1, "jump: g1f3 g1h3", "{out}");
    assert!(
        out.lines().any(|l| l == "split_jump: g1^f3h3 g1^h3f3"),
        "{out}"
    );
    // Only g1's moves: no pawn step, no other knight (before `help`, whose examples have them).
    let listed = &out[..out.find("Type a move in").expect("help answers")];
    assert!(
        !listed.contains("e2e4") && !listed.contains("b1c3"),
        "{out}"
    );
    assert!(out.contains("no legal move starts on e4"), "{out}");
    assert!(out.contains("error: `moves` takes a square"), "{out}");
    for example in ["Ng1f3", "E2E4", "g1^f3h3", "split:", "f3h3^g1", "merge:"] {
        assert!(out.contains(example), "help lacks {example}: {out}");
    }

    let out = ok_stdout(&qchess_with_input(
        &["play", "--rules", "niels"],
        "help\nquit\n",
    ));
    for example in ["c6^d4e5", "split", "Ze2", "He4", "~d4", "merge"] {
        assert!(out.contains(example), "Niel's help lacks {example}: {out}");
    }
}

/// A finished game is saved with its result token (issue 30 item 17: `save` wrote none), in both
/// rulesets, and the file reads back to the same ending; an unfinished game gets no token.
#[test]
fn a_finished_game_is_saved_with_its_result() {
    let dir = temp_dir("play-result");
    let cases = [
        // White's rook captures the king.
        (
            "cantwell",
            "k7/8/8/8/8/8/8/R6K w - - 0 1",
            "a1a8",
            "qcg",
            "1. a1a8 1-0\n",
            "White wins (king captured)",
        ),
        // Back-rank checkmate.
        (
            "niels",
            "k7/8/1K6/8/8/8/8/7Q w - - 0 1",
            "h1h8",
            "qng",
            "1. h1h8 1-0\n",
            "White wins by checkmate",
        ),
        // Not over: no result.
        (
            "cantwell",
            "k7/8/8/8/8/8/8/R6K w - - 0 1",
            "a1a2",
            "qcg",
            "1. a1a2\n",
            "game on",
        ),
    ];
    for (rules, fen, mv, ext, written, ending) in cases {
        let file = format!("{rules}-{mv}.{ext}");
        let out = play_in(
            &dir,
            &["--rules", rules, "--fen", fen],
            &format!("{mv}\nsave {file}\nquit\n"),
        );
        assert!(out.contains(&format!("saved to {file}")), "{out}");
        let text = std::fs::read_to_string(dir.join(&file)).expect("saved file");
        assert!(text.ends_with(written), "{rules} {mv}: {text}");
        // It reads back: loaded, the game has the same ending.
        let out = play_in(&dir, &["--rules", rules], &format!("load {file}\nquit\n"));
        assert!(out.contains(&format!("loaded {file}")), "{out}");
        if ending != "game on" {
            assert!(
                out.contains(&format!("Game over: {ending}")),
                "{rules} {mv}: {out}"
            );
        }
    }
}
