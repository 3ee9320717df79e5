//! The classical guard of an instruction: a conjunction of bit conditions.
//!
//! One condition (`if c3==1: ...`) is what games emit. A register comparison of an imported
//! program (`if (c == 2)` on a 2-bit register, bit 0 the least significant as Qiskit reads it)
//! is one condition per bit, all of which must hold: `if c0==0 && c1==1: ...`. A disjunction (the
//! `else` of such a comparison, `!=`) is not a guard: an importer writes it as several
//! instructions under disjoint guards.

use crate::ids::Clbit;
use crate::instruction::Condition;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::sync::Arc;
use thiserror::Error;

/// When an instruction runs: every one of its conditions holds. At least one condition, on
/// distinct bits, kept in bit order (so two guards that test the same values are equal).
/// Copies share the list of a guard on several bits (an importer puts one guard on every
/// instruction of an `if` body).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Guard(Repr);

/// One condition inline (what games emit: no allocation), several shared.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
enum Repr {
    One(Condition),
    /// At least two, in bit order, on distinct bits.
    All(Arc<[Condition]>),
}

/// Why a list of conditions is not a guard.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Error)]
pub enum GuardError {
    /// No condition at all (an instruction without a guard has none, not an empty one).
    #[error("a condition needs at least one bit")]
    Empty,
    /// One bit required to hold both values: the conjunction never holds.
    #[error("the condition requires {clbit} to be both 0 and 1")]
    Contradiction {
        /// The bit.
        clbit: Clbit,
    },
}

impl Guard {
    /// The conjunction of `conditions` (any order; a condition given twice counts once).
    ///
    /// # Errors
    /// [`GuardError::Empty`] for no condition, [`GuardError::Contradiction`] when one bit must
    /// hold both values.
    pub fn all(conditions: impl IntoIterator<Item = Condition>) -> Result<Guard, GuardError> {
        let mut list: Vec<Condition> = conditions.into_iter().collect();
        list.sort_by_key(|c| (c.clbit, c.value));
        list.dedup();
        if let Some(pair) = list.windows(2).find(|w| w[0].clbit == w[1].clbit) {
            return Err(GuardError::Contradiction {
                clbit: pair[0].clbit,
            });
        }
        match list.as_slice() {
            [] => Err(GuardError::Empty),
            [one] => Ok(Guard(Repr::One(*one))),
            _ => Ok(Guard(Repr::All(list.into()))),
        }
    }

    /// Both guards at once.
    ///
    /// # Errors
    /// [`GuardError::Contradiction`] when they require different values of one bit.
    pub fn and(&self, other: &Guard) -> Result<Guard, GuardError> {
        Guard::all(self.conditions().iter().chain(other.conditions()).copied())
    }

    /// The conditions, in bit order.
    pub fn conditions(&self) -> &[Condition] {
        match &self.0 {
            Repr::One(one) => std::slice::from_ref(one),
            Repr::All(all) => all,
        }
    }

    /// The condition when the guard tests one bit (`None` for several).
    pub fn single(&self) -> Option<Condition> {
        match &self.0 {
            Repr::One(one) => Some(*one),
            Repr::All(_) => None,
        }
    }

    /// The bits the guard reads, in order.
    pub fn clbits(&self) -> impl Iterator<Item = Clbit> + '_ {
        self.conditions().iter().map(|c| c.clbit)
    }

    /// Whether the guard holds when bit `b` has the value `value_of(b)`.
    pub fn holds(&self, value_of: impl Fn(Clbit) -> bool) -> bool {
        self.conditions()
            .iter()
            .all(|c| value_of(c.clbit) == c.value)
    }
}

impl From<Condition> for Guard {
    fn from(condition: Condition) -> Guard {
        Guard(Repr::One(condition))
    }
}

/// The JSON form: one condition as the object it always was (`{"clbit": 3, "value": true}`),
/// so circuits of games read and write as before; several as an array of them.
#[derive(Serialize, Deserialize)]
#[serde(untagged)]
enum GuardForm {
    One(Condition),
    All(Vec<Condition>),
}

impl Serialize for Guard {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.single() {
            Some(one) => GuardForm::One(one),
            None => GuardForm::All(self.conditions().to_vec()),
        }
        .serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Guard {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Guard, D::Error> {
        match GuardForm::deserialize(deserializer)? {
            GuardForm::One(one) => Ok(Guard::from(one)),
            GuardForm::All(list) => Guard::all(list).map_err(serde::de::Error::custom),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn on(clbit: u32, value: bool) -> Condition {
        Condition {
            clbit: Clbit(clbit),
            value,
        }
    }

    #[test]
    fn conditions_are_kept_in_bit_order_once_each() {
        let g = Guard::all([on(2, true), on(0, false), on(2, true)]).expect("a guard");
        assert_eq!(g.conditions(), &[on(0, false), on(2, true)]);
        assert_eq!(g, Guard::all([on(0, false), on(2, true)]).expect("a guard"));
        assert_eq!(g.single(), None);
        assert_eq!(Guard::from(on(1, true)).single(), Some(on(1, true)));
    }

    #[test]
    fn empty_and_contradictory_lists_are_refused() {
        assert_eq!(Guard::all([]), Err(GuardError::Empty));
        assert_eq!(
            Guard::all([on(1, true), on(1, false)]),
            Err(GuardError::Contradiction { clbit: Clbit(1) })
        );
        let a = Guard::from(on(0, true));
        assert!(a.and(&Guard::from(on(0, false))).is_err());
        assert_eq!(
            a.and(&Guard::from(on(1, false)))
                .expect("a guard")
                .conditions(),
            &[on(0, true), on(1, false)]
        );
    }

    #[test]
    fn holds_only_when_every_bit_has_its_value() {
        // c == 2 on a 2-bit register: c0 = 0, c1 = 1.
        let g = Guard::all([on(0, false), on(1, true)]).expect("a guard");
        for value in 0..4u32 {
            let bit = |b: Clbit| value >> b.0 & 1 == 1;
            assert_eq!(g.holds(bit), value == 2, "c = {value}");
        }
    }

    #[test]
    fn json_keeps_the_one_bit_form_and_checks_lists() {
        let one = Guard::from(on(3, true));
        let text = serde_json::to_string(&one).expect("json");
        assert_eq!(text, r#"{"clbit":3,"value":true}"#);
        assert_eq!(serde_json::from_str::<Guard>(&text).expect("reads"), one);
        let two = Guard::all([on(1, true), on(0, false)]).expect("a guard");
        let text = serde_json::to_string(&two).expect("json");
        assert_eq!(
            text,
            r#"[{"clbit":0,"value":false},{"clbit":1,"value":true}]"#
        );
        assert_eq!(serde_json::from_str::<Guard>(&text).expect("reads"), two);
        for bad in [
            "[]",
            r#"[{"clbit":0,"value":false},{"clbit":0,"value":true}]"#,
        ] {
            assert!(serde_json::from_str::<Guard>(bad).is_err(), "{bad}");
        }
    }
}
