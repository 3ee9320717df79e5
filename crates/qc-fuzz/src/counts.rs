//! The counts surfaces: a counts file (every format `qchess counts` reads) or a readout
//! calibration, read against a compiled program's header as `qchess counts` reads them
//! (`qc_front::board_from_counts`).
//!
//! Properties beyond "no panic":
//! - a refusal blames the file that was mutated: the CLI names the file from the error's step
//!   (`CountsStepError::Counts` names the counts file, `Calibration` the calibration), so a
//!   counts problem reported as a calibration problem (or the reverse) names the wrong file;
//! - counts that read in one format read the same when written out in the others (CSV and
//!   `qchess run --json` in Qiskit's order, Braket's `measurement_counts` in its own);
//! - an estimate holds finite numbers.

use qc_front::counts::{parse_counts, BoardEstimate, Counts, CountsFormat};
use qc_front::{board_from_counts, CountsRequest, CountsStepError};
use std::sync::OnceLock;

/// The bundled program, counts and calibration the surfaces read against.
struct Bundled {
    program: String,
    counts: String,
    calibration: String,
}

/// The bundled `circuits/interference.*` files (read once; empty when missing, so that every
/// input is refused and the surface reports that below).
fn bundled() -> &'static Bundled {
    static BUNDLED: OnceLock<Bundled> = OnceLock::new();
    BUNDLED.get_or_init(|| {
        let dir = crate::seeds::repository_root().join("circuits");
        let read = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap_or_default();
        Bundled {
            program: read("interference.qasm"),
            counts: read("interference.counts.json"),
            calibration: read("interference.calibration.json"),
        }
    })
}

/// Every mitigation, so that the calibration is read and used.
fn request(format: Option<CountsFormat>, calibration: &str) -> CountsRequest<'_> {
    CountsRequest {
        format,
        mitigation: "postselect,symmetry,readout".parse().unwrap_or_default(),
        calibration: Some(calibration),
        exact: false,
        ..CountsRequest::default()
    }
}

/// `input` as a counts file, against the bundled program and calibration, detected and in
/// every format.
pub fn counts_file(input: &str) -> Result<(), String> {
    let bundled = bundled();
    for format in [
        None,
        Some(CountsFormat::Qiskit),
        Some(CountsFormat::Braket),
        Some(CountsFormat::Csv),
    ] {
        match board_from_counts(
            &bundled.program,
            input,
            &request(format, &bundled.calibration),
        ) {
            Ok(estimate) => finite(&estimate)?,
            Err(CountsStepError::Counts(_)) => {}
            Err(other) => {
                return Err(format!(
                    "a counts file read as {format:?} is refused as another input's fault \
                     ({other:?}: {other})"
                ))
            }
        }
    }
    let width = qc_export::parse_header(&bundled.program)
        .map_err(|e| format!("the bundled program has no header: {e}"))?
        .map
        .clbits;
    for format in [CountsFormat::Qiskit, CountsFormat::Braket] {
        if let Ok(counts) = parse_counts(input, Some(format), width) {
            same_in_every_format(&counts)?;
        }
    }
    Ok(())
}

/// `input` as a calibration file, against the bundled program and counts.
pub fn calibration_file(input: &str) -> Result<(), String> {
    let bundled = bundled();
    // The bundled counts' keys read in either order: say which.
    let format = Some(CountsFormat::Qiskit);
    match board_from_counts(&bundled.program, &bundled.counts, &request(format, input)) {
        Ok(estimate) => finite(&estimate),
        Err(CountsStepError::Calibration(_)) => Ok(()),
        Err(other) => Err(format!(
            "a calibration file is refused as another input's fault ({other:?}: {other})"
        )),
    }
}

/// Every number of an estimate is finite, and every standard error non-negative.
fn finite(estimate: &BoardEstimate) -> Result<(), String> {
    for (square, s) in &estimate.squares {
        if !s.probability.is_finite() || !s.stderr.is_finite() || s.stderr < 0.0 {
            return Err(format!(
                "square {square}: probability {} stderr {}",
                s.probability, s.stderr
            ));
        }
    }
    Ok(())
}

/// The bit string of `bits` (`c[0]` first) in Qiskit's order (`c[0]` rightmost) or Braket's.
fn key(bits: &[bool], qiskit_order: bool) -> String {
    let text = bits.iter().map(|&b| if b { '1' } else { '0' });
    if qiskit_order {
        text.rev().collect()
    } else {
        text.collect()
    }
}

/// `counts` written as CSV, as Braket's `measurement_counts`, as `qchess run --shots N --json`
/// and as Qiskit JSON read back as the same counts.
fn same_in_every_format(counts: &Counts) -> Result<(), String> {
    let members = |qiskit_order: bool| {
        counts
            .outcomes
            .iter()
            .map(|(bits, n)| format!("\"{}\": {n}", key(bits, qiskit_order)))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let csv: String = counts
        .outcomes
        .iter()
        .map(|(bits, n)| format!("{},{n}\n", key(bits, true)))
        .collect();
    let written = [
        ("CSV", csv),
        (
            "Braket",
            format!("{{\"measurement_counts\": {{{}}}}}", members(false)),
        ),
        (
            "qchess run",
            format!("{{\"counts\": {{{}}}}}", members(true)),
        ),
        ("Qiskit", format!("{{{}}}", members(true))),
    ];
    for (name, text) in written {
        let format = (name == "Qiskit").then_some(CountsFormat::Qiskit);
        match parse_counts(&text, format, counts.width) {
            Ok(again) if again == *counts => {}
            Ok(again) => {
                return Err(format!(
                    "the counts written as {name} read back differently: {text} gave {:?}, \
                     expected {:?}",
                    again.outcomes, counts.outcomes
                ))
            }
            Err(e) => {
                return Err(format!(
                    "the counts written as {name} are refused: {text}: {e}"
                ))
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bundled_files_read_cleanly() {
        let bundled = bundled();
        assert!(!bundled.program.is_empty() && !bundled.counts.is_empty());
        counts_file(&bundled.counts).expect("the bundled counts");
        calibration_file(&bundled.calibration).expect("the bundled calibration");
        // The estimate was made, not refused.
        let estimate = board_from_counts(
            &bundled.program,
            &bundled.counts,
            &request(Some(CountsFormat::Qiskit), &bundled.calibration),
        );
        assert!(estimate.is_ok(), "{estimate:?}");
    }
}
