//! Angles as text: a printer that writes multiples of pi/8 as `pi/4`, `-3*pi/8`, ..., and the one
//! angle-expression parser of the workspace (`pi/2`, `-0.5`, `3*pi/4`, `(pi+1)/2`, `sin(theta)/2`),
//! shared by the IR text reader and the OpenQASM 2 reader (the OpenQASM 3 reader evaluates the
//! expression trees of `oq3_semantics` instead).
//!
//! Expressions are parsed once into an [`AngleExpr`] (named parameters stay symbolic, so a gate
//! definition's body is parsed once and evaluated per call) and evaluated in source order, left to
//! right, so a decimal or `k*pi/d` angle comes back bit for bit.
//!
//! Invariant: `parse_angle(&format_angle(x)) == Ok(x)` bit for bit, for every finite `x`.
//!
//! The parser recurses on parentheses, unary signs and function calls, and evaluation recurses
//! on the tree, so the tree's depth is limited to [`MAX_ANGLE_DEPTH`]: deeper input is an error
//! naming the character where the limit was passed, never a stack overflow.

use std::f64::consts::PI;
use thiserror::Error;

/// The deepest expression tree accepted (nested parentheses, unary signs, function calls and
/// chained binary operators all count one level each).
pub const MAX_ANGLE_DEPTH: usize = 64;

/// Why an angle expression was refused. `at` is the 0-based character offset in the expression
/// text where the problem was found.
#[derive(Debug, Error, Clone, PartialEq)]
#[non_exhaustive]
pub enum AngleError {
    /// Nothing to parse.
    #[error("empty angle")]
    Empty,
    /// A character that cannot start a token.
    #[error("unexpected character `{ch}` in an angle")]
    UnexpectedChar {
        /// The character.
        ch: char,
        /// Its offset.
        at: usize,
    },
    /// A token where another was expected.
    #[error("unexpected `{token}` in an angle")]
    UnexpectedToken {
        /// The token text.
        token: String,
        /// Its offset.
        at: usize,
    },
    /// A malformed number.
    #[error("bad number `{text}` in an angle")]
    BadNumber {
        /// The text.
        text: String,
        /// Its offset.
        at: usize,
    },
    /// A `(` without its `)`.
    #[error("missing `)` in an angle")]
    MissingParen {
        /// Where the `)` was expected.
        at: usize,
    },
    /// The text ends in the middle of an expression.
    #[error("an angle ends too early")]
    EndsEarly,
    /// A call of a function that is not one of OpenQASM's.
    #[error("unknown function `{name}` in an angle")]
    UnknownFunction {
        /// The name.
        name: String,
        /// Its offset.
        at: usize,
    },
    /// A name with no value (only `pi` and, in gate bodies, the gate's parameters are known).
    #[error("unknown name `{name}` in an angle (only `pi` and gate parameters are known)")]
    UnknownName {
        /// The name.
        name: String,
    },
    /// The expression nests deeper than [`MAX_ANGLE_DEPTH`].
    #[error("angle expression nested deeper than {limit} levels")]
    TooDeep {
        /// The limit.
        limit: usize,
        /// Offset where the limit was passed.
        at: usize,
    },
    /// The value is infinite or not a number (`1/0`, `ln(0)`, an overflowing literal).
    #[error("angle is not a finite number")]
    NotFinite,
}

impl AngleError {
    /// The character offset of the problem within the expression text, when known.
    pub fn offset(&self) -> Option<usize> {
        match self {
            AngleError::UnexpectedChar { at, .. }
            | AngleError::UnexpectedToken { at, .. }
            | AngleError::BadNumber { at, .. }
            | AngleError::MissingParen { at }
            | AngleError::UnknownFunction { at, .. }
            | AngleError::TooDeep { at, .. } => Some(*at),
            _ => None,
        }
    }
}

/// A binary operator.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum BinOp {
    /// `+`.
    Add,
    /// `-`.
    Sub,
    /// `*`.
    Mul,
    /// `/`.
    Div,
}

/// A function of OpenQASM 2's expression grammar.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Func {
    /// `sin`.
    Sin,
    /// `cos`.
    Cos,
    /// `tan`.
    Tan,
    /// `exp`.
    Exp,
    /// `ln`.
    Ln,
    /// `sqrt`.
    Sqrt,
}

impl Func {
    fn from_name(name: &str) -> Option<Func> {
        Some(match name {
            "sin" => Func::Sin,
            "cos" => Func::Cos,
            "tan" => Func::Tan,
            "exp" => Func::Exp,
            "ln" => Func::Ln,
            "sqrt" => Func::Sqrt,
            _ => return None,
        })
    }

    fn apply(self, x: f64) -> f64 {
        match self {
            Func::Sin => x.sin(),
            Func::Cos => x.cos(),
            Func::Tan => x.tan(),
            Func::Exp => x.exp(),
            Func::Ln => x.ln(),
            Func::Sqrt => x.sqrt(),
        }
    }
}

/// A parsed angle expression; names other than `pi` stay symbolic until [`AngleExpr::eval`].
#[derive(Clone, Debug, PartialEq)]
pub enum AngleExpr {
    /// A number (`pi` is parsed to its value).
    Num(f64),
    /// A named parameter.
    Var(String),
    /// Unary minus.
    Neg(Box<AngleExpr>),
    /// A binary operation.
    Bin(BinOp, Box<AngleExpr>, Box<AngleExpr>),
    /// A function call.
    Call(Func, Box<AngleExpr>),
}

impl AngleExpr {
    /// Parses `text`; see the module docs for the grammar and the depth limit.
    pub fn parse(text: &str) -> Result<AngleExpr, AngleError> {
        let tokens = tokenize(text)?;
        let mut parser = Parser {
            tokens: &tokens,
            pos: 0,
            end: text.chars().count(),
        };
        let (expr, _) = parser.sum(0)?;
        if let Some(t) = tokens.get(parser.pos) {
            return Err(AngleError::UnexpectedToken {
                token: t.kind.text(),
                at: t.at,
            });
        }
        Ok(expr)
    }

    /// The value, with `var` giving each named parameter's value (`None`: unknown name). The
    /// tree's depth is bounded by the parser, so this recursion is too.
    pub fn eval(&self, var: &dyn Fn(&str) -> Option<f64>) -> Result<f64, AngleError> {
        Ok(match self {
            AngleExpr::Num(v) => *v,
            AngleExpr::Var(name) => {
                var(name).ok_or_else(|| AngleError::UnknownName { name: name.clone() })?
            }
            AngleExpr::Neg(e) => -e.eval(var)?,
            AngleExpr::Bin(op, a, b) => {
                let (a, b) = (a.eval(var)?, b.eval(var)?);
                match op {
                    BinOp::Add => a + b,
                    BinOp::Sub => a - b,
                    BinOp::Mul => a * b,
                    BinOp::Div => a / b,
                }
            }
            AngleExpr::Call(f, e) => f.apply(e.eval(var)?),
        })
    }

    /// The value of an expression with no named parameters; refuses non-finite values.
    pub fn value(&self) -> Result<f64, AngleError> {
        let v = self.eval(&|_| None)?;
        if v.is_finite() {
            Ok(v)
        } else {
            Err(AngleError::NotFinite)
        }
    }
}

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

/// Evaluates a constant angle expression: numbers, `pi` (also `π`), unary signs, `+ - * /`,
/// parentheses and OpenQASM 2's functions (`sin cos tan exp ln sqrt`). The value must be finite.
pub fn parse_angle(text: &str) -> Result<f64, AngleError> {
    AngleExpr::parse(text)?.value()
}

#[derive(Clone, Debug, PartialEq)]
enum Kind {
    Num(f64),
    Name(String),
    Op(char),
}

impl Kind {
    fn text(&self) -> String {
        match self {
            Kind::Num(v) => format!("{v}"),
            Kind::Name(n) => n.clone(),
            Kind::Op(c) => c.to_string(),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
struct Token {
    kind: Kind,
    at: usize,
}

fn tokenize(text: &str) -> Result<Vec<Token>, AngleError> {
    let mut tokens = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        let at = i;
        if c.is_whitespace() {
            i += 1;
        } else if "+-*/()".contains(c) {
            tokens.push(Token {
                kind: Kind::Op(c),
                at,
            });
            i += 1;
        } else if c == 'π' {
            tokens.push(Token {
                kind: Kind::Num(PI),
                at,
            });
            i += 1;
        } else if c.is_ascii_alphabetic() || c == '_' {
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '_') {
                i += 1;
            }
            let word: String = chars[at..i].iter().collect();
            let kind = if word == "pi" {
                Kind::Num(PI)
            } else {
                Kind::Name(word)
            };
            tokens.push(Token { kind, at });
        } else if c.is_ascii_digit() || c == '.' {
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
            let word: String = chars[at..i].iter().collect();
            let value: f64 = word
                .parse()
                .map_err(|_| AngleError::BadNumber { text: word, at })?;
            tokens.push(Token {
                kind: Kind::Num(value),
                at,
            });
        } else {
            return Err(AngleError::UnexpectedChar { ch: c, at });
        }
    }
    if tokens.is_empty() {
        return Err(AngleError::Empty);
    }
    Ok(tokens)
}

struct Parser<'a> {
    tokens: &'a [Token],
    pos: usize,
    /// Offset of the end of the text (for errors at the end).
    end: usize,
}

/// A parsed subtree with its depth.
type Sub = (AngleExpr, usize);

impl Parser<'_> {
    fn peek(&self) -> Option<&Kind> {
        self.tokens.get(self.pos).map(|t| &t.kind)
    }

    fn here(&self) -> usize {
        self.tokens.get(self.pos).map_or(self.end, |t| t.at)
    }

    /// Refuses a subtree deeper than the limit (checked before recursing and after combining).
    fn check(&self, depth: usize) -> Result<usize, AngleError> {
        if depth > MAX_ANGLE_DEPTH {
            Err(AngleError::TooDeep {
                limit: MAX_ANGLE_DEPTH,
                at: self.here(),
            })
        } else {
            Ok(depth)
        }
    }

    fn sum(&mut self, level: usize) -> Result<Sub, AngleError> {
        let (mut expr, mut depth) = self.product(level)?;
        while let Some(Kind::Op(c @ ('+' | '-'))) = self.peek().cloned() {
            self.pos += 1;
            let (rhs, d) = self.product(level)?;
            let op = if c == '+' { BinOp::Add } else { BinOp::Sub };
            depth = self.check(depth.max(d) + 1)?;
            expr = AngleExpr::Bin(op, Box::new(expr), Box::new(rhs));
        }
        Ok((expr, depth))
    }

    fn product(&mut self, level: usize) -> Result<Sub, AngleError> {
        let (mut expr, mut depth) = self.unary(level)?;
        while let Some(Kind::Op(c @ ('*' | '/'))) = self.peek().cloned() {
            self.pos += 1;
            let (rhs, d) = self.unary(level)?;
            let op = if c == '*' { BinOp::Mul } else { BinOp::Div };
            depth = self.check(depth.max(d) + 1)?;
            expr = AngleExpr::Bin(op, Box::new(expr), Box::new(rhs));
        }
        Ok((expr, depth))
    }

    fn unary(&mut self, level: usize) -> Result<Sub, AngleError> {
        self.check(level + 1)?;
        match self.peek() {
            Some(Kind::Op('-')) => {
                self.pos += 1;
                let (e, d) = self.unary(level + 1)?;
                Ok((AngleExpr::Neg(Box::new(e)), self.check(d + 1)?))
            }
            Some(Kind::Op('+')) => {
                self.pos += 1;
                self.unary(level + 1)
            }
            _ => self.atom(level),
        }
    }

    fn close(&mut self) -> Result<(), AngleError> {
        if self.peek() != Some(&Kind::Op(')')) {
            return Err(AngleError::MissingParen { at: self.here() });
        }
        self.pos += 1;
        Ok(())
    }

    fn atom(&mut self, level: usize) -> Result<Sub, AngleError> {
        let at = self.here();
        match self.peek().cloned() {
            Some(Kind::Num(v)) => {
                self.pos += 1;
                Ok((AngleExpr::Num(v), 1))
            }
            Some(Kind::Op('(')) => {
                self.pos += 1;
                self.check(level + 1)?;
                let sub = self.sum(level + 1)?;
                self.close()?;
                Ok(sub)
            }
            Some(Kind::Name(name)) => {
                self.pos += 1;
                if self.peek() != Some(&Kind::Op('(')) {
                    return Ok((AngleExpr::Var(name), 1));
                }
                let func = Func::from_name(&name).ok_or(AngleError::UnknownFunction {
                    name: name.clone(),
                    at,
                })?;
                self.pos += 1;
                self.check(level + 1)?;
                let (arg, d) = self.sum(level + 1)?;
                self.close()?;
                Ok((AngleExpr::Call(func, Box::new(arg)), self.check(d + 1)?))
            }
            Some(other) => Err(AngleError::UnexpectedToken {
                token: other.text(),
                at,
            }),
            None => Err(AngleError::EndsEarly),
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
        assert_eq!(parse_angle("sin(pi/2)*2").unwrap(), 2.0);
        assert_eq!(parse_angle("sqrt(4) - ln(1)").unwrap(), 2.0);
        assert!(matches!(
            parse_angle("tau"),
            Err(AngleError::UnknownName { .. })
        ));
        assert!(matches!(
            parse_angle("foo(1)"),
            Err(AngleError::UnknownFunction { at: 0, .. })
        ));
        assert!(parse_angle("pi/").is_err());
        assert_eq!(parse_angle("1/0"), Err(AngleError::NotFinite));
        assert_eq!(parse_angle(""), Err(AngleError::Empty));
        assert_eq!(parse_angle("(1"), Err(AngleError::MissingParen { at: 2 }));
    }

    #[test]
    fn parameters_stay_symbolic_until_evaluated() {
        let e = AngleExpr::parse("-theta/2 + phi").unwrap();
        let v = e
            .eval(&|n| match n {
                "theta" => Some(1.0),
                "phi" => Some(0.25),
                _ => None,
            })
            .unwrap();
        assert_eq!(v, -0.5 + 0.25);
        assert_eq!(
            e.value(),
            Err(AngleError::UnknownName {
                name: "theta".into()
            })
        );
    }

    #[test]
    fn deep_input_is_refused_with_its_position() {
        // Far deeper than any stack could take if the parser had no limit.
        for text in [
            format!("{}1{}", "(".repeat(100_000), ")".repeat(100_000)),
            format!("{}1", "-".repeat(100_000)),
            format!("{}1{}", "sin(".repeat(100_000), ")".repeat(100_000)),
            vec!["1"; 100_000].join("+"),
        ] {
            match parse_angle(&text) {
                Err(AngleError::TooDeep { limit, at }) => {
                    assert_eq!(limit, MAX_ANGLE_DEPTH);
                    assert!(at > 0 && at < text.len(), "{at}");
                }
                other => panic!("{other:?} for {}", &text[..20]),
            }
        }
        // Just inside the limit is fine.
        let ok = format!("{}1{}", "(".repeat(40), ")".repeat(40));
        assert_eq!(parse_angle(&ok), Ok(1.0));
        let ok = vec!["1"; 60].join("+");
        assert_eq!(parse_angle(&ok), Ok(60.0));
    }
}
