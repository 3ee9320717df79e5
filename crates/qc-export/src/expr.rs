//! Angle expressions with named parameters (gate definitions): parse once, evaluate per call.

use std::collections::HashMap;

/// An angle expression.
#[derive(Clone, Debug, PartialEq)]
pub enum Expr {
    /// A number.
    Num(f64),
    /// A gate parameter.
    Var(String),
    /// Unary minus.
    Neg(Box<Expr>),
    /// Binary `+ - * /`.
    Bin(char, Box<Expr>, Box<Expr>),
    /// `sin cos tan sqrt exp ln arccos arcsin arctan`.
    Call(String, Box<Expr>),
}

impl Expr {
    /// Evaluates with parameter values.
    pub fn eval(&self, vars: &HashMap<String, f64>) -> Result<f64, String> {
        Ok(match self {
            Expr::Num(v) => *v,
            Expr::Var(name) => *vars
                .get(name)
                .ok_or_else(|| format!("unknown identifier `{name}` in an angle"))?,
            Expr::Neg(e) => -e.eval(vars)?,
            Expr::Bin(op, a, b) => {
                let (a, b) = (a.eval(vars)?, b.eval(vars)?);
                match op {
                    '+' => a + b,
                    '-' => a - b,
                    '*' => a * b,
                    _ => a / b,
                }
            }
            Expr::Call(f, e) => {
                let v = e.eval(vars)?;
                match f.as_str() {
                    "sin" => v.sin(),
                    "cos" => v.cos(),
                    "tan" => v.tan(),
                    "sqrt" => v.sqrt(),
                    "exp" => v.exp(),
                    "ln" => v.ln(),
                    "arccos" | "acos" => v.acos(),
                    "arcsin" | "asin" => v.asin(),
                    "arctan" | "atan" => v.atan(),
                    _ => return Err(format!("unknown function `{f}`")),
                }
            }
        })
    }
}

/// Parses an expression from text tokens (identifiers, numbers, `+-*/()`, `pi`, `π`, `tau`).
pub fn parse_expr(tokens: &[String]) -> Result<Expr, String> {
    let mut p = P { t: tokens, i: 0 };
    let e = p.sum()?;
    if p.i != tokens.len() {
        return Err(format!("unexpected `{}` in an angle", tokens[p.i]));
    }
    Ok(e)
}

struct P<'a> {
    t: &'a [String],
    i: usize,
}

impl P<'_> {
    fn peek(&self) -> Option<&str> {
        self.t.get(self.i).map(String::as_str)
    }
    fn sum(&mut self) -> Result<Expr, String> {
        let mut e = self.product()?;
        while let Some(op @ ("+" | "-")) = self.peek() {
            let c = op.chars().next().unwrap_or('+');
            self.i += 1;
            e = Expr::Bin(c, Box::new(e), Box::new(self.product()?));
        }
        Ok(e)
    }
    fn product(&mut self) -> Result<Expr, String> {
        let mut e = self.unary()?;
        while let Some(op @ ("*" | "/")) = self.peek() {
            let c = op.chars().next().unwrap_or('*');
            self.i += 1;
            e = Expr::Bin(c, Box::new(e), Box::new(self.unary()?));
        }
        Ok(e)
    }
    fn unary(&mut self) -> Result<Expr, String> {
        match self.peek() {
            Some("-") => {
                self.i += 1;
                Ok(Expr::Neg(Box::new(self.unary()?)))
            }
            Some("+") => {
                self.i += 1;
                self.unary()
            }
            _ => self.atom(),
        }
    }
    fn atom(&mut self) -> Result<Expr, String> {
        let tok = self.peek().ok_or("an angle ends too early")?.to_string();
        self.i += 1;
        if tok == "(" {
            let e = self.sum()?;
            if self.peek() != Some(")") {
                return Err("missing `)` in an angle".into());
            }
            self.i += 1;
            return Ok(e);
        }
        match tok.as_str() {
            "pi" | "π" => return Ok(Expr::Num(std::f64::consts::PI)),
            "tau" | "τ" => return Ok(Expr::Num(std::f64::consts::TAU)),
            "euler" | "ℇ" => return Ok(Expr::Num(std::f64::consts::E)),
            _ => {}
        }
        if tok.starts_with(|c: char| c.is_ascii_digit() || c == '.') {
            return tok
                .parse::<f64>()
                .map(Expr::Num)
                .map_err(|_| format!("`{tok}` is not a number"));
        }
        if self.peek() == Some("(") {
            self.i += 1;
            let e = self.sum()?;
            if self.peek() != Some(")") {
                return Err(format!("missing `)` after `{tok}(`"));
            }
            self.i += 1;
            return Ok(Expr::Call(tok, Box::new(e)));
        }
        Ok(Expr::Var(tok))
    }
}
