//! The dynamical-decoupling sequences, as data: a target file names its default
//! (`dd = "xy4"`, checked when the file is read), `qchess compile --dd` chooses one, and the
//! pass that fills a device program's idle windows with them (`qc_sim::noise::dd`, which needs
//! the calibration's durations) reads the same value.

use serde::{Deserialize, Serialize};

/// A dynamical-decoupling sequence.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum DdSequence {
    /// No decoupling.
    None,
    /// Two X pulses.
    Xx,
    /// X, Y, X, Y.
    Xy4,
}

crate::choice!(DdSequence, "dynamical decoupling", [
    "none" => DdSequence::None, "no pulses",
    "xx" => DdSequence::Xx, "X, X spaced 1/4, 1/2, 1/4 of the free time",
    "xy4" => DdSequence::Xy4, "X, Y, X, Y spaced 1/8, 1/4, 1/4, 1/4, 1/8",
]);

impl TryFrom<String> for DdSequence {
    type Error = crate::UnknownChoice;
    fn try_from(word: String) -> Result<DdSequence, crate::UnknownChoice> {
        use crate::Choice;
        DdSequence::parse_choice(&word)
    }
}

impl From<DdSequence> for String {
    fn from(dd: DdSequence) -> String {
        use crate::Choice;
        dd.name().to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sequences_are_read_by_name_and_unknown_ones_listed() {
        for dd in [DdSequence::None, DdSequence::Xx, DdSequence::Xy4] {
            assert_eq!(DdSequence::try_from(String::from(dd)), Ok(dd));
        }
        let err = DdSequence::try_from("xy8".to_string()).expect_err("unknown");
        let message = err.to_string();
        assert!(
            message.contains("xy8") && message.contains("none, xx, xy4"),
            "{message}"
        );
    }
}
