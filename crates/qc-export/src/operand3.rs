//! The operands of an OpenQASM 3 statement as flat register indices: a whole register, one
//! element (`q[i]`, the index an integer expression of literals and loop variables) or a slice
//! (`q[0:2]`, `q[a:step:b]`; both ends inclusive, as OpenQASM writes ranges).

use crate::env::Pos;
use crate::error::{ImportError, ImportErrorKind as Kind};
use crate::import3::Walk;
use oq3_semantics::asg::{self, Expr, TExpr};
use oq3_semantics::symbols::SymbolIdResult;

impl Walk<'_> {
    /// The flat indices of a register or one element of it.
    pub(crate) fn register(
        &self,
        quantum: bool,
        id: &SymbolIdResult,
        index: Option<usize>,
        pos: Pos,
    ) -> Result<Vec<usize>, ImportError> {
        let name = self.name(id, pos)?;
        self.env.lookup(quantum, name, index, pos)
    }

    /// `r[i]` or `r[a:b]`, `r[a:step:b]`.
    pub(crate) fn indexed(
        &self,
        quantum: bool,
        ii: &asg::IndexedIdentifier,
        pos: Pos,
    ) -> Result<Vec<usize>, ImportError> {
        let name = self.name(ii.identifier(), pos)?;
        let index = match ii.indexes() {
            [asg::IndexOperator::ExpressionList(list)] => match list.expressions.as_slice() {
                [e] => e,
                _ => return Err(pos.error(Kind::IndexNotInteger)),
            },
            _ => return Err(pos.error(Kind::IndexNotInteger)),
        };
        let Expr::RangeExpression(range) = index.expression() else {
            let k = self.index(index, name, pos)?;
            return self.env.lookup(quantum, name, Some(k), pos);
        };
        let all = self.env.lookup(quantum, name, None, pos)?;
        let start = self.index(range.start(), name, pos)?;
        let stop = self.index(range.stop(), name, pos)?;
        let step = match range.step() {
            Some(e) => self
                .integer(e, pos)?
                .ok_or_else(|| pos.error(Kind::IndexNotInteger))?,
            None => 1,
        };
        if step == 0 {
            return Err(pos.error(Kind::RangeStepZero));
        }
        let out_of_range = |index: usize| {
            pos.error(Kind::IndexOutOfRange {
                register: name.to_string(),
                index,
                size: all.len(),
            })
        };
        // Each element is checked before it is taken, so the slice is never longer than the
        // register.
        let mut slice = Vec::new();
        let mut k = start as i128;
        while (step > 0 && k <= stop as i128) || (step < 0 && k >= stop as i128) {
            let at = k as usize;
            slice.push(*all.get(at).ok_or_else(|| out_of_range(at))?);
            k += step;
        }
        Ok(slice)
    }

    /// An index: a non-negative integer expression.
    fn index(&self, e: &TExpr, register: &str, pos: Pos) -> Result<usize, ImportError> {
        let value = self
            .integer(e, pos)?
            .ok_or_else(|| pos.error(Kind::IndexNotInteger))?;
        if value < 0 {
            return Err(pos.error(Kind::NegativeIndex {
                register: register.to_string(),
                index: i64::try_from(value).unwrap_or(i64::MIN),
            }));
        }
        Ok(usize::try_from(value).unwrap_or(usize::MAX))
    }

    /// A gate or measurement operand: a register, a single qubit or bit, one element, a slice.
    pub(crate) fn operand(
        &self,
        quantum: bool,
        e: &TExpr,
        pos: Pos,
    ) -> Result<Vec<usize>, ImportError> {
        match e.expression() {
            Expr::GateOperand(asg::GateOperand::Identifier(id)) | Expr::Identifier(id) => {
                self.register(quantum, id, None, pos)
            }
            Expr::GateOperand(asg::GateOperand::IndexedIdentifier(ii))
            | Expr::IndexedIdentifier(ii) => self.indexed(quantum, ii, pos),
            _ => Err(pos.error(Kind::Operand)),
        }
    }
}
