//! OpenQASM 2 import: a small reader of its own (OpenQASM 2's `qreg`/`creg`, `measure a -> b`
//! and register-valued `if` are not OpenQASM 3, so `oq3_semantics` does not read it).
//!
//! Supported: `OPENQASM 2.0;`, `include "qelib1.inc";` (every gate of Qiskit's `qelib1.inc`:
//! those with an IR form map to it exactly, `rzz` included; `u0 rxx rccx rc3x c3sqrtx` come from their
//! definitions in [`QELIB1_EXTRAS`]), `qreg`/`creg`, `gate` definitions, `measure`, `reset`,
//! `barrier` (ignored) and `if (c == n)` around one operation, where `c` is a register read as an
//! unsigned integer with bit 0 the least significant, as Qiskit reads it (`crate::cases`). Angles go
//! through the workspace's one angle parser ([`qc_ir::angle`]), which keeps decimal angles
//! exact and limits nesting. Integers are checked (no size above `usize` is ever parsed
//! unchecked), and every error names the line and column.

use crate::cases::{Cases, Test, MAX_CONDITION_BITS};
use crate::env::{BodyCall, Env, GateDef, Mod, Pos};
use crate::error::{ImportError, ImportErrorKind as Kind};
use crate::lex::{lex, Tok};
use qc_ir::angle::AngleExpr;
use qc_ir::Circuit;

/// Definitions of the `qelib1.inc` gates that have no single IR gate, in OpenQASM 2. `rxx` is
/// written phase-exactly (`exp(-i theta/2 XX)`; `rzz` is the IR gate `Rzz`); the
/// relative-phase Toffolis `rccx` and `rc3x` and the 3-controlled square root of X `c3sqrtx` are
/// qelib1.inc's own definitions (their relative phases are part of the gate, so they are not
/// replaced by the controlled gates they resemble).
pub const QELIB1_EXTRAS: &str = "
gate u0(gamma) q { id q; }
gate rxx(theta) a, b { h a; h b; cx a, b; rz(theta) b; cx a, b; h a; h b; }
gate rccx a, b, c {
  u2(0, pi) c; u1(pi/4) c; cx b, c; u1(-pi/4) c; cx a, c; u1(pi/4) c; cx b, c; u1(-pi/4) c;
  u2(0, pi) c;
}
gate rc3x a, b, c, d {
  u2(0, pi) d; u1(pi/4) d; cx c, d; u1(-pi/4) d; u2(0, pi) d; cx a, d; u1(pi/4) d; cx b, d;
  u1(-pi/4) d; cx a, d; u1(pi/4) d; cx b, d; u1(-pi/4) d; u2(0, pi) d; u1(pi/4) d; cx c, d;
  u1(-pi/4) d; u2(0, pi) d;
}
gate c3sqrtx a, b, c, d {
  h d; cu1(pi/8) a, d; h d; cx a, b; h d; cu1(-pi/8) b, d; h d; cx a, b;
  h d; cu1(pi/8) b, d; h d; cx b, c; h d; cu1(-pi/8) c, d; h d; cx a, c;
  h d; cu1(pi/8) c, d; h d; cx b, c; h d; cu1(-pi/8) c, d; h d; cx a, c;
  h d; cu1(pi/8) c, d; h d;
}
";

/// Imports an OpenQASM 2 program (see the module docs). Registers are flattened in declaration
/// order.
pub fn import_qasm2(src: &str) -> Result<Circuit, ImportError> {
    read(src).map_err(|e| e.locate(src))
}

fn read(src: &str) -> Result<Circuit, ImportError> {
    let mut reader = Reader::new(src)?;
    if reader.peek() != "OPENQASM" {
        return Err(reader.pos().error(Kind::NotQasm2));
    }
    reader.program()?;
    Ok(reader.env.finish())
}

/// A register or register element as written, where it is written.
struct Operand {
    name: String,
    index: Option<usize>,
    pos: Pos,
}

struct Reader<'a> {
    src: &'a str,
    toks: Vec<Tok>,
    at: usize,
    env: Env,
}

impl<'a> Reader<'a> {
    fn new(src: &'a str) -> Result<Reader<'a>, ImportError> {
        Ok(Reader {
            src,
            toks: lex(src)?,
            at: 0,
            env: Env::default(),
        })
    }

    fn program(&mut self) -> Result<(), ImportError> {
        while self.at < self.toks.len() {
            self.statement()?;
        }
        Ok(())
    }

    fn pos(&self) -> Pos {
        // At the end of the text: just after the last token (where a `;` is missing).
        let offset = match self.toks.get(self.at) {
            Some(t) => t.offset,
            None => self.toks.last().map_or(0, |t| t.offset + t.text.len()),
        };
        Pos::of_offset(offset)
    }

    fn peek(&self) -> &str {
        self.toks.get(self.at).map_or("", |t| t.text.as_str())
    }

    fn next(&mut self) -> Result<&Tok, ImportError> {
        let pos = self.pos();
        let t = self
            .toks
            .get(self.at)
            .ok_or_else(|| pos.error(Kind::UnexpectedEnd))?;
        self.at += 1;
        Ok(t)
    }

    fn expect(&mut self, text: &str) -> Result<(), ImportError> {
        let pos = self.pos();
        let t = self.next()?;
        if t.text != text {
            return Err(pos.error(Kind::Expected {
                expected: text.into(),
                found: t.text.clone(),
            }));
        }
        Ok(())
    }

    fn eat(&mut self, text: &str) -> bool {
        let found = self.peek() == text;
        if found {
            self.at += 1;
        }
        found
    }

    fn ident(&mut self) -> Result<String, ImportError> {
        let pos = self.pos();
        let t = self.next()?;
        if t.text.starts_with(|c: char| c.is_alphabetic() || c == '_') {
            Ok(t.text.clone())
        } else {
            Err(pos.error(Kind::ExpectedName {
                found: t.text.clone(),
            }))
        }
    }

    fn integer(&mut self) -> Result<usize, ImportError> {
        let pos = self.pos();
        let t = self.next()?;
        t.text.parse().map_err(|_| {
            pos.error(Kind::ExpectedInteger {
                found: t.text.clone(),
                max: usize::MAX,
            })
        })
    }

    /// `name` or `name[i]`, with where it is written (errors about the operand point at it).
    fn operand(&mut self) -> Result<Operand, ImportError> {
        let pos = self.pos();
        let name = self.ident()?;
        let index = if self.eat("[") {
            let i = self.integer()?;
            self.expect("]")?;
            Some(i)
        } else {
            None
        };
        Ok(Operand { name, index, pos })
    }

    fn operands(&mut self) -> Result<Vec<Operand>, ImportError> {
        let mut ops = vec![self.operand()?];
        while self.eat(",") {
            ops.push(self.operand()?);
        }
        Ok(ops)
    }

    /// Angle expressions up to the matching `)` (the `(` already read), split at top-level
    /// commas; each is parsed from its source text by the shared angle parser.
    fn angles(&mut self) -> Result<Vec<(AngleExpr, Pos)>, ImportError> {
        let mut out = Vec::new();
        let mut depth = 0usize;
        let mut start = self.at;
        loop {
            let pos = self.pos();
            let text = self.next()?.text.clone();
            match text.as_str() {
                "(" => depth += 1,
                ")" if depth > 0 => depth -= 1,
                ")" | "," if depth == 0 => {
                    if text == ")" && start == self.at - 1 && out.is_empty() {
                        return Ok(out); // `()`
                    }
                    out.push(self.angle(start, self.at - 1)?);
                    if text == ")" {
                        return Ok(out);
                    }
                    start = self.at;
                }
                ";" | "{" => return Err(pos.error(Kind::MissingParen)),
                _ => {}
            }
        }
    }

    /// Parses tokens `from..to` as one angle expression.
    fn angle(&self, from: usize, to: usize) -> Result<(AngleExpr, Pos), ImportError> {
        let begin = self.toks.get(from).map_or(self.src.len(), |t| t.offset);
        let end = self.toks.get(to).map_or(self.src.len(), |t| t.offset);
        let text = &self.src[begin..end];
        let pos = Pos::of_offset(begin);
        let expr = AngleExpr::parse(text).map_err(|e| {
            let offset: usize = text
                .chars()
                .take(e.offset().unwrap_or(0))
                .map(char::len_utf8)
                .sum();
            Pos::of_offset(begin + offset).error(e.into())
        })?;
        Ok((expr, pos))
    }

    fn statement(&mut self) -> Result<(), ImportError> {
        let pos = self.pos();
        match self.peek() {
            "OPENQASM" => {
                self.at += 1;
                let v = self.next()?.text.clone();
                if !v.starts_with('2') {
                    return Err(pos.error(Kind::UnsupportedVersion { version: v }));
                }
                self.expect(";")
            }
            "include" => {
                self.at += 1;
                let file = self.next()?.text.clone();
                if file != "\"qelib1.inc\"" {
                    return Err(pos.error(Kind::Include2 { file }));
                }
                self.expect(";")?;
                self.include_qelib1()
            }
            "qreg" | "creg" => {
                let quantum = self.next()?.text == "qreg";
                let name = self.ident()?;
                self.expect("[")?;
                let size = self.integer()?;
                self.expect("]")?;
                self.expect(";")?;
                self.env.declare(quantum, &name, size, pos)
            }
            "gate" => self.gate_definition(),
            "opaque" => Err(pos.error(Kind::Opaque)),
            "if" => {
                self.at += 1;
                let cases = self.condition()?.cases();
                self.operation(&cases)
            }
            _ => self.operation(&Cases::always()),
        }
    }

    fn include_qelib1(&mut self) -> Result<(), ImportError> {
        let mut lib = Reader::new(QELIB1_EXTRAS)?;
        lib.program()?;
        self.env.gates.extend(lib.env.gates);
        Ok(())
    }

    /// `(creg == n)`: the register as an unsigned integer, bit 0 the least significant.
    fn condition(&mut self) -> Result<Test, ImportError> {
        let pos = self.pos();
        self.expect("(")?;
        let name = self.ident()?;
        self.expect("==")?;
        let value = self.integer()?;
        self.expect(")")?;
        let bits = self.env.lookup(false, &name, None, pos)?;
        if bits.len() > MAX_CONDITION_BITS {
            return Err(pos.error(Kind::ConditionTooWide {
                register: name,
                width: bits.len(),
                max: MAX_CONDITION_BITS,
            }));
        }
        Ok(Test::equals(&bits, value as u128, |b| {
            self.env.is_written(b)
        }))
    }

    /// The flat indices of an operand; an error points at the operand.
    fn lookup(&self, quantum: bool, operand: &Operand) -> Result<Vec<usize>, ImportError> {
        self.env
            .lookup(quantum, &operand.name, operand.index, operand.pos)
    }

    /// A quantum operation: `measure`, `reset`, `barrier` or a gate call, read and checked,
    /// then written once per case (an `if` that never holds writes nothing).
    fn operation(&mut self, cases: &Cases) -> Result<(), ImportError> {
        let pos = self.pos();
        match self.peek() {
            "measure" => {
                self.at += 1;
                let q = self.operand()?;
                self.expect("->")?;
                let c = self.operand()?;
                self.expect(";")?;
                let qubits = self.lookup(true, &q)?;
                let bits = self.lookup(false, &c)?;
                self.env.check_measure(&qubits, &bits, pos)?;
                for cond in cases.iter() {
                    self.env.measure(&qubits, &bits, cond, pos)?;
                }
                Ok(())
            }
            "reset" => {
                self.at += 1;
                let q = self.operand()?;
                self.expect(";")?;
                let qubits = self.lookup(true, &q)?;
                for cond in cases.iter() {
                    self.env.reset(&qubits, cond, pos)?;
                }
                Ok(())
            }
            "barrier" => {
                self.at += 1;
                for q in self.operands()? {
                    self.lookup(true, &q)?;
                }
                self.expect(";")
            }
            _ => {
                let name = self.ident()?;
                let params = if self.eat("(") {
                    self.angles()?
                } else {
                    Vec::new()
                };
                let values = params
                    .iter()
                    .map(|(e, p)| e.value().map_err(|m| p.error(m.into())))
                    .collect::<Result<Vec<f64>, _>>()?;
                let operands = self
                    .operands()?
                    .into_iter()
                    .map(|q| self.lookup(true, &q))
                    .collect::<Result<Vec<_>, _>>()?;
                self.expect(";")?;
                if cases.is_empty() {
                    // Never written, but checked as if it were.
                    return self.env.check_call(&[], &name, &values, &operands, pos);
                }
                for cond in cases.iter() {
                    self.env
                        .apply_broadcast(&[], &name, &values, &operands, cond, pos)?;
                }
                Ok(())
            }
        }
    }

    fn gate_definition(&mut self) -> Result<(), ImportError> {
        self.expect("gate")?;
        let name = self.ident()?;
        let mut params = Vec::new();
        if self.eat("(") && !self.eat(")") {
            loop {
                params.push(self.ident()?);
                if self.eat(")") {
                    break;
                }
                self.expect(",")?;
            }
        }
        let mut qargs = vec![self.ident()?];
        while self.eat(",") {
            qargs.push(self.ident()?);
        }
        self.expect("{")?;
        let mut body = Vec::new();
        while !self.eat("}") {
            let pos = self.pos();
            let cname = self.ident()?;
            let exprs = if self.eat("(") {
                self.angles()?
            } else {
                Vec::new()
            };
            let mut args = Vec::new();
            for Operand {
                name: arg, index, ..
            } in self.operands()?
            {
                let k = qargs
                    .iter()
                    .position(|q| *q == arg)
                    .filter(|_| index.is_none())
                    .ok_or_else(|| {
                        pos.error(Kind::NotAGateArgument {
                            argument: arg.clone(),
                            gate: name.clone(),
                        })
                    })?;
                args.push(k);
            }
            self.expect(";")?;
            if cname == "barrier" {
                continue;
            }
            // Gates must be known before use, so a definition can never call itself.
            if !self.env.gates.contains_key(&cname) && !crate::env::is_builtin(&cname) {
                return Err(pos.error(Kind::UnknownGateInDefinition {
                    called: cname,
                    gate: name,
                }));
            }
            for (e, p) in &exprs {
                e.eval(&|v| params.iter().any(|x| x == v).then_some(0.0))
                    .map_err(|m| p.error(m.into()))?;
            }
            body.push(BodyCall {
                mods: Vec::<Mod>::new(),
                name: cname,
                params: exprs.into_iter().map(|(e, _)| e).collect(),
                args,
                pos,
            });
        }
        self.env.gates.insert(
            name,
            GateDef {
                params,
                num_qubits: qargs.len(),
                body,
            },
        );
        Ok(())
    }
}
