//! How late does `bestmove` come on a big state? Drives `qchess uqci` processes (one binary per
//! argument, so a build before a change and one after run side by side in one run) on the
//! knight-split game written by `crates/qc-rules/examples/knight_splits.rs`, cut after each
//! number of plies asked for, and times, as a GUI would, from the command sent to the reply:
//! `go movetime 50` to its `bestmove`, and `stop` after 200 ms of `go infinite` to its
//! `bestmove`; each also to the answer of a `go` that does not read (`go now`) sent once the
//! `bestmove` came, which the session gives when the search has given the game back (as it
//! would start the next search).
//!
//! `cargo run --release -p qc-rules --example knight_splits -- 40 > k.qcg`, then
//! `cargo run --release -p qc-engine --example uqci_latency -- k.qcg 25,33,38 OLD_QCHESS NEW_QCHESS`
//!
//! A measurement, not a test (docs/reliability.md, "Answering on time"): it depends on the machine
//! and its load, so CI does not run it.
#![allow(clippy::print_stdout, reason = "an example that prints its findings")]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};
use std::time::{Duration, Instant};

/// The game's start (`knight_splits.rs`).
const START: &str = "n5nk/n6n/8/8/8/8/N6N/N5NK w - - 0 1";

/// The moves of a game file: every word outside tags, comments and move numbers.
fn moves_of(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut in_comment = false;
    for line in text.lines().filter(|l| !l.trim_start().starts_with('[')) {
        for word in line.split_whitespace() {
            if word.starts_with('{') {
                in_comment = true;
            }
            if !in_comment && !word.ends_with('.') {
                words.push(word.to_string());
            }
            if word.ends_with('}') {
                in_comment = false;
            }
        }
    }
    words
}

/// A running `qchess uqci`.
struct Engine {
    child: Child,
    input: ChildStdin,
    output: BufReader<ChildStdout>,
}

impl Engine {
    fn start(binary: &str) -> std::io::Result<Engine> {
        let mut child = Command::new(binary)
            .arg("uqci")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()?;
        let input = child.stdin.take().ok_or(std::io::ErrorKind::BrokenPipe)?;
        let output = BufReader::new(child.stdout.take().ok_or(std::io::ErrorKind::BrokenPipe)?);
        Ok(Engine {
            child,
            input,
            output,
        })
    }

    fn send(&mut self, line: &str) -> std::io::Result<()> {
        writeln!(self.input, "{line}")?;
        self.input.flush()
    }

    /// Reads up to the first line that starts with `prefix`.
    fn until(&mut self, prefix: &str) -> std::io::Result<String> {
        let mut line = String::new();
        loop {
            line.clear();
            if self.output.read_line(&mut line)? == 0 {
                return Err(std::io::ErrorKind::UnexpectedEof.into());
            }
            if line.starts_with(prefix) {
                return Ok(line);
            }
        }
    }
}

/// `go movetime 50` to `bestmove` and to the game's return; `stop` after `go infinite` to
/// `bestmove` and to the game's return.
type Latencies = [Duration; 4];

fn measure(binary: &str, moves: &[String]) -> std::io::Result<Latencies> {
    let mut e = Engine::start(binary)?;
    e.send(&format!("position fen {START} moves {}", moves.join(" ")))?;
    e.send("isready")?;
    e.until("readyok")?;
    let began = Instant::now();
    e.send("go movetime 50")?;
    e.until("bestmove")?;
    let movetime = began.elapsed();
    // Sent only now: a command that needs the game ends a running search.
    e.send("go now")?;
    e.until("info string error go")?;
    let movetime_back = began.elapsed();
    e.send("go infinite")?;
    std::thread::sleep(Duration::from_millis(200));
    let began = Instant::now();
    e.send("stop")?;
    e.until("bestmove")?;
    let stop = began.elapsed();
    e.send("go now")?;
    e.until("info string error go")?;
    let stop_back = began.elapsed();
    e.send("quit")?;
    e.child.wait()?;
    Ok([movetime, movetime_back, stop, stop_back])
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [game, plies, binaries @ ..] = &args[..] else {
        return Err("usage: uqci_latency GAME.qcg PLIES[,PLIES...] QCHESS [QCHESS...]".into());
    };
    let moves = moves_of(&std::fs::read_to_string(game)?);
    println!(
        "| plies | binary | go movetime 50: bestmove | game back | stop: bestmove | game back |"
    );
    println!("| ---: | --- | ---: | ---: | ---: | ---: |");
    for n in plies.split(',') {
        let n: usize = n.parse()?;
        let cut = moves.get(..n).ok_or("the game is shorter")?;
        for binary in binaries {
            let ms = measure(binary, cut)?.map(|d| d.as_millis());
            println!(
                "| {n} | {binary} | {} ms | {} ms | {} ms | {} ms |",
                ms[0], ms[1], ms[2], ms[3]
            );
        }
    }
    Ok(())
}
