//! `qchess counts`: a device's counts of an exported program back into a board. Reads the files
//! and prints; the parsing, mitigation and estimate are `qc_front::counts`.

use crate::output::write_stdout;
use anyhow::Context;
use clap::Args;
use qc_front::counts::{BoardEstimate, CountsFormat, Mitigation};
use qc_front::CountsRequest;
use qc_render::board_text;
use std::path::{Path, PathBuf};

/// Arguments of `qchess counts`.
#[derive(Args, Debug)]
pub struct CountsArgs {
    /// The program `qchess compile` wrote (its header holds the board map).
    pub program: PathBuf,
    /// The counts: Qiskit get_counts() JSON, Braket measurement_counts JSON, `qchess run --shots N
    /// --json` output, or CSV bits,count.
    pub counts: PathBuf,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    /// Mitigations, comma-separated: postselect, symmetry, readout (or none).
    #[arg(long, value_name = "LIST", default_value = "postselect,symmetry")]
    pub mitigate: Mitigation,
    /// Readout calibration (JSON; see docs/hardware.md), needed by --mitigate readout.
    #[arg(long, value_name = "FILE")]
    pub calibration: Option<PathBuf>,
    /// How the counts file writes its bit strings (detected when unambiguous).
    #[arg(long, value_name = "FORMAT", value_parser = crate::choice_arg::choice::<CountsFormat>())]
    pub counts_format: Option<CountsFormat>,
    /// Also simulate the program exactly and report the exact board and the total variation
    /// distance to it.
    #[arg(long)]
    pub exact: bool,
}

fn read(path: &Path) -> anyhow::Result<String> {
    std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))
}

/// Runs the command.
pub fn run(args: &CountsArgs) -> anyhow::Result<()> {
    use qc_front::CountsStepError as Step;
    let program = read(&args.program)?;
    let counts = read(&args.counts)?;
    let calibration = args.calibration.as_deref().map(read).transpose()?;
    let request = CountsRequest {
        format: args.counts_format,
        mitigation: args.mitigate,
        calibration: calibration.as_deref(),
        exact: args.exact,
    };
    let estimate = qc_front::board_from_counts(&program, &counts, &request).map_err(|e| {
        // Name the file the error is about (none for a missing option).
        let file = match &e {
            Step::Map(_) | Step::Import(_) | Step::Simulate(_) | Step::Exact(_) => {
                Some(&args.program)
            }
            Step::Counts(_) => Some(&args.counts),
            Step::Calibration(_) => args.calibration.as_ref(),
            Step::MissingCalibration => None,
        };
        match file {
            Some(file) => anyhow::Error::new(e).context(file.display().to_string()),
            None => anyhow::Error::new(e),
        }
    })?;
    if args.json {
        write_stdout(&(serde_json::to_string_pretty(&estimate)? + "\n"))
    } else {
        write_stdout(&to_text(&estimate))
    }
}

/// The board drawn as `simulate` draws it (or why there is none), then shots and a line per
/// square.
fn to_text(e: &BoardEstimate) -> String {
    // The side to move is not drawn; the map does not record it.
    let mut out = match e.no_board {
        // No board to draw (not an empty one): say why.
        Some(why) => format!("{why}.\n"),
        None => board_text::draw(&qc_front::estimate_view(e)),
    };
    let reasons: Vec<String> = e
        .discarded
        .iter()
        .map(|(r, n)| format!("{r}: {n}"))
        .collect();
    out.push_str(&format!(
        "\nShots: {}, kept: {}, discarded: {}\n",
        e.shots,
        e.kept,
        if reasons.is_empty() {
            "none".to_string()
        } else {
            reasons.join(", ")
        }
    ));
    for (sq, s) in &e.squares {
        let exact = e
            .exact
            .as_ref()
            .and_then(|x| x.get(sq))
            .map(|p| format!("  (exact {p:.4})"))
            .unwrap_or_default();
        out.push_str(&format!(
            "{sq} {}: {:.4} ± {:.4}{exact}\n",
            s.piece.as_deref().unwrap_or("-"),
            s.probability,
            s.stderr
        ));
    }
    if let (Some(tvd), None) = (e.tvd, e.no_board) {
        out.push_str(&format!(
            "Total variation distance to the exact board: {tvd:.4}\n"
        ));
    }
    out
}
