//! Every example a user can read runs as written: the `Examples:` lines of every `qchess`
//! subcommand's `--help`, and the commands in the README and in `docs/*.md`.
//!
//! Which lines of a document are commands:
//! - in a ```` ```console ```` block, the lines that start with `$ ` (the rest is output);
//! - in a ```` ```sh ```` or ```` ```bash ```` block, every line that is not blank or a comment.
//!
//! Only commands that run `qchess` (directly, after `|` or `&&`, or as `cargo run ... -p qc-cli --`)
//! are run; `cargo test` and benchmark lines are left to CI's own steps. A command whose trailing
//! comment says `exits 2` must exit with 2 (an error example); every other one must exit with 0.
//! A `qchess serve` example is a server: it must print its address, answer the API and the
//! page, and exit 0 on SIGINT (Ctrl-C).
//! The commands of one document (or one `--help`) run in order in one scratch folder that holds
//! the bundled `circuits/` and `backends/`, so an example may read what an earlier one wrote.
//!
//! A fenced block right after a line `<!-- file: PATH -->` quotes a file of the repository and
//! must equal it, so a quoted example cannot drift from the file the commands run.

mod common;

use std::path::{Path, PathBuf};
use std::process::Command;

/// One example: where it was found, the shell command, and the exit code it must give.
#[derive(Debug)]
struct Example {
    place: String,
    command: String,
    expected_exit: i32,
}

/// Splits a trailing `# comment` (two spaces or more before `#`, or a `(comment)` in `--help`)
/// from a command line, returning the command and the comment.
fn split_comment(line: &str) -> (&str, &str) {
    for marker in ["  #", "  ("] {
        if let Some(i) = line.find(marker) {
            return (line[..i].trim_end(), line[i..].trim());
        }
    }
    (line.trim_end(), "")
}

/// The example for one command line, or `None` when the line does not run `qchess`.
fn example(place: String, line: &str) -> Option<Example> {
    let (command, comment) = split_comment(line.trim());
    let command = command.replace("cargo run --release -p qc-cli --", "qchess");
    let runs_qchess = command.starts_with("qchess ")
        || command.contains("| qchess ")
        || command.contains("&& qchess ");
    if !runs_qchess {
        return None;
    }
    let expected_exit = if comment.contains("exits 2") { 2 } else { 0 };
    Some(Example {
        place,
        command,
        expected_exit,
    })
}

/// The examples of one Markdown document (see the module docs for which lines count).
fn markdown_examples(path: &Path) -> Vec<Example> {
    let text = std::fs::read_to_string(path).expect("the document reads");
    let name = path.file_name().expect("a file name").to_string_lossy();
    let mut examples = Vec::new();
    let mut block: Option<String> = None;
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if let Some(info) = trimmed.strip_prefix("```") {
            block = match block {
                Some(_) => None,
                None => Some(info.trim().to_string()),
            };
            continue;
        }
        let place = format!("{name}:{}", i + 1);
        let found = match block.as_deref() {
            Some("console") => trimmed.strip_prefix("$ ").and_then(|c| example(place, c)),
            Some("sh" | "bash") if !trimmed.is_empty() && !trimmed.starts_with('#') => {
                example(place, trimmed)
            }
            _ => None,
        };
        examples.extend(found);
    }
    examples
}

/// The `Examples:` lines of one `--help` text.
fn help_examples(subcommand: &str, help: &str) -> Vec<Example> {
    let mut examples = Vec::new();
    let mut inside = false;
    for line in help.lines() {
        let trimmed = line.trim();
        if trimmed == "Examples:" || trimmed == "Example:" {
            inside = true;
            continue;
        }
        if inside && trimmed.is_empty() {
            inside = false;
        }
        if inside {
            examples.extend(example(format!("qchess {subcommand} --help"), trimmed));
        }
    }
    examples
}

/// A fresh scratch folder holding links to the bundled circuits and backends.
fn scratch(label: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!(
        "qchess-doc-examples-{}-{label}",
        std::process::id()
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch folder");
    for shared in ["circuits", "backends"] {
        std::os::unix::fs::symlink(common::root().join(shared), dir.join(shared))
            .expect("link into the scratch folder");
    }
    dir
}

/// Runs the examples in order in one scratch folder; returns a description of every failure.
fn run_all(label: &str, examples: &[Example]) -> Vec<String> {
    let dir = scratch(label);
    let bin_dir = Path::new(env!("CARGO_BIN_EXE_qchess"))
        .parent()
        .expect("the binary's folder")
        .to_path_buf();
    let path = format!(
        "{}:{}",
        bin_dir.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut failures = Vec::new();
    for ex in examples {
        if ex.command.starts_with("qchess serve") {
            failures.extend(run_server(ex, &dir, &path));
            continue;
        }
        let out = Command::new("timeout")
            .args(["120", "sh", "-c", &ex.command])
            .current_dir(&dir)
            .env("PATH", &path)
            .output()
            .expect("sh runs");
        let code = out.status.code().unwrap_or(-1);
        let stderr = String::from_utf8_lossy(&out.stderr);
        if code != ex.expected_exit || stderr.contains("panicked") {
            failures.push(format!(
                "{}: `{}` exited {code} (expected {}): {}",
                ex.place,
                ex.command,
                ex.expected_exit,
                stderr.trim()
            ));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    failures
}

/// Runs a `qchess serve` example: it must print its address, answer `GET /api/info` and the
/// page, and exit 0 on SIGINT (Ctrl-C); a `qchess serve --ai` example must answer the AI
/// protocol instead ([`check_ai_server`]). Every example runs on `--port 0`, so that the test
/// never waits on a port in use.
fn run_server(ex: &Example, dir: &Path, path: &str) -> Option<String> {
    // Any port named is replaced by 0 too: the documented 8080 may be taken on the machine.
    let mut words: Vec<&str> = ex.command.split(' ').collect();
    let named = words.iter().position(|w| *w == "--port");
    let command = match named {
        Some(i) if i + 1 < words.len() => {
            words[i + 1] = "0";
            words.join(" ")
        }
        _ => ex
            .command
            .replacen("qchess serve", "qchess serve --port 0", 1),
    };
    let fail = |why: String| Some(format!("{}: `{}`: {why}", ex.place, ex.command));
    let served = match common::serve(&command, dir, path) {
        Ok(s) => s,
        Err(why) => return fail(why),
    };
    if ex.command.contains("--ai") {
        return check_ai_server(served).and_then(fail);
    }
    let (status, info) = served.get("/api/info");
    if status != 200 || !info.contains("\"rules\"") {
        return fail(format!("GET /api/info answered {status}: {info}"));
    }
    let (status, page) = served.get("/");
    if status != 200 || !page.contains("<label for=\"move\">Move</label>") {
        return fail(format!("GET / answered {status}"));
    }
    match served.interrupt() {
        (Some(0), stderr) if !stderr.contains("panicked") => None,
        (code, stderr) => fail(format!("exited {code:?} on SIGINT: {stderr}")),
    }
}

/// The start position as the official app sends it to a custom AI (only what qchess reads).
const START_VIEW: &str = r#"{"view": {"gameData": {"board": {"pieces": [], "ply": 0,
  "probabilities": [1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,
                    0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1,1]}},
  "sideToMove": "white", "moveHistory": [],
  "legalMoves": {"standard": [{"from": 12, "to": 28}], "splits": [], "merges": []}},
  "clock": null}"#;

/// A `qchess serve --ai` example: `GET /` describes it, `POST /move` answers the start view
/// with its one listed move, and SIGINT ends it with 0. `None` when all holds.
fn check_ai_server(served: common::Served) -> Option<String> {
    let (status, info) = served.get("/");
    if status != 200 || !info.contains("\"protocol\"") {
        return Some(format!("GET / answered {status}: {info}"));
    }
    let (status, answer) = served.post("/move", START_VIEW);
    if status != 200 || answer != r#"{"type":"standard","from":12,"to":28}"# {
        return Some(format!("POST /move answered {status}: {answer}"));
    }
    match served.interrupt() {
        (Some(0), stderr) if !stderr.contains("panicked") => None,
        (code, stderr) => Some(format!("exited {code:?} on SIGINT: {stderr}")),
    }
}

/// The Markdown documents whose examples are checked: docs/*.md and the README.
fn documents() -> Vec<PathBuf> {
    let root = common::root();
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root.join("docs"))
        .expect("docs/ reads")
        .map(|e| e.expect("a docs entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    docs.push(root.join("README.md"));
    docs
}

/// `(place, quoted path, block text)` for every block marked `<!-- file: PATH -->`.
fn quoted_files(path: &Path) -> Vec<(String, String, String)> {
    let text = std::fs::read_to_string(path).expect("the document reads");
    let name = path.file_name().expect("a file name").to_string_lossy();
    let lines: Vec<&str> = text.lines().collect();
    let mut quotes = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let Some(rest) = line.trim().strip_prefix("<!-- file:") else {
            continue;
        };
        let quoted = rest.trim_end_matches("-->").trim().to_string();
        let body: Vec<&str> = lines[i + 2..]
            .iter()
            .take_while(|l| !l.trim_start().starts_with("```"))
            .copied()
            .collect();
        quotes.push((format!("{name}:{}", i + 1), quoted, body.join("\n") + "\n"));
    }
    quotes
}

#[test]
fn every_quoted_file_matches_the_repository() {
    let mut failures = Vec::new();
    let mut count = 0;
    for doc in documents() {
        for (place, quoted, block) in quoted_files(&doc) {
            count += 1;
            let file = std::fs::read_to_string(common::root().join(&quoted));
            if file.as_deref().ok() != Some(block.as_str()) {
                failures.push(format!("{place}: the block differs from {quoted}"));
            }
        }
    }
    assert!(count >= 1, "no quoted file found");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_help_example_runs() {
    let mut failures = Vec::new();
    let mut count = 0;
    for sub in common::subcommands() {
        let help = common::ok_stdout(&common::qchess(&[sub.as_str(), "--help"]));
        let examples = help_examples(&sub, &help);
        count += examples.len();
        failures.extend(run_all(&format!("help-{sub}"), &examples));
    }
    assert!(count >= 10, "only {count} --help examples found");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn every_documented_command_runs() {
    let mut failures = Vec::new();
    let mut count = 0;
    for doc in &documents() {
        let examples = markdown_examples(doc);
        count += examples.len();
        let label = doc
            .file_stem()
            .expect("a name")
            .to_string_lossy()
            .to_string();
        failures.extend(run_all(&label, &examples));
    }
    assert!(count >= 20, "only {count} documented commands found");
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_example_finder_reads_console_and_sh_blocks_only() {
    let dir = scratch("finder");
    let doc = dir.join("doc.md");
    std::fs::write(
        &doc,
        "```text\nqchess simulate [GAME]\n```\n```console\n$ qchess moves  # start\noutput line\n\
         $ qchess simulate x.qcg   # exits 2\n```\n```sh\nqchess board\n# a comment\n\
         printf 'quit\\n' | qchess play\n```\n",
    )
    .expect("write");
    let found: Vec<(String, i32)> = markdown_examples(&doc)
        .into_iter()
        .map(|e| (e.command, e.expected_exit))
        .collect();
    assert_eq!(
        found,
        vec![
            ("qchess moves".to_string(), 0),
            ("qchess simulate x.qcg".to_string(), 2),
            ("qchess board".to_string(), 0),
            ("printf 'quit\\n' | qchess play".to_string(), 0),
        ]
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `(place, command, quoted output)` for every `$ qchess compile ...` line of a `console` block
/// followed by output lines (up to the next `$` line or the block's end): the summary the page
/// says the command prints.
fn quoted_compile_summaries(path: &Path) -> Vec<(String, String, Vec<String>)> {
    let text = std::fs::read_to_string(path).expect("the document reads");
    let name = path.file_name().expect("a file name").to_string_lossy();
    let mut found = Vec::new();
    let mut in_console = false;
    let mut current: Option<(String, String, Vec<String>)> = None;
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if let Some(info) = trimmed.strip_prefix("```") {
            in_console = !in_console && info.trim() == "console";
            found.extend(current.take());
            continue;
        }
        if !in_console {
            continue;
        }
        match trimmed.strip_prefix("$ ") {
            Some(command) => {
                found.extend(current.take());
                let (command, _) = split_comment(command);
                current = command
                    .starts_with("qchess compile ")
                    .then(|| (format!("{name}:{}", i + 1), command.to_string(), Vec::new()));
            }
            None => {
                if let Some((_, _, output)) = current.as_mut() {
                    output.push(line.to_string());
                }
            }
        }
    }
    found.extend(current);
    found.retain(|(_, _, output)| !output.is_empty());
    found
}

/// Issue "play", stale docs: the gate counts quoted under `qchess compile circuits/full_game.qcg
/// --target ibm` had drifted from what it prints. Every summary quoted under a `qchess compile`
/// example is what the command prints on standard error, line for line.
#[test]
fn quoted_compile_summaries_are_what_compile_prints() {
    let dir = scratch("summaries");
    let mut failures = Vec::new();
    let mut count = 0;
    for doc in documents() {
        for (place, command, quoted) in quoted_compile_summaries(&doc) {
            count += 1;
            let out = Command::new("sh")
                .args([
                    "-c",
                    &command.replacen("qchess", env!("CARGO_BIN_EXE_qchess"), 1),
                ])
                .current_dir(&dir)
                .output()
                .expect("sh runs");
            let printed: Vec<String> = String::from_utf8_lossy(&out.stderr)
                .lines()
                .map(str::to_string)
                .collect();
            if printed != quoted {
                failures.push(format!(
                    "{place}: `{command}` prints\n{}\nbut the page quotes\n{}",
                    printed.join("\n"),
                    quoted.join("\n")
                ));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(count >= 2, "only {count} quoted summaries found");
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}
