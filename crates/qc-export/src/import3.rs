//! OpenQASM 3 import for the subset qchess emits plus ordinary stdgates programs: `qubit`/`bit`
//! (and `qreg`/`creg`) declarations, `gate` definitions with parameters, `ctrl @`/`negctrl @`/`inv @`
//! modifiers, `c[k] = measure q[j];` (and `measure q -> c;`), `reset`, `barrier` (ignored), `gphase`,
//! and `if (c[k])` / `if (c[k] == true|false|0|1)` / `if (!c[k])` / `if (c == n)` on a one-bit
//! register, with an optional `else`, around gates, measurements and resets. Anything else is an
//! error naming the line and the construct.

use crate::env::{lookup, BodyCall, Env, GateDef, Mod, Reg};
use crate::error::ImportError;
use crate::expr::parse_expr;
use crate::lex::{lex, Tok};
use qc_ir::{Circuit, Clbit, Condition};
use std::collections::HashMap;

/// Registers larger than this are refused (a typo must not allocate gigabytes).
const MAX_REGISTER: usize = 1 << 16;

struct Parser {
    toks: Vec<Tok>,
    pos: usize,
    env: Env,
}

/// Imports an OpenQASM 3 (or 2-style) program into a circuit of plain qubits (registers flattened
/// in declaration order) and bits.
pub fn import_qasm3(src: &str) -> Result<Circuit, ImportError> {
    crate::nesting::check_nesting(src)?;
    let mut p = Parser {
        toks: lex(src)?,
        pos: 0,
        env: Env::default(),
    };
    while p.pos < p.toks.len() {
        p.statement(None, false)?;
    }
    Ok(p.env.finish())
}

impl Parser {
    fn line(&self) -> usize {
        self.toks
            .get(self.pos)
            .or(self.toks.last())
            .map_or(0, |t| t.line)
    }
    fn peek(&self) -> &str {
        self.toks.get(self.pos).map_or("", |t| t.text.as_str())
    }
    fn peek_at(&self, k: usize) -> &str {
        self.toks.get(self.pos + k).map_or("", |t| t.text.as_str())
    }
    fn next(&mut self) -> Result<Tok, ImportError> {
        let t = self
            .toks
            .get(self.pos)
            .cloned()
            .ok_or_else(|| ImportError::new(self.line(), "unexpected end of file"))?;
        self.pos += 1;
        Ok(t)
    }
    fn expect(&mut self, text: &str) -> Result<(), ImportError> {
        let line = self.line();
        let t = self.next()?;
        if t.text != text {
            return Err(ImportError::new(
                line,
                format!("expected `{text}`, found `{}`", t.text),
            ));
        }
        Ok(())
    }
    fn ident(&mut self) -> Result<String, ImportError> {
        let t = self.next()?;
        if t.text.starts_with(|c: char| c.is_alphabetic() || c == '_') {
            Ok(t.text)
        } else {
            Err(ImportError::new(
                t.line,
                format!("expected a name, found `{}`", t.text),
            ))
        }
    }
    fn integer(&mut self) -> Result<usize, ImportError> {
        let t = self.next()?;
        t.text.parse().map_err(|_| {
            ImportError::new(t.line, format!("expected an integer, found `{}`", t.text))
        })
    }
    fn eat(&mut self, text: &str) -> bool {
        if self.peek() == text {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    /// Tokens up to the matching `)` (the `(` already consumed), split at top-level commas.
    fn paren_list(&mut self) -> Result<Vec<Vec<String>>, ImportError> {
        let mut groups = vec![Vec::new()];
        let mut depth = 0usize;
        loop {
            let t = self.next()?;
            match t.text.as_str() {
                ")" if depth == 0 => break,
                "(" => depth += 1,
                ")" => depth -= 1,
                "," if depth == 0 => {
                    groups.push(Vec::new());
                    continue;
                }
                ";" | "{" => return Err(ImportError::new(t.line, "missing `)`")),
                _ => {}
            }
            if let Some(g) = groups.last_mut() {
                g.push(t.text);
            }
        }
        if groups.len() == 1 && groups[0].is_empty() {
            groups.clear();
        }
        Ok(groups)
    }

    fn operand(&mut self) -> Result<(String, Option<usize>), ImportError> {
        let name = self.ident()?;
        if self.eat("[") {
            let i = self.integer()?;
            self.expect("]")?;
            Ok((name, Some(i)))
        } else {
            Ok((name, None))
        }
    }

    fn statement(&mut self, cond: Option<Condition>, in_if: bool) -> Result<(), ImportError> {
        let line = self.line();
        let head = self.peek().to_string();
        match head.as_str() {
            "OPENQASM" => {
                self.pos += 1;
                let v = self.next()?;
                if !v.text.starts_with('3') && !v.text.starts_with('2') {
                    return Err(ImportError::new(
                        line,
                        format!("unsupported OpenQASM version `{}`", v.text),
                    ));
                }
                self.expect(";")
            }
            "include" => {
                self.pos += 1;
                let f = self.next()?;
                if f.text != "\"stdgates.inc\"" && f.text != "\"qelib1.inc\"" {
                    return Err(ImportError::new(
                        line,
                        format!(
                            "unsupported include {} (only stdgates.inc and qelib1.inc are known)",
                            f.text
                        ),
                    ));
                }
                self.expect(";")
            }
            "qubit" | "bit" | "qreg" | "creg" => self.declaration(in_if),
            "gate" if !in_if => self.gate_definition(),
            "measure" => {
                self.pos += 1;
                let (qn, qi) = self.operand()?;
                self.expect("->")?;
                let (cn, ci) = self.operand()?;
                self.expect(";")?;
                self.measure(&qn, qi, &cn, ci, cond, line)
            }
            "reset" => {
                self.pos += 1;
                let (qn, qi) = self.operand()?;
                self.expect(";")?;
                for q in lookup(&self.env.qregs, &qn, qi, line, "qubit")? {
                    self.env.reset(q, cond);
                }
                Ok(())
            }
            "barrier" => {
                while self.next()?.text != ";" {}
                Ok(())
            }
            "if" if in_if => Err(ImportError::new(line, "nested `if` is not supported")),
            "if" => self.if_statement(),
            "{" | "}" | "else" => Err(ImportError::new(line, format!("unexpected `{head}`"))),
            _ if self.peek_at(1) == "=" || (self.peek_at(1) == "[" && self.peek_at(4) == "=") => {
                let (cn, ci) = self.operand()?;
                self.expect("=")?;
                if self.peek() != "measure" {
                    return Err(ImportError::new(
                        line,
                        format!("unsupported classical assignment to `{cn}` (only `= measure`)"),
                    ));
                }
                self.pos += 1;
                let (qn, qi) = self.operand()?;
                self.expect(";")?;
                self.measure(&qn, qi, &cn, ci, cond, line)
            }
            "ctrl" | "negctrl" | "inv" | "pow" | "gphase" => self.gate_call(cond),
            _ if self.env.gates.contains_key(&head) || is_gate_name(&head) => self.gate_call(cond),
            _ => Err(ImportError::new(
                line,
                format!("unsupported construct `{head}`"),
            )),
        }
    }

    fn declaration(&mut self, in_if: bool) -> Result<(), ImportError> {
        let line = self.line();
        if in_if {
            return Err(ImportError::new(line, "declaration inside `if`"));
        }
        let kw = self.next()?.text;
        let (name, size) = match kw.as_str() {
            "qreg" | "creg" => {
                let name = self.ident()?;
                self.expect("[")?;
                let n = self.integer()?;
                self.expect("]")?;
                (name, n)
            }
            _ => {
                let size = if self.eat("[") {
                    let n = self.integer()?;
                    self.expect("]")?;
                    n
                } else {
                    1
                };
                (self.ident()?, size)
            }
        };
        if self.peek() == "=" {
            return Err(ImportError::new(
                line,
                format!("unsupported initializer on declaration of `{name}`"),
            ));
        }
        if size > MAX_REGISTER {
            return Err(ImportError::new(
                line,
                format!("register `{name}[{size}]` is larger than {MAX_REGISTER}"),
            ));
        }
        self.expect(";")?;
        let quantum = kw == "qubit" || kw == "qreg";
        let regs = if quantum {
            &mut self.env.qregs
        } else {
            &mut self.env.cregs
        };
        if regs.iter().any(|r| r.name == name) {
            return Err(ImportError::new(
                line,
                format!("register `{name}` is declared twice"),
            ));
        }
        let start = regs.iter().map(|r| r.size).sum();
        regs.push(Reg { name, start, size });
        Ok(())
    }

    fn measure(
        &mut self,
        qn: &str,
        qi: Option<usize>,
        cn: &str,
        ci: Option<usize>,
        cond: Option<Condition>,
        line: usize,
    ) -> Result<(), ImportError> {
        let qs = lookup(&self.env.qregs, qn, qi, line, "qubit")?;
        let cs = lookup(&self.env.cregs, cn, ci, line, "bit")?;
        if qs.len() != cs.len() {
            return Err(ImportError::new(
                line,
                format!("measure: {} qubit(s) into {} bit(s)", qs.len(), cs.len()),
            ));
        }
        for (q, c) in qs.into_iter().zip(cs) {
            self.env.measure(q, c, cond);
        }
        Ok(())
    }

    fn modifiers(&mut self) -> Result<Vec<Mod>, ImportError> {
        let mut mods = Vec::new();
        loop {
            let line = self.line();
            let kind = self.peek().to_string();
            if !matches!(kind.as_str(), "ctrl" | "negctrl" | "inv" | "pow") {
                return Ok(mods);
            }
            self.pos += 1;
            let mut n = 1usize;
            if self.eat("(") {
                let groups = self.paren_list()?;
                let text = groups.first().map(|g| g.join(" ")).unwrap_or_default();
                if kind == "pow" {
                    return Err(ImportError::new(
                        line,
                        "the `pow @` modifier is not supported",
                    ));
                }
                n = text.trim().parse().map_err(|_| {
                    ImportError::new(line, format!("`{kind}({text})`: expected an integer"))
                })?;
            } else if kind == "pow" {
                return Err(ImportError::new(
                    line,
                    "the `pow @` modifier is not supported",
                ));
            }
            self.expect("@")?;
            mods.push(match kind.as_str() {
                "ctrl" => Mod::Ctrl(n),
                "negctrl" => Mod::NegCtrl(n),
                _ => Mod::Inv,
            });
        }
    }

    /// `mods name(params) operands;` -> (mods, name, param token groups, operands, line).
    #[allow(clippy::type_complexity, reason = "a private parse result")]
    fn call_parts(
        &mut self,
    ) -> Result<
        (
            Vec<Mod>,
            String,
            Vec<Vec<String>>,
            Vec<(String, Option<usize>)>,
            usize,
        ),
        ImportError,
    > {
        let line = self.line();
        let mods = self.modifiers()?;
        let name = self.ident()?;
        let params = if self.eat("(") {
            self.paren_list()?
        } else {
            Vec::new()
        };
        let mut ops = Vec::new();
        if self.peek() != ";" {
            loop {
                ops.push(self.operand()?);
                if !self.eat(",") {
                    break;
                }
            }
        }
        self.expect(";")?;
        Ok((mods, name, params, ops, line))
    }

    fn gate_call(&mut self, cond: Option<Condition>) -> Result<(), ImportError> {
        let (mods, name, params, ops, line) = self.call_parts()?;
        let empty = HashMap::new();
        let p: Vec<f64> = params
            .iter()
            .map(|g| {
                parse_expr(g)
                    .and_then(|e| e.eval(&empty))
                    .map_err(|m| ImportError::new(line, m))
            })
            .collect::<Result<_, _>>()?;
        let lists: Vec<Vec<usize>> = ops
            .iter()
            .map(|(n, i)| lookup(&self.env.qregs, n, *i, line, "qubit"))
            .collect::<Result<_, _>>()?;
        let width = lists.iter().map(Vec::len).max().unwrap_or(1);
        if lists.iter().any(|l| l.len() != 1 && l.len() != width) {
            return Err(ImportError::new(
                line,
                format!("`{name}`: register operands of different sizes"),
            ));
        }
        for k in 0..width {
            let qs: Vec<usize> = lists
                .iter()
                .map(|l| if l.len() == 1 { l[0] } else { l[k] })
                .collect();
            self.env
                .apply(&mods, &name, &p, &qs, &[], false, cond, line, 0)?;
        }
        Ok(())
    }

    fn gate_definition(&mut self) -> Result<(), ImportError> {
        let line = self.line();
        self.expect("gate")?;
        let name = self.ident()?;
        let params: Vec<String> = if self.eat("(") {
            self.paren_list()?.into_iter().map(|g| g.join("")).collect()
        } else {
            Vec::new()
        };
        let mut qargs = Vec::new();
        while self.peek() != "{" {
            qargs.push(self.ident()?);
            if !self.eat(",") && self.peek() != "{" {
                return Err(ImportError::new(
                    line,
                    format!("gate `{name}`: expected `,` or `{{` in the argument list"),
                ));
            }
        }
        self.expect("{")?;
        let mut body = Vec::new();
        while !self.eat("}") {
            let (mods, cname, pgroups, ops, cline) = self.call_parts()?;
            let params = pgroups
                .iter()
                .map(|g| parse_expr(g).map_err(|m| ImportError::new(cline, m)))
                .collect::<Result<_, _>>()?;
            let args = ops
                .into_iter()
                .map(|(n, i)| match i {
                    None => Ok(n),
                    Some(_) => Err(ImportError::new(
                        cline,
                        format!("indexed operand `{n}[..]` inside gate `{name}`"),
                    )),
                })
                .collect::<Result<_, _>>()?;
            body.push(BodyCall {
                mods,
                name: cname,
                params,
                args,
                line: cline,
            });
        }
        self.env.gates.insert(
            name,
            GateDef {
                params,
                qargs,
                body,
            },
        );
        Ok(())
    }

    fn condition(&mut self) -> Result<Condition, ImportError> {
        let line = self.line();
        self.expect("(")?;
        let negate = self.eat("!");
        let (name, index) = self.operand()?;
        let bits = lookup(&self.env.cregs, &name, index, line, "bit")?;
        if bits.len() != 1 {
            return Err(ImportError::new(
                line,
                format!(
                    "condition on the {}-bit register `{name}` (only single bits)",
                    bits.len()
                ),
            ));
        }
        let mut value = true;
        if self.eat("==") {
            let v = self.next()?.text;
            value = match v.as_str() {
                "true" | "1" => true,
                "false" | "0" => false,
                _ => {
                    return Err(ImportError::new(
                        line,
                        format!("unsupported comparison `== {v}`"),
                    ))
                }
            };
        } else if self.peek() != ")" {
            return Err(ImportError::new(
                line,
                format!("unsupported condition operator `{}`", self.peek()),
            ));
        }
        self.expect(")")?;
        Ok(Condition {
            clbit: Clbit(bits[0] as u32),
            value: value != negate,
        })
    }

    fn block(&mut self, cond: Condition) -> Result<(), ImportError> {
        if self.eat("{") {
            while !self.eat("}") {
                if self.pos >= self.toks.len() {
                    return Err(ImportError::new(self.line(), "missing `}`"));
                }
                self.statement(Some(cond), true)?;
            }
            Ok(())
        } else {
            self.statement(Some(cond), true)
        }
    }

    fn if_statement(&mut self) -> Result<(), ImportError> {
        self.expect("if")?;
        let cond = self.condition()?;
        self.block(cond)?;
        if self.eat("else") {
            self.block(Condition {
                clbit: cond.clbit,
                value: !cond.value,
            })?;
        }
        Ok(())
    }
}

fn is_gate_name(name: &str) -> bool {
    name.chars().next().is_some_and(|c| c.is_alphabetic())
        && !matches!(
            name,
            "for"
                | "while"
                | "def"
                | "input"
                | "output"
                | "let"
                | "const"
                | "box"
                | "delay"
                | "switch"
                | "return"
                | "break"
                | "continue"
                | "int"
                | "uint"
                | "float"
                | "angle"
                | "bool"
                | "complex"
                | "duration"
                | "stretch"
                | "extern"
                | "defcal"
                | "cal"
                | "opaque"
        )
}
