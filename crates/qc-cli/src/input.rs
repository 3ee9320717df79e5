//! Reading the text a command is given: a file, or standard input for `-`, with the name its
//! messages use. Every command that reads a game or a circuit (and the REPL's `load`) reads
//! through here.

use anyhow::Context;

/// Reads a file, or standard input for `-`; returns a display name and the text.
pub fn read_input(path: &std::path::Path) -> anyhow::Result<(String, String)> {
    if path.as_os_str() == "-" {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut std::io::stdin(), &mut text)
            .context("cannot read standard input")?;
        return Ok(("<stdin>".to_string(), text));
    }
    let name = path.display().to_string();
    let text = std::fs::read_to_string(path).with_context(|| format!("cannot read {name}"))?;
    Ok((name, text))
}
