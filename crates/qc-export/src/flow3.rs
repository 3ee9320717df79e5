//! The control flow of an OpenQASM 3 program as the walk reads it: `if` (with `else`, nested)
//! on the conditions Qiskit writes, and `for` loops, unrolled.
//!
//! Conditions: `if (c[k])`, `if (c[k] == v)` and `!=` on one bit (`v` is `true`, `false`, `0`
//! or `1`; `if (!c[k])` is read as `c[k] == 0`), `if (c == n)` and `!=` on a register or a slice
//! (an unsigned integer, bit 0 the least significant) and `if (c)` on a register (`c != 0`).
//! Each becomes the cases of `crate::cases`; an `if` inside an `if` takes both.
//!
//! Loops: `for T i in [a:b]`, `[a:step:b]` (both ends inclusive) and `for T i in {x, y, ...}`,
//! with `T` an integer type (or none, as older programs write it). The body is read once per
//! value, with `i` bound to it; every iteration counts against
//! [`crate::env::MAX_INSTRUCTIONS`] together with the instructions, so an empty body cannot
//! make the reader spin.

use crate::cases::{Cases, Test, MAX_CASES, MAX_CONDITION_BITS};
use crate::env::{Pos, MAX_INSTRUCTIONS};
use crate::error::{ImportError, ImportErrorKind as Kind};
use crate::import3::{block_statements, Walk};
use oq3_semantics::asg::{self, Expr, ForIterable, Literal, TExpr};
use oq3_syntax::ast::{self as synast, AstNode};
use oq3_syntax::SyntaxNode;

/// What an `if` tests: a comparison, and whether the body runs when it holds (`==`) or when it
/// fails (`!=`, `if (c)` on a register).
struct Comparison {
    test: Test,
    when_equal: bool,
}

impl Walk<'_> {
    /// `if (...) { ... } else { ... }` under `cases`.
    pub(crate) fn if_statement(
        &mut self,
        i: &asg::If,
        node: Option<&SyntaxNode>,
        cases: &Cases,
        pos: Pos,
    ) -> Result<(), ImportError> {
        let comparison = self.comparison(i.condition(), pos)?;
        let (holds, fails) = (comparison.test.cases(), comparison.test.negated());
        let (then_cases, else_cases) = if comparison.when_equal {
            (holds, fails)
        } else {
            (fails, holds)
        };
        let too_many = |_| pos.error(Kind::TooManyCases { max: MAX_CASES });
        let if_node = node.and_then(|n| synast::IfStmt::cast(n.clone()));
        let then_syntax = if_node
            .as_ref()
            .and_then(|n| n.then_branch())
            .map(|b| block_statements(&b))
            .unwrap_or_default();
        let then_cases = cases.and(&then_cases).map_err(too_many)?;
        self.block(
            i.then_branch().statements(),
            &then_syntax,
            &then_cases,
            false,
        )?;
        if let Some(e) = i.else_branch() {
            let else_syntax = if_node
                .as_ref()
                .and_then(|n| n.else_branch())
                .map(|b| block_statements(&b))
                .unwrap_or_default();
            let else_cases = cases.and(&else_cases).map_err(too_many)?;
            self.block(e.statements(), &else_syntax, &else_cases, false)?;
        }
        Ok(())
    }

    /// The condition of an `if` (see the module docs), with the bits as they stand here.
    fn comparison(&self, e: &TExpr, pos: Pos) -> Result<Comparison, ImportError> {
        let (operand, value, when_equal) = match e.expression() {
            Expr::BinaryExpr(b) => {
                let equal = match b.op() {
                    asg::BinaryOp::CmpOp(asg::CmpOp::Eq) => true,
                    asg::BinaryOp::CmpOp(asg::CmpOp::Neq) => false,
                    _ => return Err(pos.error(Kind::ConditionOperator)),
                };
                (b.left(), Some(self.constant(b.right(), pos)?), equal)
            }
            _ => (e, None, true),
        };
        let mut operand = operand;
        while let Expr::Cast(c) = operand.expression() {
            operand = c.operand();
        }
        let bits = self.operand(false, operand, pos)?;
        if bits.len() > MAX_CONDITION_BITS {
            return Err(pos.error(Kind::ConditionTooWide {
                register: self.operand_name(operand, pos),
                width: bits.len(),
                max: MAX_CONDITION_BITS,
            }));
        }
        let written = |b: usize| self.env.is_written(b);
        Ok(match value {
            Some(v) => Comparison {
                test: Test::equals(&bits, v, written),
                when_equal,
            },
            // `if (c[k])` is `c[k] == 1`; `if (c)` on a register is `c != 0`.
            None if bits.len() == 1 => Comparison {
                test: Test::equals(&bits, 1, written),
                when_equal: true,
            },
            None => Comparison {
                test: Test::equals(&bits, 0, written),
                when_equal: false,
            },
        })
    }

    /// What a condition compares with: `true`/`false`, or a non-negative integer expression.
    fn constant(&self, e: &TExpr, pos: Pos) -> Result<u128, ImportError> {
        let mut e = e;
        while let Expr::Cast(c) = e.expression() {
            e = c.operand();
        }
        if let Expr::Literal(Literal::Bool(b)) = e.expression() {
            return Ok(u128::from(*b.value()));
        }
        match self.integer(e, pos)? {
            Some(v) => u128::try_from(v).map_err(|_| pos.error(Kind::ConditionValue)),
            None => Err(pos.error(Kind::ConditionValue)),
        }
    }

    /// The register an operand names, for messages.
    fn operand_name(&self, e: &TExpr, pos: Pos) -> String {
        let id = match e.expression() {
            Expr::Identifier(id) | Expr::GateOperand(asg::GateOperand::Identifier(id)) => id,
            Expr::IndexedIdentifier(ii)
            | Expr::GateOperand(asg::GateOperand::IndexedIdentifier(ii)) => ii.identifier(),
            _ => return "the operand".into(),
        };
        self.name(id, pos)
            .map_or_else(|_| "the operand".into(), str::to_string)
    }

    /// `for T i in ...` under `cases`: the body once per value, `i` bound to it.
    pub(crate) fn for_loop(
        &mut self,
        f: &asg::ForStmt,
        node: Option<&SyntaxNode>,
        cases: &Cases,
        pos: Pos,
    ) -> Result<(), ImportError> {
        let var = f.loop_var().clone().map_err(|_| {
            pos.error(Kind::Unresolved {
                detail: "the loop variable".into(),
            })
        })?;
        let body_syntax = node
            .and_then(|n| synast::ForStmt::cast(n.clone()))
            .and_then(|n| n.body())
            .map(|b| block_statements(&b))
            .unwrap_or_default();
        for value in self.loop_values(f.iterable(), pos)? {
            self.iterations += 1;
            if self.env.instructions_held().saturating_add(self.iterations) > MAX_INSTRUCTIONS {
                return Err(pos.error(Kind::TooManyIterations {
                    max: MAX_INSTRUCTIONS,
                }));
            }
            self.loops.push((var.clone(), value));
            let read = self.block(f.loop_body().statements(), &body_syntax, cases, false);
            self.loops.pop();
            read?;
        }
        Ok(())
    }

    /// The values a loop takes, in order.
    fn loop_values(&self, iterable: &ForIterable, pos: Pos) -> Result<LoopValues, ImportError> {
        let int = |e: &TExpr| -> Result<i128, ImportError> {
            self.integer(e, pos)?
                .ok_or_else(|| pos.error(Kind::LoopValueNotInteger))
        };
        match iterable {
            ForIterable::RangeExpression(r) => {
                let step = r.step().map(int).transpose()?.unwrap_or(1);
                if step == 0 {
                    return Err(pos.error(Kind::RangeStepZero));
                }
                Ok(LoopValues::Range {
                    next: Some(int(r.start())?),
                    step,
                    stop: int(r.stop())?,
                })
            }
            ForIterable::SetExpression(s) => {
                let values = s.expressions().iter().map(int).collect::<Result<_, _>>()?;
                Ok(LoopValues::Set(values, 0))
            }
            ForIterable::Expr(_) => Err(pos.error(Kind::LoopIterable)),
        }
    }
}

/// The values of a loop: a range walked one step at a time (never collected: its length is
/// bounded only by the iteration count), or the set's values.
enum LoopValues {
    /// `[start:step:stop]`, both ends inclusive.
    Range {
        /// The next value, if any is left.
        next: Option<i128>,
        /// Never 0.
        step: i128,
        /// The last value it may take.
        stop: i128,
    },
    /// `{x, y, ...}` and the position of the next value.
    Set(Vec<i128>, usize),
}

impl Iterator for LoopValues {
    type Item = i128;

    fn next(&mut self) -> Option<i128> {
        match self {
            LoopValues::Range { next, step, stop } => {
                let value = (*next).filter(|v| if *step > 0 { v <= stop } else { v >= stop })?;
                *next = value.checked_add(*step);
                Some(value)
            }
            LoopValues::Set(values, at) => {
                let value = values.get(*at).copied()?;
                *at += 1;
                Some(value)
            }
        }
    }
}
