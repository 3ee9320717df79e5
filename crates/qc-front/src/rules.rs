//! The rulesets a front end can play, chosen by name at run time: the one place a ruleset is
//! registered. A new ruleset (its engine folder in qc-rules implementing `qc_rules::Ruleset`) is
//! one entry here: a [`RulesKind`] variant with its row of the name table, its arm of
//! [`with_ruleset!`](crate::with_ruleset) and how its errors classify ([`Classify`]). Every
//! front end (the command line, UQCI, the Python package, the web server) reaches the rulesets
//! through this registry, by way of [`Session`](crate::Session).

use qc_rules::niels::NielsError;
use qc_rules::ruleset::CantwellError;

/// A ruleset, as `--rules`, `Game(rules=...)` and the web API name it.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum RulesKind {
    /// Cantwell's Quantum Chess (`qc_rules::Cantwell`).
    #[default]
    Cantwell,
    /// Niel's Chess (`qc_rules::Niels`).
    Niels,
}

qc_ir::choice!(RulesKind, "rules", [
    "cantwell" => RulesKind::Cantwell, "Cantwell's Quantum Chess (QCAN moves, docs/notation.md)",
    "niels" => RulesKind::Niels, "Niel's Chess, \"piece in a box\" (docs/niels.md)",
]);

/// A ruleset is written as its name (`"niels"`), as the web API's JSON takes it.
impl serde::Serialize for RulesKind {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(qc_ir::Choice::name(*self))
    }
}

/// Read from its name; any other word is refused with the names there are.
impl<'de> serde::Deserialize<'de> for RulesKind {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let word = <std::borrow::Cow<'de, str>>::deserialize(deserializer)?;
        <RulesKind as qc_ir::Choice>::parse_choice(&word).map_err(serde::de::Error::custom)
    }
}

impl RulesKind {
    /// The ruleset's notation by example: (move, what it means), for a front end's help.
    pub fn notation_examples(self) -> &'static [(&'static str, &'static str)] {
        use qc_rules::Ruleset;
        crate::with_ruleset!(self, |R| R::NOTATION_EXAMPLES)
    }

    /// The title a menu shows (`Quantum Chess (Cantwell)`).
    pub fn menu_title(self) -> &'static str {
        use qc_rules::Ruleset;
        crate::with_ruleset!(self, |R| R::MENU_TITLE)
    }

    /// The rule options, `(name, what it does)`, as `--variant` takes them (none for a ruleset
    /// without options).
    pub fn rule_options(self) -> &'static [(&'static str, &'static str)] {
        use qc_rules::Ruleset;
        crate::with_ruleset!(self, |R| R::RULE_OPTIONS)
    }

    /// The ruleset of the game file `path` with text `text`: the one whose game files have the
    /// path's extension (`.qcg`, `.qng`, any case), else the one its tags name (a `Variant` tag
    /// is Niel's Chess's rule options, which Quantum Chess has none of), else Quantum Chess.
    /// Only the tag lines before the first move are looked at, read as every ruleset reads them
    /// ([`qc_rules::ruleset::leading_tags`]; a malformed one names no ruleset).
    pub fn of_game_file(path: &str, text: &str) -> RulesKind {
        RulesKind::of_extension(path).unwrap_or_else(|| {
            let leading = qc_rules::ruleset::leading_tags(text);
            if leading.flatten().any(|tag| tag.name == "Variant") {
                RulesKind::Niels
            } else {
                RulesKind::Cantwell
            }
        })
    }
}

impl RulesKind {
    /// The ruleset whose game files have the extension of `path` (`.qcg`, `.qng`, any case).
    pub fn of_extension(path: &str) -> Option<RulesKind> {
        use qc_ir::Choice;
        use qc_rules::Ruleset;
        let extension = std::path::Path::new(path)
            .extension()
            .and_then(|e| e.to_str())?;
        RulesKind::CHOICES.iter().map(|c| c.value).find(|&kind| {
            crate::with_ruleset!(kind, |R| R::GAME_FILE_EXTENSION).eq_ignore_ascii_case(extension)
        })
    }

    /// The ruleset `R` is (by its name, [`qc_rules::Ruleset::NAME`]).
    pub fn of<R: qc_rules::Ruleset>() -> RulesKind {
        use qc_ir::Choice;
        use qc_rules::Ruleset;
        RulesKind::CHOICES
            .iter()
            .map(|c| c.value)
            .find(|&kind| crate::with_ruleset!(kind, |S| S::NAME) == R::NAME)
            .unwrap_or_default()
    }
}

/// Runs `$body` with the type `$rules` bound to the ruleset `$kind` (a [`RulesKind`]) names
/// (`qc_rules::Cantwell`, ...): the body is compiled once per ruleset.
#[macro_export]
macro_rules! with_ruleset {
    ($kind:expr, |$rules:ident| $body:expr) => {
        match $kind {
            $crate::RulesKind::Cantwell => {
                #[allow(dead_code, reason = "not every body names the ruleset")]
                type $rules = $crate::rules_crate::Cantwell;
                $body
            }
            $crate::RulesKind::Niels => {
                #[allow(dead_code, reason = "not every body names the ruleset")]
                type $rules = $crate::rules_crate::Niels;
                $body
            }
        }
    };
}

/// What kind of mistake a ruleset's error reports, for a front end that answers each kind
/// differently (the Python package raises one exception class per kind).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// A move, a position (FEN), a square or a game file that does not parse.
    Notation,
    /// A move (or an undo, a claim) the rules refuse in the current position.
    Illegal,
    /// Rule options the ruleset does not have.
    Option,
    /// The simulator failed (e.g. its memory limit).
    Simulation,
}

/// How a ruleset's error classifies ([`ErrorKind`]).
pub trait Classify: std::error::Error {
    /// The kind of mistake.
    fn kind(&self) -> ErrorKind;

    /// Where in a game file the mistake is, `(line, column)` (1-based), when the error is about
    /// a place in one: a front end reports it as fields (Python's exception attributes).
    fn place(&self) -> Option<(usize, usize)> {
        None
    }
}

/// An outcome of the wrong shape for the ruleset does not fit its notation.
impl Classify for qc_rules::OutcomeShapeError {
    fn kind(&self) -> ErrorKind {
        ErrorKind::Notation
    }
}

impl Classify for CantwellError {
    fn kind(&self) -> ErrorKind {
        match self {
            CantwellError::Notation(_) | CantwellError::BadTag { .. } => ErrorKind::Notation,
            CantwellError::Move(
                qc_rules::MoveError::Backend(_) | qc_rules::MoveError::Memory(_),
            ) => ErrorKind::Simulation,
            CantwellError::Move(_)
            | CantwellError::RecordedClaim { .. }
            | CantwellError::ResultContradicts(_) => ErrorKind::Illegal,
            CantwellError::NoOptions(_) => ErrorKind::Option,
        }
    }

    fn place(&self) -> Option<(usize, usize)> {
        match self {
            CantwellError::Notation(qc_rules::NotationError::GameFile { line, column, .. }) => {
                Some((*line, *column))
            }
            _ => None,
        }
    }
}

impl Classify for NielsError {
    fn kind(&self) -> ErrorKind {
        match self {
            NielsError::Fen { .. }
            | NielsError::Notation { .. }
            | NielsError::RollsInBareMove { .. }
            | NielsError::GameFile { .. }
            | NielsError::BadMove { .. } => ErrorKind::Notation,
            NielsError::UnknownOption { .. } => ErrorKind::Option,
            NielsError::Illegal { .. }
            | NielsError::BadOutcome { .. }
            | NielsError::OutcomeCount { .. }
            | NielsError::GameOver(_)
            | NielsError::ResultContradicts(_)
            | NielsError::NothingToUndo
            | NielsError::UndoBeyondBudget { .. } => ErrorKind::Illegal,
            NielsError::Backend { .. } | NielsError::Memory(_) | NielsError::Internal(_) => {
                ErrorKind::Simulation
            }
        }
    }

    fn place(&self) -> Option<(usize, usize)> {
        match self {
            NielsError::GameFile { line, column, .. } => Some((*line, *column)),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use qc_ir::Choice;
    use qc_rules::Ruleset;

    #[test]
    fn every_name_is_its_rulesets_own_and_others_are_refused() {
        for kind in RulesKind::CHOICES.iter().map(|c| c.value) {
            let name = crate::with_ruleset!(kind, |R| R::NAME);
            assert_eq!(kind.name(), name);
            assert_eq!(name.parse::<RulesKind>(), Ok(kind));
        }
        for kind in RulesKind::CHOICES.iter().map(|c| c.value) {
            let json = serde_json::to_string(&kind).unwrap();
            assert_eq!(json, format!("\"{}\"", kind.name()));
            assert_eq!(serde_json::from_str::<RulesKind>(&json).unwrap(), kind);
        }
        let err = serde_json::from_str::<RulesKind>("\"chess\"").unwrap_err();
        assert!(
            err.to_string()
                .starts_with("unknown rules `chess` (expected one of: cantwell, niels)"),
            "{err}"
        );
        let err = "fischer".parse::<RulesKind>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown rules `fischer` (expected one of: cantwell, niels)"
        );
    }

    #[test]
    fn a_game_files_ruleset_is_its_extension_else_its_tags() {
        let niels_tags = "; a comment\n[Event \"x\"]\n\n[Variant \"full\"]\n1. e2e4\n";
        let plain = "[Event \"x\"]\n1. e2e4 [Variant]\n";
        assert_eq!(RulesKind::of_game_file("a.qng", plain), RulesKind::Niels);
        assert_eq!(RulesKind::of_game_file("dir/A.QNG", ""), RulesKind::Niels);
        assert_eq!(
            RulesKind::of_game_file("a.qcg", niels_tags),
            RulesKind::Cantwell
        );
        assert_eq!(
            RulesKind::of_game_file("a.txt", niels_tags),
            RulesKind::Niels
        );
        assert_eq!(RulesKind::of_game_file("a.txt", plain), RulesKind::Cantwell);
        assert_eq!(RulesKind::of_game_file("game", ""), RulesKind::Cantwell);
        // The tags are read as the game readers read them: an escaped quote and a `]` in a
        // value, no space before the value, a malformed tag line (names nothing) before it.
        let escaped = "[Event \"a \\\"b]\\\" c\"]\n[Site x]\n[Variant\"full\"]\n1. e2e4\n";
        assert_eq!(RulesKind::of_game_file("a.txt", escaped), RulesKind::Niels);
        let malformed = "[Variant full]\n1. e2e4\n";
        assert_eq!(
            RulesKind::of_game_file("a.txt", malformed),
            RulesKind::Cantwell
        );
    }
}
