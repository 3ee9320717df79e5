//! The conditions of an imported program as the IR holds them: an `if` reads bits, and the IR's
//! [`Guard`] is a conjunction of bit values, so every condition becomes a list of disjoint
//! guards (its [`Cases`]) and each statement it governs is written once per case.
//!
//! A register comparison `c == v` (the register as an unsigned integer, bit 0 the least
//! significant, as Qiskit reads it) is one guard with a condition per bit. Its negation (`!=`,
//! `else`, `if (c)` on a register, which is `c != 0`) is a disjunction, written as the disjoint
//! cases "bit 0 differs", "bit 0 agrees and bit 1 differs", ... (one per bit), so that exactly
//! one case holds whenever the comparison fails. A bit no measurement has written yet reads 0
//! (as in Qiskit): its test is decided at the `if`, not left to the guard.

use qc_ir::{Clbit, Condition, Guard};

/// Register comparisons read at most this many bits (the negation of one is written as this
/// many cases).
pub const MAX_CONDITION_BITS: usize = 64;

/// Nested conditions multiply their cases; a statement is written at most this many times.
pub const MAX_CASES: usize = 4096;

/// A condition as an `if` reads it, with the bits as they stand there.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Test {
    /// It never holds (the statement it governs is read and checked, never written).
    Never,
    /// It always holds.
    Always,
    /// It holds when the guard does.
    When(Guard),
}

impl Test {
    /// The bits `bits` (flat indices, least significant first) read as an unsigned integer
    /// equal `value`; `written(b)` says whether a measurement so far writes bit `b` (one that
    /// does not reads 0). The caller bounds `bits` by [`MAX_CONDITION_BITS`].
    pub fn equals(bits: &[usize], value: u128, written: impl Fn(usize) -> bool) -> Test {
        if bits.len() < 128 && value >> bits.len() != 0 {
            return Test::Never;
        }
        let mut tests = Vec::new();
        for (k, &bit) in bits.iter().enumerate() {
            let want = k < 128 && value >> k & 1 == 1;
            if written(bit) {
                tests.push(Condition {
                    clbit: Clbit(bit as u32),
                    value: want,
                });
            } else if want {
                return Test::Never;
            }
        }
        // Distinct bits of one register: never contradictory; none left means always.
        Guard::all(tests).map_or(Test::Always, Test::When)
    }

    /// The cases in which it holds.
    pub fn cases(&self) -> Cases {
        match self {
            Test::Never => Cases(Vec::new()),
            Test::Always => Cases::always(),
            Test::When(g) => Cases(vec![Some(g.clone())]),
        }
    }

    /// The cases in which it fails: disjoint, one per bit of its guard (see the module docs).
    pub fn negated(&self) -> Cases {
        match self {
            Test::Never => Cases::always(),
            Test::Always => Cases(Vec::new()),
            Test::When(g) => {
                let conditions = g.conditions();
                let cases = (0..conditions.len()).map(|k| {
                    let differs = Condition {
                        value: !conditions[k].value,
                        ..conditions[k]
                    };
                    let agree = conditions[..k].iter().copied();
                    // Distinct bits: never contradictory, never empty.
                    Guard::all(agree.chain([differs])).ok()
                });
                Cases(cases.collect())
            }
        }
    }
}

/// Disjoint guards, at most one of which holds in any run; a statement under them is written
/// once per case. `None` is the case without a condition.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Cases(Vec<Option<Guard>>);

/// Nested conditions with more than [`MAX_CASES`] cases.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TooManyCases;

impl Cases {
    /// One case, without a condition (a statement outside any `if`).
    pub fn always() -> Cases {
        Cases(vec![None])
    }

    /// Both at once: every pair of cases that can hold together.
    ///
    /// # Errors
    /// More than [`MAX_CASES`] cases.
    pub fn and(&self, other: &Cases) -> Result<Cases, TooManyCases> {
        let mut out = Vec::new();
        for a in &self.0 {
            for b in &other.0 {
                let both = match (a, b) {
                    (None, g) | (g, None) => g.clone(),
                    (Some(a), Some(b)) => match a.and(b) {
                        Ok(g) => Some(g),
                        // They exclude each other: no case.
                        Err(_) => continue,
                    },
                };
                if out.len() == MAX_CASES {
                    return Err(TooManyCases);
                }
                out.push(both);
            }
        }
        Ok(Cases(out))
    }

    /// The cases' guards (`None`: no condition).
    pub fn iter(&self) -> impl Iterator<Item = Option<&Guard>> {
        self.0.iter().map(Option::as_ref)
    }

    /// How many cases.
    pub fn len(&self) -> usize {
        self.0.len()
    }

    /// True when the statement is never written.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every value of a 3-bit register against every comparison: the guard of `c == v` holds
    /// exactly for `v`, and exactly one case of the negation holds for every other value.
    #[test]
    fn a_comparison_and_its_negation_cover_every_value_once() {
        let bits = [4, 5, 6];
        for v in 0..10u128 {
            let test = Test::equals(&bits, v, |_| true);
            for c in 0..8u32 {
                let value = |b: Clbit| c >> (b.0 - 4) & 1 == 1;
                let holds = match &test {
                    Test::Never => false,
                    Test::Always => true,
                    Test::When(g) => g.holds(value),
                };
                assert_eq!(holds, u128::from(c) == v, "c = {c}, v = {v}");
                let failing = test
                    .negated()
                    .iter()
                    .filter(|g| g.is_none_or(|g| g.holds(value)))
                    .count();
                assert_eq!(failing, usize::from(u128::from(c) != v), "c = {c}, v = {v}");
            }
        }
    }

    #[test]
    fn a_bit_never_measured_reads_zero() {
        let measured = |b: usize| b == 0;
        // c[1] was never written: c == 1 tests c[0] alone, c == 2 and c == 3 never hold.
        let one = Test::equals(&[0, 1], 1, measured);
        let Test::When(g) = &one else {
            panic!("c == 1 is a test of c[0]: {one:?}")
        };
        assert_eq!(g.conditions().len(), 1);
        assert_eq!(Test::equals(&[0, 1], 2, measured), Test::Never);
        assert_eq!(Test::equals(&[1], 0, measured), Test::Always);
        assert_eq!(Test::Always.negated().len(), 0);
        assert_eq!(Test::Never.negated(), Cases::always());
    }

    #[test]
    fn nested_cases_multiply_and_drop_exclusive_pairs() {
        let outer = Test::equals(&[0], 1, |_| true).cases();
        let inner = Test::equals(&[0, 1], 3, |_| true).negated();
        // Inner: c0 = 0, or c0 = 1 and c1 = 0; under c0 = 1 only the second is left.
        let both = outer.and(&inner).expect("few cases");
        assert_eq!(both.len(), 1);
        assert_eq!(Cases::always().and(&inner).expect("few cases"), inner);
        let wide = Test::equals(&(0..64).collect::<Vec<_>>(), 0, |_| true).negated();
        let twice = wide.and(&wide).expect("64 x 64 cases, most exclusive");
        assert_eq!(twice, wide);
    }
}
