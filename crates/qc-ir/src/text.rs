//! The IR text format: one instruction per line, deterministic, parsed back exactly.
//!
//! ```text
//! qcir 1
//! qubits a1 b1 c3 path0 meas0
//! clbits 1
//! alloc meas0
//! x meas0 ctrl(a1=1)                 # move 1 capture_jump
//! measure meas0 -> c0                # move 1 capture_jump
//! if c0==1: iswap a1, c3             # move 1 capture_jump
//! siswap b1, c3
//! ry(pi/4) a1
//! ```
//!
//! * `qubits` lists qubit names in index order (several `qubits` lines append): a grid site
//!   (`e4`), an ancilla (`path0`, `cap0`, `meas0`, `anc0`: kind prefix and ordinal), or a plain
//!   qubit (`q<index>`).
//! * `clbits N` declares the classical bits `c0..c{N-1}` (default: enough for the bits used).
//! * A gate is its canonical name ([`crate::Gate::name`]) with angles in parentheses (numbers or
//!   expressions in `pi`), its targets separated by commas, then optional controls
//!   `ctrl(q=1, r=0)`.
//! * `measure Q -> cK`, `reset Q`, `alloc Q`, `free Q`.
//! * `delay(120ns) Q`: `Q` waits 120 nanoseconds (any finite, non-negative number; the identity
//!   for a simulator, a timed wait for a schedule and the noisy simulator).
//! * `if cK==V: ...` conditions an instruction on a classical bit.
//! * `#` starts a comment. A trailing comment of exactly the form `# move N RULE` is the
//!   instruction's origin and is kept; other comments are ignored.

use crate::angle::{format_angle, parse_angle};
use crate::circuit::{AncillaKind, Circuit, QubitRole};
use crate::error::IrError;
use crate::gate::GateKind;
use crate::guard::Guard;
use crate::ids::{Clbit, Qubit, Site};
use crate::instruction::{Condition, Control, Instruction, Op, Origin, Polarity};
use std::borrow::Cow;
use std::collections::HashMap;
use std::fmt::Write;

/// Names per `qubits` line when printing.
const QUBITS_PER_LINE: usize = 16;

/// Prints a circuit in the text format.
pub fn print(circuit: &Circuit) -> String {
    let names = circuit.qubit_names();
    let mut out = String::from("qcir 1\n");
    for chunk in names.chunks(QUBITS_PER_LINE) {
        let _ = writeln!(out, "qubits {}", chunk.join(" "));
    }
    let _ = writeln!(out, "clbits {}", circuit.num_clbits());
    for instr in circuit.instructions() {
        out.push_str(&print_instruction(instr, &names));
        out.push('\n');
    }
    out
}

/// Prints one instruction (no newline), naming qubits with `names`.
pub fn print_instruction(instr: &Instruction, names: &[String]) -> String {
    let name = |q: &Qubit| {
        names
            .get(q.index())
            .cloned()
            .unwrap_or_else(|| q.to_string())
    };
    let mut line = String::new();
    if let Some(guard) = &instr.condition {
        let tests: Vec<String> = guard
            .conditions()
            .iter()
            .map(|c| format!("{}=={}", c.clbit, u8::from(c.value)))
            .collect();
        let _ = write!(line, "if {}: ", tests.join(" && "));
    }
    match &instr.op {
        Op::Gate {
            gate,
            targets,
            controls,
        } => {
            let _ = write!(
                line,
                "{gate} {}",
                targets.iter().map(name).collect::<Vec<_>>().join(", ")
            );
            if !controls.is_empty() {
                let list: Vec<String> = controls
                    .iter()
                    .map(|c| format!("{}={}", name(&c.qubit), u8::from(c.on.value())))
                    .collect();
                let _ = write!(line, " ctrl({})", list.join(", "));
            }
        }
        Op::UserGate { gate, targets, .. } => {
            // The text format has no gate definitions: a user gate is written as its body (the
            // exact inlined form, each line with the controls, condition and origin) after a
            // comment naming it; reading the text back gives the body's gates.
            line.clear();
            let _ = write!(
                line,
                "# user gate {} {}, written as its body",
                gate.name(),
                targets.iter().map(name).collect::<Vec<_>>().join(", ")
            );
            for inner in crate::user_gate::inline_instruction(instr).unwrap_or_default() {
                let _ = write!(line, "\n{}", print_instruction(&inner, names));
            }
            return line;
        }
        Op::Measure { qubit, clbit } => {
            let _ = write!(line, "measure {} -> {clbit}", name(qubit));
        }
        Op::Reset { qubit } => {
            let _ = write!(line, "reset {}", name(qubit));
        }
        Op::Alloc { qubit } => {
            let _ = write!(line, "alloc {}", name(qubit));
        }
        Op::Free { qubit } => {
            let _ = write!(line, "free {}", name(qubit));
        }
        Op::Delay { qubit, duration } => {
            // `{}` of an f64 is its shortest exact form: the text reads back the same number.
            let _ = write!(line, "delay({duration}ns) {}", name(qubit));
        }
    }
    if let Some(origin) = &instr.origin {
        let _ = write!(line, "  # move {} {}", origin.move_index, origin.rule);
    }
    line
}

/// The most classical bits a circuit in the text format may declare or use (the same cap as the
/// OpenQASM readers' registers): the register is allocated whole, so an unchecked count would let
/// a one-line file ask for gigabytes.
pub const MAX_CLBITS: u32 = 1 << 16;

/// Parses the text format.
pub fn parse(text: &str) -> Result<Circuit, IrError> {
    let mut parser = TextParser::default();
    for (index, raw) in text.lines().enumerate() {
        parser.line(index + 1, raw)?;
    }
    let num_clbits = match parser.declared_clbits {
        Some(n) => n,
        None => parser.max_clbit.map_or(0, |m| m + 1),
    };
    Ok(Circuit::from_parts(
        parser.roles,
        num_clbits,
        parser.instructions,
    ))
}

#[derive(Default)]
struct TextParser {
    roles: Vec<QubitRole>,
    names: HashMap<String, Qubit>,
    declared_clbits: Option<u32>,
    max_clbit: Option<u32>,
    instructions: Vec<Instruction>,
}

/// A cursor over one line, tracking the column for error messages.
struct Cursor<'a> {
    line: usize,
    text: &'a str,
    pos: usize,
}

impl<'a> Cursor<'a> {
    fn error(&self, message: impl Into<String>) -> IrError {
        let column = self.text[..self.pos.min(self.text.len())].chars().count() + 1;
        IrError::Parse {
            line: self.line,
            column,
            message: message.into(),
        }
    }

    fn rest(&self) -> &'a str {
        &self.text[self.pos..]
    }

    fn skip_ws(&mut self) {
        let trimmed = self.rest().trim_start();
        self.pos = self.text.len() - trimmed.len();
    }

    fn at_end(&mut self) -> bool {
        self.skip_ws();
        self.pos >= self.text.len()
    }

    fn eat(&mut self, token: &str) -> bool {
        self.skip_ws();
        if self.rest().starts_with(token) {
            self.pos += token.len();
            true
        } else {
            false
        }
    }

    fn expect(&mut self, token: &str, what: &str) -> Result<(), IrError> {
        if self.eat(token) {
            Ok(())
        } else {
            Err(self.error(format!(
                "expected `{token}` {what}, found `{}`",
                self.peek_word()
            )))
        }
    }

    fn peek_word(&self) -> String {
        let rest = self.rest().trim_start();
        let end = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        if end == 0 {
            rest.chars()
                .next()
                .map(String::from)
                .unwrap_or_else(|| "end of line".into())
        } else {
            rest[..end].to_string()
        }
    }

    /// A word of letters, digits and `_`.
    fn word(&mut self, what: &str) -> Result<&'a str, IrError> {
        self.skip_ws();
        let rest = self.rest();
        let end = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_'))
            .unwrap_or(rest.len());
        if end == 0 {
            return Err(self.error(format!("expected {what}, found `{}`", self.peek_word())));
        }
        self.pos += end;
        Ok(&rest[..end])
    }

    /// Text up to the matching `)` (the opening `(` already eaten).
    fn until_close_paren(&mut self) -> Result<&'a str, IrError> {
        let rest = self.rest();
        let mut depth = 0usize;
        for (i, c) in rest.char_indices() {
            match c {
                '(' => depth += 1,
                ')' if depth == 0 => {
                    self.pos += i + 1;
                    return Ok(&rest[..i]);
                }
                ')' => depth -= 1,
                _ => {}
            }
        }
        Err(self.error("missing `)`"))
    }
}

fn role_from_name(name: &str) -> Option<QubitRole> {
    if let Some(site) = Site::parse(name) {
        return Some(QubitRole::Site(site));
    }
    for kind in AncillaKind::ALL {
        if let Some(digits) = name.strip_prefix(kind.prefix()) {
            if !digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit()) {
                return Some(QubitRole::Ancilla(kind));
            }
        }
    }
    let digits = name.strip_prefix('q')?;
    (!digits.is_empty() && digits.chars().all(|c| c.is_ascii_digit())).then_some(QubitRole::Plain)
}

impl TextParser {
    fn line(&mut self, line_no: usize, raw: &str) -> Result<(), IrError> {
        // Split off the comment; it may carry the origin.
        let (code, comment) = match raw.find('#') {
            Some(i) => (&raw[..i], Some(raw[i + 1..].trim())),
            None => (raw, None),
        };
        let mut cur = Cursor {
            line: line_no,
            text: code,
            pos: 0,
        };
        if cur.at_end() {
            return Ok(());
        }
        let start = cur.pos;
        let keyword = cur.word("an instruction")?;
        match keyword {
            "qcir" => {
                let version = cur.word("a version number")?;
                if version != "1" {
                    cur.pos = start;
                    return Err(cur.error(format!(
                        "unsupported qcir version `{version}` (this reader knows 1)"
                    )));
                }
            }
            "qubits" => {
                while !cur.at_end() {
                    let at = cur.pos;
                    let name = cur.word("a qubit name")?;
                    let role = role_from_name(name).ok_or_else(|| {
                        cur.pos = at;
                        cur.error(format!(
                            "`{name}` is not a qubit name (a site like `e4`, `path0`, `cap0`, `meas0`, `anc0` or `q0`)"
                        ))
                    })?;
                    if self.names.contains_key(name) {
                        cur.pos = at;
                        return Err(cur.error(format!("qubit `{name}` is declared twice")));
                    }
                    let q = Qubit(self.roles.len() as u32);
                    self.roles.push(role);
                    self.names.insert(name.to_string(), q);
                }
            }
            "clbits" => {
                cur.skip_ws();
                let at = cur.pos;
                let n = cur.word("a number of clbits")?;
                let count: u32 = n.parse().map_err(|_| {
                    cur.pos = at;
                    cur.error(format!("`{n}` is not a number of clbits"))
                })?;
                if count > MAX_CLBITS {
                    cur.pos = at;
                    return Err(cur.error(format!(
                        "`clbits {count}` is more than the {MAX_CLBITS} classical bits a circuit may have"
                    )));
                }
                self.declared_clbits = Some(count);
            }
            _ => {
                cur.pos = start;
                let mut instr = self.instruction(&mut cur)?;
                if !cur.at_end() {
                    return Err(cur.error(format!(
                        "unexpected `{}` after the instruction",
                        cur.peek_word()
                    )));
                }
                instr.origin = comment.and_then(parse_origin);
                self.instructions.push(instr);
            }
        }
        if !cur.at_end() {
            return Err(cur.error(format!("unexpected `{}`", cur.peek_word())));
        }
        Ok(())
    }

    fn qubit(&self, cur: &mut Cursor) -> Result<Qubit, IrError> {
        let at = cur.pos;
        let name = cur.word("a qubit name")?;
        self.names.get(name).copied().ok_or_else(|| {
            cur.pos = at;
            cur.error(format!(
                "unknown qubit `{name}` (declare it in a `qubits` line)"
            ))
        })
    }

    fn clbit(&mut self, cur: &mut Cursor) -> Result<Clbit, IrError> {
        let at = cur.pos;
        let word = cur.word("a classical bit like `c0`")?;
        let index: u32 = word
            .strip_prefix('c')
            .and_then(|d| d.parse().ok())
            .ok_or_else(|| {
                cur.pos = at;
                cur.error(format!(
                    "`{word}` is not a classical bit (expected `c0`, `c1`, ...)"
                ))
            })?;
        if index >= MAX_CLBITS {
            cur.pos = at;
            return Err(cur.error(format!(
                "classical bit `{word}` is beyond the {MAX_CLBITS} classical bits a circuit may have"
            )));
        }
        if let Some(n) = self.declared_clbits {
            if index >= n {
                cur.pos = at;
                return Err(cur.error(format!("classical bit `{word}` is beyond `clbits {n}`")));
            }
        }
        self.max_clbit = Some(self.max_clbit.map_or(index, |m| m.max(index)));
        Ok(Clbit(index))
    }

    fn instruction(&mut self, cur: &mut Cursor) -> Result<Instruction, IrError> {
        let mut condition = None;
        let save = cur.pos;
        if cur.word("an instruction")? == "if" {
            // `if c0==1:` or several bits, all of which must hold: `if c0==1 && c1==0:`.
            let mut tests = Vec::new();
            loop {
                let clbit = self.clbit(cur)?;
                cur.expect("==", "in a condition `if c0==1:`")?;
                let value = match cur.word("0 or 1")? {
                    "0" => false,
                    "1" => true,
                    other => {
                        return Err(
                            cur.error(format!("a condition compares with 0 or 1, not `{other}`"))
                        )
                    }
                };
                tests.push(Condition { clbit, value });
                if !cur.eat("&&") {
                    break;
                }
            }
            let at = cur.pos;
            cur.expect(":", "after the condition")?;
            condition = Some(Guard::all(tests).map_err(|e| {
                cur.pos = at;
                cur.error(format!("{e}"))
            })?);
        } else {
            cur.pos = save;
        }
        let at = cur.pos;
        let name = cur.word("an instruction")?;
        let op = match name {
            "measure" => {
                let qubit = self.qubit(cur)?;
                cur.expect("->", "after the measured qubit")?;
                let clbit = self.clbit(cur)?;
                Op::Measure { qubit, clbit }
            }
            "reset" => Op::Reset {
                qubit: self.qubit(cur)?,
            },
            "alloc" => Op::Alloc {
                qubit: self.qubit(cur)?,
            },
            "free" => Op::Free {
                qubit: self.qubit(cur)?,
            },
            "delay" => {
                cur.expect("(", "after `delay` (a delay is `delay(120ns) q0`)")?;
                let body_at = cur.pos;
                let body = cur.until_close_paren()?;
                let number = body.trim().strip_suffix("ns").ok_or_else(|| {
                    cur.pos = body_at;
                    cur.error(format!(
                        "a delay's duration is in nanoseconds, written `120ns`, not `{body}`"
                    ))
                })?;
                let duration = number
                    .trim()
                    .parse::<f64>()
                    .ok()
                    .and_then(|d| crate::instruction::check_delay(d).ok())
                    .ok_or_else(|| {
                        cur.pos = body_at;
                        cur.error(format!(
                            "`{}` is not a delay's duration (a finite number of nanoseconds, not negative)",
                            body.trim()
                        ))
                    })?;
                Op::Delay {
                    qubit: self.qubit(cur)?,
                    duration,
                }
            }
            _ => self.gate(cur, name, at)?,
        };
        Ok(Instruction {
            op,
            condition,
            origin: None,
        })
    }

    fn gate(&mut self, cur: &mut Cursor, name: &str, at: usize) -> Result<Op, IrError> {
        let Some(kind) = GateKind::from_ir_name(name) else {
            cur.pos = at;
            return Err(cur.error(format!("unknown instruction or gate `{name}`")));
        };
        let mut params = Vec::new();
        if cur.eat("(") {
            let body_at = cur.pos;
            let body = cur.until_close_paren()?;
            let mut piece_at = body_at;
            for piece in body.split(',') {
                params.push(parse_angle(piece).map_err(|e| {
                    // Point at the offending character: the piece's start plus the error's offset.
                    let offset: usize = piece
                        .chars()
                        .take(e.offset().unwrap_or(0))
                        .map(char::len_utf8)
                        .sum();
                    cur.pos = piece_at + offset;
                    cur.error(e.to_string())
                })?);
                piece_at += piece.len() + 1;
            }
        }
        let expected = kind.info().params;
        if params.len() != expected {
            return Err(cur.error(format!(
                "gate `{name}` takes {expected} angle(s), got {}",
                params.len()
            )));
        }
        let gate = kind
            .with_params(&params)
            .ok_or_else(|| cur.error(format!("bad gate `{name}`")))?;
        let mut targets = Vec::new();
        loop {
            targets.push(self.qubit(cur)?);
            if !cur.eat(",") {
                break;
            }
        }
        if targets.len() != gate.num_targets() {
            return Err(cur.error(format!(
                "gate `{name}` takes {} target(s), got {}",
                gate.num_targets(),
                targets.len()
            )));
        }
        let mut controls = Vec::new();
        let save = cur.pos;
        if !cur.at_end() && cur.word("`ctrl(`").ok() == Some("ctrl") {
            cur.expect("(", "after `ctrl`")?;
            loop {
                let qubit = self.qubit(cur)?;
                cur.expect("=", "between a control qubit and its value")?;
                let on = match cur.word("0 or 1")? {
                    "1" => Polarity::One,
                    "0" => Polarity::Zero,
                    other => {
                        return Err(cur.error(format!("a control value is 0 or 1, not `{other}`")))
                    }
                };
                controls.push(Control { qubit, on });
                if cur.eat(")") {
                    break;
                }
                cur.expect(",", "between controls")?;
            }
        } else {
            cur.pos = save;
        }
        Ok(Op::Gate {
            gate,
            targets: targets.into(),
            controls: controls.into(),
        })
    }
}

/// `move N RULE` -> origin; anything else is a plain comment.
fn parse_origin(comment: &str) -> Option<Origin> {
    let mut words = comment.split_whitespace();
    if words.next()? != "move" {
        return None;
    }
    let move_index: u32 = words.next()?.parse().ok()?;
    let rule = words.next()?;
    if words.next().is_some() {
        return None;
    }
    Some(Origin {
        move_index,
        rule: Cow::Owned(rule.to_string()),
    })
}

/// Formats an angle for the text format (re-exported for printers of other formats).
pub fn angle(value: f64) -> String {
    format_angle(value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::builder::CircuitBuilder;
    use crate::gate::Gate;
    use std::f64::consts::PI;

    fn sample() -> Circuit {
        let mut b = CircuitBuilder::new();
        let a1 = b.site(Site::parse("a1").unwrap());
        let b1 = b.site(Site::parse("b1").unwrap());
        let c3 = b.site(Site::parse("c3").unwrap());
        b.set_origin(Some(Origin::new(1, "capture_jump")));
        let m = b.alloc_ancilla(AncillaKind::Measure);
        b.cx(&[Control::one(a1)], m);
        let c = b.measure(m);
        b.conditioned(c, true, |b| {
            b.iswap(a1, c3);
            b.x(m);
        });
        b.free_ancilla(m);
        b.set_origin(None);
        b.gate(Gate::SqrtISwap, &[b1, c3], &[Control::zero(a1)]);
        b.gate(Gate::Ry(PI / 4.0), &[a1], &[]);
        b.gate(
            Gate::U(0.1, -0.2, 1e-17),
            &[b1],
            &[Control::one(c3), Control::zero(a1)],
        );
        let p = b.alloc_ancilla(AncillaKind::Path);
        b.free_ancilla(p);
        b.finish().unwrap()
    }

    #[test]
    fn print_then_parse_gives_the_same_circuit() {
        let c = sample();
        let text = print(&c);
        let back = parse(&text).unwrap();
        assert_eq!(back, c);
        assert_eq!(print(&back), text);
    }

    #[test]
    fn printed_form_is_readable() {
        let text = print(&sample());
        assert!(text.contains("qubits a1 b1 c3 meas0 path0\n"), "{text}");
        assert!(
            text.contains("x meas0 ctrl(a1=1)  # move 1 capture_jump\n"),
            "{text}"
        );
        assert!(
            text.contains("if c0==1: iswap a1, c3  # move 1 capture_jump\n"),
            "{text}"
        );
        assert!(text.contains("siswap b1, c3 ctrl(a1=0)\n"), "{text}");
        assert!(text.contains("ry(pi/4) a1\n"), "{text}");
    }

    /// Circuit files written before the rename say `sqiswap`; they still read.
    #[test]
    fn the_old_sqiswap_spelling_still_reads() {
        let old =
            parse("qcir 1\nqubits a1 b1\nclbits 0\nsqiswap a1, b1\nsqiswapdg a1, b1\n").unwrap();
        let new =
            parse("qcir 1\nqubits a1 b1\nclbits 0\nsiswap a1, b1\nsiswapdg a1, b1\n").unwrap();
        assert_eq!(old, new);
        assert!(print(&old).contains("siswap a1, b1\nsiswapdg a1, b1\n"));
    }

    #[test]
    fn json_round_trip() {
        let c = sample();
        let json = serde_json::to_string(&c).unwrap();
        let back: Circuit = serde_json::from_str(&json).unwrap();
        assert_eq!(back, c);
    }

    fn parse_err(text: &str) -> (usize, usize, String) {
        match parse(text) {
            Err(IrError::Parse {
                line,
                column,
                message,
            }) => (line, column, message),
            other => panic!("expected a parse error, got {other:?}"),
        }
    }

    #[test]
    fn errors_name_line_column_and_reason() {
        let (line, column, msg) = parse_err("qubits q0 q1\nh q0\ncx q0, q1\n");
        assert_eq!((line, column), (3, 1));
        assert!(msg.contains("unknown instruction or gate `cx`"), "{msg}");

        let (line, column, msg) = parse_err("qubits q0\nh q7\n");
        assert_eq!((line, column), (2, 3));
        assert!(msg.contains("unknown qubit `q7`"), "{msg}");

        let (_, _, msg) = parse_err("qubits q0 q1\niswap q0\n");
        assert!(msg.contains("takes 2 target(s)"), "{msg}");

        let (_, _, msg) = parse_err("qubits q0\nrx q0\n");
        assert!(msg.contains("takes 1 angle(s), got 0"), "{msg}");

        let (_, _, msg) = parse_err("qubits q0\nrx(tau) q0\n");
        assert!(msg.contains("unknown name `tau`"), "{msg}");

        let (_, column, msg) = parse_err("qubits q0 zz\n");
        assert_eq!(column, 11);
        assert!(msg.contains("`zz` is not a qubit name"), "{msg}");

        let (_, _, msg) = parse_err("qubits q0 q0\n");
        assert!(msg.contains("declared twice"), "{msg}");

        let (_, _, msg) = parse_err("qubits q0\nclbits 1\nmeasure q0 -> c3\n");
        assert!(msg.contains("beyond `clbits 1`"), "{msg}");

        let (_, _, msg) = parse_err("qubits q0 q1\nx q0 ctrl(q1=2)\n");
        assert!(msg.contains("0 or 1"), "{msg}");

        let (_, _, msg) = parse_err("qcir 2\n");
        assert!(msg.contains("unsupported qcir version"), "{msg}");

        let (_, _, msg) = parse_err("qubits q0\nh q0 q0\n");
        assert!(msg.contains("unexpected `q0`"), "{msg}");
    }

    #[test]
    fn huge_clbit_counts_and_indices_are_refused_before_any_allocation() {
        let (line, column, msg) = parse_err("qubits q0\nclbits 4294967295\n");
        assert_eq!((line, column), (2, 8), "{msg}");
        assert!(msg.contains("65536"), "{msg}");
        let (_, _, msg) = parse_err("qubits q0\nmeasure q0 -> c4000000000\n");
        assert!(msg.contains("c4000000000"), "{msg}");
        let (_, _, msg) = parse_err("qubits q0\nmeasure q0 -> c65536\n");
        assert!(msg.contains("beyond the 65536"), "{msg}");
        assert_eq!(
            parse("qubits q0\nclbits 65536\n").unwrap().num_clbits(),
            65536
        );
    }

    #[test]
    fn clbits_default_to_those_used_and_plain_comments_are_ignored() {
        let c = parse("# a Bell pair\nqubits q0 q1\nh q0  # not an origin\nx q1 ctrl(q0=1)\nmeasure q0 -> c0\nmeasure q1 -> c1\n").unwrap();
        assert_eq!(c.num_clbits(), 2);
        assert_eq!(c.instructions().len(), 4);
        assert!(c.instructions().iter().all(|i| i.origin.is_none()));
    }
}
