//! What kind of file a text is, asked only after its reader refused it, so that every front end
//! can say which command or option reads it (`qchess simulate x.qasm` names `qchess run`; a
//! Niel's Chess game read as Cantwell's names `--rules niels`). A file a reader accepts is never
//! looked at here: a guess must not refuse a valid file.
//!
//! The two readers that ask are the one for circuits ([`crate::read_program`]) and the one for
//! game files (a [`crate::Session`] opening or loading a file). A circuit is recognised by what
//! it declares (an `OPENQASM` line, a `qcir` header) or by a circuit reader accepting it; a game
//! file by a ruleset's game reader accepting it, or by its extension (`.qng`); a counts file by
//! the counts reader accepting it.

use crate::counts::{parse_counts, CountsError, KeyProblem};
use crate::RulesKind;
use qc_export::{parse_circuit_as, CircuitFormat};
use qc_rules::Ruleset;
use thiserror::Error;

/// What a file is, or was read as.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum FileKind {
    /// A circuit in this format (what `qchess run` and `draw --circuit` read).
    Circuit(CircuitFormat),
    /// A circuit, format unsaid (what a circuit reader reads).
    AnyCircuit,
    /// A game file of this ruleset.
    Game(RulesKind),
    /// A device's counts (what `qchess counts` reads beside its program).
    Counts,
}

impl FileKind {
    /// The kind in words, with its article: "an OpenQASM 3 program", "a Niel's Chess game".
    pub fn describe(self) -> &'static str {
        match self {
            FileKind::Circuit(CircuitFormat::Qasm2) => "an OpenQASM 2 program",
            FileKind::Circuit(CircuitFormat::Qasm3) => "an OpenQASM 3 program",
            FileKind::Circuit(CircuitFormat::Ir) => "a circuit in qchess's IR text",
            FileKind::Circuit(CircuitFormat::Json) => "a circuit in IR JSON",
            FileKind::AnyCircuit => "a circuit",
            FileKind::Game(RulesKind::Cantwell) => "a Quantum Chess game",
            FileKind::Game(RulesKind::Niels) => "a Niel's Chess game",
            FileKind::Counts => "a counts file",
        }
    }
}

/// What reads a file of kind `found` that was read as `expected`, in the words of the command
/// line and of the Python package.
fn hint(found: FileKind, expected: FileKind) -> String {
    use qc_ir::Choice;
    let rules_option = |rules: RulesKind| {
        if rules == RulesKind::default() {
            String::new()
        } else {
            format!(" --rules {}", rules.name())
        }
    };
    match (found, expected) {
        (FileKind::Circuit(_) | FileKind::AnyCircuit, _) => {
            "use `qchess run` or `qchess draw --circuit` (Python: `qchess.Program.load`)".into()
        }
        (FileKind::Game(rules), FileKind::Game(_)) => format!(
            "use `--rules {name}`{default} (Python: `rules=\"{name}\"`)",
            name = rules.name(),
            default = if rules == RulesKind::default() {
                ", the default"
            } else {
                ""
            },
        ),
        (FileKind::Game(rules), _) => {
            let option = rules_option(rules);
            format!(
                "use `qchess simulate{option}` to play it, `qchess compile{option}` for its \
                 circuit (Python: `qchess.Game.load`)"
            )
        }
        (FileKind::Counts, _) => "counts are read with the program that made them: \
             `qchess counts PROGRAM COUNTS` (Python: `qchess.counts`)"
            .into(),
    }
}

/// A file read as one kind that is another: what it looks like, what reads it instead (a
/// command or option) and the reader's own error.
#[derive(Debug, Error)]
#[error(
    "looks like {}, not {}: {} (read as {}: {})",
    found.describe(),
    expected.describe(),
    hint(*found, *expected),
    expected.describe(),
    crate::error_chain(&**refused)
)]
pub struct WrongFileType {
    /// What the file looks like.
    pub found: FileKind,
    /// What it was read as.
    pub expected: FileKind,
    /// Why the reader refused it (its causes are in the message).
    pub refused: Box<dyn std::error::Error + Send + Sync + 'static>,
}

/// Why a counts file that a game reader accepted is not a game: a flat JSON object of counts
/// reads as one `{ comment }`, a game with no tags and no moves.
#[derive(Debug, Error)]
#[error("it is nothing but a `{{ comment }}`: no tags, no moves")]
pub struct OnlyAComment;

/// The circuit format `text` is in, if it is a circuit: it declares OpenQASM (even a broken
/// program: the declaration says what was meant), starts with IR text's `qcir` header, or the
/// IR text or IR JSON reader accepts it.
pub fn circuit_kind(text: &str) -> Option<CircuitFormat> {
    match CircuitFormat::declared(text) {
        Some(format @ (CircuitFormat::Qasm2 | CircuitFormat::Qasm3)) => return Some(format),
        // A `{` first is also how a game file's comment starts: JSON only when it reads.
        Some(CircuitFormat::Json) => {
            return parse_circuit_as(CircuitFormat::Json, text)
                .is_ok()
                .then_some(CircuitFormat::Json)
        }
        Some(CircuitFormat::Ir) | None => {}
    }
    let first = text
        .lines()
        .map(|l| l.split('#').next().unwrap_or("").trim())
        .find(|l| !l.is_empty());
    let has_header = first.is_some_and(|l| l.split_whitespace().next() == Some("qcir"));
    (has_header || parse_circuit_as(CircuitFormat::Ir, text).is_ok()).then_some(CircuitFormat::Ir)
}

/// Whether `text` is a counts file: the counts reader accepts it with the width of its bit
/// strings (learnt from the reader's own refusal at width 0), in any of its formats.
pub fn is_counts(text: &str) -> bool {
    let width = match parse_counts(text, None, 0) {
        Err(CountsError::BadKey {
            reason: KeyProblem::WrongWidth { found, .. },
            ..
        }) => found,
        _ => return false,
    };
    matches!(
        parse_counts(text, None, width),
        Ok(_) | Err(CountsError::Ambiguous)
    )
}

/// The ruleset other than `refused_by` whose game files `name` (a path) or `text` is: the one
/// whose reader accepts it (with rule options `options`, or the file's own), else the one whose
/// files have the path's extension.
pub fn other_game_kind(
    name: &str,
    text: &str,
    options: Option<&str>,
    refused_by: RulesKind,
) -> Option<RulesKind> {
    use qc_ir::Choice;
    let others = || {
        RulesKind::CHOICES
            .iter()
            .map(|c| c.value)
            .filter(move |&kind| kind != refused_by)
    };
    let reads = |kind: RulesKind| {
        crate::with_ruleset!(kind, |R| {
            R::read_game(text, options).is_ok()
                || (options.is_some() && R::read_game(text, None).is_ok())
        })
    };
    others()
        .find(|&kind| reads(kind))
        .or_else(|| RulesKind::of_extension(name).filter(|&kind| kind != refused_by))
}

/// What a game file `name` with text `text`, which ruleset `rules` refused (with `options`),
/// is instead, if anything: counts, a circuit, or a game of another ruleset. Counts are asked
/// first: a JSON object of counts also reads as a game (one `{ comment }`).
pub fn not_a_game(
    name: &str,
    text: &str,
    options: Option<&str>,
    rules: RulesKind,
) -> Option<FileKind> {
    if is_counts(text) {
        return Some(FileKind::Counts);
    }
    circuit_kind(text)
        .map(FileKind::Circuit)
        .or_else(|| other_game_kind(name, text, options, rules).map(FileKind::Game))
}

/// What a circuit file with text `text`, which the circuit reader refused, is instead, if
/// anything: counts (asked first, as in [`not_a_game`]), or a game of a ruleset (read with the
/// file's own rule options).
pub fn not_a_circuit(text: &str) -> Option<FileKind> {
    use qc_ir::Choice;
    if is_counts(text) {
        return Some(FileKind::Counts);
    }
    RulesKind::CHOICES
        .iter()
        .map(|c| c.value)
        .find(|&kind| crate::with_ruleset!(kind, |R| R::read_game(text, None).is_ok()))
        .map(FileKind::Game)
}

#[cfg(test)]
mod tests {
    use super::*;

    const GAME: &str = "[Event \"x\"]\n1. e2^e3e4 *\n";
    const NIELS: &str =
        "[Variant \"simplified\"]\n[FEN \"7k/8/8/5P2/8/8/8/K7 w - - 0 1 rd4e6\"]\n1. f5e6[e6]\n";

    #[test]
    fn circuits_are_told_by_declaration_header_or_reader() {
        assert_eq!(
            circuit_kind("// c\nOPENQASM 2.0;\nbroken"),
            Some(CircuitFormat::Qasm2)
        );
        assert_eq!(circuit_kind("OPENQASM 3;"), Some(CircuitFormat::Qasm3));
        assert_eq!(
            circuit_kind("# c\nqcir 1\nnot an instruction"),
            Some(CircuitFormat::Ir)
        );
        assert_eq!(circuit_kind("qubits q0\nh q0\n"), Some(CircuitFormat::Ir));
        assert_eq!(circuit_kind(GAME), None);
        // A game file may open with a `{ comment }`: not JSON.
        assert_eq!(circuit_kind("{ a comment }\n1. e2e4 *\n"), None);
        assert_eq!(circuit_kind("{\"0001\": 5}"), None);
    }

    #[test]
    fn games_are_told_by_the_ruleset_that_reads_them_or_their_extension() {
        assert_eq!(
            other_game_kind("x", NIELS, None, RulesKind::Cantwell),
            Some(RulesKind::Niels)
        );
        assert_eq!(other_game_kind("x", NIELS, None, RulesKind::Niels), None);
        assert_eq!(
            other_game_kind("x", GAME, None, RulesKind::Niels),
            Some(RulesKind::Cantwell)
        );
        // A broken Niel's Chess file is still one by its extension.
        assert_eq!(
            other_game_kind("x.QNG", "1. zz *", None, RulesKind::Cantwell),
            Some(RulesKind::Niels)
        );
        assert_eq!(
            other_game_kind("x", "OPENQASM 3;\nqubit q;", None, RulesKind::Niels),
            None
        );
    }

    #[test]
    fn counts_are_told_by_the_counts_reader() {
        assert!(is_counts("{\"0001\": 737, \"0010\": 248}"));
        assert!(is_counts("{\"counts\": {\"01 1\": 3}}"));
        assert!(is_counts("bits,count\n0110,5\n"));
        assert!(!is_counts("{\"0001\": \"x\"}"));
        assert!(!is_counts(GAME));
        assert!(!is_counts("qubits q0\nh q0\n"));
        assert_eq!(not_a_circuit("0110,5\n"), Some(FileKind::Counts));
        assert_eq!(
            not_a_game("x", "0110,5\n", None, RulesKind::Cantwell),
            Some(FileKind::Counts)
        );
    }
}
