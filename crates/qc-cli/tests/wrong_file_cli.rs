//! A file given to the wrong command (issue 30 item 9): a circuit to a game command, a game to a
//! circuit command, a Niel's Chess game read with `--rules cantwell` and a Quantum Chess game
//! with `--rules niels`,
//! counts to either, exit 2 naming the command or option that reads the file, with the reader's
//! own error kept. Valid files are never refused by the guess (it is made only after the reader
//! refused the file).

mod common;

use common::{path_str, qchess, qchess_with_input, temp_dir};
use std::process::Output;

/// Standard error of a run that must have exited with 2 and printed nothing on standard output.
fn refused(out: &Output, what: &str) -> String {
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{what}: {err}");
    assert!(out.stdout.is_empty(), "{what}: nothing on stdout");
    err
}

/// The bundled files whose names end in `ext`, under `dir` (relative to the repository root).
fn bundled(dir: &str, ext: &str) -> Vec<String> {
    let mut files: Vec<String> = std::fs::read_dir(common::root().join(dir))
        .expect("bundled folder")
        .map(|e| e.expect("entry").file_name().into_string().expect("UTF-8"))
        .filter(|name| name.ends_with(ext))
        .map(|name| format!("{dir}/{name}"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no {ext} in {dir}");
    files
}

/// Circuits, with what they look like: the bundled IR text and OpenQASM programs and a
/// compiled IR JSON file.
fn circuits() -> Vec<(String, &'static str)> {
    let dir = temp_dir("wrong-file");
    let json = dir.join("interference.json");
    let out = qchess(&[
        "compile",
        "circuits/interference.qcg",
        "--format",
        "json",
        "-o",
        path_str(&json),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut files: Vec<(String, &str)> = bundled("circuits", ".qc")
        .into_iter()
        .map(|f| (f, "a circuit in qchess's IR text"))
        .collect();
    for file in bundled("circuits", ".qasm") {
        let text = std::fs::read_to_string(common::root().join(&file)).expect("bundled");
        let version = if text.contains("OPENQASM 2") {
            "an OpenQASM 2 program"
        } else {
            "an OpenQASM 3 program"
        };
        files.push((file, version));
    }
    files.push((path_str(&json).to_string(), "a circuit in IR JSON"));
    files
}

/// The bundled games with the `--rules` option that reads them (empty for the default).
fn games() -> Vec<(String, &'static str)> {
    bundled("circuits", ".qcg")
        .into_iter()
        .map(|f| (f, ""))
        .chain(
            bundled("circuits/niels", ".qng")
                .into_iter()
                .map(|f| (f, " --rules niels")),
        )
        .collect()
}

#[test]
fn a_circuit_given_to_a_game_command_names_run() {
    for (file, looks_like) in circuits() {
        for command in ["simulate", "board", "compile", "moves", "draw"] {
            let what = format!("{command} {file}");
            let err = refused(&qchess(&[command, &file]), &what);
            assert!(
                err.contains(&format!(
                    "{file}: looks like {looks_like}, not a Quantum Chess game: \
                     use `qchess run` or `qchess draw --circuit`"
                )),
                "{what}: {err}"
            );
            // The reader's own error is kept.
            assert!(
                err.contains("(read as a Quantum Chess game: "),
                "{what}: {err}"
            );
        }
    }
    let qasm = std::fs::read_to_string(common::root().join("circuits/interference.qasm"))
        .expect("bundled program");
    let err = refused(
        &qchess_with_input(&["simulate", "-"], &qasm),
        "simulate - < qasm",
    );
    assert!(
        err.contains("<stdin>: looks like an OpenQASM 3 program") && err.contains("`qchess run`"),
        "{err}"
    );
}

#[test]
fn a_circuit_loaded_in_play_names_run() {
    // The REPL answers on standard output.
    let out = qchess_with_input(&["play"], "load circuits/interference.qasm\nquit\n");
    let err = String::from_utf8_lossy(&out.stdout);
    assert!(
        err.contains(
            "circuits/interference.qasm: looks like an OpenQASM 3 program, not a Quantum Chess \
             game: use `qchess run`"
        ),
        "{err}"
    );
    // The reader's error once, not repeated after the hint.
    assert_eq!(err.matches("bad QCAN move").count(), 1, "{err}");
}

#[test]
fn a_game_given_to_a_circuit_command_names_simulate_with_its_rules() {
    for (file, rules) in games() {
        let looks_like = if rules.is_empty() {
            "a Quantum Chess game"
        } else {
            "a Niel's Chess game"
        };
        for command in [&["run"][..], &["draw", "--circuit"][..]] {
            let args: Vec<&str> = command.iter().copied().chain([file.as_str()]).collect();
            let what = args.join(" ");
            let err = refused(&qchess(&args), &what);
            assert!(
                err.contains(&format!(
                    "{file}: looks like {looks_like}, not a circuit: use `qchess simulate{rules}` \
                     to play it, `qchess compile{rules}` for its circuit"
                )) && err.contains("(read as a circuit: "),
                "{what}: {err}"
            );
        }
    }
}

#[test]
fn a_game_of_the_other_ruleset_names_the_rules_option() {
    for file in bundled("circuits/niels", ".qng") {
        for command in ["simulate", "compile"] {
            // Read as Quantum Chess only when asked to: without `--rules` the file's own is used.
            let err = refused(&qchess(&[command, "--rules", "cantwell", &file]), &file);
            assert!(
                err.contains(&format!(
                    "{file}: looks like a Niel's Chess game, not a Quantum Chess game: \
                     use `--rules niels`"
                )),
                "{err}"
            );
            // What the Quantum Chess reader said is still there.
            assert!(
                err.contains("(read as a Quantum Chess game: game file line "),
                "{err}"
            );
        }
    }
    // A broken Niel's Chess game is still told by its extension.
    let dir = temp_dir("wrong-file-ext");
    let broken = dir.join("broken.qng");
    std::fs::write(&broken, "[Variant \"nonsense\"]\n1. zz *\n").expect("write");
    let err = refused(
        &qchess(&["simulate", "--rules", "cantwell", path_str(&broken)]),
        "broken.qng",
    );
    assert!(err.contains("use `--rules niels`"), "{err}");
    // A Quantum Chess game Niel's reader refuses (its `.m1` outcomes).
    let file = "circuits/notation_example.qcg";
    let err = refused(&qchess(&["simulate", "--rules", "niels", file]), file);
    assert!(
        err.contains(
            "looks like a Quantum Chess game, not a Niel's Chess game: \
             use `--rules cantwell`, the default"
        ),
        "{err}"
    );
}

#[test]
fn counts_given_as_a_game_or_a_circuit_name_the_counts_command() {
    let dir = temp_dir("wrong-file-counts");
    let csv = dir.join("counts.csv");
    std::fs::write(&csv, "bits,count\n0001,737\n0010,248\n").expect("write");
    let run_json = dir.join("run.json");
    std::fs::write(&run_json, "{\"counts\": {\"0 1\": 3, \"1 0\": 2}}\n").expect("write");
    let files = [
        "circuits/interference.counts.json",
        path_str(&csv),
        path_str(&run_json),
    ];
    for file in files {
        for args in [
            &["simulate", file][..],
            &["simulate", "--rules", "niels", file],
            &["compile", file],
            &["run", file],
            &["draw", "--circuit", file],
        ] {
            let what = args.join(" ");
            let err = refused(&qchess(args), &what);
            assert!(
                err.contains(&format!("{file}: looks like a counts file, not a"))
                    && err.contains("`qchess counts PROGRAM COUNTS`"),
                "{what}: {err}"
            );
        }
    }
}

#[test]
fn a_file_no_reader_knows_keeps_its_own_error_and_valid_files_still_read() {
    // A broken game is not guessed at: the reader's error alone.
    let err = refused(
        &qchess_with_input(&["simulate", "-"], "1. e2e9 *\n"),
        "broken game",
    );
    assert!(!err.contains("looks like"), "{err}");
    let err = refused(
        &qchess_with_input(&["run", "-"], "qubits q0\nfoo q0\n"),
        "broken circuit",
    );
    assert!(
        !err.contains("looks like") && err.contains("cannot parse <stdin>"),
        "{err}"
    );
    // Valid files of every kind read as before.
    let mut runs: Vec<Vec<String>> = Vec::new();
    for (file, rules) in games() {
        let mut args = vec!["simulate".to_string()];
        args.extend(rules.split_whitespace().map(String::from));
        args.push(file);
        runs.push(args);
    }
    for (file, _) in circuits() {
        runs.push(vec!["run".into(), file]);
    }
    // A game that is nothing but a comment is still a game.
    let dir = temp_dir("wrong-file-comment");
    let comment = dir.join("comment.qcg");
    std::fs::write(&comment, "{ an empty game }\n").expect("write");
    runs.push(vec!["simulate".into(), path_str(&comment).into()]);
    for args in runs {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let out = qchess(&args);
        assert!(
            out.status.success(),
            "{}: {}",
            args.join(" "),
            String::from_utf8_lossy(&out.stderr)
        );
    }
}
