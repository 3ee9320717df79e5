//! The UQCI surface: the input is a session, one command a line, sent through the session loop
//! `qchess uqci` runs (`qc_front::uqci::read_commands`), in process, under both rulesets on the
//! sparse simulator, with the replies kept in memory.
//!
//! Every session is bounded: at most [`MAX_COMMANDS`] lines are sent, and every `go` but the
//! first [`MAX_ONE_PLY`] bare `go` or `go depth 1` (a one-ply search) gets a node limit
//! (`nodes 300`), so no search waits for a time or for `stop` longer than its nodes take; a `go
//! infinite` still running at the end is stopped as `quit` stops it.
//!
//! Properties beyond "no panic": every reply line has one of the protocol's forms, and every
//! `go` that parses and searches under a limit answers exactly one `bestmove` (a search thread
//! that panicked would answer none: its panic is not seen otherwise).

use qc_engine::{EngineGame, Go};
use qc_front::uqci::{read_commands, Engine, Output, Session};
use qc_rules::Ruleset;
use qc_rules::{Cantwell, Niels};
use qc_sim::{MemoryLimit, SparseSim};
use std::io::Write;
use std::sync::{Arc, Mutex};

/// The most command lines of one session.
pub const MAX_COMMANDS: usize = 48;
/// The node limit given to every `go` that could search longer than one ply.
const GO_NODES: &str = "nodes 300";
/// The most one-ply searches (`go`, `go depth 1`) a session runs as written; later ones get the
/// node limit too. A bare search is bounded by a count of work (`qc_front::uqci::BARE_GO_WORK`),
/// not by nodes, and a few dozen of them on a wide position took 19 s under the fuzz profile.
const MAX_ONE_PLY: usize = 2;
/// The simulator's memory in a session (a small budget refuses huge positions quickly).
const MEMORY_BYTES: u128 = 64 << 20;

/// How every reply line may start (docs/uqci.md).
const REPLY_FORMS: [&str; 12] = [
    "id ",
    "option ",
    "uqciok",
    "readyok",
    "info ",
    "bestmove ",
    "bell ",
    "probs",
    "moves",
    "status ",
    "fen ",
    "claim ",
];

/// A sink the session writes to and the surface reads afterwards.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl Write for Captured {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        let mut buf = self.0.lock().unwrap_or_else(|p| p.into_inner());
        buf.extend_from_slice(bytes);
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The session as sent: each line, `go` lines bounded, at most [`MAX_COMMANDS`] of them, and
/// how many `go` lines must answer a `bestmove` of their own.
fn bounded(input: &str) -> (String, usize) {
    let mut script = String::new();
    let mut searches = 0;
    let mut one_ply_left = MAX_ONE_PLY;
    for line in input.lines().take(MAX_COMMANDS) {
        let words: Vec<&str> = line.split_whitespace().collect();
        if words.first() == Some(&"quit") {
            script.push_str("quit\n");
            break;
        }
        if words.first() != Some(&"go") {
            script.push_str(line);
            script.push('\n');
            continue;
        }
        let args = &words[1..];
        let one_ply = (args.is_empty() || args == ["depth", "1"]) && one_ply_left > 0;
        one_ply_left -= usize::from(one_ply);
        let line = if one_ply {
            line.to_string()
        } else {
            format!("{} {GO_NODES}", words.join(" "))
        };
        if !one_ply {
            let sent: Vec<&str> = line.split_whitespace().skip(1).collect();
            if Go::parse(&sent).is_ok() {
                searches += 1;
            }
        }
        script.push_str(&line);
        script.push('\n');
    }
    (script, searches)
}

/// Runs `input` as a session under both rulesets.
pub fn run(input: &str) -> Result<(), String> {
    let (script, searches) = bounded(input);
    session::<Cantwell>(&script, searches)?;
    session::<Niels>(&script, searches)
}

fn new_backend(limit: MemoryLimit) -> SparseSim {
    SparseSim::with_limit(MemoryLimit::bytes(limit.limit_bytes().min(MEMORY_BYTES)))
}

fn session<R: Ruleset + 'static>(script: &str, searches: usize) -> Result<(), String>
where
    Engine<R, SparseSim>: EngineGame + Send + 'static,
    R::Start: Send,
{
    let captured = Captured::default();
    let out = Output::new(captured.clone());
    let mut session = Session::<R, SparseSim>::new(0, None, new_backend, out.clone())
        .map_err(|e| format!("the session does not start: {e}"))?;
    let mut input = script.as_bytes();
    let result = read_commands(&mut session, &mut input, &out);
    session.stop_search();
    result.map_err(|e| format!("the loop failed on in-memory input: {e}"))?;
    let bytes = captured.0.lock().map(|b| b.clone()).unwrap_or_default();
    let text = String::from_utf8(bytes).map_err(|e| format!("a reply is not UTF-8: {e}"))?;
    let mut bestmoves = 0;
    for line in text.lines() {
        if !REPLY_FORMS.iter().any(|form| line.starts_with(form)) {
            return Err(format!("{}: a reply of no known form: {line:?}", R::TITLE));
        }
        bestmoves += usize::from(line.starts_with("bestmove "));
    }
    // Each limited search answers one `bestmove`; a one-ply `go` answers one unless refused.
    let gos = script
        .lines()
        .filter(|l| l.split_whitespace().next() == Some("go"))
        .count();
    if bestmoves < searches || bestmoves > gos {
        return Err(format!(
            "{}: {bestmoves} bestmove line(s) for {searches} limited search(es) and {gos} go \
             line(s)\n{text}",
            R::TITLE
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_go_that_could_search_long_gets_a_node_limit() {
        let (script, searches) = bounded(
            "go\ngo depth 1\ngo infinite\ngo movetime 99999\ngo depth\nquit\ngo infinite\n",
        );
        assert_eq!(
            script,
            "go\ngo depth 1\ngo infinite nodes 300\ngo movetime 99999 nodes 300\n\
             go depth nodes 300\nquit\n"
        );
        // `go depth nodes 300` does not read: no search.
        assert_eq!(searches, 2);
    }

    #[test]
    fn a_session_with_every_kind_of_go_runs_cleanly() {
        let script = "uci\nposition startpos moves e2e4\ngo infinite\nisready\nprobs\nstop\n\
                      go movetime 50\nmoves\ngo depth 1\nposition startpos\ngo nodes 20\n\
                      go wtime 100 btime 100\nundo\ngo infinite\n";
        run(script).expect("a clean session");
    }
}
