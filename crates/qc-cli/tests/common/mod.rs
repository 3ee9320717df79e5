//! Helpers the end-to-end tests share: run the `qchess` binary from the repository root, with or
//! without a script on standard input, and read its output.

#![allow(dead_code, reason = "each test file uses a different subset")]

use std::io::Write;
use std::path::PathBuf;
use std::process::{Command, Output, Stdio};

/// The repository root (examples are named relative to it).
pub fn root() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// Runs `qchess args` in the repository root.
pub fn qchess(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_qchess"))
        .args(args)
        .current_dir(root())
        .output()
        .expect("the qchess binary runs")
}

/// Runs `qchess args` with `input` piped into standard input.
pub fn qchess_with_input(args: &[&str], input: &str) -> Output {
    qchess_with_bytes(args, input.as_bytes())
}

/// Runs `qchess args` with `input` (any bytes) piped into standard input.
pub fn qchess_with_bytes(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_qchess"))
        .args(args)
        .current_dir(root())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the qchess binary runs");
    child
        .stdin
        .take()
        .expect("piped stdin")
        .write_all(input)
        .expect("stdin accepts the script");
    child.wait_with_output().expect("qchess finishes")
}

/// Standard output of a run that must have succeeded.
pub fn ok_stdout(out: &Output) -> String {
    assert!(
        out.status.success(),
        "exit {:?}: {}",
        out.status.code(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout.clone()).expect("UTF-8 output")
}

/// Standard output, parsed as JSON, of a run that must have succeeded.
pub fn ok_json(out: &Output) -> serde_json::Value {
    serde_json::from_str(&ok_stdout(out)).expect("valid JSON")
}

/// A fresh directory for this test process's files.
pub fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("qchess-e2e-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

/// The subcommands `qchess --help` lists.
pub fn subcommands() -> Vec<String> {
    let help = ok_stdout(&qchess(&["--help"]));
    help.lines()
        .skip_while(|l| l.trim() != "Commands:")
        .skip(1)
        .take_while(|l| !l.trim().is_empty())
        // A command's line is indented by two spaces; wrapped descriptions by more.
        .filter(|l| l.starts_with("  ") && !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_string)
        .collect()
}
