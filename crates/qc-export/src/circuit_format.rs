//! Which format a circuit text is written in, told by content, in one place for every reader
//! (the CLI's `run` and `draw --circuit`, the Python package, the fuzz harness): IR text and IR
//! JSON (what `compile --format ir|json` writes) and OpenQASM 2 and 3 (`compile --format
//! qasm2|qasm3`, and what other tools write).

use crate::{import_qasm2, import_qasm3, ImportError};
use qc_ir::text::MAX_CLBITS;
use qc_ir::Circuit;
use thiserror::Error;

/// What a circuit text is written in.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CircuitFormat {
    /// The IR text format.
    Ir,
    /// The IR as JSON (`compile --format json`).
    Json,
    /// OpenQASM 2.
    Qasm2,
    /// OpenQASM 3.
    Qasm3,
}

impl CircuitFormat {
    /// What the text says it is, when it says so: a `{` first is JSON; a first line (not blank,
    /// not a `//` comment) `OPENQASM 2...` is OpenQASM 2 and any other `OPENQASM` line is
    /// OpenQASM 3 (whose reader names a version it does not know). `None` for anything else.
    pub fn declared(text: &str) -> Option<CircuitFormat> {
        if text.trim_start().starts_with('{') {
            return Some(CircuitFormat::Json);
        }
        let first = text
            .lines()
            .map(|l| l.split("//").next().unwrap_or("").trim())
            .find(|l| !l.is_empty())?;
        let version = first.strip_prefix("OPENQASM")?.trim_start();
        Some(if version.starts_with('2') {
            CircuitFormat::Qasm2
        } else {
            CircuitFormat::Qasm3
        })
    }

    /// The format's name in messages.
    pub fn name(self) -> &'static str {
        match self {
            CircuitFormat::Ir => "IR text",
            CircuitFormat::Json => "IR JSON",
            CircuitFormat::Qasm2 => "OpenQASM 2",
            CircuitFormat::Qasm3 => "OpenQASM 3",
        }
    }

    /// The most memory its reader takes per byte of source text, peak resident memory of the
    /// whole read included. Measured with `/usr/bin/time -v` on the `read_peak` example of
    /// random 4-qubit programs of 250,000 and 1,000,000 gates: OpenQASM 3 225-230 bytes a byte
    /// (`oq3_parser` keeps an event per token and its syntax tree, and the reader parses twice),
    /// OpenQASM 2 71-72, IR text 20, IR JSON 1.8; each rounded up with room for the allocator's
    /// doubling of the vectors being grown.
    pub const fn reader_bytes_per_source_byte(self) -> u64 {
        match self {
            CircuitFormat::Ir => 32,
            CircuitFormat::Json => 4,
            CircuitFormat::Qasm2 => 96,
            CircuitFormat::Qasm3 => 256,
        }
    }

    /// The memory reading `source_bytes` bytes of text in this format takes, at most.
    pub fn reader_memory_estimate(self, source_bytes: usize) -> u64 {
        (source_bytes as u64).saturating_mul(self.reader_bytes_per_source_byte())
    }
}

/// The format of a circuit file: what it declares ([`CircuitFormat::declared`]), else IR text
/// (whose `qcir 1` header is optional, so it has no sign of its own).
pub fn detect_format(text: &str) -> CircuitFormat {
    CircuitFormat::declared(text).unwrap_or(CircuitFormat::Ir)
}

/// Why a circuit text could not be read: the format it was read as and that reader's error
/// (with its line and column).
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum CircuitError {
    /// The IR text reader's error.
    #[error("{0}")]
    Ir(qc_ir::IrError),
    /// Not valid IR JSON (the error has its line and column).
    #[error("IR JSON: {0}")]
    Json(serde_json::Error),
    /// IR JSON that declares more classical bits than a circuit may have (checked before the
    /// verifier allocates the register).
    #[error("IR JSON: `num_clbits` {num_clbits} is more than the {max} classical bits a circuit may have")]
    TooManyClbits {
        /// The number declared.
        num_clbits: usize,
        /// The cap ([`MAX_CLBITS`], as for the text format).
        max: u32,
    },
    /// The OpenQASM 2 reader's error.
    #[error("OpenQASM 2: {0}")]
    Qasm2(ImportError),
    /// The OpenQASM 3 reader's error.
    #[error("OpenQASM 3: {0}")]
    Qasm3(ImportError),
    /// Reading the text would take more memory than the limit allows (refused before the reader
    /// starts, so that it does not abort the process part way).
    #[error(
        "{format} program of {source_bytes} bytes: reading it would take about {needed_bytes} \
         bytes of memory, more than the {limit_bytes} bytes allowed (split the program, or run \
         where more memory is available)",
        format = format.name()
    )]
    TooLargeToRead {
        /// The format the text declares.
        format: CircuitFormat,
        /// The text's length in bytes.
        source_bytes: usize,
        /// What its reader would take ([`CircuitFormat::reader_memory_estimate`]).
        needed_bytes: u64,
        /// The memory limit (at most `u64::MAX`: the variant stays small).
        limit_bytes: u64,
    },
}

/// Parses a circuit in the format [`detect_format`] tells. The circuit is not verified.
pub fn parse_circuit(text: &str) -> Result<Circuit, CircuitError> {
    parse_circuit_as(detect_format(text), text)
}

/// [`parse_circuit`], refusing up front ([`CircuitError::TooLargeToRead`]) a text whose reader
/// would take more than `limit_bytes` of memory: the readers allocate as they go, and an
/// allocation refused part way aborts the process.
pub fn parse_circuit_within(text: &str, limit_bytes: u128) -> Result<Circuit, CircuitError> {
    let format = detect_format(text);
    let needed_bytes = format.reader_memory_estimate(text.len());
    if u128::from(needed_bytes) > limit_bytes {
        return Err(CircuitError::TooLargeToRead {
            format,
            source_bytes: text.len(),
            needed_bytes,
            limit_bytes: u64::try_from(limit_bytes).unwrap_or(u64::MAX),
        });
    }
    parse_circuit_as(format, text)
}

/// Parses a circuit written in `format`. The circuit is not verified.
pub fn parse_circuit_as(format: CircuitFormat, text: &str) -> Result<Circuit, CircuitError> {
    match format {
        CircuitFormat::Ir => qc_ir::text::parse(text).map_err(CircuitError::Ir),
        CircuitFormat::Json => {
            let circuit: Circuit = serde_json::from_str(text).map_err(CircuitError::Json)?;
            // The verifier allocates the classical register whole: check its size first, with
            // the same cap as the text format.
            if circuit.num_clbits() > MAX_CLBITS as usize {
                return Err(CircuitError::TooManyClbits {
                    num_clbits: circuit.num_clbits(),
                    max: MAX_CLBITS,
                });
            }
            Ok(circuit)
        }
        CircuitFormat::Qasm2 => import_qasm2(text).map_err(CircuitError::Qasm2),
        CircuitFormat::Qasm3 => import_qasm3(text).map_err(CircuitError::Qasm3),
    }
}

/// Imports OpenQASM 2 or 3, chosen by the `OPENQASM` version line (3 when there is none: the
/// line is optional in OpenQASM 3).
pub fn import_qasm(src: &str) -> Result<Circuit, ImportError> {
    match CircuitFormat::declared(src) {
        Some(CircuitFormat::Qasm2) => import_qasm2(src),
        _ => import_qasm3(src),
    }
}

#[cfg(test)]
mod tests {
    use super::{detect_format, parse_circuit_within, CircuitError, CircuitFormat};

    #[test]
    fn a_text_too_large_to_read_within_the_limit_is_refused_before_reading() {
        let text = "OPENQASM 3.0;\nqubit q;\nh q;\n";
        let needed = CircuitFormat::Qasm3.reader_memory_estimate(text.len());
        assert_eq!(needed, text.len() as u64 * 256);
        match parse_circuit_within(text, u128::from(needed - 1)) {
            Err(CircuitError::TooLargeToRead {
                format: CircuitFormat::Qasm3,
                source_bytes,
                needed_bytes,
                limit_bytes,
            }) => {
                assert_eq!(source_bytes, text.len());
                assert_eq!(needed_bytes, needed);
                assert_eq!(limit_bytes, needed - 1);
            }
            other => panic!("{other:?}"),
        }
        let circuit = parse_circuit_within(text, u128::from(needed)).expect("fits");
        assert_eq!(circuit.instructions().len(), 1);
        // IR text is lean: the same limit reads a longer IR program.
        let ir = "qubits a1\nh a1\n";
        assert!(parse_circuit_within(ir, u128::from(needed)).is_ok());
    }

    #[test]
    fn the_format_is_told_by_content() {
        let cases = [
            ("  {\"qubits\": []}", CircuitFormat::Json),
            (
                "// a comment\n\nOPENQASM 2.0;\nqreg q[1];",
                CircuitFormat::Qasm2,
            ),
            ("OPENQASM 3.0;\nqubit q;", CircuitFormat::Qasm3),
            ("OPENQASM 3;", CircuitFormat::Qasm3),
            ("OPENQASM 4.0;", CircuitFormat::Qasm3),
            ("qcir 1\nqubits a1\nh a1\n", CircuitFormat::Ir),
            ("qubits a1\n", CircuitFormat::Ir),
            ("", CircuitFormat::Ir),
        ];
        for (text, format) in cases {
            assert_eq!(detect_format(text), format, "{text:?}");
        }
        assert_eq!(CircuitFormat::declared("qubits a1\n"), None);
    }
}
