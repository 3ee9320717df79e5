//! Reading the text a command is given: a file, or standard input for `-`, with the name its
//! messages use. Every command that reads a game or a circuit (and the REPL's `load`) reads
//! through here.

use anyhow::Context;
use qc_rules::ruleset::without_bom;

/// Reads a file, or standard input for `-`; returns a display name and the text, without the
/// byte-order mark Windows Notepad writes at the start of a UTF-8 file.
pub fn read_input(path: &std::path::Path) -> anyhow::Result<(String, String)> {
    if path.as_os_str() == "-" {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut text)
            .context("cannot read standard input")?;
        return Ok(("<stdin>".to_string(), without_bom(&text).to_string()));
    }
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {name}"))?;
    Ok((name, without_bom(&text).to_string()))
}
