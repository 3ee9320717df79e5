//! The line-by-line command loop that `play` runs for both rulesets: read a line, answer it, until
//! end of input or `quit`. What the commands do is the caller's; what every loop does is here.

use crate::output::write_stdout;
use anyhow::Context;
use std::collections::BTreeMap;
use std::io::BufRead;

/// Reads commands from standard input until end of input, `quit` or `exit`. Blank lines are
/// skipped and `help` prints `help`; every other line is split into words and given to `answer`,
/// whose reply is printed (`None`: not a command, which is said).
pub fn command_loop(
    help: &str,
    mut answer: impl FnMut(&[&str]) -> Option<String>,
) -> anyhow::Result<()> {
    for line in std::io::stdin().lock().lines() {
        let line = line.context("cannot read standard input")?;
        let words: Vec<&str> = line.split_whitespace().collect();
        let reply = match words.as_slice() {
            [] => continue,
            ["quit"] | ["exit"] => break,
            ["help"] => help.to_string(),
            words => answer(words)
                .unwrap_or_else(|| format!("error: unknown command `{line}` (type `help`)\n")),
        };
        write_stdout(&reply)?;
    }
    Ok(())
}

/// The reply to `moves`: one line per kind of move.
pub fn moves_reply(groups: BTreeMap<&'static str, Vec<String>>) -> String {
    groups
        .into_iter()
        .map(|(kind, list)| format!("{kind}: {}\n", list.join(" ")))
        .collect()
}

/// The reply to `save FILE`: writes `text` there.
pub fn save_reply(path: &str, text: &str) -> String {
    match std::fs::write(path, text) {
        Ok(()) => format!("saved to {path}\n"),
        Err(e) => format!("error: cannot write {path}: {e}\n"),
    }
}
