//! OpenQASM 3 import: a walk over the checked syntax graph (ASG) of `oq3_semantics`, as Qiskit's
//! own Rust importer does.
//!
//! Supported: `qubit`/`bit` declarations (single or `[n]`), physical qubits `$k` (qubit `k`), `include "stdgates.inc"`, `gate`
//! definitions with parameters, `ctrl @`/`negctrl @`/`inv @` modifiers, `gphase`, `c = measure q;`
//! (elements or whole registers), `reset`, `barrier` (ignored), and `if (c[k])` /
//! `if (c[k] == true|false|0|1)` / `!=` on one bit, with an optional `else`, around gates,
//! measurements and resets. Anything else is an error naming the construct, line and column.
//! Angles are typed as OpenQASM 3 types them (`1/2` is 0; `angle3.rs`) and evaluated from
//! the literal text the ASG keeps, in source order, so `3*pi/8` or `0.1` come back bit for bit.
//! The input is first rewritten by `rewrite3.rs` (valid forms the parser does not read:
//! braceless `if` bodies, `barrier;`, `OPENQASM 3;`) and then passes [`crate::guard3`], which
//! keeps every panicking path of `oq3_semantics` out of reach.

use crate::angle3::Symbol;
use crate::cases::Cases;
use crate::env::{BodyCall, Env, GateDef, Mod, Pos};
use crate::error::{ImportError, ImportErrorKind as Kind, SemanticProblem};
use oq3_semantics::asg::{self, Expr, GateModifier, Stmt, TExpr};
use oq3_semantics::semantic_error::{SemanticError, SemanticErrorKind};
use oq3_semantics::symbols::{SymbolError, SymbolId, SymbolIdResult, SymbolTable};
use oq3_semantics::types::{ArrayDims, Type};
use oq3_syntax::ast::{self as synast, AstNode, HasName};
use oq3_syntax::SyntaxNode;
use qc_ir::angle::AngleExpr;
use qc_ir::Circuit;
use std::collections::{BTreeSet, HashSet};
use std::sync::OnceLock;

/// Imports an OpenQASM 3 program into a circuit of plain qubits (registers flattened in
/// declaration order) and bits.
pub fn import_qasm3(src: &str) -> Result<Circuit, ImportError> {
    // `guard3` refuses what is known to make oq3_parser/oq3_semantics panic, with a position;
    // `contain` turns any panic left (their asserts on grammar they do not expect) into an error.
    // `rewrite3` turns valid forms `oq3_parser` does not read into ones it does; errors found in
    // the rewritten text are moved back to the user's offsets.
    crate::contain::contain(|| {
        let rewritten = crate::rewrite3::rewrite(src)?;
        read(&rewritten.text).map_err(|e| {
            let offset = e.offset().map(|o| rewritten.user_offset(o));
            e.moved_to(offset)
        })
    })
    .unwrap_or_else(|panic| {
        Err(Pos::default().error(Kind::ParserPanic {
            panic: panic.to_string(),
        }))
    })
    .map_err(|e| e.locate(src))
}

/// The gate names `oq3_semantics` knows without a definition in the program: its builtin `U` and
/// what it defines for `include "stdgates.inc";`. Asked of `oq3_semantics` itself (once), so no
/// list of names is kept here.
fn oq3_stdgates() -> &'static HashSet<String> {
    static NAMES: OnceLock<HashSet<String>> = OnceLock::new();
    NAMES.get_or_init(|| {
        let parsed = oq3_semantics::syntax_to_semantics::parse_source_string(
            "OPENQASM 3.0;\ninclude \"stdgates.inc\";\n",
            None,
            None::<&[std::path::PathBuf]>,
        );
        let context = parsed.take_context();
        let mut names: HashSet<String> = context
            .symbol_table()
            .gates()
            .map(|(name, ..)| name.to_string())
            .collect();
        names.insert("U".to_string());
        names
    })
}

/// A declaration-only definition of a gate the importer knows from the gate table (qelib1 names
/// such as `cu3`, vendor spellings such as Braket's `cnot`, library gates such as `iswap`), so
/// that `oq3_semantics` accepts a call with the table's parameter and qubit counts. Its (empty)
/// body is never read: the walk skips these definitions and [`Env::expand`] resolves the name
/// through the table.
fn declaration(name: &str) -> Option<String> {
    let form = crate::env::predefined(name)?;
    let params: Vec<String> = (0..form.num_params()).map(|k| format!("p{k}")).collect();
    let qubits: Vec<String> = (0..form.num_qubits()).map(|k| format!("q{k}")).collect();
    let params = if params.is_empty() {
        String::new()
    } else {
        format!("({})", params.join(", "))
    };
    Some(format!(" gate {name}{params} {} {{ }}", qubits.join(", ")))
}

/// What the importer adds to a program before `oq3_semantics` reads it.
struct Prelude {
    /// The text `oq3_semantics` reads.
    text: String,
    /// Where the prelude was inserted in the user's text, and its length.
    inserted: Option<(usize, usize)>,
    /// Statements the prelude adds to the program (the walk skips them).
    statements: usize,
    /// `stdgates.inc` is in effect (included by the program or by the prelude).
    stdgates: bool,
}

/// Programs for tools without includes (Braket) call the standard gates, and their own names for
/// them, without declaring them. Like the reader before it, the importer supplies
/// `include "stdgates.inc";` unless the program includes it or defines a standard name itself,
/// and declares every gate the program calls that the gate table knows but `oq3_semantics` does
/// not (and the program does not define).
fn with_prelude(src: &str, file: &synast::SourceFile) -> Prelude {
    let mut after_version = 0usize;
    let mut has_include = false;
    let mut defined = HashSet::new();
    for stmt in file.statements() {
        match &stmt {
            synast::Stmt::Include(_) => has_include = true,
            synast::Stmt::VersionString(v) => after_version = v.syntax().text_range().end().into(),
            synast::Stmt::Gate(g) => {
                if let Some(n) = g.name() {
                    defined.insert(n.syntax().text().to_string());
                }
            }
            _ => {}
        }
    }
    let known = oq3_stdgates();
    let add_include = !has_include && !defined.iter().any(|n| known.contains(n));
    let stdgates = has_include || add_include;
    let called: BTreeSet<String> = file
        .syntax()
        .descendants()
        .filter_map(synast::GateCallExpr::cast)
        // The called name is the call's `IDENTIFIER` child (not a `NAME` as in definitions).
        .filter_map(|c| c.syntax().children().find_map(synast::Identifier::cast))
        .map(|id| id.syntax().text().to_string())
        .collect();
    let mut prelude = String::new();
    if add_include {
        prelude.push_str(" include \"stdgates.inc\";");
    }
    let mut statements = 0;
    for name in &called {
        if defined.contains(name) || name == "U" || (stdgates && known.contains(name)) {
            continue;
        }
        if let Some(declaration) = declaration(name) {
            prelude.push_str(&declaration);
            statements += 1;
        }
    }
    if prelude.is_empty() {
        return Prelude {
            text: src.to_string(),
            inserted: None,
            statements: 0,
            stdgates,
        };
    }
    let mut text = String::with_capacity(src.len() + prelude.len());
    text.push_str(&src[..after_version]);
    text.push_str(&prelude);
    text.push_str(&src[after_version..]);
    Prelude {
        text,
        inserted: Some((after_version, prelude.len())),
        statements,
        stdgates,
    }
}

fn read(src: &str) -> Result<Circuit, ImportError> {
    let root = crate::guard3::check(src)?;
    let file =
        synast::SourceFile::cast(root).ok_or_else(|| Pos::default().error(Kind::NoProgram))?;
    let prelude = with_prelude(src, &file);
    let text = &prelude.text;
    let inserted = prelude.inserted;
    let parsed = oq3_semantics::syntax_to_semantics::parse_source_string(
        text,
        None,
        None::<&[std::path::PathBuf]>,
    );
    if parsed.any_syntax_errors() {
        // `guard3::check` ran the same parser and found none; kept for safety.
        return Err(Pos::default().error(Kind::LateSyntax));
    }
    let context = parsed.take_context();
    // Back to the user's text: offsets after the inserted include move back.
    let user_offset = |o: usize| match inserted {
        Some((at, len)) if o >= at + len => o - len,
        Some((at, _)) if o >= at => at,
        _ => o,
    };
    // `oq3_semantics` counts a modified call's operands against the bare gate (`ctrl @ x a, b;`
    // is reported as a wrong qubit count); `Env::expand` checks counts with the modifiers. It
    // types `measure q[2]` and `measure q[0:1]` as the whole register `q`, so a measurement into
    // a bit or register of another size is reported as incompatible; the walk compares the
    // sizes itself (`Env::check_measure`).
    let measurements = measurement_offsets(&file);
    let real = |e: &&SemanticError| match e.kind() {
        SemanticErrorKind::NumGateQubitsError => false,
        SemanticErrorKind::IncompatibleTypesError
        | SemanticErrorKind::IncompatibleDimensionError => {
            !measurements.contains(&user_offset(e.range().start().into()))
        }
        _ => true,
    };
    if let Some(e) = context.errors().iter().find(real) {
        let error = semantic_error(text, e, prelude.stdgates);
        let offset = error.offset().map(user_offset);
        return Err(error.moved_to(offset));
    }
    let mut walk = Walk {
        table: context.symbol_table(),
        env: Env::default(),
        loops: Vec::new(),
        iterations: 0,
    };
    let syntax: Vec<SyntaxNode> = file
        .statements()
        .filter(|s| !matches!(s, synast::Stmt::VersionString(_) | synast::Stmt::Include(_)))
        .map(|s| s.syntax().clone())
        .collect();
    let stmts = context.program().stmts();
    // The prelude's declarations are skipped: the table resolves those names.
    let program = &stmts[prelude.statements.min(stmts.len())..];
    walk.block(program, &syntax, &Cases::always(), true)?;
    Ok(walk.env.finish())
}

/// The walk over the checked syntax graph: the symbol table, what has been read so far, and the
/// values of the variables of the `for` loops around the statement being read (`flow3.rs`).
pub(crate) struct Walk<'a> {
    pub(crate) table: &'a SymbolTable,
    pub(crate) env: Env,
    /// Loop variables in scope, innermost last, with this iteration's value.
    pub(crate) loops: Vec<(SymbolId, i128)>,
    /// Loop iterations unrolled so far, counted with the instructions against
    /// [`crate::env::MAX_INSTRUCTIONS`].
    pub(crate) iterations: usize,
}

/// A gate call's parts, from a top-level call or a call inside a gate body.
struct Call<'c> {
    mods: Vec<Mod>,
    name: String,
    params: Option<&'c [TExpr]>,
    operands: &'c [TExpr],
}

impl Walk<'_> {
    pub(crate) fn pos(&self, node: Option<&SyntaxNode>) -> Pos {
        node.map_or_else(Pos::default, |n| {
            Pos::of_offset(n.text_range().start().into())
        })
    }

    pub(crate) fn name(&self, id: &SymbolIdResult, pos: Pos) -> Result<&str, ImportError> {
        match id {
            Ok(id) => Ok(self.table[id].name()),
            Err(e) => Err(pos.error(Kind::Unresolved {
                detail: unresolved(e).into(),
            })),
        }
    }

    /// What a symbol in an expression stands for: a loop variable's value, or a name.
    fn symbol(&self, id: &SymbolIdResult, pos: Pos) -> Result<Symbol, ImportError> {
        if let Ok(id) = id {
            if let Some((_, value)) = self.loops.iter().rev().find(|(v, _)| v == id) {
                return Ok(Symbol::LoopValue(*value));
            }
        }
        self.name(id, pos).map(|n| Symbol::Name(n.to_string()))
    }

    fn symbol_type(&self, id: &SymbolIdResult, pos: Pos) -> Result<&Type, ImportError> {
        use oq3_semantics::symbols::SymbolType;
        match id {
            Ok(id) => Ok(self.table[id].symbol_type()),
            Err(e) => Err(pos.error(Kind::Unresolved {
                detail: unresolved(e).into(),
            })),
        }
    }

    /// Statements of one block, each written once per case of `cases`; `top`: at global scope
    /// (declarations and definitions belong there). `syntax` holds the matching syntax
    /// statements (for positions).
    pub(crate) fn block(
        &mut self,
        stmts: &[Stmt],
        syntax: &[SyntaxNode],
        cases: &Cases,
        top: bool,
    ) -> Result<(), ImportError> {
        for (k, stmt) in stmts.iter().enumerate() {
            let node = syntax.get(k);
            self.statement(stmt, node, cases, top)?;
        }
        Ok(())
    }

    /// One statement; an index out of range is moved from the statement's start to the operand
    /// that names it (the semantic tree keeps no positions, the syntax tree does).
    fn statement(
        &mut self,
        stmt: &Stmt,
        node: Option<&SyntaxNode>,
        cases: &Cases,
        top: bool,
    ) -> Result<(), ImportError> {
        self.statement_at(stmt, node, cases, top).map_err(|e| {
            let operand = match (&e.kind, node) {
                // Not yet moved (a statement inside `if` has moved its own already).
                (
                    Kind::IndexOutOfRange {
                        register, index, ..
                    },
                    Some(node),
                ) if e.offset() == self.pos(Some(node)).offset => {
                    operand_offset(node, register, *index)
                }
                _ => None,
            };
            match operand {
                Some(offset) => e.moved_to(Some(offset)),
                None => e,
            }
        })
    }

    fn statement_at(
        &mut self,
        stmt: &Stmt,
        node: Option<&SyntaxNode>,
        cases: &Cases,
        top: bool,
    ) -> Result<(), ImportError> {
        let pos = self.pos(node);
        match stmt {
            Stmt::DeclareQuantum(d) if top => {
                let size = match self.symbol_type(d.name(), pos)? {
                    Type::Qubit => 1,
                    Type::QubitArray(ArrayDims::D1(n)) => *n,
                    _ => return Err(pos.error(Kind::QubitDeclaration)),
                };
                let name = self.name(d.name(), pos)?.to_string();
                self.env.declare(true, &name, size, pos)
            }
            Stmt::DeclareClassical(d) if top => {
                let size = match self.symbol_type(d.name(), pos)? {
                    Type::Bit(_) => 1,
                    Type::BitArray(ArrayDims::D1(n), _) => *n,
                    _ => return Err(pos.error(Kind::ClassicalDeclaration)),
                };
                let name = self.name(d.name(), pos)?.to_string();
                self.env.declare(false, &name, size, pos)
            }
            Stmt::GateDefinition(g) if top => self.gate_definition(g, node, pos),
            Stmt::GateCall(c) => {
                let call = self.call_parts(c, pos)?;
                let params = call
                    .params
                    .unwrap_or_default()
                    .iter()
                    .map(|e| {
                        self.angle(e, &[], pos)?
                            .value()
                            .map_err(|m| pos.error(m.into()))
                    })
                    .collect::<Result<Vec<f64>, _>>()?;
                let operands = call
                    .operands
                    .iter()
                    .map(|e| self.operand(true, e, pos))
                    .collect::<Result<Vec<_>, _>>()?;
                if cases.is_empty() {
                    return self
                        .env
                        .check_call(&call.mods, &call.name, &params, &operands, pos);
                }
                for cond in cases.iter() {
                    self.env
                        .apply_broadcast(&call.mods, &call.name, &params, &operands, cond, pos)?;
                }
                Ok(())
            }
            // A global phase is unobservable (and `ctrl @ gphase` keeps no operands in the ASG).
            Stmt::GPhaseCall(g) => self
                .angle(g.arg(), &[], pos)?
                .value()
                .map(|_| ())
                .map_err(|m| pos.error(m.into())),
            Stmt::Assignment(a) => {
                let Expr::MeasureExpression(m) = a.rvalue().expression() else {
                    return Err(pos.error(Kind::ClassicalAssignment));
                };
                let qubits = self.operand(true, m.operand(), pos)?;
                let bits = match a.lvalue() {
                    asg::LValue::Identifier(id) => self.register(false, id, None, pos)?,
                    asg::LValue::IndexedIdentifier(ii) => self.indexed(false, ii, pos)?,
                };
                self.env.check_measure(&qubits, &bits, pos)?;
                if cases.len() > 1 {
                    return Err(pos.error(Kind::MeasureInCases { cases: cases.len() }));
                }
                for cond in cases.iter() {
                    self.env.measure(&qubits, &bits, cond, pos)?;
                }
                Ok(())
            }
            Stmt::Reset(r) => {
                let qubits = self.operand(true, r.gate_operand(), pos)?;
                for cond in cases.iter() {
                    self.env.reset(&qubits, cond, pos)?;
                }
                Ok(())
            }
            Stmt::Delay(d) => {
                let duration = delay_nanoseconds(d.duration()).map_err(|found| {
                    pos.error(Kind::DelayDuration {
                        found: found.into(),
                    })
                })?;
                for operand in d.qubits() {
                    let qubits = self.operand(true, operand, pos)?;
                    for cond in cases.iter() {
                        self.env.delay(&qubits, duration, cond, pos)?;
                    }
                }
                Ok(())
            }
            Stmt::Barrier(_) => Ok(()),
            Stmt::If(i) => self.if_statement(i, node, cases, pos),
            Stmt::ForStmt(f) => self.for_loop(f, node, cases, pos),
            Stmt::DeclareQuantum(_) | Stmt::DeclareClassical(_) | Stmt::GateDefinition(_) => {
                Err(pos.error(Kind::DeclarationInIf))
            }
            other => Err(pos.error(Kind::UnsupportedStatement {
                statement: statement_kind(other).into(),
                gate: None,
            })),
        }
    }

    fn call_parts<'c>(&self, c: &'c asg::GateCall, pos: Pos) -> Result<Call<'c>, ImportError> {
        let mods = c
            .modifiers()
            .iter()
            .map(|m| self.modifier(m, pos))
            .collect::<Result<_, _>>()?;
        Ok(Call {
            mods,
            name: self.name(c.name(), pos)?.to_string(),
            params: c.params(),
            operands: c.qubits(),
        })
    }

    fn modifier(&self, m: &GateModifier, pos: Pos) -> Result<Mod, ImportError> {
        let count = |e: &Option<TExpr>| -> Result<usize, ImportError> {
            let Some(e) = e else { return Ok(1) };
            match self.integer(e, pos)? {
                Some(n) if n >= 1 => usize::try_from(n).map_err(|_| pos.error(Kind::ControlCount)),
                _ => Err(pos.error(Kind::ControlCount)),
            }
        };
        match m {
            GateModifier::Inv => Ok(Mod::Inv),
            GateModifier::Ctrl(e) => Ok(Mod::Ctrl(count(e)?)),
            GateModifier::NegCtrl(e) => Ok(Mod::NegCtrl(count(e)?)),
            GateModifier::Pow(_) => Err(pos.error(Kind::Pow)),
        }
    }

    /// The value of an integer expression (literals and loop variables; `None`: not an
    /// integer).
    pub(crate) fn integer(&self, e: &TExpr, pos: Pos) -> Result<Option<i128>, ImportError> {
        crate::angle3::integer(e, &|id| self.symbol(id, pos), pos)
    }

    /// An angle expression, typed as OpenQASM 3 types it (`angle3.rs`); `params` names
    /// the enclosing gate's parameters (symbolic).
    fn angle(&self, e: &TExpr, params: &[String], pos: Pos) -> Result<AngleExpr, ImportError> {
        crate::angle3::angle(e, params, &|id| self.symbol(id, pos), pos)
    }

    fn gate_definition(
        &mut self,
        g: &asg::GateDefinition,
        node: Option<&SyntaxNode>,
        pos: Pos,
    ) -> Result<(), ImportError> {
        let name = self.name(g.name(), pos)?.to_string();
        let params: Vec<String> = g
            .params()
            .unwrap_or_default()
            .iter()
            .map(|p| self.name(p, pos).map(str::to_string))
            .collect::<Result<_, _>>()?;
        let qargs = g.qubits();
        let syntax = node
            .and_then(|n| synast::Gate::cast(n.clone()))
            .and_then(|g| g.body())
            .map(|b| block_statements(&b))
            .unwrap_or_default();
        let mut body = Vec::new();
        for (k, stmt) in g.block().statements().iter().enumerate() {
            let cpos = self.pos(syntax.get(k)).or(pos);
            let c = match stmt {
                Stmt::GateCall(c) => c,
                Stmt::GPhaseCall(p) => {
                    body.push(BodyCall {
                        mods: Vec::new(),
                        name: "gphase".into(),
                        params: vec![self.angle(p.arg(), &params, cpos)?],
                        args: Vec::new(),
                        pos: cpos,
                    });
                    continue;
                }
                Stmt::Barrier(_) => continue,
                other => {
                    return Err(cpos.error(Kind::UnsupportedStatement {
                        statement: statement_kind(other).into(),
                        gate: Some(name.clone()),
                    }))
                }
            };
            let call = self.call_parts(c, cpos)?;
            let args = call
                .operands
                .iter()
                .map(|e| match e.expression() {
                    Expr::GateOperand(asg::GateOperand::Identifier(Ok(id))) => {
                        qargs.iter().position(|q| q.as_ref().ok() == Some(id))
                    }
                    _ => None,
                })
                .collect::<Option<Vec<usize>>>()
                .ok_or_else(|| cpos.error(Kind::GateBodyOperand { gate: name.clone() }))?;
            let exprs = call
                .params
                .unwrap_or_default()
                .iter()
                .map(|e| self.angle(e, &params, cpos))
                .collect::<Result<_, _>>()?;
            body.push(BodyCall {
                mods: call.mods,
                name: call.name,
                params: exprs,
                args,
                pos: cpos,
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

trait OrPos {
    fn or(self, other: Pos) -> Pos;
}

impl OrPos for Pos {
    /// This position, or `other` when unknown.
    fn or(self, other: Pos) -> Pos {
        if self.offset.is_none() {
            other
        } else {
            self
        }
    }
}

/// Where `register[index]` is written in the statement `node`: the first operand that names
/// the register with that index written as an integer, else the first that names the register
/// (an index written as an expression), else none.
fn operand_offset(node: &SyntaxNode, register: &str, index: usize) -> Option<usize> {
    let named: Vec<synast::IndexedIdentifier> = node
        .descendants()
        .filter_map(synast::IndexedIdentifier::cast)
        .filter(|ii| {
            ii.syntax()
                .children()
                .find_map(synast::Identifier::cast)
                .is_some_and(|name| name.syntax().text() == register)
        })
        .collect();
    let written_index = |ii: &synast::IndexedIdentifier| {
        let op = ii.index_operators().next()?;
        let text = op.syntax().text().to_string();
        let digits: String = text
            .chars()
            .filter(|c| !matches!(c, '[' | ']' | '_') && !c.is_whitespace())
            .collect();
        digits.parse::<usize>().ok()
    };
    named
        .iter()
        .find(|ii| written_index(ii) == Some(index))
        .or(named.first())
        .map(|ii| ii.syntax().text_range().start().into())
}

/// Where every `bits = measure qubits;` of the program starts.
fn measurement_offsets(file: &synast::SourceFile) -> HashSet<usize> {
    file.syntax()
        .descendants()
        .filter(|n| n.kind() == oq3_syntax::SyntaxKind::ASSIGNMENT_STMT)
        .filter(|n| {
            n.children().last().map(|c| c.kind())
                == Some(oq3_syntax::SyntaxKind::MEASURE_EXPRESSION)
        })
        .map(|n| n.text_range().start().into())
        .collect()
}

/// The statements of a block's syntax node, in order.
pub(crate) fn block_statements(block: &synast::BlockExpr) -> Vec<SyntaxNode> {
    block.statements().map(|s| s.syntax().clone()).collect()
}

/// A delay's duration in nanoseconds, from its literal; what it is instead, in words.
fn delay_nanoseconds(duration: &asg::TExpr) -> Result<f64, &'static str> {
    let (value, unit) = match duration.expression() {
        Expr::Literal(asg::Literal::TimingIntLiteral(t)) => (*t.value() as f64, t.time_unit()),
        Expr::Literal(asg::Literal::TimingFloatLiteral(t)) => (*t.value(), t.time_unit()),
        _ => return Err("an expression that is not a duration literal"),
    };
    let scale = match unit {
        asg::TimeUnit::Second => 1e9,
        asg::TimeUnit::MilliSecond => 1e6,
        asg::TimeUnit::MicroSecond => 1e3,
        asg::TimeUnit::NanoSecond => 1.0,
        asg::TimeUnit::Cycle => return Err("a duration in dt (the device's sample time)"),
    };
    qc_ir::check_delay(value * scale).map_err(|_| "a duration that is not finite")
}

/// A statement the importer does not read, in words.
fn statement_kind(stmt: &Stmt) -> &'static str {
    match stmt {
        Stmt::While(_) => "`while` loop",
        Stmt::SwitchCaseStmt(_) => "`switch`",
        Stmt::DefStmt(_) => "`def` subroutine",
        Stmt::Delay(_) => "`delay`",
        Stmt::Box => "`box`",
        Stmt::Break | Stmt::Continue | Stmt::End => "`break`, `continue` or `end`",
        Stmt::Cal | Stmt::DefCal => "calibration block",
        Stmt::Extern => "`extern`",
        Stmt::InputDeclaration(_) | Stmt::OutputDeclaration(_) => "`input`/`output` declaration",
        Stmt::Pragma(_) | Stmt::AnnotatedStmt(_) => "pragma or annotation",
        Stmt::ModifiedGPhaseCall(_) => "modified `gphase`",
        Stmt::DeclareHardwareQubit(_) => "hardware qubit declaration",
        Stmt::OldStyleDeclaration => "`qreg`/`creg` declaration",
        Stmt::ExprStmt(_) => "expression statement",
        Stmt::Block(_) => "block",
        Stmt::Alias(_) => "`let` alias",
        Stmt::Assignment(_) => "measurement or assignment",
        Stmt::Reset(_) => "`reset`",
        Stmt::If(_) => "`if`",
        Stmt::ForStmt(_) => "`for` loop",
        Stmt::DeclareQuantum(_) | Stmt::DeclareClassical(_) => "declaration",
        Stmt::GateDefinition(_) => "gate definition",
        Stmt::Include(_) => "`include`",
        Stmt::GateCall(_) | Stmt::GPhaseCall(_) | Stmt::Barrier(_) => "gate call",
        Stmt::NullStmt => "empty statement",
    }
}

/// Why a name did not resolve, in words.
fn unresolved(e: &SymbolError) -> &'static str {
    match e {
        SymbolError::MissingBinding => "the name is not declared",
        SymbolError::AlreadyBound => "the name is already declared",
    }
}

/// A semantic error of `oq3_semantics` in words, at its position, quoting the construct.
fn semantic_error(src: &str, e: &SemanticError, stdgates: bool) -> ImportError {
    use SemanticErrorKind::*;
    let range = e.range();
    let (start, end) = (usize::from(range.start()), usize::from(range.end()));
    let quoted: String = src.get(start..end).unwrap_or("").chars().take(60).collect();
    let problem = match e.kind() {
        UndefVarError => SemanticProblem::UndeclaredName,
        UndefGateError if stdgates => SemanticProblem::UnknownGate,
        UndefGateError => SemanticProblem::UnknownGateNoStdgates,
        RedeclarationError(name) => SemanticProblem::Redeclared { name: name.clone() },
        ConstIntegerError => SemanticProblem::ConstInteger,
        IncompatibleTypesError => SemanticProblem::IncompatibleTypes,
        IncompatibleDimensionError => SemanticProblem::IncompatibleDimensions,
        TooManyIndexes => SemanticProblem::TooManyIndexes,
        CastError => SemanticProblem::Cast,
        MutateConstError => SemanticProblem::MutateConst,
        NotInGlobalScopeError => SemanticProblem::NotGlobal,
        IncludeNotInGlobalScopeError => SemanticProblem::IncludeNotGlobal,
        ReturnInGlobalScopeError => SemanticProblem::ReturnInGlobalScope,
        NumGateParamsError => SemanticProblem::GateParams,
        NumGateQubitsError => SemanticProblem::GateQubits,
    };
    Pos::of_offset(start).error(Kind::Semantic {
        problem,
        text: quoted.trim().to_string(),
    })
}

#[cfg(test)]
mod stdgates_tests {
    use super::oq3_stdgates;
    use qc_ir::gate_data::{qasm_forms, Home};

    /// The gate table's `stdgates` flag (docs/gates.md shows it, exporters rely on it) must agree
    /// with what oq3_semantics defines for `include "stdgates.inc";` (plus its builtin `U`):
    /// a gate marked standard that oq3 does not know would be written without a definition.
    #[test]
    fn every_gate_marked_stdgates_is_defined_by_stdgates_inc() {
        let known = oq3_stdgates();
        let missing: Vec<&str> = qasm_forms()
            .filter(|f| matches!(f.home, Home::Standard { stdgates: true, .. }))
            .map(|f| f.name)
            .filter(|name| !known.contains(*name))
            .collect();
        assert!(
            missing.is_empty(),
            "marked stdgates but not in stdgates.inc: {missing:?}"
        );
    }
}
