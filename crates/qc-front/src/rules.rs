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

impl RulesKind {
    /// The ruleset's notation by example: (move, what it means), for a front end's help.
    pub fn notation_examples(self) -> &'static [(&'static str, &'static str)] {
        use qc_rules::Ruleset;
        crate::with_ruleset!(self, |R| R::NOTATION_EXAMPLES)
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
}

impl Classify for CantwellError {
    fn kind(&self) -> ErrorKind {
        match self {
            CantwellError::Notation(_) | CantwellError::BadTag { .. } => ErrorKind::Notation,
            CantwellError::Move(_) | CantwellError::RecordedClaim { .. } => ErrorKind::Illegal,
            CantwellError::NoOptions(_) => ErrorKind::Option,
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
            | NielsError::NothingToUndo
            | NielsError::UndoBeyondBudget { .. } => ErrorKind::Illegal,
            NielsError::Backend { .. } | NielsError::Internal(_) => ErrorKind::Simulation,
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
        let err = "fischer".parse::<RulesKind>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown rules `fischer` (expected one of: cantwell, niels)"
        );
    }
}
