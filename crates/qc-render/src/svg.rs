//! What both SVG renderers write the same way: escaped text and numbers without float noise.

use std::fmt;

/// Escapes text for XML (element text and attribute values).
pub fn xml_escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A coordinate or length as an SVG attribute writes it: rounded to hundredths of a pixel, without
/// trailing zeros (`8364.8`, not `8364.800000000005`; `60`, not `60.0`), never `-0`.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Num(pub f64);

impl fmt::Display for Num {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let rounded = (self.0 * 100.0).round() / 100.0;
        let text = format!("{rounded:.2}");
        let text = text.trim_end_matches('0').trim_end_matches('.');
        f.write_str(if text == "-0" { "0" } else { text })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_have_no_float_noise() {
        let cases: &[(f64, &str)] = &[
            (8364.800000000005, "8364.8"),
            (60.0, "60"),
            (0.1 + 0.2, "0.3"),
            (-0.001, "0"),
            (-12.346, "-12.35"),
            (1e-12, "0"),
            (3190.0, "3190"),
        ];
        for &(x, want) in cases {
            assert_eq!(Num(x).to_string(), want, "{x}");
        }
        assert_eq!(xml_escape("a<b & \"c\">"), "a&lt;b &amp; &quot;c&quot;&gt;");
    }
}
