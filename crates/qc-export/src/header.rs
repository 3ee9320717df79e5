//! The program header: what every bit of an exported program means (the board map), written
//! into the program's JSON header (`// qchess-export {...}`) so that a device's counts can be read
//! back into a board without parsing comments. [`parse_header`] reads it back.
//!
//! This is the exporter's own output format. What a game adds to it (the pieces, the captured
//! pieces' colours, the conserved quantities) and reading counts back into a board are the front
//! ends' (crate qc-front), which know the game.
//!
//! Bits are indices into the program's `bit[N] c;` register. `qubit` fields are indices into its
//! `qubit[M] q;` register (the qubit a readout calibration refers to).

use qc_ir::Site;
use serde::{Deserialize, Serialize};
use std::collections::BTreeSet;

/// What a measured (or compile-time known) board bit stands for.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Holds {
    /// The qubit of a grid site (a game's square: 1 = a piece stands there). Written
    /// `"square"`.
    #[serde(rename = "square")]
    Site(Site),
    /// The k-th kept ancilla ([`qc_ir::AncillaKind::Kept`]: a game's captured piece, 1 = it
    /// holds one), numbered in qubit order. Written `"captured"`.
    #[serde(rename = "captured")]
    Kept(usize),
}

/// A bit the program measures at the end: a square or a captured-piece ancilla.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MeasuredBit {
    /// Index into `c`.
    pub bit: usize,
    /// Index into `q` of the measured qubit.
    pub qubit: usize,
    /// What it reads.
    #[serde(flatten)]
    pub holds: Holds,
    /// The piece (FEN letter) that stands there when occupied; for a captured ancilla, `w` or
    /// `b`: the colour of the captured piece. Absent when the exporter was not told.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub piece: Option<String>,
}

/// A bit with a recorded outcome: a shot whose bit differs is from another branch of the game.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RecordedBit {
    /// Index into `c`.
    pub bit: usize,
    /// The recorded outcome (0 or 1).
    pub value: u8,
}

/// A bit that reads an ancilla the circuit returns to |0>: a shot that reads 1 there is an error.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ZeroBit {
    /// Index into `c`.
    pub bit: usize,
    /// Index into `q`.
    pub qubit: usize,
    /// The ancilla's name in the game circuit (`path0`, `meas1`, ...).
    pub ancilla: String,
}

/// A square or captured ancilla whose value is known at compile time (the compact width folds it
/// away, so no bit reads it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FixedBit {
    /// What it is.
    #[serde(flatten)]
    pub holds: Holds,
    /// Its value in every shot (0 or 1).
    pub value: u8,
    /// As in [`MeasuredBit::piece`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub piece: Option<String>,
}

/// A conserved quantity: in every error-free shot, the measured `bits` sum to `total`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Conserved {
    /// `pieces` (every piece: squares plus captured ancillas), `white`, `black` (squares with a
    /// piece of that colour plus captured pieces of that colour), `empty` (squares no piece
    /// can stand on: total 0).
    pub name: String,
    /// Indices into `c`.
    pub bits: Vec<usize>,
    /// Their sum in every error-free shot.
    pub total: usize,
}

/// The machine-readable meaning of a program's bits (the header's `map`). Empty lists are left
/// out of the JSON.
#[derive(Clone, Debug, PartialEq, Eq, Default, Serialize, Deserialize)]
pub struct BoardMap {
    /// Width of `c`.
    pub clbits: usize,
    /// Squares and captured ancillas measured at the end.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub measured: Vec<MeasuredBit>,
    /// Bits with a recorded outcome (post-selection).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub recorded: Vec<RecordedBit>,
    /// Bits reading ancillas the circuit returns to |0>.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub zero: Vec<ZeroBit>,
    /// Squares and captured ancillas known at compile time.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub fixed: Vec<FixedBit>,
    /// Conserved quantities (filled in by the front end that knows the game: the exporter
    /// writes none).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub conserved: Vec<Conserved>,
}

impl BoardMap {
    /// The measured bit reading `holds`, if any.
    pub fn bit_of(&self, holds: Holds) -> Option<&MeasuredBit> {
        self.measured.iter().find(|m| m.holds == holds)
    }

    /// Checks that every bit index is inside `c` and read by one entry only.
    pub fn validate(&self) -> Result<(), MapError> {
        let mut seen = BTreeSet::new();
        let bits = self
            .measured
            .iter()
            .map(|m| m.bit)
            .chain(self.recorded.iter().map(|r| r.bit))
            .chain(self.zero.iter().map(|z| z.bit));
        for bit in bits {
            if bit >= self.clbits {
                return Err(MapError::BitOutOfRange {
                    bit,
                    clbits: self.clbits,
                });
            }
            if !seen.insert(bit) {
                return Err(MapError::DuplicateBit { bit });
            }
        }
        for r in &self.recorded {
            if r.value > 1 {
                return Err(MapError::BadValue { bit: r.bit });
            }
        }
        for c in &self.conserved {
            if let Some(&bit) = c.bits.iter().find(|b| **b >= self.clbits) {
                return Err(MapError::BitOutOfRange {
                    bit,
                    clbits: self.clbits,
                });
            }
        }
        Ok(())
    }
}

/// The JSON header of an exported program (the line `// qchess-export {...}`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ProgramHeader {
    /// `qasm3` or `qasm2`.
    pub format: String,
    /// `dynamic` or `deferred`.
    pub form: String,
    /// `portable` or `extended`.
    pub dialect: String,
    /// `compact` or `full`.
    pub width: String,
    /// The hardware target's name (`generic` without one).
    pub target: String,
    /// Qubits declared.
    pub qubits: usize,
    /// Bits declared.
    pub clbits: usize,
    /// Recorded outcomes in Qiskit order (rightmost = `c[0]`); `x` = not recorded.
    pub postselect: String,
    /// What every bit means.
    pub map: BoardMap,
    /// A device program's layout (`qchess compile --target` a device target): where every
    /// program qubit lives. Absent for logical programs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub layout: Option<Vec<LayoutEntry>>,
    /// The game the program was compiled from, when a front end that knows it wrote the
    /// program (`qchess compile`, the page, Python): replayed by the rules, it gives the
    /// program's exact board without simulating its gates. Absent for other programs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub game: Option<HeaderGame>,
}

/// The game a program was compiled from (the header's `game`): its ruleset, rule options,
/// start position and every move with its outcomes written in, so that replaying it gives the
/// state the program ends in (given the recorded outcomes) without simulating a gate.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HeaderGame {
    /// The ruleset, as `--rules` names it (`cantwell`, `niels`).
    pub rules: String,
    /// The rule options in force, as they are written (`full+hadamard`); absent for a ruleset
    /// without options.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub variant: Option<String>,
    /// The start position in the ruleset's FEN.
    pub fen: String,
    /// The moves, separated by spaces, each with its outcomes written in (`b1^a3c3.m1`), as
    /// `--moves` takes them.
    pub moves: String,
}

/// Where one program qubit of a device program lives: the physical qubit it starts on, the
/// physical qubit of each measurement, and of each life (a qubit whose value is known at some
/// point gives its physical qubit back and is prepared again, maybe elsewhere, when needed).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LayoutEntry {
    /// The program qubit: its index in the unrouted program's `q` (the same program without
    /// routing: `qchess compile` for the device's logical twin).
    pub qubit: usize,
    /// What it is, as the unrouted program's label says (`c1 (square)`, `pred0 (...)`).
    pub name: String,
    /// The physical qubit (`$k`) it starts on; absent when it never needed one (its value was
    /// known all along).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<usize>,
    /// Each measurement: the bit and the physical qubit measured.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub measured: Vec<MeasuredAt>,
    /// The physical qubit of each of its lives, in order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lives: Vec<usize>,
}

/// A measurement in a device program's layout.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MeasuredAt {
    /// Index into `c`.
    pub bit: usize,
    /// The physical qubit (`$k`).
    pub physical: usize,
}

/// The prefix of the header line (after the comment marker).
pub const HEADER_PREFIX: &str = "qchess-export ";

/// Why a program's header could not be read.
#[derive(Debug, thiserror::Error)]
pub enum MapError {
    /// No `// qchess-export {...}` line.
    #[error("no `// qchess-export {{...}}` header line: is this a program written by `qchess compile` (version with a board map)?")]
    NoHeader,
    /// The header is not the expected JSON.
    #[error("line {line}: the qchess-export header is not valid: {source}")]
    Json {
        /// 1-based line of the header.
        line: usize,
        /// The JSON error (with its column).
        source: serde_json::Error,
    },
    /// A bit index outside `c`.
    #[error("the map names bit {bit}, but the program has {clbits} bit(s)")]
    BitOutOfRange {
        /// The bit.
        bit: usize,
        /// Width of `c`.
        clbits: usize,
    },
    /// Two entries read the same bit.
    #[error("the map gives bit {bit} two meanings")]
    DuplicateBit {
        /// The bit.
        bit: usize,
    },
    /// A recorded value other than 0 or 1.
    #[error("the recorded value of bit {bit} is neither 0 nor 1")]
    BadValue {
        /// The bit.
        bit: usize,
    },
}

/// Reads the header of an exported program (OpenQASM 3 or 2) and checks its map.
pub fn parse_header(program: &str) -> Result<ProgramHeader, MapError> {
    for (index, line) in program.lines().enumerate() {
        let Some(json) = line
            .trim_start()
            .strip_prefix("//")
            .map(str::trim_start)
            .and_then(|l| l.strip_prefix(HEADER_PREFIX))
        else {
            continue;
        };
        let header: ProgramHeader =
            serde_json::from_str(json).map_err(|source| MapError::Json {
                line: index + 1,
                source,
            })?;
        header.map.validate()?;
        return Ok(header);
    }
    Err(MapError::NoHeader)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Site {
        Site::parse(s).expect("site")
    }

    #[test]
    fn entries_serialise_as_the_issue_spells_them() {
        let m = MeasuredBit {
            bit: 5,
            qubit: 2,
            holds: Holds::Site(sq("a3")),
            piece: None,
        };
        assert_eq!(
            serde_json::to_string(&m).expect("json"),
            r#"{"bit":5,"qubit":2,"square":"a3"}"#
        );
        let c = MeasuredBit {
            bit: 9,
            qubit: 7,
            holds: Holds::Kept(0),
            piece: Some("b".into()),
        };
        assert_eq!(
            serde_json::to_string(&c).expect("json"),
            r#"{"bit":9,"qubit":7,"captured":0,"piece":"b"}"#
        );
    }

    #[test]
    fn parse_header_reads_back_and_reports_errors() {
        let good = "OPENQASM 3.0;\n// qchess-export {\"format\":\"qasm3\",\"form\":\"dynamic\",\"dialect\":\"portable\",\"width\":\"compact\",\"target\":\"generic\",\"qubits\":1,\"clbits\":2,\"postselect\":\"x1\",\"map\":{\"clbits\":2,\"measured\":[{\"bit\":1,\"qubit\":0,\"square\":\"a3\"}],\"recorded\":[{\"bit\":0,\"value\":1}]}}\n";
        let h = parse_header(good).expect("header");
        assert_eq!(h.map.measured[0].holds, Holds::Site(sq("a3")));
        assert_eq!(h.map.recorded, vec![RecordedBit { bit: 0, value: 1 }]);
        assert!(matches!(
            parse_header("OPENQASM 3.0;\n"),
            Err(MapError::NoHeader)
        ));
        let bad_json = "OPENQASM 3.0;\n// generated\n// qchess-export {\"format\":3}\n";
        match parse_header(bad_json) {
            Err(MapError::Json { line: 3, .. }) => {}
            other => panic!("expected a JSON error on line 3, got {other:?}"),
        }
        let out_of_range = good.replace("\"bit\":1,\"qubit\"", "\"bit\":2,\"qubit\"");
        assert!(matches!(
            parse_header(&out_of_range),
            Err(MapError::BitOutOfRange { bit: 2, clbits: 2 })
        ));
        let duplicate = good.replace("\"bit\":1,\"qubit\"", "\"bit\":0,\"qubit\"");
        assert!(matches!(
            parse_header(&duplicate),
            Err(MapError::DuplicateBit { bit: 0 })
        ));
        let bad_square = good.replace("\"a3\"", "\"z9\"");
        assert!(matches!(
            parse_header(&bad_square),
            Err(MapError::Json { line: 2, .. })
        ));
    }
}
