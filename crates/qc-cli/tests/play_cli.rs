//! `qchess play` driven through a pipe (rustyline reads plain lines when standard input is not
//! a terminal): every command of the list answers, unknown input names the commands, a
//! saved game loads back into a new session, the same for both rulesets.

mod common;

use common::{ok_stdout, qchess_with_input, temp_dir};

/// The commands a player can type, besides moves (issue 15).
const COMMANDS: &[&str] = &[
    "board", "history", "moves", "undo", "reroll", "go", "probs", "bell", "draw", "svg", "load",
    "save", "save!", "fen", "record", "random", "claim", "compact", "help", "quit",
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
    let out = ok_stdout(&qchess_with_input(
        &["play", "--fen", KNIGHT_FEN, "--seed", "0"],
        &script,
    ));
    // history: the move with its number.
    assert!(out.contains("     1.   g1^f3h3"), "{out}");
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

        // Started from a game file, `save` writes the game back to it only when told to: this
        // session did not write it.
        let out = play_in(
            &dir,
            &["--rules", rules, &new_file, "--seed", "4"],
            "random\nrecord\nsave\nsave!\n",
        );
        assert!(
            out.contains(&format!(
                "error: {new_file} (the game's file) exists, and this session did not write it: not saved. `save!` overwrites it"
            )),
            "{rules}: {out}"
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

/// Copies the bundled file `name` (under the repository root) into `dir`; its new path.
fn copy_into(dir: &std::path::Path, name: &str) -> std::path::PathBuf {
    let from = common::root().join(name);
    let to = dir.join(from.file_name().expect("a file name"));
    std::fs::copy(&from, &to).expect("copy");
    to
}

/// Issue "play", item 1: `play GAME` then `save` overwrote GAME and dropped its tags and
/// comments. Now `save` refuses a file this session did not write when not interactive (the
/// file is left as it was); `save!` writes it with the file's tags and comments, and it
/// loads back. Both rulesets.
#[test]
fn saving_over_the_games_own_file_asks_and_keeps_its_tags_and_comments() {
    let dir = temp_dir("play_save_own");
    for (name, mv, tag, comment) in [
        (
            "circuits/interference.qcg",
            "h8g8",
            "[Event \"Interference: Cantwell 2019, sec. 11.2\"]",
            "{ A lone white king splits and splits again;",
        ),
        (
            "circuits/niels/entangled_group.qng",
            "random",
            "[Event \"entanglement moves and collapse in tandem\"]",
            "; Niel's Chess, schools paper Figs. 8-10",
        ),
    ] {
        let file = copy_into(&dir, name);
        let before = std::fs::read_to_string(&file).expect("read");
        let shown = file.file_name().and_then(|n| n.to_str()).expect("name");
        let out = play_in(
            &dir,
            &[shown, "--seed", "2"],
            &format!("{mv}\nsave\nquit\n"),
        );
        assert!(
            out.contains(&format!("error: {shown} (the game's file) exists, and this session did not write it: not saved. `save!` overwrites it")),
            "{out}"
        );
        assert_eq!(std::fs::read_to_string(&file).expect("read"), before);
        let out = play_in(
            &dir,
            &[shown, "--seed", "2"],
            &format!("{mv}\nsave!\nrecord\nquit\n"),
        );
        assert!(
            out.contains(&format!("saved to {shown} (the game's file)")),
            "{out}"
        );
        let after = std::fs::read_to_string(&file).expect("read");
        assert!(after.contains(tag), "{after}");
        assert!(after.contains(comment), "{after}");
        // It reads back: the same record, tags and comments kept again.
        let record = out.lines().rfind(|l| l.contains("1.")).expect("the record");
        let again = play_in(&dir, &[shown, "--seed", "9"], "record\nsave\nsave!\nquit\n");
        assert!(again.lines().any(|l| l == record), "{again}");
        assert_eq!(std::fs::read_to_string(&file).expect("read"), after);
    }
}

/// The banner's seed, `N` of `seed N (...)`.
fn banner_seed(out: &str) -> u64 {
    let after = out.split(", seed ").nth(1).expect("the seed is printed");
    after
        .split(' ')
        .next()
        .and_then(|n| n.parse().ok())
        .expect("a number")
}

/// A measured move of each ruleset whose outcome is a coin toss (P 1/2), after its set-up.
fn coin(rules: &str) -> (&'static str, &'static str, &'static str) {
    match rules {
        "cantwell" => (
            "4k3/8/8/4p3/8/8/8/4K1N1 w - - 0 1",
            "g1^f3h3\ne8d8\n",
            "f3xe5",
        ),
        _ => ("7k/8/8/5P2/8/8/8/K7 w - - 0 1 rd4e6op", "", "f5e6"),
    }
}

/// The texts of the moves played (`played X (...)`), in order.
fn played_moves(out: &str) -> Vec<&str> {
    played_lines(out)
        .into_iter()
        .filter_map(|l| l.strip_prefix("played ")?.split(' ').next())
        .collect()
}

/// Issue "play", item 2: the dice were the same in every session. Without `--seed` each
/// session draws a seed and prints it; `--seed` with that number replays the same outcomes.
/// Both rulesets.
#[test]
fn each_session_draws_a_seed_it_prints_and_the_seed_replays_it() {
    for rules in ["cantwell", "niels"] {
        let (fen, setup, toss) = coin(rules);
        let script = format!("{setup}{toss}\nrecord\nquit\n");
        let args = ["play", "--rules", rules, "--fen", fen];
        let runs: Vec<String> = (0..2)
            .map(|_| ok_stdout(&qchess_with_input(&args, &script)))
            .collect();
        let seeds: Vec<u64> = runs.iter().map(|o| banner_seed(o)).collect();
        assert_ne!(seeds[0], seeds[1], "{rules}: two sessions, one seed");
        let seed = seeds[0].to_string();
        let replayed = ok_stdout(&qchess_with_input(
            &[&args[..], &["--seed", &seed]].concat(),
            &script,
        ));
        assert!(
            replayed.contains(&format!(
                "seed {seed} (`--seed {seed}` replays these outcomes)"
            )),
            "{replayed}"
        );
        assert_eq!(
            runs[0].lines().last(),
            replayed.lines().last(),
            "{rules}: the record"
        );
    }
}

/// Issue "play", item 2: undo and the same move again re-rolled its measurement, so a player
/// could retry until it went their way. Now it keeps the outcome it drew, however often;
/// `reroll` forgets the outcomes, and the dice roll again (both outcomes come up over twenty
/// tries). Both rulesets.
#[test]
fn undo_and_the_same_move_again_keep_the_outcome_until_reroll() {
    for rules in ["cantwell", "niels"] {
        let (fen, setup, toss) = coin(rules);
        let retries = format!("{toss}\nundo\n").repeat(20);
        let rerolls = format!("undo\nreroll\n{toss}\n").repeat(20);
        let script = format!("{setup}{retries}{toss}\n{rerolls}quit\n");
        let out = ok_stdout(&qchess_with_input(
            &[
                "play",
                "--rules",
                rules,
                "--fen",
                fen,
                "--seed",
                "11",
                "--compact",
            ],
            &script,
        ));
        let tosses: Vec<&str> = played_moves(&out)
            .into_iter()
            .filter(|m| m.starts_with(&toss[..4]))
            .collect();
        assert_eq!(tosses.len(), 41, "{out}");
        assert!(
            tosses[..21].iter().all(|t| *t == tosses[0]),
            "{rules}: {tosses:?}"
        );
        let rerolled: std::collections::BTreeSet<&str> = tosses[21..].iter().copied().collect();
        assert_eq!(rerolled.len(), 2, "{rules}: {tosses:?}");
        assert!(
            out.contains("forgot the outcomes of 1 move(s) taken back"),
            "{out}"
        );
    }
}

/// Issue "play", item 3: the terminal had no engine. `--engine black` answers every move of
/// White's, `--engine white` moves first, and `go` makes the engine move for the side to move;
/// the same search as UQCI's and the page's. Both rulesets.
#[test]
fn the_engine_plays_its_side_and_go_moves_for_either() {
    for rules in ["cantwell", "niels"] {
        let base = [
            "play",
            "--rules",
            rules,
            "--seed",
            "1",
            "--movetime",
            "50",
            "--compact",
        ];
        let out = ok_stdout(&qchess_with_input(
            &[&base[..], &["--engine", "black"]].concat(),
            "e2e4\nhistory\nquit\n",
        ));
        assert!(out.contains("The engine plays Black"), "{out}");
        assert!(
            out.contains("engine (Black) thinking, up to 0.1 s"),
            "{out}"
        );
        let reply = out
            .lines()
            .find(|l| l.starts_with("engine (Black) played "))
            .expect("the engine's move");
        assert!(reply.contains(" nodes, "), "{reply}");
        assert!(
            out.contains("     1... "),
            "history has Black's reply: {out}"
        );
        assert!(out.contains("White to move"), "{out}");
        // Playing White, the engine moves first; `go` makes it play Black's move too.
        let out = ok_stdout(&qchess_with_input(
            &[&base[..], &["--engine", "white"]].concat(),
            "go\nhistory\nquit\n",
        ));
        assert!(out.contains("engine (White) played "), "{out}");
        assert!(out.contains("engine (Black) played "), "{out}");
        // And without --engine, `go MS` alone.
        let out = ok_stdout(&qchess_with_input(&base, "go 30\ngo x\nquit\n"));
        assert!(
            out.contains("engine (White) thinking, up to 0.0 s"),
            "{out}"
        );
        assert!(out.contains("engine (White) played "), "{out}");
        assert!(
            out.contains("error: `go` takes a time in milliseconds from 1 to 600000, got `x`"),
            "{out}"
        );
        assert!(!out.contains("engine (Black)"), "{out}");
    }
}

/// Issue "play", item 3: Ctrl-C during the engine's search (here one of ten minutes) stops it:
/// the best move found so far is played and the session goes on.
#[test]
fn ctrl_c_stops_the_engines_search_and_the_session_goes_on() {
    use std::io::{BufRead, Write};
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_qchess"))
        .args([
            "play",
            "--engine",
            "white",
            "--movetime",
            "600000",
            "--seed",
            "1",
            "--compact",
        ])
        .current_dir(common::root())
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("qchess runs");
    let pid = child.id().to_string();
    let stdout = child.stdout.take().expect("stdout");
    let (lines, seen) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in std::io::BufReader::new(stdout)
            .lines()
            .map_while(Result::ok)
        {
            if lines.send(line).is_err() {
                break;
            }
        }
    });
    // Generous: only a broken Ctrl-C waits this long (the search would run ten minutes).
    let patience = std::time::Duration::from_secs(300);
    let wait_for = |prefix: &str| loop {
        match seen.recv_timeout(patience) {
            Ok(line) if line.starts_with(prefix) => return line,
            Ok(_) => {}
            Err(e) => panic!("no line starting `{prefix}`: {e}"),
        }
    };
    wait_for("engine (White) thinking, up to 600.0 s");
    let sent = std::process::Command::new("kill")
        .args(["-INT", &pid])
        .status()
        .expect("kill runs");
    assert!(sent.success());
    let played = wait_for("engine (White) played ");
    assert!(played.contains("depth "), "{played}");
    let mut stdin = child.stdin.take().expect("stdin");
    stdin
        .write_all(b"history\nquit\n")
        .expect("the session reads on");
    drop(stdin);
    wait_for("     1.   ");
    let status = child.wait().expect("qchess ends");
    assert!(status.success(), "{status:?}");
}

/// Issue "play", item 4: a chess player's first moves (`Nf3`, `e4`, `O-O`) got parser talk.
/// Now algebraic notation gets the move it means in coordinates, from the pieces and the legal
/// moves, and castling the rules' reason. Both rulesets.
#[test]
fn algebraic_notation_gets_the_coordinate_move() {
    for rules in ["cantwell", "niels"] {
        let out = ok_stdout(&qchess_with_input(
            &["play", "--rules", rules, "--seed", "1", "--compact"],
            "Nf3\ne4\nO-O\nQh5\nquit\n",
        ));
        let errors: Vec<&str> = out.lines().filter(|l| l.starts_with("error:")).collect();
        assert_eq!(errors.len(), 4, "{out}");
        assert!(
            errors[0].starts_with(
                "error: Nf3 is g1f3 here: qchess writes a move as its squares, from then to"
            ),
            "{out}"
        );
        assert!(errors[1].starts_with("error: e4 is e2e4 here:"), "{out}");
        assert!(
            errors[2].starts_with(
                "error: O-O is e1g1 here (castling is the king's move); the rules refuse it: "
            ),
            "{out}"
        );
        assert!(
            errors[3].contains("no legal move takes a white queen to h5"),
            "{out}"
        );
        assert!(
            played_lines(&out).is_empty(),
            "never played for the player: {out}"
        );
    }
}

/// Issue "play", item 4: a lost castling right was refused without naming the move that lost
/// it. Both rulesets, typed as a coordinate move and as `O-O`.
#[test]
fn a_castling_without_the_right_names_the_move_that_lost_it() {
    for rules in ["cantwell", "niels"] {
        let out = ok_stdout(&qchess_with_input(
            &[
                "play",
                "--rules",
                rules,
                "--fen",
                "4k3/8/8/8/8/8/8/4K2R w K - 0 1",
                "--seed",
                "1",
                "--compact",
            ],
            "h1h2\ne8d8\nh2h1\nd8e8\ne1g1\nO-O\nquit\n",
        ));
        let errors: Vec<&str> = out.lines().filter(|l| l.starts_with("error:")).collect();
        assert_eq!(errors.len(), 2, "{out}");
        for e in errors {
            assert!(
                e.contains("White has no right to castle kingside: it was lost with 1. h1h2"),
                "{rules}: {e}"
            );
        }
        let out = ok_stdout(&qchess_with_input(
            &[
                "play",
                "--rules",
                rules,
                "--fen",
                "4k3/8/8/8/8/8/8/4K2R w - - 0 1",
                "--seed",
                "1",
            ],
            "e1g1\nquit\n",
        ));
        assert!(
            out.contains(
                "White has no right to castle kingside: the start position does not give it"
            ),
            "{rules}: {out}"
        );
    }
}

/// Issue "play", item 4: moves were numbered by ply in `history` and `draw`, by pairs in the
/// record. Now every output numbers them as the record does, from the start position's
/// fullmove number: here a FEN with Black to move at move 5. Both rulesets.
#[test]
fn every_output_numbers_moves_as_the_record_does() {
    let fen = "4k3/8/8/8/8/8/8/4K1N1 b - - 0 5";
    for rules in ["cantwell", "niels"] {
        let out = ok_stdout(&qchess_with_input(
            &[
                "play",
                "--rules",
                rules,
                "--fen",
                fen,
                "--seed",
                "1",
                "--compact",
            ],
            "e8d8\ng1^f3h3\nhistory\nrecord\ndraw 6\ndraw 5...\ndraw 6...\nquit\n",
        ));
        assert!(
            out.lines().any(|l| l.starts_with("     5... e8d8 ")),
            "{out}"
        );
        assert!(
            out.lines().any(|l| l.starts_with("     6.   g1^f3h3 ")),
            "{out}"
        );
        assert!(out.lines().any(|l| l == "5... e8d8 6. g1^f3h3"), "{out}");
        assert!(
            out.lines().any(|l| l.trim() == "6. g1^f3h3"),
            "draw's label: {out}"
        );
        // A Niel's king move emits no instruction, so it has no drawing to label.
        if rules == "cantwell" {
            assert!(
                out.lines().any(|l| l.trim() == "5... e8d8"),
                "draw's label: {out}"
            );
        }
        assert!(
            out.contains("error: `draw`: the game has no move 6...: its moves are 5... to 6."),
            "{out}"
        );
        // The board picture's move list, as the record.
        let dir = temp_dir(&format!("play_numbers_{rules}"));
        let svg = dir.join("board.svg");
        ok_stdout(&common::qchess(&[
            "board",
            "--rules",
            rules,
            "--fen",
            fen,
            "--moves",
            "e8d8 g1^f3h3",
            "--svg",
            common::path_str(&svg),
            "--move-list",
        ]));
        let text = std::fs::read_to_string(&svg).expect("svg");
        assert!(text.contains(">5... e8d8</text>"), "{text}");
        assert!(text.contains(">6. g1^f3h3</text>"), "{text}");
    }
}

/// Issue "play", item 4: "Fifty-move counter: 2/100" after `1. e2e4 e7e5` while the FEN says
/// 0. The line now gives the FEN's halfmove clock, and the official counter (the one that ends
/// the game, docs/rules.md rule 14) by its name.
#[test]
fn the_halfmove_clock_is_the_fens_and_the_official_counter_is_named() {
    let out = ok_stdout(&qchess_with_input(
        &["play", "--seed", "1", "--compact"],
        "e2e4\ne7e5\nfen\nquit\n",
    ));
    assert!(
        out.contains("White to move, state size 1   Halfmove clock (FEN): 0   Official fifty-move counter: 2/100   Can claim: nothing"),
        "{out}"
    );
    assert!(
        out.contains("FEN: rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq e6 0 2"),
        "{out}"
    );
}

/// Issue "play", item 4: the REPL reprinted 25 lines after every move. `--compact` (and the
/// `compact` command) print one status line instead; `board` still draws the board.
#[test]
fn compact_play_prints_one_status_line_after_a_move() {
    for rules in ["cantwell", "niels"] {
        let out = ok_stdout(&qchess_with_input(
            &["play", "--rules", rules, "--seed", "1", "--compact"],
            "e2e4\ne7e5\nboard\ncompact\ng1f3\nquit\n",
        ));
        // The banner's board, `board`'s, and the one after g1f3 with compact switched off.
        assert_eq!(out.matches("Legend:").count(), 3, "{rules}: {out}");
        let after = out
            .lines()
            .skip_while(|l| !l.starts_with("played e2e4 "))
            .nth(1)
            .expect("the line after the move");
        assert!(
            after.starts_with("Black to move, state size 1"),
            "{rules}: {after}"
        );
        assert!(
            out.contains("compact off: the board after every move"),
            "{out}"
        );
    }
}
