//! OpenQASM 3 semantics against a second evaluator: the input seeds a generator of small
//! programs whose gate angles are constant expressions (integer literals in decimal, hex, octal
//! and binary, float literals, `pi`/`tau`/`euler` and their symbols, `+ - * /`, unary minus,
//! parentheses) and a user gate whose parameters may be named like the constants. This module
//! evaluates every angle itself, by the typing docs/backends.md states (an operation of two
//! integers is an integer, integer division rounds toward minus infinity and by zero is an
//! error; anything with a float is float arithmetic; a gate's parameters are angles and shadow
//! the constants they are named like), builds the circuit it expects gate by gate, and compares
//! its unitary with that of the circuit `qc_export::import_qasm` reads (up to a global phase).
//! A program read differently, refused though valid, or accepted with an integer division by
//! zero is a failure.

use qc_ir::{Circuit, Control, Gate, Instruction, Qubit};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::f64::consts::{E, PI, TAU};

/// The deepest expression generated (kept small: integers stay far below 128 bits, and the
/// importer's limits on nesting and operators are never reached).
const MAX_DEPTH: u32 = 3;
/// Angles beyond this are not compared (an ulp of a huge angle moves its sine visibly).
const LARGEST_COMPARED_ANGLE: f64 = 1e4;
/// How close the two unitaries must be, entry by entry, up to a global phase.
const TOLERANCE: f64 = 1e-9;

/// A named constant and how it is written.
#[derive(Copy, Clone, Debug)]
enum Constant {
    Pi,
    Tau,
    Euler,
}

impl Constant {
    fn value(self) -> f64 {
        match self {
            Constant::Pi => PI,
            Constant::Tau => TAU,
            Constant::Euler => E,
        }
    }
}

/// A binary operator.
#[derive(Copy, Clone, Debug, PartialEq)]
enum Op {
    Add,
    Sub,
    Mul,
    Div,
}

impl Op {
    fn symbol(self) -> &'static str {
        match self {
            Op::Add => "+",
            Op::Sub => "-",
            Op::Mul => "*",
            Op::Div => "/",
        }
    }

    fn precedence(self) -> u8 {
        match self {
            Op::Add | Op::Sub => 1,
            Op::Mul | Op::Div => 2,
        }
    }
}

/// A constant expression, with how each leaf is spelled.
#[derive(Clone, Debug)]
enum Expr {
    /// An integer literal and its text (`12`, `0xC`, `0o14`, `0b1100`).
    Int(i128, String),
    /// A float literal's text (`1.5`, `.25`, `2e-1`).
    Float(String),
    /// A constant and its spelling (`pi` or `π`, ...).
    Constant(Constant, &'static str),
    /// A gate parameter, by position (only inside the gate).
    Param(usize),
    /// Unary minus.
    Neg(Box<Expr>),
    /// A binary operation.
    Bin(Op, Box<Expr>, Box<Expr>),
}

/// A value as OpenQASM 3 types it.
#[derive(Copy, Clone, Debug, PartialEq)]
enum Value {
    Int(i128),
    Float(f64),
}

impl Value {
    fn float(self) -> f64 {
        match self {
            Value::Int(i) => i as f64,
            Value::Float(f) => f,
        }
    }
}

/// Why an expression has no value.
#[derive(Clone, Debug, PartialEq)]
enum Refusal {
    /// An integer division by zero (the importer must refuse the program).
    DivisionByZero,
    /// An integer out of 128 bits (never generated; kept for honesty).
    Overflow,
}

/// The names a gate's parameters have (the body sees them before the constants).
struct Scope<'a> {
    params: &'a [&'a str],
    values: &'a [f64],
}

fn evaluate(expr: &Expr, scope: Option<&Scope<'_>>) -> Result<Value, Refusal> {
    Ok(match expr {
        Expr::Int(v, _) => Value::Int(*v),
        Expr::Float(text) => Value::Float(text.replace('_', "").parse().unwrap_or(f64::NAN)),
        Expr::Constant(c, spelling) => {
            // Inside a gate, a parameter named like a constant is the parameter.
            match scope.and_then(|s| s.params.iter().position(|p| p == spelling)) {
                Some(k) => Value::Float(scope.map_or(f64::NAN, |s| s.values[k])),
                None => Value::Float(c.value()),
            }
        }
        Expr::Param(k) => Value::Float(scope.map_or(f64::NAN, |s| s.values[*k])),
        Expr::Neg(inner) => match evaluate(inner, scope)? {
            Value::Int(i) => Value::Int(i.checked_neg().ok_or(Refusal::Overflow)?),
            Value::Float(f) => Value::Float(-f),
        },
        Expr::Bin(op, left, right) => {
            let (a, b) = (evaluate(left, scope)?, evaluate(right, scope)?);
            match (a, b) {
                (Value::Int(a), Value::Int(b)) => Value::Int(match op {
                    Op::Add => a.checked_add(b).ok_or(Refusal::Overflow)?,
                    Op::Sub => a.checked_sub(b).ok_or(Refusal::Overflow)?,
                    Op::Mul => a.checked_mul(b).ok_or(Refusal::Overflow)?,
                    Op::Div => floor_div(a, b)?,
                }),
                _ => {
                    let (a, b) = (a.float(), b.float());
                    Value::Float(match op {
                        Op::Add => a + b,
                        Op::Sub => a - b,
                        Op::Mul => a * b,
                        Op::Div => a / b,
                    })
                }
            }
        }
    })
}

/// Integer division rounding toward minus infinity (Python's `//`, as Qiskit's importer).
fn floor_div(a: i128, b: i128) -> Result<i128, Refusal> {
    if b == 0 {
        return Err(Refusal::DivisionByZero);
    }
    let q = a.checked_div(b).ok_or(Refusal::Overflow)?;
    Ok(if (a % b != 0) && ((a < 0) != (b < 0)) {
        q - 1
    } else {
        q
    })
}

/// Writes `expr`, with the parentheses precedence needs and now and then some it does not.
fn print(expr: &Expr, params: &[&str], rng: &mut ChaCha8Rng) -> String {
    match expr {
        Expr::Int(_, text) | Expr::Float(text) => text.clone(),
        Expr::Constant(_, spelling) => spelling.to_string(),
        Expr::Param(k) => params[*k].to_string(),
        Expr::Neg(inner) => {
            let text = print(inner, params, rng);
            match **inner {
                Expr::Bin(..) | Expr::Neg(_) => format!("-({text})"),
                _ => format!("-{text}"),
            }
        }
        Expr::Bin(op, left, right) => {
            let wrap = |child: &Expr, right_side: bool, rng: &mut ChaCha8Rng| {
                let text = print(child, params, rng);
                let needed = match child {
                    Expr::Bin(inner, ..) => {
                        inner.precedence() < op.precedence()
                            || (right_side && inner.precedence() == op.precedence())
                    }
                    _ => false,
                };
                if needed || rng.gen_ratio(1, 6) {
                    format!("({text})")
                } else {
                    text
                }
            };
            let l = wrap(left, false, rng);
            let r = wrap(right, true, rng);
            let space = if rng.gen_bool(0.5) { " " } else { "" };
            format!("{l}{space}{}{space}{r}", op.symbol())
        }
    }
}

/// A random integer literal: its value and one of its spellings.
fn int_literal(rng: &mut ChaCha8Rng) -> Expr {
    let v: i128 = if rng.gen_ratio(1, 5) {
        0
    } else {
        rng.gen_range(1..=40)
    };
    let text = match rng.gen_range(0..6) {
        0 => format!("{v:#x}"),
        1 => format!("0X{v:X}"),
        2 => format!("0o{v:o}"),
        3 => format!("0b{v:b}"),
        _ => v.to_string(),
    };
    Expr::Int(v, text)
}

fn float_literal(rng: &mut ChaCha8Rng) -> Expr {
    const FLOATS: [&str; 9] = [
        "1.5", ".25", "2.", "0.1", "1e-1", "2.5E1", "3.0", "0.5", "1.0",
    ];
    Expr::Float(FLOATS[rng.gen_range(0..FLOATS.len())].to_string())
}

fn constant(rng: &mut ChaCha8Rng) -> Expr {
    const SPELLINGS: [(Constant, &str); 6] = [
        (Constant::Pi, "pi"),
        (Constant::Pi, "π"),
        (Constant::Tau, "tau"),
        (Constant::Tau, "τ"),
        (Constant::Euler, "euler"),
        (Constant::Euler, "ℇ"),
    ];
    let (c, s) = SPELLINGS[rng.gen_range(0..SPELLINGS.len())];
    Expr::Constant(c, s)
}

/// A random expression; `params` parameters may appear (inside a gate).
fn expression(rng: &mut ChaCha8Rng, depth: u32, params: usize) -> Expr {
    if depth == 0 || rng.gen_ratio(1, 3) {
        return match rng.gen_range(0..10) {
            0..=3 => int_literal(rng),
            4 | 5 => float_literal(rng),
            6 | 7 if params > 0 => Expr::Param(rng.gen_range(0..params)),
            _ => constant(rng),
        };
    }
    if rng.gen_ratio(1, 6) {
        return Expr::Neg(Box::new(expression(rng, depth - 1, params)));
    }
    let op = [Op::Add, Op::Sub, Op::Mul, Op::Div][rng.gen_range(0..4)];
    Expr::Bin(
        op,
        Box::new(expression(rng, depth - 1, params)),
        Box::new(expression(rng, depth - 1, params)),
    )
}

/// One generated program: its text, and the circuit expected (`Err`: it must be refused).
struct Program {
    text: String,
    expected: Result<Option<Circuit>, Refusal>,
}

/// The gate parameters' possible names: plain ones and ones that shadow a constant.
const PARAM_NAMES: [[&str; 3]; 2] = [["a", "pi", "θ"], ["b", "tau", "euler"]];

fn generate(rng: &mut ChaCha8Rng) -> Program {
    let params = [
        PARAM_NAMES[0][rng.gen_range(0..3)],
        PARAM_NAMES[1][rng.gen_range(0..3)],
    ];
    let body: Vec<Expr> = (0..3).map(|_| expression(rng, MAX_DEPTH, 2)).collect();
    let top: Vec<Expr> = (0..5).map(|_| expression(rng, MAX_DEPTH, 0)).collect();
    let version = if rng.gen_bool(0.5) { "3.0" } else { "3" };
    let p = |e: &Expr, rng: &mut ChaCha8Rng| print(e, &params, rng);
    let body_text = [
        format!("ry({}) x;", p(&body[0], rng)),
        "cx x, y;".to_string(),
        format!("rz({}) y;", p(&body[1], rng)),
        format!("rx({}) x;", p(&body[2], rng)),
    ]
    .join(" ");
    let text = format!(
        "OPENQASM {version};\ninclude \"stdgates.inc\";\ngate g({}, {}) x, y {{ {body_text} }}\n\
         qubit[2] q;\nh q[0];\nh q[1];\nrx({}) q[0];\nry({}) q[1];\ng({}, {}) q[0], q[1];\n\
         rz({}) q[0];\n",
        params[0],
        params[1],
        p(&top[0], rng),
        p(&top[1], rng),
        p(&top[2], rng),
        p(&top[3], rng),
        p(&top[4], rng),
    );
    Program {
        text,
        expected: expected_circuit(&params, &body, &top),
    }
}

/// The circuit the program means, from this module's own evaluation (`Ok(None)`: an angle too
/// large or not finite to compare).
fn expected_circuit(
    params: &[&str; 2],
    body: &[Expr],
    top: &[Expr],
) -> Result<Option<Circuit>, Refusal> {
    let t: Vec<f64> = top
        .iter()
        .map(|e| evaluate(e, None).map(Value::float))
        .collect::<Result<_, _>>()?;
    let scope = Scope {
        params,
        values: &t[2..4],
    };
    let b: Vec<f64> = body
        .iter()
        .map(|e| evaluate(e, Some(&scope)).map(Value::float))
        .collect::<Result<_, _>>()?;
    if t.iter()
        .chain(&b)
        .any(|a| !a.is_finite() || a.abs() > LARGEST_COMPARED_ANGLE)
    {
        return Ok(None);
    }
    let (q0, q1) = (Qubit(0), Qubit(1));
    let mut c = Circuit::with_plain_qubits(2, 0);
    for instruction in [
        Gate::H.on(&[q0]),
        Gate::H.on(&[q1]),
        Gate::Rx(t[0]).on(&[q0]),
        Gate::Ry(t[1]).on(&[q1]),
        Gate::Ry(b[0]).on(&[q0]),
        Instruction::gate(Gate::X, &[q1], &[Control::one(q0)]),
        Gate::Rz(b[1]).on(&[q1]),
        Gate::Rx(b[2]).on(&[q0]),
        Gate::Rz(t[4]).on(&[q0]),
    ] {
        c.push(instruction);
    }
    Ok(Some(c))
}

/// Generates the input's program, reads it, and compares.
pub fn run(input: &str) -> Result<(), String> {
    let mut rng = ChaCha8Rng::seed_from_u64(crate::fnv1a(input.as_bytes()));
    let program = generate(&mut rng);
    let read = qc_export::import_qasm(&program.text);
    let fail = |why: String| Err(format!("{why}\n--- program ---\n{}", program.text));
    match (program.expected, read) {
        (Err(refusal), Ok(_)) => fail(format!("accepted, but it must be refused: {refusal:?}")),
        (Err(_), Err(_)) | (Ok(None), _) => Ok(()),
        (Ok(Some(_)), Err(e)) => fail(format!("a valid program is refused: {e}")),
        (Ok(Some(expected)), Ok(circuit)) => {
            let want = expected
                .unitary()
                .map_err(|e| format!("the expected circuit: {e}"))?;
            let got = match circuit.unitary() {
                Ok(u) => u,
                Err(e) => return fail(format!("the circuit read has no unitary: {e}")),
            };
            if got.dim() == want.dim() && got.approx_eq_up_to_phase(&want, TOLERANCE) {
                Ok(())
            } else {
                fail(format!(
                    "read as another circuit:\n{circuit}\nexpected:\n{expected}"
                ))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn int(v: i128) -> Box<Expr> {
        Box::new(Expr::Int(v, v.to_string()))
    }

    #[test]
    fn the_evaluator_types_as_documented() {
        // 1/2 of two integers is 0; -3/2 is -2 (floor), -(3/2) is -1, 7/-2 is -4.
        let div = |a, b| Expr::Bin(Op::Div, a, b);
        assert_eq!(evaluate(&div(int(1), int(2)), None), Ok(Value::Int(0)));
        let minus3 = Box::new(Expr::Neg(int(3)));
        assert_eq!(evaluate(&div(minus3, int(2)), None), Ok(Value::Int(-2)));
        let neg = Expr::Neg(Box::new(div(int(3), int(2))));
        assert_eq!(evaluate(&neg, None), Ok(Value::Int(-1)));
        let minus2 = Box::new(Expr::Neg(int(2)));
        assert_eq!(evaluate(&div(int(7), minus2), None), Ok(Value::Int(-4)));
        assert_eq!(
            evaluate(&div(int(1), int(0)), None),
            Err(Refusal::DivisionByZero)
        );
        // A parameter named pi shadows the constant; π spelled otherwise does not.
        let scope = Scope {
            params: &["pi", "b"],
            values: &[0.25, 0.5],
        };
        let pi = Expr::Constant(Constant::Pi, "pi");
        assert_eq!(evaluate(&pi, Some(&scope)), Ok(Value::Float(0.25)));
        let symbol = Expr::Constant(Constant::Pi, "π");
        assert_eq!(evaluate(&symbol, Some(&scope)), Ok(Value::Float(PI)));
    }

    #[test]
    fn generated_programs_read_as_evaluated() {
        for k in 0..300 {
            if let Err(e) = run(&k.to_string()) {
                panic!("input {k}: {e}");
            }
        }
    }
}
