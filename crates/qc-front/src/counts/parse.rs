//! Reading counts files as real tools write them: Qiskit's `get_counts()` JSON (bit 0
//! rightmost, registers separated by spaces), Braket's `measurement_counts` (bit 0 leftmost) and
//! CSV `bits,count` (Qiskit order).

use super::json::Json;
use super::{Counts, CountsError, CountsFormat};
use std::collections::BTreeMap;

/// Parses `text` as counts of a program with `width` bits. With `format` `None` the format is
/// detected: not JSON -> CSV; a JSON object with a `measurement_counts` member -> Braket; keys
/// with spaces -> Qiskit; otherwise only when both orders read the same strings (every key a
/// palindrome), else [`CountsError::Ambiguous`].
pub fn parse_counts(
    text: &str,
    format: Option<CountsFormat>,
    width: usize,
) -> Result<Counts, CountsError> {
    let trimmed = text.trim_start();
    let looks_json = trimmed.starts_with('{');
    let counts = match (format, looks_json) {
        (Some(CountsFormat::Csv), _) | (None, false) => parse_csv(text, width)?,
        (Some(f), _) => parse_json(text, Some(f), width)?,
        (None, true) => parse_json(text, None, width)?,
    };
    if counts.shots() == 0 {
        return Err(CountsError::ZeroShots);
    }
    Ok(counts)
}

/// The 1-based line of the first occurrence of `needle` in `text` (for errors about JSON keys,
/// which the JSON parser does not locate).
fn line_of(text: &str, needle: &str) -> Option<usize> {
    text.find(needle)
        .map(|at| text[..at].bytes().filter(|b| *b == b'\n').count() + 1)
}

fn parse_json(
    text: &str,
    format: Option<CountsFormat>,
    width: usize,
) -> Result<Counts, CountsError> {
    let value: Json = serde_json::from_str(text).map_err(|e| CountsError::Json {
        line: e.line(),
        column: e.column(),
        message: e.to_string(),
    })?;
    let Json::Object(members) = value else {
        return Err(CountsError::NotAnObject);
    };
    let members = match run_output(members)? {
        // `qchess run` writes its keys in Qiskit's order (c0 rightmost).
        RunOutput::Counts(object) => {
            return read_object(text, &object, format.unwrap_or(CountsFormat::Qiskit), width)
        }
        RunOutput::Not(members) => members,
    };
    let (format, object) = match (format, braket_counts(members)?) {
        (Some(CountsFormat::Qiskit), Wrapped::Braket(_)) => {
            return Err(CountsError::BraketFileAsQiskit)
        }
        (_, Wrapped::Braket(inner)) => (CountsFormat::Braket, inner),
        (Some(f), Wrapped::Plain(object)) => (f, object),
        (None, Wrapped::Plain(object)) => match detect(&object) {
            Some(f) => (f, object),
            None => {
                // A bad key is a problem in either order: report it before the ambiguity.
                read_object(text, &object, CountsFormat::Braket, width)?;
                return Err(CountsError::Ambiguous);
            }
        },
    };
    read_object(text, &object, format, width)
}

/// A top-level object as `qchess run --json` writes it, or not.
enum RunOutput {
    /// The object under `counts` of `qchess run --shots N --json`.
    Counts(Vec<(String, Json)>),
    /// Any other object, as read.
    Not(Vec<(String, Json)>),
}

/// `qchess run --shots N --json` output (`{"counts": {...}}`, its only member) gives its counts;
/// its output without `--shots` (`{"probabilities": {...}}`) holds no shots and is refused
/// (issue 30 item 8: both were read as a bit string named `counts` or `probabilities`).
fn run_output(mut members: Vec<(String, Json)>) -> Result<RunOutput, CountsError> {
    if let [(name, Json::Object(_))] = members.as_slice() {
        if name == "probabilities" {
            return Err(CountsError::Probabilities);
        }
        if name == "counts" {
            if let Some((_, Json::Object(inner))) = members.pop() {
                return Ok(RunOutput::Counts(inner));
            }
        }
    }
    Ok(RunOutput::Not(members))
}

/// The members of Braket's `GateModelQuantumTaskResult` that may stand beside
/// `measurement_counts` in a file that wraps it (they are not read).
const BRAKET_RESULT_MEMBERS: [&str; 11] = [
    "task_metadata",
    "additional_metadata",
    "result_types",
    "values",
    "measurements",
    "measured_qubits",
    "measurement_probabilities",
    "measurements_copied_from_device",
    "measurement_counts_copied_from_device",
    "measurement_probabilities_copied_from_device",
    "outputs",
];

/// A counts file's top-level object: the counts themselves, or Braket's wrapper around them.
enum Wrapped {
    /// Bit strings and counts.
    Plain(Vec<(String, Json)>),
    /// The object under `measurement_counts`.
    Braket(Vec<(String, Json)>),
}

/// The counts of a top-level object: Braket's `measurement_counts` when it has that member
/// (once, an object, beside nothing but Braket's own result members), else the object itself.
fn braket_counts(members: Vec<(String, Json)>) -> Result<Wrapped, CountsError> {
    if !members.iter().any(|(name, _)| name == "measurement_counts") {
        return Ok(Wrapped::Plain(members));
    }
    let mut counts = None;
    for (name, value) in members {
        match (name.as_str(), value) {
            ("measurement_counts", Json::Object(inner)) if counts.is_none() => counts = Some(inner),
            ("measurement_counts", Json::Object(_)) => {
                return Err(CountsError::RepeatedMember { name })
            }
            ("measurement_counts", Json::Other(_)) => return Err(CountsError::NotAnObject),
            (other, _) if BRAKET_RESULT_MEMBERS.contains(&other) => {}
            _ => return Err(CountsError::StrayMember { name }),
        }
    }
    Ok(Wrapped::Braket(counts.unwrap_or_default()))
}

/// Reads the bit strings and counts of a JSON object in `format`; a bit string written twice
/// adds up, as in CSV (issue 30 item 3: JSON kept the last).
fn read_object(
    text: &str,
    object: &[(String, Json)],
    format: CountsFormat,
    width: usize,
) -> Result<Counts, CountsError> {
    let mut counts = Counts::new(width);
    // The line is searched for only when a key is refused: searching it for every key made
    // reading quadratic in the number of keys (issue 30 item 11).
    let line = |key: &str| line_of(text, &format!("\"{key}\""));
    // A member holding an object means this is not a counts object at all (another tool's
    // output): say which formats are read rather than refuse its first key.
    if let Some((key, _)) = object.iter().find(|(_, v)| matches!(v, Json::Object(_))) {
        return Err(CountsError::NotCounts {
            member: key.clone(),
            line: line(key),
        });
    }
    for (key, value) in object {
        let count = value.as_u64().ok_or_else(|| CountsError::BadCount {
            key: key.clone(),
            line: line(key),
            value: value.to_string(),
        })?;
        let bits = parse_bits(key, format, width).map_err(|reason| CountsError::BadKey {
            key: key.clone(),
            line: line(key),
            reason,
        })?;
        counts.add(bits, count)?;
    }
    Ok(counts)
}

/// Qiskit when a key has a register separator or every key reads the same in both orders;
/// otherwise `None` (ambiguous).
fn detect(object: &[(String, Json)]) -> Option<CountsFormat> {
    let separated = object.iter().any(|(k, _)| k.contains(' '));
    let palindromes = object.iter().all(|(k, _)| k.chars().eq(k.chars().rev()));
    (separated || palindromes).then_some(CountsFormat::Qiskit)
}

/// Why a bit string was refused.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum KeyProblem {
    /// A character other than 0, 1 (and spaces in Qiskit keys).
    #[error("bad character {character:?} at position {position} (expected 0 or 1)")]
    BadCharacter {
        /// The character.
        character: char,
        /// 0-based position in the key.
        position: usize,
    },
    /// The number of bits differs from the program's `c`.
    #[error("{found} bit(s), but the program has {expected}")]
    WrongWidth {
        /// Bits in the key.
        found: usize,
        /// Width of `c`.
        expected: usize,
    },
}

/// Reads one bit string into values indexed by bit (`c[i]`).
fn parse_bits(key: &str, format: CountsFormat, width: usize) -> Result<Vec<bool>, KeyProblem> {
    let mut bits = Vec::with_capacity(width.min(key.len()));
    for (position, character) in key.chars().enumerate() {
        match character {
            '0' | '1' => bits.push(character == '1'),
            ' ' if format == CountsFormat::Qiskit => {}
            _ => {
                return Err(KeyProblem::BadCharacter {
                    character,
                    position,
                })
            }
        }
    }
    if bits.len() != width {
        return Err(KeyProblem::WrongWidth {
            found: bits.len(),
            expected: width,
        });
    }
    // Qiskit and CSV write c[0] rightmost, Braket leftmost.
    if format != CountsFormat::Braket {
        bits.reverse();
    }
    Ok(bits)
}

fn parse_csv(text: &str, width: usize) -> Result<Counts, CountsError> {
    let mut counts = Counts::new(width);
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let content = raw.trim();
        if content.is_empty() || content.starts_with('#') {
            continue;
        }
        let Some((key, count)) = content.split_once(',') else {
            return Err(CountsError::CsvLine { line });
        };
        let (key, count) = (key.trim(), count.trim());
        if counts.is_empty() && key == "bits" && count == "count" {
            continue;
        }
        let count: u64 = count.parse().map_err(|_| CountsError::BadCount {
            key: key.to_string(),
            line: Some(line),
            value: count.to_string(),
        })?;
        let bits =
            parse_bits(key, CountsFormat::Csv, width).map_err(|reason| CountsError::BadKey {
                key: key.to_string(),
                line: Some(line),
                reason,
            })?;
        counts.add(bits, count)?;
    }
    Ok(counts)
}

impl Counts {
    /// No outcomes yet, for a program with `width` bits.
    pub fn new(width: usize) -> Counts {
        Counts {
            width,
            outcomes: BTreeMap::new(),
            total: 0,
        }
    }

    /// True when no outcome was added.
    pub fn is_empty(&self) -> bool {
        self.outcomes.is_empty()
    }

    /// Adds `count` shots of `bits` (indexed by bit); repeated strings add up.
    pub fn add(&mut self, bits: Vec<bool>, count: u64) -> Result<(), CountsError> {
        self.total = self
            .total
            .checked_add(count)
            .ok_or(CountsError::TooManyShots)?;
        *self.outcomes.entry(bits).or_insert(0) += count;
        Ok(())
    }

    /// Total shots.
    pub fn shots(&self) -> u64 {
        self.total
    }
}
