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

/// `p` as the `&str` an argument list takes (the tests' paths are UTF-8).
pub fn path_str(p: &std::path::Path) -> &str {
    p.to_str().expect("UTF-8 path")
}

/// The board `qchess counts --exact --json` reads from `shots` noiseless shots of `program`
/// (`qchess run --shots --seed --json`, its counts written to `counts` in Qiskit's order): the
/// device-counts round trip the counts and device tests both check against `simulate`.
pub fn sampled_board(
    program: &std::path::Path,
    counts: &std::path::Path,
    shots: u32,
    seed: u64,
) -> serde_json::Value {
    let (shots, seed) = (shots.to_string(), seed.to_string());
    let sampled = ok_json(&qchess(&[
        "run",
        path_str(program),
        "--shots",
        &shots,
        "--seed",
        &seed,
        "--json",
    ]));
    std::fs::write(counts, sampled["counts"].to_string()).expect("write counts");
    ok_json(&qchess(&[
        "counts",
        path_str(program),
        path_str(counts),
        "--counts-format",
        "qiskit",
        "--json",
        "--exact",
    ]))
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

/// A `qchess serve` started by a test: its process and the address it printed.
pub struct Served {
    child: std::process::Child,
    /// `http://127.0.0.1:PORT/`.
    pub url: String,
    /// `127.0.0.1:PORT`.
    pub address: String,
}

/// Starts `command` (a `qchess serve ...` line, run by `sh` in `dir` with `path` as PATH) and
/// waits until it prints its address; `Err` with its standard error when it exits first.
pub fn serve(command: &str, dir: &std::path::Path, path: &str) -> Result<Served, String> {
    use std::io::{BufRead, Read};
    let mut child = Command::new("sh")
        .args(["-c", &format!("exec {command}")])
        .current_dir(dir)
        .env("PATH", path)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("sh runs");
    let stdout = child.stdout.take().expect("piped stdout");
    let mut first = String::new();
    let _ = std::io::BufReader::new(stdout).read_line(&mut first);
    let url = first.trim().to_string();
    let Some(address) = url
        .strip_prefix("http://")
        .and_then(|a| a.strip_suffix('/'))
        .map(str::to_string)
    else {
        let _ = child.kill();
        let _ = child.wait();
        let mut stderr = String::new();
        if let Some(mut e) = child.stderr.take() {
            let _ = e.read_to_string(&mut stderr);
        }
        return Err(format!(
            "printed `{url}` instead of its address; stderr: {stderr}"
        ));
    };
    Ok(Served {
        child,
        url,
        address,
    })
}

impl Served {
    /// `GET path` (HTTP/1.1, `Connection: close`): the status code and the body.
    pub fn get(&self, path: &str) -> (u16, String) {
        self.send("GET", path, "")
    }

    /// `POST path` with a JSON `body`: the status code and the body.
    pub fn post(&self, path: &str, body: &str) -> (u16, String) {
        self.send("POST", path, body)
    }

    fn send(&self, method: &str, path: &str, body: &str) -> (u16, String) {
        use std::io::Read;
        let mut stream = std::net::TcpStream::connect(&self.address).expect("the server accepts");
        stream
            .set_read_timeout(Some(std::time::Duration::from_secs(30)))
            .expect("a timeout");
        let request = format!(
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            self.address,
            body.len()
        );
        stream
            .write_all(request.as_bytes())
            .expect("the request is sent");
        let mut answer = String::new();
        stream.read_to_string(&mut answer).expect("an answer");
        let status = answer
            .split_whitespace()
            .nth(1)
            .and_then(|s| s.parse().ok())
            .unwrap_or(0);
        let body = answer
            .split_once("\r\n\r\n")
            .map_or(String::new(), |(_, b)| b.to_string());
        (status, body)
    }

    /// Sends SIGINT (what Ctrl-C sends) and waits up to 10 s: the exit code and standard error.
    pub fn interrupt(mut self) -> (Option<i32>, String) {
        use std::io::Read;
        let pid = self.child.id().to_string();
        let sent = Command::new("kill").args(["-INT", &pid]).status();
        assert!(sent.is_ok_and(|s| s.success()), "kill -INT {pid}");
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        let code = loop {
            if let Some(status) = self.child.try_wait().expect("wait") {
                break status.code();
            }
            if std::time::Instant::now() > deadline {
                let _ = self.child.kill();
                let _ = self.child.wait();
                break None;
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        };
        let mut stderr = String::new();
        if let Some(mut e) = self.child.stderr.take() {
            let _ = e.read_to_string(&mut stderr);
        }
        (code, stderr)
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        // A test that failed half-way leaves no server behind.
        if matches!(self.child.try_wait(), Ok(None)) {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}
