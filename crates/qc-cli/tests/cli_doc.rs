//! docs/cli.md cannot drift from the binary.
//!
//! - Each command's reference (its usage line, arguments and every option with its meaning,
//!   possible values and default) is generated from `qchess COMMAND --help`, that is from clap,
//!   between the markers `<!-- generated from `qchess COMMAND --help` ... -->` and
//!   `<!-- end of generated text -->`. The test fails when a block is stale; regenerate with
//!   `QCHESS_BLESS=1 cargo test -p qc-cli --test cli_doc`.
//! - Every command `qchess --help` lists has such a block and a row in the page's command table.
//! - The hand-written prose of docs/cli.md and docs/niels.md names only options that exist, and a
//!   value list written `--option a|b|c` lists exactly the option's possible values.

mod common;

use std::collections::{BTreeMap, BTreeSet};

const BEGIN: &str = "<!-- generated from `qchess ";
const END: &str = "<!-- end of generated text -->";

/// The page whose command reference is generated.
fn cli_md() -> std::path::PathBuf {
    common::root().join("docs/cli.md")
}

/// `qchess COMMAND --help` (or `qchess --help` for an empty command).
fn help(command: &str) -> String {
    let args: Vec<&str> = command
        .split_whitespace()
        .chain(std::iter::once("--help"))
        .collect();
    common::ok_stdout(&common::qchess(&args))
}

/// The reference block of one command: its `--help` from the usage line on (the description and
/// examples above it are prose the page says in its own words), as a ```text block.
fn reference(command: &str) -> String {
    let text = help(command);
    let mut block = String::from("```text\n");
    for line in text.lines().skip_while(|l| !l.starts_with("Usage:")) {
        block.push_str(line.trim_end());
        block.push('\n');
    }
    while block.ends_with("\n\n") {
        block.pop();
    }
    block.push_str("```\n");
    block
}

/// The command a BEGIN marker names (`simulate` for `qchess simulate --help`), if the line is one.
fn marker_command(line: &str) -> Option<String> {
    let rest = line.trim().strip_prefix(BEGIN)?;
    let end = rest.find(" --help`")?;
    Some(rest[..end].trim().to_string())
}

/// The page with every generated block rewritten from the binary, or what is wrong with its markers.
fn regenerate(page: &str) -> Result<String, String> {
    let mut out = String::new();
    let mut lines = page.lines().enumerate();
    while let Some((i, line)) = lines.next() {
        out.push_str(line);
        out.push('\n');
        let Some(command) = marker_command(line) else {
            continue;
        };
        if !lines.any(|(_, l)| l.trim() == END) {
            return Err(format!("cli.md:{}: no `{END}` after the marker", i + 1));
        }
        out.push_str(&reference(&command));
        out.push_str(END);
        out.push('\n');
    }
    Ok(out)
}

/// The page's lines outside the generated blocks, with their line numbers.
fn prose(page: &str) -> Vec<(usize, &str)> {
    let mut inside = false;
    let mut kept = Vec::new();
    for (i, line) in page.lines().enumerate() {
        if marker_command(line).is_some() {
            inside = true;
        } else if line.trim() == END {
            inside = false;
        } else if !inside {
            kept.push((i + 1, line));
        }
    }
    kept
}

/// Every option of every command (`--json`, `--backend`, ...) with its possible values when the
/// help lists them (`Possible values:` lines or `[possible values: a, b]`).
fn options() -> BTreeMap<String, BTreeSet<String>> {
    let mut all: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for command in common::subcommands() {
        let text = help(&command);
        let mut current: Option<String> = None;
        let mut in_values = false;
        for line in text.lines() {
            let trimmed = line.trim();
            if trimmed.starts_with('-') && !trimmed.starts_with("- ") {
                let name = trimmed
                    .split([' ', ','])
                    .find(|w| w.starts_with("--"))
                    .map(str::to_string);
                if let Some(name) = &name {
                    all.entry(name.clone()).or_default();
                }
                current = name;
                in_values = false;
            } else if trimmed == "Possible values:" {
                in_values = true;
            } else if let (true, Some(option), Some(item)) =
                (in_values, &current, trimmed.strip_prefix("- "))
            {
                let value = item.split(':').next().unwrap_or_default().trim();
                all.entry(option.clone())
                    .or_default()
                    .insert(value.to_string());
            } else if let (Some(option), Some(list)) =
                (&current, trimmed.strip_prefix("[possible values: "))
            {
                for value in list.trim_end_matches(']').split(", ") {
                    all.entry(option.clone())
                        .or_default()
                        .insert(value.trim().to_string());
                }
            }
        }
    }
    all
}

/// `(line, option, values)` for every `--option` a line names, with the `a|b|c` list after it
/// (empty when none). Lines about cargo (`cargo run --release ...`) name cargo's options, not ours.
fn named_options(lines: &[(usize, &str)]) -> Vec<(usize, String, Vec<String>)> {
    let strip = |w: &str| {
        w.trim_matches(|c: char| "`[]()*,.;:\\".contains(c))
            .to_string()
    };
    let mut found = Vec::new();
    for (number, line) in lines {
        if line.contains("cargo ") {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        for (k, word) in words.iter().enumerate() {
            let Some(start) = word.find("--") else {
                continue;
            };
            let name: String = word[start..]
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                .collect();
            if name.len() <= 2 || !name[2..].starts_with(|c: char| c.is_ascii_lowercase()) {
                continue;
            }
            let values = match words.get(k + 1) {
                Some(next) if next.contains('|') && !next.contains("||") => next
                    .split('|')
                    .map(strip)
                    .filter(|v| !v.is_empty())
                    .collect(),
                _ => Vec::new(),
            };
            found.push((*number, name, values));
        }
    }
    found
}

#[test]
fn docs_cli_md_reference_is_generated_from_clap() {
    let page = std::fs::read_to_string(cli_md()).expect("docs/cli.md reads");
    let fresh = regenerate(&page).unwrap_or_else(|e| panic!("{e}"));
    if std::env::var_os("QCHESS_BLESS").is_some_and(|v| v == "1") {
        std::fs::write(cli_md(), &fresh).expect("docs/cli.md is writable");
        return;
    }
    assert!(
        page == fresh,
        "docs/cli.md's command reference is stale (an option changed in clap): regenerate it with \
         `QCHESS_BLESS=1 cargo test -p qc-cli --test cli_doc` and commit the result"
    );
}

#[test]
fn every_command_has_a_reference_a_section_and_a_table_row() {
    let page = std::fs::read_to_string(cli_md()).expect("docs/cli.md reads");
    let generated: Vec<String> = page.lines().filter_map(marker_command).collect();
    let commands = common::subcommands();
    assert!(commands.len() >= 9, "only {commands:?}");
    for command in &commands {
        assert!(
            generated.contains(command),
            "docs/cli.md has no reference generated from `qchess {command} --help`"
        );
        assert!(
            page.contains(&format!("\n## `qchess {command}`\n")),
            "docs/cli.md has no section `qchess {command}`"
        );
        assert!(
            page.contains(&format!("| [`{command}`](#qchess-{command}) |")),
            "docs/cli.md's command table has no row for `{command}`"
        );
    }
    for command in &generated {
        assert!(
            commands.contains(command),
            "docs/cli.md has a reference for `{command}`, which `qchess --help` does not list"
        );
    }
}

#[test]
fn the_cli_docs_name_only_options_that_exist_with_their_values() {
    let known = options();
    assert!(known.contains_key("--backend") && known["--backend"].contains("dense"));
    let mut failures = Vec::new();
    for doc in ["docs/cli.md", "docs/niels.md"] {
        let page = std::fs::read_to_string(common::root().join(doc)).expect("the page reads");
        for (line, option, values) in named_options(&prose(&page)) {
            let Some(possible) = known.get(&option) else {
                failures.push(format!("{doc}:{line}: `{option}` is no option of qchess"));
                continue;
            };
            let written: BTreeSet<String> = values.into_iter().collect();
            if !written.is_empty() && !possible.is_empty() && &written != possible {
                failures.push(format!(
                    "{doc}:{line}: `{option}` lists {written:?}, the command takes {possible:?}"
                ));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn the_option_finder_reads_names_and_value_lists() {
    let lines = [
        (1, "qchess simulate [--backend sparse|reference] [--json]"),
        (2, "| `--form dynamic\\|deferred` | ... |"),
        (3, "cargo run --release -p qc-cli"),
        (4, "a -- b and --9"),
    ];
    let found: Vec<(usize, String, Vec<String>)> = named_options(&lines);
    let owned = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
    assert_eq!(
        found,
        vec![
            (1, "--backend".to_string(), owned(&["sparse", "reference"])),
            (1, "--json".to_string(), Vec::new()),
            (2, "--form".to_string(), owned(&["dynamic", "deferred"])),
        ]
    );
}

/// The README's list of commands (`qchess --help` lists the commands (`simulate`, ...)) names
/// every subcommand clap has, in clap's order, and nothing else (it once left out `counts`).
#[test]
fn the_readme_lists_every_command_in_order() {
    let readme = std::fs::read_to_string(common::root().join("README.md")).expect("README.md");
    let joined = readme.split_whitespace().collect::<Vec<_>>().join(" ");
    let start = "`qchess --help` lists the commands (";
    let list = joined
        .split_once(start)
        .and_then(|(_, rest)| rest.split_once(')'))
        .map(|(list, _)| list)
        .unwrap_or_else(|| panic!("README.md has no `{start}...)`"));
    let listed: Vec<String> = list
        .split(", ")
        .map(|name| name.trim_matches('`').to_string())
        .collect();
    assert_eq!(listed, common::subcommands(), "README.md's command list");
}

/// Issue "play", stale docs: the README gave the release binary's size as about 7 MB when it
/// was twice that. The figure it gives (`target/release/qchess`, about N MB) is the binary's
/// size within 15 %, checked on an optimised build (a debug build is larger by design).
#[test]
fn the_readme_gives_the_release_binarys_size() {
    if cfg!(debug_assertions) {
        return;
    }
    let readme = std::fs::read_to_string(common::root().join("README.md")).expect("README.md");
    let joined = readme.split_whitespace().collect::<Vec<_>>().join(" ");
    let start = "(`target/release/qchess`, about ";
    let megabytes: f64 = joined
        .split_once(start)
        .and_then(|(_, rest)| rest.split_once(" MB"))
        .and_then(|(n, _)| n.parse().ok())
        .unwrap_or_else(|| panic!("README.md has no `{start}N MB`"));
    let bytes = std::fs::metadata(env!("CARGO_BIN_EXE_qchess"))
        .expect("the binary")
        .len() as f64;
    let measured = bytes / 1e6;
    assert!(
        (measured / megabytes - 1.0).abs() <= 0.15,
        "README.md says about {megabytes} MB; target/release/qchess is {measured:.1} MB"
    );
}

/// A possible value whose description calls itself the default is the default clap shows for
/// that option in every command (`play`'s `--backend` once listed `sparse` as "the default for
/// games" above `[default: reference]`).
#[test]
fn a_value_called_the_default_is_the_default_shown() {
    for command in common::subcommands() {
        let help = common::ok_stdout(&common::qchess(&[&command, "--help"]));
        // One block per option: from its `--name` line to the next.
        let mut blocks: Vec<Vec<&str>> = Vec::new();
        for line in help.lines() {
            let trimmed = line.trim_start();
            if trimmed.starts_with("--") || trimmed.starts_with("-h,") {
                blocks.push(Vec::new());
            }
            if let Some(block) = blocks.last_mut() {
                block.push(trimmed);
            }
        }
        for block in blocks {
            let shown = block
                .iter()
                .find_map(|l| l.strip_prefix("[default: "))
                .map(|d| d.trim_end_matches(']'));
            for line in &block {
                let Some(value) = line.strip_prefix("- ").and_then(|v| v.split(':').next()) else {
                    continue;
                };
                if line.contains("default") {
                    assert_eq!(
                        shown,
                        Some(value),
                        "qchess {command} --help: `{line}` under {}",
                        block[0]
                    );
                }
            }
        }
    }
}
