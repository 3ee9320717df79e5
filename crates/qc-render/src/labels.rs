//! The text on a drawing's gate boxes: the gate table's name (`Gate::name`, the same name the IR
//! text, the exporters and `docs/gates.md` use) and its angles written for reading.
//!
//! An angle that is a multiple of pi/d for a small d (1, 2, 3, 4, 6, 8, 12, 16) up to the last
//! few bits prints as that multiple (`pi/2`, `-pi/4`, `3*pi/4`, `2*pi/3`): a game computes its
//! angles (Niel's `2 asin(sqrt p)`), so pi/2 often arrives one bit away from `FRAC_PI_2`, and a
//! reader wants `pi/2`, not `1.5707963267948968`. Any other angle prints as a decimal rounded
//! to four places. (The IR text keeps exact angles; a drawing is for reading.)

use qc_ir::{Gate, UserGate};
use std::f64::consts::PI;

/// Denominators tried, smallest first, so that `pi/2` wins over `2*pi/4`.
const DENOMINATORS: [i64; 8] = [1, 2, 3, 4, 6, 8, 12, 16];

/// How far (in radians, relative to the angle's size when above 1) an angle may be from
/// `k*pi/d` and still print as it: a few bits of rounding, far below any decimal a person
/// would type (0.785 is 4e-4 away from pi/4 and prints as a decimal).
const TOLERANCE: f64 = 1e-9;

/// An angle as a drawing shows it: `pi/2`, `-3*pi/4`, `0`, or a decimal such as `1.231`.
pub fn angle_label(value: f64) -> String {
    if !value.is_finite() {
        return format!("{value}");
    }
    if value == 0.0 {
        return "0".into();
    }
    let tolerance = TOLERANCE * value.abs().max(1.0);
    for d in DENOMINATORS {
        let k = (value * d as f64 / PI).round();
        // Only small multiples: a huge k would match almost anything to within the tolerance.
        if k == 0.0 || k.abs() > (64 * d) as f64 {
            continue;
        }
        if (value - k * PI / d as f64).abs() <= tolerance {
            return pi_multiple(k as i64, d);
        }
    }
    decimal(value)
}

/// `k*pi/d` in the IR's spelling (`pi`, `-pi/4`, `3*pi/8`, `2*pi`).
fn pi_multiple(k: i64, d: i64) -> String {
    let sign = if k < 0 { "-" } else { "" };
    let head = match k.abs() {
        1 => format!("{sign}pi"),
        n => format!("{sign}{n}*pi"),
    };
    if d == 1 {
        head
    } else {
        format!("{head}/{d}")
    }
}

/// Four decimal places without trailing zeros; scientific notation for angles that would round
/// to zero, so that a small angle never reads as no angle.
fn decimal(value: f64) -> String {
    let fixed = format!("{value:.4}");
    let trimmed = fixed.trim_end_matches('0').trim_end_matches('.');
    if trimmed == "0" || trimmed == "-0" {
        format!("{value:.2e}")
    } else {
        trimmed.to_string()
    }
}

/// A gate box's text: the table's name, then its angles (`ry(pi/2)`, `rz(-0.3)`, `siswap`).
pub fn gate_label(gate: &Gate) -> String {
    named_label(gate.name(), &gate.params())
}

/// A user gate box's text: the program's name for it, then the call's angles (`g2(pi/4)`).
pub fn user_gate_label(gate: &UserGate) -> String {
    named_label(gate.name(), gate.params())
}

/// `name`, or `name(a, b)` with each angle as [`angle_label`] writes it.
fn named_label(name: &str, params: &[f64]) -> String {
    if params.is_empty() {
        return name.to_string();
    }
    let angles: Vec<String> = params.iter().map(|&p| angle_label(p)).collect();
    format!("{name}({})", angles.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::f64::consts::{FRAC_PI_2, FRAC_PI_4};

    #[test]
    fn a_user_gate_box_names_the_gate_and_its_angles() {
        let body = vec![
            Gate::Ry(FRAC_PI_2).on(&[qc_ir::Qubit(0)]),
            qc_ir::Instruction::gate(
                Gate::X,
                &[qc_ir::Qubit(1)],
                &[qc_ir::Control::when(qc_ir::Qubit(0), true)],
            ),
        ];
        let g = UserGate::new("g2", 2, body).expect("a good gate");
        assert_eq!(user_gate_label(&g), "g2");
        let g = g.with_params(&[FRAC_PI_2, -0.3]);
        assert_eq!(user_gate_label(&g), "g2(pi/2, -0.3)");
    }

    /// Hand-computed cases: the value, and what a reader should see.
    #[test]
    fn angles_print_as_multiples_of_pi_where_exact() {
        let cases: &[(f64, &str)] = &[
            (0.0, "0"),
            (PI, "pi"),
            (-PI, "-pi"),
            (FRAC_PI_2, "pi/2"),
            (-FRAC_PI_4, "-pi/4"),
            (3.0 * PI / 4.0, "3*pi/4"),
            (2.0 * PI, "2*pi"),
            (PI / 3.0, "pi/3"),
            (-2.0 * PI / 3.0, "-2*pi/3"),
            (5.0 * PI / 6.0, "5*pi/6"),
            (PI / 8.0, "pi/8"),
            (7.0 * PI / 12.0, "7*pi/12"),
            (-PI / 16.0, "-pi/16"),
            // Niel's equal pair: 2 asin(sqrt(1/2)) is one bit above FRAC_PI_2.
            (2.0 * 0.5f64.sqrt().asin(), "pi/2"),
            (1.5707963267948968, "pi/2"),
            // 2 asin(sqrt(1/3)) = 1.2309594... is no small multiple of pi.
            (2.0 * (1.0f64 / 3.0).sqrt().asin(), "1.231"),
            (0.5, "0.5"),
            (-0.3, "-0.3"),
            // A typed decimal near pi/4 stays a decimal.
            (0.785, "0.785"),
            (1.0, "1"),
            (1e-7, "1.00e-7"),
            (-2.5e-5, "-2.50e-5"),
            (100.0, "100"),
        ];
        for &(value, expected) in cases {
            assert_eq!(angle_label(value), expected, "angle {value:?}");
        }
    }

    #[test]
    fn gate_labels_use_the_table_name() {
        assert_eq!(gate_label(&Gate::SqrtISwap), "siswap");
        assert_eq!(gate_label(&Gate::SqrtISwapDg), "siswapdg");
        assert_eq!(gate_label(&Gate::Ry(FRAC_PI_2)), "ry(pi/2)");
        assert_eq!(gate_label(&Gate::Rz(-0.25)), "rz(-0.25)");
    }
}
