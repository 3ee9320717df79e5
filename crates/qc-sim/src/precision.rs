//! The floating-point type of the dense simulator's amplitudes: complex128 (`f64`, the default)
//! or complex64 (`f32`, half the memory and memory traffic, about 7 significant digits, as qsim
//! runs). The kernels are written once over [`Real`]; [`Precision`] picks one at run time.

use num_complex::Complex;
use std::fmt;

/// A real type the dense kernels compute in (`f64` or `f32`). Gate matrices, fused blocks, the
/// global phase and every probability sum stay in `f64`; only the amplitudes and the arithmetic
/// on them use this type.
pub trait Real:
    num_traits::Float + num_traits::NumAssign + Default + Send + Sync + fmt::Debug + 'static
{
    /// How a user names this precision (`double`, `single`).
    const PRECISION: Precision;
    /// Weights `|a|^2` (and outcome probabilities, relative to their total) below this are zero:
    /// `qc_ir::IMPOSSIBLE_PROBABILITY` (1e-24) in double; 1e-10 in single, where rounding leaves
    /// amplitudes of about 1e-7 where exact arithmetic gives 0, and those must not read as
    /// possible outcomes or keep a qubit in the vector.
    const IMPOSSIBLE_PROBABILITY: f64;
    /// Rounds an `f64` to this type.
    fn from_f64(x: f64) -> Self;
    /// Widens to `f64` (exact).
    fn to_f64(self) -> f64;

    /// A complex128 value rounded to this precision.
    #[inline(always)]
    fn complex(z: qc_ir::Complex64) -> Complex<Self> {
        Complex::new(Self::from_f64(z.re), Self::from_f64(z.im))
    }

    /// A complex value of this precision, widened to complex128 (exact).
    #[inline(always)]
    fn widen(z: Complex<Self>) -> qc_ir::Complex64 {
        qc_ir::Complex64::new(z.re.to_f64(), z.im.to_f64())
    }

    /// `|z|^2` summed in `f64`, so that long sums of single-precision weights keep double
    /// precision.
    #[inline(always)]
    fn norm_sqr_f64(z: Complex<Self>) -> f64 {
        let (re, im) = (z.re.to_f64(), z.im.to_f64());
        re * re + im * im
    }
}

impl Real for f64 {
    const PRECISION: Precision = Precision::Double;
    const IMPOSSIBLE_PROBABILITY: f64 = qc_ir::IMPOSSIBLE_PROBABILITY;
    #[inline(always)]
    fn from_f64(x: f64) -> f64 {
        x
    }
    #[inline(always)]
    fn to_f64(self) -> f64 {
        self
    }
}

impl Real for f32 {
    const PRECISION: Precision = Precision::Single;
    const IMPOSSIBLE_PROBABILITY: f64 = 1e-10;
    #[inline(always)]
    fn from_f64(x: f64) -> f32 {
        // Rounding to the nearest f32 is the point of single precision.
        x as f32
    }
    #[inline(always)]
    fn to_f64(self) -> f64 {
        f64::from(self)
    }
}

/// The precision of the dense simulator's amplitudes, chosen at run time.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub enum Precision {
    /// complex128: 16 bytes per amplitude, about 16 significant digits (the default).
    #[default]
    Double,
    /// complex64: 8 bytes per amplitude, about 7 significant digits; probabilities agree with
    /// double precision to about 1e-6 on circuits of a few hundred gates.
    Single,
}

impl Precision {
    /// Bytes per complex amplitude.
    pub fn bytes_per_amplitude(self) -> usize {
        match self {
            Precision::Double => 16,
            Precision::Single => 8,
        }
    }
}

qc_ir::choice!(Precision, "precision", [
    "double" => Precision::Double, "complex128: about 16 significant digits (the default)",
    "single" => Precision::Single,
        "complex64 (dense only): half the memory and faster, about 7 significant digits; probabilities within about 1e-6 of double, and below 1e-10 read as 0",
]);

#[cfg(test)]
mod tests {
    use super::*;
    use qc_ir::Choice;

    #[test]
    fn names_parse_back_and_sizes_match_the_types() {
        for p in Precision::CHOICES.iter().map(|c| c.value) {
            assert_eq!(p.name().parse::<Precision>(), Ok(p));
        }
        assert!("half".parse::<Precision>().is_err());
        assert_eq!(
            Precision::Double.bytes_per_amplitude(),
            std::mem::size_of::<Complex<f64>>()
        );
        assert_eq!(
            Precision::Single.bytes_per_amplitude(),
            std::mem::size_of::<Complex<f32>>()
        );
        assert_eq!(<f32 as Real>::PRECISION, Precision::Single);
        // Rounding really happens in single precision.
        assert_ne!(f64::from(f32::from_f64(0.1)), 0.1);
    }
}
