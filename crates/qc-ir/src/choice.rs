//! Option values chosen by name (`--backend dense`, `--form deferred`, `precision="single"`):
//! one table per option type ([`Choice::CHOICES`]: the word, the value, a line of help) serves
//! parsing, printing and the front ends' lists of possible values, so that no option keeps a
//! second list of its names. It lives at the bottom of the workspace so that every crate's option
//! types (simulators, precisions, export forms) share it; the command line builds its parsers
//! from the same tables.

use thiserror::Error;

/// One spelling of an option value.
#[derive(Debug)]
pub struct Named<T: 'static> {
    /// The word a user writes.
    pub name: &'static str,
    /// The value it stands for.
    pub value: T,
    /// What it means, in one line (shown in `--help`).
    pub help: &'static str,
}

/// An option type whose values are chosen by name.
pub trait Choice: Copy + PartialEq + Sized + 'static {
    /// What the option chooses, for error messages (`form`, `backend`, ...).
    const WHAT: &'static str;
    /// Every value with its word and help, in the order front ends list them.
    const CHOICES: &'static [Named<Self>];

    /// The word for this value.
    fn name(self) -> &'static str {
        Self::CHOICES
            .iter()
            .find(|c| c.value == self)
            .map_or("", |c| c.name)
    }

    /// Every word, in order.
    fn names() -> Vec<&'static str> {
        Self::CHOICES.iter().map(|c| c.name).collect()
    }

    /// The value named `word`.
    ///
    /// # Errors
    /// [`UnknownChoice`] naming the option, the word and every word it takes.
    fn parse_choice(word: &str) -> Result<Self, UnknownChoice> {
        Self::CHOICES
            .iter()
            .find(|c| c.name == word)
            .map(|c| c.value)
            .ok_or_else(|| UnknownChoice {
                what: Self::WHAT,
                given: word.to_string(),
                expected: Self::names(),
                list: false,
            })
    }
}

/// A word that names none of the choices of an option (`--form sideways`): which option, the
/// word, and the choices (the `FromStr` error of every [`Choice`] type).
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[error("unknown {what} `{given}` (expected {}{})", if *.list { "a comma-separated list of: " } else { "one of: " }, .expected.join(", "))]
pub struct UnknownChoice {
    /// What the option chooses (`form`, `counts format`, ...).
    pub what: &'static str,
    /// The word given.
    pub given: String,
    /// The words accepted.
    pub expected: Vec<&'static str>,
    /// True when the option takes a comma-separated list of the choices.
    pub list: bool,
}

/// Implements [`Choice`] for `$ty` from a table of `"word" => value, "help"` rows, with
/// `FromStr` (error [`UnknownChoice`]) and `Display` (the word) from the same table.
#[macro_export]
macro_rules! choice {
    ($ty:ty, $what:literal, [$($name:literal => $value:expr, $help:literal),+ $(,)?]) => {
        impl $crate::choice::Choice for $ty {
            const WHAT: &'static str = $what;
            const CHOICES: &'static [$crate::choice::Named<Self>] = &[
                $($crate::choice::Named { name: $name, value: $value, help: $help }),+
            ];
        }

        impl ::std::str::FromStr for $ty {
            type Err = $crate::choice::UnknownChoice;
            fn from_str(word: &str) -> Result<Self, Self::Err> {
                <$ty as $crate::choice::Choice>::parse_choice(word)
            }
        }

        impl ::std::fmt::Display for $ty {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str($crate::choice::Choice::name(*self))
            }
        }
    };
}

#[cfg(test)]
mod tests {
    #[derive(Copy, Clone, Debug, PartialEq)]
    enum Colour {
        Red,
        Blue,
    }

    crate::choice!(Colour, "colour", [
        "red" => Colour::Red, "warm",
        "blue" => Colour::Blue, "cold",
    ]);

    #[test]
    fn words_parse_print_and_refuse_from_one_table() {
        assert_eq!("blue".parse::<Colour>(), Ok(Colour::Blue));
        assert_eq!(Colour::Red.to_string(), "red");
        let err = "green".parse::<Colour>().unwrap_err();
        assert_eq!(
            err.to_string(),
            "unknown colour `green` (expected one of: red, blue)"
        );
    }
}
