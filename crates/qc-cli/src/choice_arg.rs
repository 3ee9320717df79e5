//! Command-line parsers for the libraries' option types ([`qc_ir::Choice`]): the possible values
//! `--help` lists (with their help lines) and the words accepted come from the type's own table,
//! so the command line keeps no second list of names or mirror enums.

use clap::builder::{PossibleValue, PossibleValuesParser, TypedValueParser};
use clap::error::ErrorKind;
use qc_ir::Choice;
use std::ffi::OsStr;
use std::marker::PhantomData;

/// The clap parser of option type `T` (`#[arg(value_parser = choice::<T>())]`).
pub fn choice<T: Choice>() -> ChoiceParser<T> {
    ChoiceParser(PhantomData)
}

/// Parses a word of `T`'s table; an unknown word is clap's usual "invalid value" error, listing
/// the possible values.
#[derive(Copy, Clone, Debug)]
pub struct ChoiceParser<T>(PhantomData<T>);

/// `T`'s words with their help lines, in the table's order.
fn possible_values<T: Choice>() -> impl Iterator<Item = PossibleValue> {
    T::CHOICES
        .iter()
        .map(|c| PossibleValue::new(c.name).help(c.help))
}

impl<T: Choice + Send + Sync> TypedValueParser for ChoiceParser<T> {
    type Value = T;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &OsStr,
    ) -> Result<T, clap::Error> {
        // clap's own check gives its usual message; the table then maps the word it accepted.
        let word = PossibleValuesParser::new(possible_values::<T>()).parse_ref(cmd, arg, value)?;
        T::parse_choice(&word)
            .map_err(|e| clap::Error::raw(ErrorKind::InvalidValue, e).with_cmd(cmd))
    }

    fn possible_values(&self) -> Option<Box<dyn Iterator<Item = PossibleValue> + '_>> {
        Some(Box::new(possible_values::<T>()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use qc_front::BackendKind;

    fn command() -> clap::Command {
        clap::Command::new("t").arg(
            clap::Arg::new("backend")
                .long("backend")
                .value_parser(choice::<BackendKind>()),
        )
    }

    #[test]
    fn the_possible_values_are_the_table_and_parse_to_its_values() {
        let arg = command();
        let arg = arg.get_arguments().next().expect("one argument");
        let names: Vec<String> = arg
            .get_possible_values()
            .iter()
            .map(|v| v.get_name().to_string())
            .collect();
        assert_eq!(names, ["sparse", "dense", "reference"]);
        let matches = command()
            .try_get_matches_from(["t", "--backend", "dense"])
            .expect("dense is a backend");
        assert_eq!(
            matches.get_one::<BackendKind>("backend"),
            Some(&BackendKind::Dense)
        );
    }

    #[test]
    fn an_unknown_word_is_refused_naming_the_choices() {
        let err = command()
            .try_get_matches_from(["t", "--backend", "qulacs"])
            .expect_err("qulacs is not a backend");
        assert_eq!(err.kind(), ErrorKind::InvalidValue);
        let text = err.to_string();
        assert!(
            text.contains("qulacs") && text.contains("sparse, dense, reference"),
            "{text}"
        );
    }
}
