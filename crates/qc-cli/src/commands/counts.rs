//! `qchess counts`: a device's counts of an exported program back into a board, or, for a
//! program without a board (no qchess header), a histogram and each bit's marginal. Reads the
//! files and prints; the parsing, mitigation and estimate are `qc_front::counts`.

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
    /// The program `qchess compile` wrote (its header holds the board map), or any circuit
    /// without that header (OpenQASM 2 or 3, IR): then the counts are summed up as a histogram
    /// with each bit's marginal, as there is no board.
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
    /// Also report the exact board and the total variation distance to it: the game the
    /// program's header names replayed by its rules (no gate is simulated), or, for a program
    /// whose header names no game, the program simulated exactly within the memory limit.
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
    if matches!(
        qc_export::parse_header(&program),
        Err(qc_export::MapError::NoHeader)
    ) {
        return histogram(args, &program, &counts);
    }
    let calibration = args.calibration.as_deref().map(read).transpose()?;
    let request = CountsRequest {
        format: args.counts_format,
        mitigation: args.mitigate,
        calibration: calibration.as_deref(),
        exact: args.exact,
        ..CountsRequest::default()
    };
    let estimate = qc_front::board_from_counts(&program, &counts, &request).map_err(|e| {
        // Name the file the error is about (none for a missing option).
        let file = match &e {
            Step::Map(_)
            | Step::Replay(_)
            | Step::Import(_)
            | Step::Simulate(_)
            | Step::Exact(_) => Some(&args.program),
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

/// The counts of a program without a board: a histogram and the bits' marginals.
fn histogram(args: &CountsArgs, program: &str, counts: &str) -> anyhow::Result<()> {
    use qc_front::counts::HistogramError as E;
    if args.calibration.is_some() || args.mitigate.readout {
        anyhow::bail!(
            "{}: readout mitigation needs a program with a board map (the header `qchess compile` writes); this one has none",
            args.program.display()
        );
    }
    let h =
        qc_front::counts::histogram_from_counts(program, counts, args.counts_format, args.exact)
            .map_err(|e| {
                let file = match &e {
                    E::Program(_) | E::Simulate(_) => &args.program,
                    E::Counts(_) => &args.counts,
                };
                anyhow::Error::new(e).context(file.display().to_string())
            })?;
    if args.json {
        return write_stdout(&(serde_json::to_string_pretty(&h)? + "\n"));
    }
    write_stdout(&histogram_text(&h))
}

/// The histogram as text: outcomes most frequent first, then one line per bit.
fn histogram_text(h: &qc_front::counts::Histogram) -> String {
    let exact = |p: Option<f64>| p.map(|p| format!("  (exact {p:.4})")).unwrap_or_default();
    let mut out = format!(
        "No board: the program has no qchess header, so the counts are shown as they are (no mitigation).\n\nShots: {}\nOutcomes (bit strings: rightmost = c0), most frequent first:\n",
        h.shots
    );
    for o in &h.outcomes {
        let label = if o.bits.is_empty() {
            "(no bits)"
        } else {
            &o.bits
        };
        out.push_str(&format!(
            "  {label}  {}  {:.4}{}\n",
            o.count,
            o.fraction,
            exact(o.exact)
        ));
    }
    out.push_str("Bits (probability of reading 1 ± standard error):\n");
    for m in &h.marginals {
        out.push_str(&format!(
            "  c{}: {:.4} ± {:.4}{}\n",
            m.bit,
            m.probability,
            m.stderr,
            exact(m.exact)
        ));
    }
    if let Some(tvd) = h.tvd {
        out.push_str(&format!(
            "Total variation distance to the exact distribution: {tvd:.4}\n"
        ));
    }
    out
}
