//! Valid OpenQASM 3 that `oq3_parser` 0.7 does not read, rewritten into the equivalent text it
//! reads, before anything else sees the program:
//!
//! - `OPENQASM 3;`: an integer version (Braket's examples write it) becomes `OPENQASM 3.0;`
//!   (the parser expects a decimal).
//! - `if (c[0]) x q[1];` and `else x q[1];`: a body that is one statement without braces gets
//!   them (the parser expects a block); a braceless body that is itself an `if`, and `else if`,
//!   are refused (the parser would drop an `else if` without a word); a braced `if` inside an
//!   `if` is read as it is.
//! - `measure q -> c;` and `measure q[0] -> c[0];`, OpenQASM 3's legacy measurement (the parser
//!   stops on the arrow), become `c = measure q;` and `c[0] = measure q[0];`.
//! - `if (!c[0])` and `if (!c)`, as Qiskit writes a test of a bit for 0, become
//!   `if (c[0] == 0)` and `if (c == 0)` (the semantic pass panics on `!`); `if (bool(c))`, as
//!   Qiskit writes a test of a register for nonzero, becomes `if (c)`.
//! - `for i in [0:3]` without the loop variable's type, as older programs write it, becomes
//!   `for int i in [0:3]` (the parser needs the type).
//! - `.25`: a float literal without digits before its point becomes `0.25` (the lexer reads
//!   `.` and `25` as two tokens, and the parser refuses the `.`).
//! - `0X1F`, `0B11` (and `0O17`): an integer's base prefix in capitals becomes `0x`, `0b`, `0o`
//!   (the syntax tree only knows the lower-case prefixes and read the rest as a suffix: the value
//!   was silently 0). The specification allows `0X` and `0B`; `0O` is read the same way.
//! - `barrier;` with no operands (a barrier on every qubit) is blanked out: barriers are ignored
//!   anyway, and the semantic pass panics on one without operands.
//! - Physical qubits `$k` (a device program, as qchess and Qiskit write a routed circuit) become
//!   `__hw[ k]` of a register `qubit[n] __hw;` declared first (after the version and the
//!   includes), `n` one more than the largest `k`: `$k` is qubit `k` of the circuit. The
//!   semantic pass does not read hardware qubits; the register's size goes through the same
//!   checks as any declaration.
//!
//! The rewrite only inserts characters or overwrites them with spaces (keeping line breaks), and
//! [`Rewritten::user_offset`] maps a byte offset in the rewritten text back to the user's, so every
//! error still names the user's line and column. One pass over the tokens (`oq3_lexer`, the
//! parser's own lexer), with bracket pairs found once, so the work is linear in the text.

use crate::env::{Pos, MAX_REGISTER};
use crate::error::{ImportError, ImportErrorKind as Kind};
use oq3_lexer::{LiteralKind, TokenKind};

/// The program as `oq3_parser` reads it, and how to get back to the user's offsets.
#[derive(Debug)]
pub(crate) struct Rewritten {
    /// The rewritten text.
    pub text: String,
    /// The insertions: where in the user's text (byte offset) and how many bytes, in order.
    inserts: Vec<(usize, usize)>,
}

impl Rewritten {
    /// The byte offset in the user's text of byte `offset` of the rewritten text (an inserted
    /// character maps to the user's character it was inserted before).
    pub fn user_offset(&self, offset: usize) -> usize {
        let mut shift = 0;
        for &(at, len) in &self.inserts {
            let start = at + shift;
            if offset < start {
                break;
            }
            if offset < start + len {
                return at;
            }
            shift += len;
        }
        offset - shift
    }
}

/// A token that is not whitespace or a comment: its kind and byte range.
#[derive(Copy, Clone, Debug)]
struct Tok {
    kind: TokenKind,
    start: usize,
    end: usize,
}

/// One change to the text at a byte offset.
#[derive(Debug)]
enum Edit {
    /// Insert this text.
    Insert(String),
    /// Overwrite up to this offset with spaces (line breaks kept).
    Blank(usize),
    /// Overwrite up to this offset with its ASCII lower case (same length).
    Lowercase(usize),
}

/// Rewrites `src` (see the module docs). Errors carry offsets in `src`.
pub(crate) fn rewrite(src: &str) -> Result<Rewritten, ImportError> {
    let toks = significant_tokens(src);
    let text = |t: &Tok| &src[t.start..t.end];
    let is_word = |i: usize, word: &str| {
        toks.get(i)
            .is_some_and(|t| t.kind == TokenKind::Ident && text(t) == word)
    };
    let closing = closing_brackets(&toks);
    let mut edits: Vec<(usize, Edit)> = Vec::new();

    if is_word(0, "OPENQASM") {
        if let Some(version) = toks.get(1) {
            let integer = matches!(
                version.kind,
                TokenKind::Literal {
                    kind: LiteralKind::Int { .. },
                    ..
                }
            );
            if integer {
                edits.push((version.end, Edit::Insert(".0".into())));
            }
        }
    }

    let mut i = 0;
    while i < toks.len() {
        let body_start = if is_word(i, "if") {
            // The body follows the condition's closing parenthesis.
            match (toks.get(i + 1), closing[i + 1..].first().copied().flatten()) {
                (Some(t), Some(close)) if t.kind == TokenKind::OpenParen => Some(close + 1),
                _ => None,
            }
        } else if is_word(i, "else") {
            if is_word(i + 1, "if") {
                return Err(Pos::of_offset(toks[i].start).error(Kind::ElseIf));
            }
            Some(i + 1)
        } else if is_word(i, "barrier")
            && toks.get(i + 1).is_some_and(|t| t.kind == TokenKind::Semi)
        {
            edits.push((toks[i].start, Edit::Blank(toks[i + 1].end)));
            i += 2;
            continue;
        } else {
            None
        };
        let Some(body) = body_start else {
            i += 1;
            continue;
        };
        match toks.get(body) {
            Some(t) if t.kind == TokenKind::OpenBrace => i = body,
            Some(t) if text(t) == "if" && t.kind == TokenKind::Ident => {
                return Err(Pos::of_offset(t.start).error(Kind::NestedIf));
            }
            Some(first) => match statement_end(&toks, &closing, body) {
                Some(end) => {
                    edits.push((first.start, Edit::Insert("{".into())));
                    edits.push((toks[end].end, Edit::Insert("}".into())));
                    // The body is read on (a `barrier;` in it); being one statement, it
                    // holds no `if`/`else` of its own, so no token is scanned a third time.
                    i = body;
                }
                // No `;`: the parser reports what is missing.
                None => i = body,
            },
            None => i = body,
        }
    }
    arrow_measurements(src, &toks, &closing, &mut edits);
    negated_conditions(src, &toks, &closing, &mut edits);
    untyped_loop_variables(src, &toks, &mut edits);
    hardware_qubits(src, &toks, &mut edits)?;
    leading_point_floats(src, &toks, &mut edits);
    capital_base_prefixes(src, &toks, &mut edits);
    Ok(apply(src, edits))
}

/// Edits that read `measure a -> b;` as `b = measure a;`: `b = ` is inserted before `measure`
/// and the arrow and `b` are blanked (the `;` stays). A statement without its `;` is left to the
/// parser.
fn arrow_measurements(
    src: &str,
    toks: &[Tok],
    closing: &[Option<usize>],
    edits: &mut Vec<(usize, Edit)>,
) {
    let text = |t: &Tok| &src[t.start..t.end];
    for (i, t) in toks.iter().enumerate() {
        if t.kind != TokenKind::Ident || text(t) != "measure" {
            continue;
        }
        let Some(end) = statement_end(toks, closing, i) else {
            continue;
        };
        let arrow = (i + 1..end).find(|&j| {
            toks[j].kind == TokenKind::Minus
                && toks[j + 1].kind == TokenKind::Gt
                && toks[j].end == toks[j + 1].start
        });
        let Some(arrow) = arrow else { continue };
        let target = src[toks[arrow + 1].end..toks[end].start].trim();
        if target.is_empty() {
            continue;
        }
        edits.push((t.start, Edit::Insert(format!("{target} = "))));
        edits.push((toks[arrow].start, Edit::Blank(toks[end].start)));
    }
}

/// Edits that read `if (!x)` as `if (x == 0)` and `if (bool(x))` as `if (x)` when `x` is a name
/// or one indexed name (the whole condition), as Qiskit writes a test for 0 and for nonzero.
fn negated_conditions(
    src: &str,
    toks: &[Tok],
    closing: &[Option<usize>],
    edits: &mut Vec<(usize, Edit)>,
) {
    let text = |t: &Tok| &src[t.start..t.end];
    for i in 0..toks.len() {
        if toks[i].kind != TokenKind::Ident || text(&toks[i]) != "if" {
            continue;
        }
        let (Some(open), Some(bang)) = (toks.get(i + 1), toks.get(i + 2)) else {
            continue;
        };
        let Some(close) = closing[i + 1] else {
            continue;
        };
        if open.kind != TokenKind::OpenParen {
            continue;
        }
        // `bool(x)`: the cast and its parentheses go.
        let cast = text(bang) == "bool"
            && toks
                .get(i + 3)
                .is_some_and(|t| t.kind == TokenKind::OpenParen)
            && closing[i + 3] == Some(close - 1);
        if cast && is_operand(toks, closing, i + 4, close - 1) {
            edits.push((bang.start, Edit::Blank(toks[i + 3].end)));
            edits.push((toks[close - 1].start, Edit::Blank(toks[close - 1].end)));
            continue;
        }
        if bang.kind != TokenKind::Bang {
            continue;
        }
        if is_operand(toks, closing, i + 3, close) {
            edits.push((bang.start, Edit::Blank(bang.end)));
            edits.push((toks[close].start, Edit::Insert(" == 0".into())));
        }
    }
}

/// Whether tokens `from..to` are a name (`c`) or a name with one index (`c[0]`), and nothing
/// else.
fn is_operand(toks: &[Tok], closing: &[Option<usize>], from: usize, to: usize) -> bool {
    let plain = from + 1 == to;
    let indexed = toks
        .get(from + 1)
        .is_some_and(|t| t.kind == TokenKind::OpenBracket)
        && closing[from + 1] == Some(to - 1);
    toks.get(from).is_some_and(|t| t.kind == TokenKind::Ident) && (plain || indexed)
}

/// The name a loop variable written `_` gets (the parser does not take `_` as a name).
const UNNAMED_LOOP_VARIABLE: &str = "__loop";

/// Edits that read `for i in` as `for int i in`, and a loop variable `_` (Qiskit's, for a loop
/// whose body does not read it) as a name.
fn untyped_loop_variables(src: &str, toks: &[Tok], edits: &mut Vec<(usize, Edit)>) {
    let word = |t: &Tok, w: &str| t.kind == TokenKind::Ident && &src[t.start..t.end] == w;
    for (i, t) in toks.iter().enumerate() {
        if !word(t, "for") {
            continue;
        }
        // The variable is the token before `in` (after a type of a few tokens: `uint[8]`).
        let Some(var) = (i + 1..toks.len().min(i + 8)).find(|&j| word(&toks[j], "in")) else {
            continue;
        };
        let Some(var) = var.checked_sub(1).filter(|&v| v > i) else {
            continue;
        };
        if var == i + 1 && toks[var].kind == TokenKind::Ident {
            edits.push((toks[var].start, Edit::Insert("int ".into())));
        }
        if word(&toks[var], "_") {
            edits.push((toks[var].start, Edit::Insert(UNNAMED_LOOP_VARIABLE.into())));
            edits.push((toks[var].start, Edit::Blank(toks[var].end)));
        }
    }
}

/// Edits that write an integer's capital base prefix (`0X`, `0B`, `0O`) in lower case.
fn capital_base_prefixes(src: &str, toks: &[Tok], edits: &mut Vec<(usize, Edit)>) {
    for t in toks {
        let integer = matches!(
            t.kind,
            TokenKind::Literal {
                kind: LiteralKind::Int { .. },
                ..
            }
        );
        if integer && matches!(src.get(t.start..t.start + 2), Some("0X" | "0B" | "0O")) {
            edits.push((t.start + 1, Edit::Lowercase(t.start + 2)));
        }
    }
}

/// Edits that write `0` before a float literal that starts with its point (`.25`, `.5e-3`),
/// which the lexer splits into a `.` and a decimal number. A `.` appears nowhere else in
/// OpenQASM 3, so a `.` directly followed by decimal digits is such a literal.
fn leading_point_floats(src: &str, toks: &[Tok], edits: &mut Vec<(usize, Edit)>) {
    for pair in toks.windows(2) {
        let (dot, number) = (&pair[0], &pair[1]);
        let digits = &src[number.start..number.end];
        let decimal = matches!(number.kind, TokenKind::Literal { .. })
            && digits.starts_with(|c: char| c.is_ascii_digit())
            && digits
                .bytes()
                .all(|b| b.is_ascii_digit() || matches!(b, b'_' | b'e' | b'E' | b'+' | b'-'));
        if dot.kind == TokenKind::Dot && dot.end == number.start && decimal {
            edits.push((dot.start, Edit::Insert("0".into())));
        }
    }
}

/// The register that stands for physical qubits `$k`.
const HARDWARE_REGISTER: &str = "__hw";

/// Edits that read physical qubits `$k` as `__hw[ k]` of a register declared after the version
/// and the includes (see the module docs). A `$k` beyond the largest register is refused at its
/// position; one that is not a number is left to the parser's checks.
fn hardware_qubits(
    src: &str,
    toks: &[Tok],
    edits: &mut Vec<(usize, Edit)>,
) -> Result<(), ImportError> {
    let mut largest: Option<usize> = None;
    for t in toks.iter().filter(|t| t.kind == TokenKind::HardwareIdent) {
        let digits = &src[t.start + 1..t.end];
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        let k = digits
            .parse::<usize>()
            .ok()
            .filter(|k| *k < MAX_REGISTER)
            .ok_or_else(|| {
                Pos::of_offset(t.start).error(Kind::PhysicalQubitTooLarge {
                    digits: digits.into(),
                    max: MAX_REGISTER,
                })
            })?;
        largest = Some(largest.map_or(k, |l| l.max(k)));
        edits.push((t.start, Edit::Insert(format!("{HARDWARE_REGISTER}["))));
        edits.push((t.start, Edit::Blank(t.start + 1)));
        edits.push((t.end, Edit::Insert("]".into())));
    }
    let Some(largest) = largest else {
        return Ok(());
    };
    // After `OPENQASM ...;` and every `include ...;` that opens the program.
    let mut at = 0usize;
    let mut i = 0usize;
    while let Some(t) = toks.get(i) {
        let word = &src[t.start..t.end];
        if t.kind != TokenKind::Ident || !matches!(word, "OPENQASM" | "include") {
            break;
        }
        let Some(semi) = toks[i..].iter().position(|t| t.kind == TokenKind::Semi) else {
            break;
        };
        at = toks[i + semi].end;
        i += semi + 1;
    }
    edits.push((
        at,
        Edit::Insert(format!("\nqubit[{}] {HARDWARE_REGISTER};", largest + 1)),
    ));
    Ok(())
}

/// Every token but whitespace and comments.
fn significant_tokens(src: &str) -> Vec<Tok> {
    let mut toks = Vec::new();
    let mut start = 0usize;
    for token in oq3_lexer::tokenize(src) {
        let end = start + token.len as usize;
        if !matches!(
            token.kind,
            TokenKind::Whitespace | TokenKind::LineComment | TokenKind::BlockComment { .. }
        ) {
            toks.push(Tok {
                kind: token.kind,
                start,
                end,
            });
        }
        start = end;
    }
    toks
}

/// For each opening bracket (`(`, `[`, `{`), the index of the token that closes it (`None` for
/// other tokens and for brackets without a matching partner).
fn closing_brackets(toks: &[Tok]) -> Vec<Option<usize>> {
    let mut closing = vec![None; toks.len()];
    let mut open: Vec<(usize, TokenKind)> = Vec::new();
    for (k, t) in toks.iter().enumerate() {
        let partner = match t.kind {
            TokenKind::OpenParen | TokenKind::OpenBracket | TokenKind::OpenBrace => {
                open.push((k, t.kind));
                continue;
            }
            TokenKind::CloseParen => TokenKind::OpenParen,
            TokenKind::CloseBracket => TokenKind::OpenBracket,
            TokenKind::CloseBrace => TokenKind::OpenBrace,
            _ => continue,
        };
        if let Some(&(at, kind)) = open.last() {
            if kind == partner {
                open.pop();
                closing[at] = Some(k);
            }
        }
    }
    closing
}

/// The index of the `;` that ends the statement starting at token `from` (brackets skipped
/// whole); `None` when a `}` or the end of the text comes first.
fn statement_end(toks: &[Tok], closing: &[Option<usize>], from: usize) -> Option<usize> {
    let mut k = from;
    while let Some(t) = toks.get(k) {
        match t.kind {
            TokenKind::Semi => return Some(k),
            TokenKind::CloseBrace => return None,
            TokenKind::OpenParen | TokenKind::OpenBracket | TokenKind::OpenBrace => {
                k = closing[k]?;
            }
            _ => {}
        }
        k += 1;
    }
    None
}

/// The text with the edits applied (sorted by offset; an insertion before a blanking at the
/// same offset).
fn apply(src: &str, mut edits: Vec<(usize, Edit)>) -> Rewritten {
    edits.sort_by_key(|(at, edit)| (*at, matches!(edit, Edit::Blank(_))));
    let mut text = String::with_capacity(src.len() + 2 * edits.len());
    let mut inserts = Vec::new();
    let mut cursor = 0usize;
    for (at, edit) in edits {
        text.push_str(&src[cursor..at]);
        cursor = at;
        match edit {
            Edit::Insert(s) => {
                text.push_str(&s);
                inserts.push((at, s.len()));
            }
            Edit::Blank(end) => {
                text.extend(
                    src[at..end]
                        .bytes()
                        .map(|b| if b == b'\n' { '\n' } else { ' ' }),
                );
                cursor = end;
            }
            Edit::Lowercase(end) => {
                text.push_str(&src[at..end].to_ascii_lowercase());
                cursor = end;
            }
        }
    }
    text.push_str(&src[cursor..]);
    Rewritten { text, inserts }
}

#[cfg(test)]
mod tests {
    use super::rewrite;

    fn rewritten(src: &str) -> String {
        rewrite(src).expect("rewrites").text
    }

    #[test]
    fn braceless_bodies_get_braces() {
        assert_eq!(
            rewritten("if (c[0]) x q[1]; else z q[1];"),
            "if (c[0]) {x q[1];} else {z q[1];}"
        );
        assert_eq!(
            rewritten("if (c[0] == 1) rz(f(1, 2)) q;"),
            "if (c[0] == 1) {rz(f(1, 2)) q;}"
        );
        let braced = "if (c[0]) { x q[1]; } else { z q; }";
        assert_eq!(rewritten(braced), braced);
    }

    #[test]
    fn a_float_that_starts_with_its_point_gets_a_zero() {
        assert_eq!(
            rewritten("rx(.25) q; ry(2*.5e-1) q; rz(1.5) q;"),
            "rx(0.25) q; ry(2*0.5e-1) q; rz(1.5) q;"
        );
    }

    #[test]
    fn a_capital_base_prefix_becomes_lower_case() {
        assert_eq!(
            rewritten("rx(0X1F + 0B11 + 0O17 + 0x1F + 0E0) q;"),
            "rx(0x1F + 0b11 + 0o17 + 0x1F + 0E0) q;"
        );
    }

    #[test]
    fn an_integer_version_becomes_decimal() {
        assert_eq!(rewritten("OPENQASM 3;\n"), "OPENQASM 3.0;\n");
        assert_eq!(rewritten("OPENQASM 3.0;\n"), "OPENQASM 3.0;\n");
        assert_eq!(rewritten("// v\nOPENQASM 3 ;"), "// v\nOPENQASM 3.0 ;");
    }

    #[test]
    fn a_barrier_without_operands_is_blanked() {
        assert_eq!(rewritten("barrier;\nbarrier q;"), "        \nbarrier q;");
        assert_eq!(rewritten("barrier\n;"), "       \n ");
        assert_eq!(rewritten("if (c) barrier;"), "if (c) {        }");
    }

    #[test]
    fn offsets_map_back_to_the_users_text() {
        let src = "OPENQASM 3;\nif (c) x q; y q;";
        let r = rewrite(src).expect("rewrites");
        let y = r.text.find("y q").expect("y");
        assert_eq!(r.user_offset(y), src.find("y q").expect("y"));
        let brace = r.text.find('{').expect("{");
        assert_eq!(r.user_offset(brace), src.find("x q").expect("x"));
    }

    #[test]
    fn physical_qubits_become_a_register_declared_first() {
        assert_eq!(
            rewritten("OPENQASM 3.0;\ninclude \"stdgates.inc\";\ncz $3, $12;\nbit[1] c;\nc[0] = measure $0;"),
            "OPENQASM 3.0;\ninclude \"stdgates.inc\";\nqubit[13] __hw;\ncz __hw[ 3], __hw[ 12];\nbit[1] c;\nc[0] = measure __hw[ 0];"
        );
        assert_eq!(rewritten("x $0;"), "\nqubit[1] __hw;x __hw[ 0];");
        let plain = "qubit[2] q;\ncz q[0], q[1];";
        assert_eq!(rewritten(plain), plain);
    }

    #[test]
    fn else_if_and_a_nested_braceless_if_are_refused() {
        assert!(rewrite("if (a) { x q; } else if (b) { y q; }").is_err());
        assert!(rewrite("if (a) if (b) x q;").is_err());
    }
}
