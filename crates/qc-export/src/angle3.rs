//! OpenQASM 3's typing of the angle expressions the importer evaluates.
//!
//! An integer literal is an `int`, and so is `-`, `+`, `-` or `*` or `/` of two integers: `1/2`
//! is `0` and `ry(1/2*pi)` applies `ry(0)`, as the specification types it and Qiskit's importer
//! computes it. Where the specification leaves room the importer follows Qiskit's: integer
//! division rounds toward minus infinity (`-3/2` is `-2`, `-(3/2)` is `-1`), a division by zero
//! is an error, and so is an integer result beyond `i128` (Qiskit's integers are unbounded).
//! Everything else is a `float`: float literals, the constants `pi`/`π`, `tau`/`τ`, `euler`/`ℇ`,
//! a gate's parameters, and any operation with a float operand. A gate parameter named like a
//! constant (`gate g(pi) a { ry(pi) a; }`) is the parameter inside its gate.
//!
//! The variable of an enclosing `for` loop is an integer with the iteration's value (its type is
//! `int` or `uint`), so `rz(i * pi / 4)` and `q[2 * i + 1]` are read here too ([`integer`]).
//!
//! Integer subexpressions are folded to their value here, so the [`AngleExpr`] handed on is
//! float arithmetic only and is evaluated per call for a gate body's parameters. The expression
//! tree's depth is bounded by [`crate::guard3`]'s limits, so this recursion is too.

use crate::env::Pos;
use crate::error::{ImportError, ImportErrorKind as Kind};
use oq3_semantics::asg::{self, Expr, Literal, TExpr};
use oq3_semantics::symbols::SymbolIdResult;
use qc_ir::angle::{AngleExpr, BinOp};

/// What a name in an expression stands for.
pub(crate) enum Symbol {
    /// A name (a constant or a gate parameter).
    Name(String),
    /// The variable of an enclosing `for` loop, with its value in this iteration.
    LoopValue(i128),
}

/// How the importer resolves a symbol of the checked syntax graph.
pub(crate) type Resolve<'a> = &'a dyn Fn(&SymbolIdResult) -> Result<Symbol, ImportError>;

/// The value of a subexpression, typed as OpenQASM 3 types it.
enum Typed {
    /// An integer, already computed.
    Int(i128),
    /// A float, as an expression (a gate's parameters stay symbolic).
    Float(AngleExpr),
}

impl Typed {
    /// As a float: an integer converts to the nearest `f64`, as Qiskit's `float(int)`.
    fn float(self) -> AngleExpr {
        match self {
            Typed::Int(v) => AngleExpr::Num(v as f64),
            Typed::Float(e) => e,
        }
    }
}

/// An angle expression; `params` names the enclosing gate's parameters (symbolic), `name`
/// resolves a symbol, `pos` is where the statement starts (for errors).
pub(crate) fn angle(
    e: &TExpr,
    params: &[String],
    name: Resolve,
    pos: Pos,
) -> Result<AngleExpr, ImportError> {
    Ok(typed(e, params, name, pos)?.float())
}

/// The value of an integer expression (literals, loop variables, `+ - * /` of them), or `None`
/// when the expression is not an integer (a float, a constant such as `pi`).
pub(crate) fn integer(e: &TExpr, name: Resolve, pos: Pos) -> Result<Option<i128>, ImportError> {
    Ok(match typed(e, &[], name, pos)? {
        Typed::Int(v) => Some(v),
        Typed::Float(_) => None,
    })
}

fn typed(e: &TExpr, params: &[String], name: Resolve, pos: Pos) -> Result<Typed, ImportError> {
    Ok(match e.expression() {
        Expr::Literal(Literal::Float(f)) => {
            let text = f.value().replace('_', "");
            Typed::Float(AngleExpr::Num(text.parse().map_err(|_| {
                pos.error(Kind::BadNumber {
                    text: f.value().to_string(),
                })
            })?))
        }
        Expr::Literal(Literal::Int(i)) => {
            let v = i128::try_from(*i.value()).map_err(|_| pos.error(Kind::IntegerOverflow))?;
            Typed::Int(if *i.sign() { v } else { -v })
        }
        Expr::Identifier(id) => {
            let name = match name(id)? {
                Symbol::LoopValue(v) => return Ok(Typed::Int(v)),
                Symbol::Name(name) => name,
            };
            // A parameter shadows the constant it is named after.
            if params.contains(&name) {
                Typed::Float(AngleExpr::Var(name))
            } else {
                Typed::Float(AngleExpr::Num(match name.as_str() {
                    "pi" | "π" => std::f64::consts::PI,
                    "tau" | "τ" => std::f64::consts::TAU,
                    "euler" | "ℇ" => std::f64::consts::E,
                    _ => return Err(pos.error(Kind::NotAConstant { name })),
                }))
            }
        }
        Expr::UnaryExpr(u) if matches!(u.op(), asg::UnaryOp::Minus) => {
            match typed(u.operand(), params, name, pos)? {
                Typed::Int(v) => Typed::Int(
                    v.checked_neg()
                        .ok_or_else(|| pos.error(Kind::IntegerOverflow))?,
                ),
                Typed::Float(e) => Typed::Float(AngleExpr::Neg(Box::new(e))),
            }
        }
        Expr::BinaryExpr(b) => {
            let op = match b.op() {
                asg::BinaryOp::ArithOp(asg::ArithOp::Add) => BinOp::Add,
                asg::BinaryOp::ArithOp(asg::ArithOp::Sub) => BinOp::Sub,
                asg::BinaryOp::ArithOp(asg::ArithOp::Mul) => BinOp::Mul,
                asg::BinaryOp::ArithOp(asg::ArithOp::Div) => BinOp::Div,
                _ => return Err(pos.error(Kind::AngleOperator)),
            };
            let left = typed(b.left(), params, name, pos)?;
            let right = typed(b.right(), params, name, pos)?;
            match (left, right) {
                (Typed::Int(a), Typed::Int(b)) => Typed::Int(arithmetic(op, a, b, pos)?),
                (a, b) => {
                    Typed::Float(AngleExpr::Bin(op, Box::new(a.float()), Box::new(b.float())))
                }
            }
        }
        // Casts are the semantic pass's promotions; the operands' own types decide.
        Expr::Cast(c) => typed(c.operand(), params, name, pos)?,
        _ => return Err(pos.error(Kind::AngleExpression)),
    })
}

/// `a op b` of two integers; division rounds toward minus infinity (as Qiskit's `//`).
fn arithmetic(op: BinOp, a: i128, b: i128, pos: Pos) -> Result<i128, ImportError> {
    let value = match op {
        BinOp::Add => a.checked_add(b),
        BinOp::Sub => a.checked_sub(b),
        BinOp::Mul => a.checked_mul(b),
        BinOp::Div => {
            if b == 0 {
                return Err(pos.error(Kind::IntegerDivisionByZero));
            }
            a.checked_div(b).map(|q| {
                if a % b != 0 && ((a < 0) != (b < 0)) {
                    q - 1
                } else {
                    q
                }
            })
        }
    };
    value.ok_or_else(|| pos.error(Kind::IntegerOverflow))
}

#[cfg(test)]
mod tests {
    use super::arithmetic;
    use crate::env::Pos;
    use qc_ir::angle::BinOp;

    #[test]
    fn integer_division_rounds_toward_minus_infinity() {
        let div = |a, b| arithmetic(BinOp::Div, a, b, Pos::default()).ok();
        assert_eq!(div(1, 2), Some(0));
        assert_eq!(div(3, 2), Some(1));
        assert_eq!(div(-3, 2), Some(-2));
        assert_eq!(div(7, -2), Some(-4));
        assert_eq!(div(-7, -2), Some(3));
        assert_eq!(div(6, -2), Some(-3));
        assert_eq!(div(1, 0), None);
        assert_eq!(div(i128::MIN, -1), None);
    }
}
