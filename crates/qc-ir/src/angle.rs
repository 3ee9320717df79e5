//! Angles as text: a printer that writes multiples of pi/8 as `pi/4`, `-3*pi/8`, ..., and a small
//! evaluator for angle expressions (`pi/2`, `-0.5`, `3*pi/4`, `(pi+1)/2`), shared by the IR text
//! parser and the OpenQASM importer.
//!
//! Invariant: `parse_angle(&format_angle(x)) == Ok(x)` bit for bit, for every finite `x`.

use std::f64::consts::PI;

/// Formats an angle so that [`parse_angle`] gives back exactly the same `f64`.
pub fn format_angle(value: f64) -> String {
    if value == 0.0 {
        return if value.is_sign_negative() {
            "-0.0".into()
        } else {
            "0".into()
        };
    }
    for denominator in [1i32, 2, 4, 8] {
        for numerator in -16i32..=16 {
            if numerator == 0 {
                continue;
            }
            // Same evaluation order as the parser: (k * pi) / d.
            let candidate = numerator as f64 * PI / denominator as f64;
            if candidate.to_bits() == value.to_bits() {
                let sign = if numerator < 0 { "-" } else { "" };
                let k = numerator.abs();
                let head = if k == 1 {
                    format!("{sign}pi")
                } else {
                    format!("{sign}{k}*pi")
                };
                return if denominator == 1 {
                    head
                } else {
                    format!("{head}/{denominator}")
                };
            }
        }
    }
    format!("{value:?}")
}

/// Evaluates an angle expression: numbers, `pi` (also `π`), unary minus, `+ - * /`, parentheses.
pub fn parse_angle(text: &str) -> Result<f64, String> {
    let tokens = tokenize(text)?;
    let mut parser = Parser {
        tokens: &tokens,
        pos: 0,
        depth: 0,
    };
    let value = parser.expr()?;
    if parser.pos != tokens.len() {
        return Err(format!(
            "unexpected `{}` in angle `{text}`",
            tokens[parser.pos].text()
        ));
    }
    if !value.is_finite() {
        return Err(format!("angle `{text}` is not a finite number"));
    }
    Ok(value)
}

#[derive(Clone, Debug, PartialEq)]
enum Token {
    Num(f64),
    Op(char),
}

impl Token {
    fn text(&self) -> String {
        match self {
            Token::Num(v) => format!("{v}"),
            Token::Op(c) => c.to_string(),
        }
    }
}

fn tokenize(text: &str) -> Result<Vec<Token>, String> {
    let mut tokens = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_whitespace() {
            i += 1;
        } else if "+-*/()".contains(c) {
            tokens.push(Token::Op(c));
            i += 1;
        } else if c == 'π' {
            tokens.push(Token::Num(PI));
            i += 1;
        } else if c.is_ascii_alphabetic() {
            let start = i;
            while i < chars.len() && chars[i].is_ascii_alphanumeric() {
                i += 1;
            }
            let word: String = chars[start..i].iter().collect();
            match word.as_str() {
                "pi" => tokens.push(Token::Num(PI)),
                _ => {
                    return Err(format!(
                        "unknown name `{word}` in angle `{text}` (only `pi` is known)"
                    ))
                }
            }
        } else if c.is_ascii_digit() || c == '.' {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_digit() || chars[i] == '.') {
                i += 1;
            }
            // Exponent: 1e-5, 2.5E+3.
            if i < chars.len() && (chars[i] == 'e' || chars[i] == 'E') {
                let mut j = i + 1;
                if j < chars.len() && (chars[j] == '+' || chars[j] == '-') {
                    j += 1;
                }
                if j < chars.len() && chars[j].is_ascii_digit() {
                    i = j;
                    while i < chars.len() && chars[i].is_ascii_digit() {
                        i += 1;
                    }
                }
            }
            let word: String = chars[start..i].iter().collect();
            let value: f64 = word
                .parse()
                .map_err(|_| format!("bad number `{word}` in angle `{text}`"))?;
            tokens.push(Token::Num(value));
        } else {
            return Err(format!("unexpected character `{c}` in angle `{text}`"));
        }
    }
    if tokens.is_empty() {
        return Err("empty angle".into());
    }
    Ok(tokens)
}

/// The deepest nesting of parentheses and unary signs an angle may have: the parser recurses once
/// per level, and a deeper input (tens of kilobytes of `(` or `-`) would overflow the stack.
pub const MAX_ANGLE_DEPTH: usize = 64;

struct Parser<'a> {
    tokens: &'a [Token],
    pos: usize,
    /// Current nesting (parentheses and unary signs), checked against [`MAX_ANGLE_DEPTH`].
    depth: usize,
}

impl Parser<'_> {
    /// Runs `inner` one nesting level deeper, or refuses when that is beyond the limit.
    fn nested(
        &mut self,
        inner: impl FnOnce(&mut Self) -> Result<f64, String>,
    ) -> Result<f64, String> {
        if self.depth >= MAX_ANGLE_DEPTH {
            return Err(format!(
                "angle nests parentheses and signs more than {MAX_ANGLE_DEPTH} deep (at token {})",
                self.pos + 1
            ));
        }
        self.depth += 1;
        let result = inner(self);
        self.depth -= 1;
        result
    }

    fn peek(&self) -> Option<&Token> {
        self.tokens.get(self.pos)
    }

    fn expr(&mut self) -> Result<f64, String> {
        let mut value = self.term()?;
        while let Some(Token::Op(op @ ('+' | '-'))) = self.peek().cloned() {
            self.pos += 1;
            let rhs = self.term()?;
            value = if op == '+' { value + rhs } else { value - rhs };
        }
        Ok(value)
    }

    fn term(&mut self) -> Result<f64, String> {
        let mut value = self.unary()?;
        while let Some(Token::Op(op @ ('*' | '/'))) = self.peek().cloned() {
            self.pos += 1;
            let rhs = self.unary()?;
            value = if op == '*' { value * rhs } else { value / rhs };
        }
        Ok(value)
    }

    fn unary(&mut self) -> Result<f64, String> {
        match self.peek() {
            Some(Token::Op('-')) => {
                self.pos += 1;
                Ok(-self.nested(Self::unary)?)
            }
            Some(Token::Op('+')) => {
                self.pos += 1;
                self.nested(Self::unary)
            }
            _ => self.atom(),
        }
    }

    fn atom(&mut self) -> Result<f64, String> {
        match self.peek().cloned() {
            Some(Token::Num(v)) => {
                self.pos += 1;
                Ok(v)
            }
            Some(Token::Op('(')) => {
                self.pos += 1;
                let v = self.nested(Self::expr)?;
                if self.peek() != Some(&Token::Op(')')) {
                    return Err("missing `)` in angle".into());
                }
                self.pos += 1;
                Ok(v)
            }
            Some(t) => Err(format!("unexpected `{}` in angle", t.text())),
            None => Err("angle ends too early".into()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn multiples_of_pi_print_symbolically_and_round_trip() {
        assert_eq!(format_angle(PI / 2.0), "pi/2");
        assert_eq!(format_angle(-PI / 4.0), "-pi/4");
        assert_eq!(format_angle(3.0 * PI / 8.0), "3*pi/8");
        assert_eq!(format_angle(PI), "pi");
        for x in [
            PI / 2.0,
            -PI / 4.0,
            3.0 * PI / 8.0,
            0.1,
            -1e-20,
            123.456,
            0.0,
            -0.0,
            2.0 * PI,
        ] {
            assert_eq!(
                parse_angle(&format_angle(x)).unwrap().to_bits(),
                x.to_bits(),
                "{x}"
            );
        }
    }

    #[test]
    fn expressions_evaluate() {
        assert_eq!(parse_angle("(pi + 1) / 2").unwrap(), (PI + 1.0) / 2.0);
        assert_eq!(parse_angle("-0.5").unwrap(), -0.5);
        assert_eq!(parse_angle("2e-3").unwrap(), 0.002);
        assert!(parse_angle("tau").is_err());
        assert!(parse_angle("pi/").is_err());
        assert!(parse_angle("1/0").is_err());
        assert!(parse_angle("").is_err());
    }

    #[test]
    fn nesting_is_limited_not_a_stack_overflow() {
        let at_limit = format!(
            "{}1{}",
            "(".repeat(MAX_ANGLE_DEPTH),
            ")".repeat(MAX_ANGLE_DEPTH)
        );
        assert_eq!(parse_angle(&at_limit).unwrap(), 1.0);
        let signs = format!("{}1", "-".repeat(MAX_ANGLE_DEPTH));
        assert_eq!(parse_angle(&signs).unwrap(), 1.0);
        for deep in [
            format!("{}1{}", "(".repeat(100_000), ")".repeat(100_000)),
            format!("{}1", "-".repeat(100_000)),
            format!("{}1", "+-".repeat(50_000)),
        ] {
            let err = parse_angle(&deep).unwrap_err();
            assert!(err.contains("more than 64 deep"), "{err}");
        }
    }
}
