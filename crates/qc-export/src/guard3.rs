//! What the OpenQASM 3 text must pass before `oq3_semantics` sees it.
//!
//! `oq3_semantics` 0.7 is a recursive-descent parser plus a semantic pass with about a hundred
//! `panic!`/`unwrap()` sites: it panics on constructs it does not implement (`!x`, `%`, `<`,
//! function calls, arrays, `let`, `measure q -> c;`, non-literal register sizes, integers above
//! `u128`, ...), and `parse_source_string` reads every `include`d file from disk (panicking when it
//! is missing) before any check. A panic must never reach a user, so nothing is handed to it that
//! could take one of those paths:
//!
//! 1. [`scan`] reads the raw text once, without recursion: comments and strings must be closed,
//!    brackets may nest at most [`MAX_NESTING`] deep, prefix operators chain at most
//!    [`MAX_PREFIX_CHAIN`] long and one statement has at most [`MAX_OPERATORS`] operators (the
//!    parser and the semantic pass recurse on all three).
//! 2. `oq3_syntax` parses the text into a lossless syntax tree (no includes are read, and its
//!    validation pass, which panics on some trees, is not run); its errors are reported with
//!    their position.
//! 3. [`check_syntax`] walks that tree (iteratively) and accepts only the node kinds of the subset
//!    the importer understands, with the operators, literals and includes the semantic pass
//!    handles without panicking. Everything else is an error naming the construct, line and
//!    column.
//!
//! Only then does the importer call `oq3_semantics`. The hostile-input tests in `tests/` drive
//! truncated, binary, deep and oversized inputs through the whole path.

use crate::env::Pos;
use crate::error::{ImportError, ImportErrorKind as Kind};
use oq3_syntax::{SyntaxKind, SyntaxNode};

/// Brackets (`(`, `[`, `{`) nest at most this deep.
pub const MAX_NESTING: usize = 64;
/// At most this many prefix operators (`-`, `+`, `!`, `~`) in a row.
pub const MAX_PREFIX_CHAIN: usize = 16;
/// At most this many operators in one statement (binary chains nest the syntax tree).
pub const MAX_OPERATORS: usize = 128;

/// Step 1: the raw-text checks (see the module docs).
pub fn scan(src: &str) -> Result<(), ImportError> {
    let at = Pos::of_offset;
    let bytes = src.as_bytes();
    let mut stack: Vec<usize> = Vec::new();
    let mut prefix_run = 0usize;
    let mut operators = 0usize;
    let mut i = 0usize;
    while i < bytes.len() {
        let c = bytes[i];
        match c {
            b'/' if bytes.get(i + 1) == Some(&b'/') => {
                i = src[i..].find('\n').map_or(bytes.len(), |n| i + n);
                continue;
            }
            b'/' if bytes.get(i + 1) == Some(&b'*') => {
                let end = src[i + 2..]
                    .find("*/")
                    .ok_or_else(|| at(i).error(Kind::UnterminatedComment))?;
                i += 2 + end + 2;
                continue;
            }
            b'"' => {
                let end = src[i + 1..]
                    .find(['"', '\n'])
                    .filter(|&n| bytes[i + 1 + n] == b'"')
                    .ok_or_else(|| at(i).error(Kind::UnterminatedString))?;
                i += 1 + end + 1;
                prefix_run = 0;
                continue;
            }
            // `oq3_parser` asserts (panics) on a set index `q[{...}]` in some contexts; sets
            // as indices are not supported anyway.
            b'[' if src[i + 1..].trim_start().starts_with('{') => {
                return Err(at(i).error(Kind::SetIndex));
            }
            // `oq3_parser` asserts (panics, without a place) on `delay q;`: a delay without
            // its duration in brackets is reported here, where the place is known.
            b'd' if starts_word(src, i, "delay") && !delay_has_duration(src, i) => {
                return Err(at(i).error(Kind::DelayDuration {
                    found: "no duration in brackets (`delay[120ns] q[0];`)".to_string(),
                }));
            }
            b'(' | b'[' | b'{' => {
                stack.push(i);
                if stack.len() > MAX_NESTING {
                    return Err(at(i).error(Kind::NestingTooDeep { max: MAX_NESTING }));
                }
            }
            b')' | b']' | b'}' => {
                stack.pop();
            }
            _ => {}
        }
        if matches!(c, b';' | b'{' | b'}') {
            operators = 0;
        }
        if b"+-*/%&|^<>=!~".contains(&c) {
            operators += 1;
            if operators > MAX_OPERATORS {
                return Err(at(i).error(Kind::TooManyOperators { max: MAX_OPERATORS }));
            }
        }
        if matches!(c, b'-' | b'+' | b'!' | b'~') {
            prefix_run += 1;
            if prefix_run > MAX_PREFIX_CHAIN {
                return Err(at(i).error(Kind::TooManySigns {
                    max: MAX_PREFIX_CHAIN,
                }));
            }
        } else if !c.is_ascii_whitespace() {
            prefix_run = 0;
        }
        i += 1;
    }
    Ok(())
}

/// True when the word `word` starts at byte `i` of `src` (not inside a longer identifier).
fn starts_word(src: &str, i: usize, word: &str) -> bool {
    let ident = |c: u8| c.is_ascii_alphanumeric() || c == b'_';
    let bytes = src.as_bytes();
    src[i..].starts_with(word)
        && (i == 0 || !ident(bytes[i - 1]))
        && bytes.get(i + word.len()).is_none_or(|&c| !ident(c))
}

/// True when the `delay` at byte `i` is followed (after white space) by `[`.
fn delay_has_duration(src: &str, i: usize) -> bool {
    src[i + "delay".len()..].trim_start().starts_with('[')
}

/// A readable name for a syntax kind the importer does not support.
fn construct(kind: SyntaxKind) -> String {
    use SyntaxKind::*;
    match kind {
        WHILE_STMT => "`while` loop".into(),
        SWITCH_CASE_STMT => "`switch`".into(),
        DEF => "`def` subroutine".into(),
        DEF_CAL | CAL | DEF_CAL_GRAMMAR => "calibration block".into(),
        DELAY_STMT => "`delay`".into(),
        BOX_EXPR => "`box`".into(),
        LET_STMT | ALIAS_DECLARATION_STATEMENT => "`let` alias".into(),
        I_O_DECLARATION_STATEMENT => "`input`/`output` declaration".into(),
        CALL_EXPR => "function call (only constant angles are supported)".into(),
        MEASURE => "`measure q -> c;` (write `c = measure q;` in OpenQASM 3)".into(),
        OLD_STYLE_DECLARATION_STATEMENT => {
            "`qreg`/`creg` in OpenQASM 3 (write `qubit[n] q;` / `bit[n] c;`)".into()
        }
        HARDWARE_QUBIT => "hardware qubit".into(),
        TIMING_LITERAL => "duration or imaginary literal".into(),
        POW_MODIFIER => "the `pow @` modifier".into(),
        ARRAY_EXPR | ARRAY_LITERAL | ARRAY_TYPE => "array".into(),
        RETURN_EXPR | END_STMT | BREAK_STMT | CONTINUE_STMT => "control flow statement".into(),
        CAST_EXPRESSION => "type cast".into(),
        PRAGMA_STATEMENT | ANNOTATION_STATEMENT => "pragma or annotation".into(),
        INDEX_EXPR => "indexed expression".into(),
        other => format!("{other:?}").to_lowercase().replace('_', " "),
    }
}

/// Step 3: only the node kinds, operators, literals and includes of the supported subset.
pub fn check_syntax(root: &SyntaxNode) -> Result<(), ImportError> {
    use SyntaxKind::*;
    for node in root.descendants() {
        let pos = || Pos::of_offset(node.text_range().start().into());
        match node.kind() {
            // Gate calls are statements: the semantic pass panics on one inside an expression
            // (`c[0] = h q[0];`).
            GATE_CALL_EXPR | G_PHASE_CALL_EXPR | MODIFIED_GATE_CALL_EXPR => {
                let parent = node.parent().map(|p| p.kind());
                let ok = match node.kind() {
                    MODIFIED_GATE_CALL_EXPR => parent == Some(EXPR_STMT),
                    _ => matches!(parent, Some(EXPR_STMT | MODIFIED_GATE_CALL_EXPR)),
                };
                if !ok {
                    return Err(pos().error(Kind::GateCallInExpression));
                }
                // The semantic pass unwraps the called gate's name (a mangled statement such as
                // `1.5 q;` parses as a gate call without one).
                if node.kind() == GATE_CALL_EXPR && !node.children().any(|c| c.kind() == IDENTIFIER)
                {
                    return Err(pos().error(Kind::GateCallWithoutName));
                }
            }
            // ... and the parameter list of a call (`h() q;` parses as one without a list).
            ARG_LIST => {
                if !node.children().any(|c| c.kind() == EXPRESSION_LIST) {
                    return Err(pos().error(Kind::EmptyParameterList));
                }
            }
            // Blocks belong to gate definitions, `if` and `for`; the semantic pass panics on
            // others.
            BLOCK_EXPR => {
                if !matches!(
                    node.parent().map(|p| p.kind()),
                    Some(GATE | IF_STMT | FOR_STMT)
                ) {
                    return Err(pos().error(Kind::StrayBlock));
                }
            }
            // The semantic pass unwraps a loop's type, variable, values and braced body.
            FOR_STMT => {
                let Some(f) = <oq3_syntax::ast::ForStmt as oq3_syntax::AstNode>::cast(node.clone())
                else {
                    continue;
                };
                if f.scalar_type().is_none() || f.loop_var().is_none() {
                    return Err(pos().error(Kind::LoopSyntax {
                        missing: "a loop variable (`for int i in ...`)",
                    }));
                }
                if f.for_iterable().is_none() {
                    return Err(pos().error(Kind::LoopSyntax {
                        missing: "its values (`in [0:3]` or `in {0, 2}`)",
                    }));
                }
                if f.body().is_none() {
                    return Err(pos().error(Kind::LoopSyntax {
                        missing: "a body in braces",
                    }));
                }
            }
            FOR_ITERABLE => {}
            // A range is an index (`q[0:2]`) or a loop's values, with both ends (the semantic
            // pass unwraps them); a set only a loop's values (`q[{0, 1}]` is refused by `scan`).
            RANGE_EXPR => {
                let ends = node.children().count();
                let parent = node.parent().map(|p| p.kind());
                let grandparent = node.parent().and_then(|p| p.parent()).map(|p| p.kind());
                let placed = parent == Some(FOR_ITERABLE)
                    || (parent == Some(EXPRESSION_LIST) && grandparent == Some(INDEX_OPERATOR));
                if !placed || ends < 2 {
                    return Err(pos().error(Kind::UnsupportedConstruct {
                        construct: "range (a range is an index `q[a:b]` or a `for` loop's values, with both ends)".into(),
                    }));
                }
            }
            SET_EXPRESSION => {
                if node.parent().map(|p| p.kind()) != Some(FOR_ITERABLE) {
                    return Err(pos().error(Kind::UnsupportedConstruct {
                        construct: "set (a set is a `for` loop's values)".into(),
                    }));
                }
            }
            ASSIGNMENT_STMT => {
                if node.children().last().map(|n| n.kind()) != Some(MEASURE_EXPRESSION) {
                    return Err(pos().error(Kind::ClassicalAssignment));
                }
            }
            SOURCE_FILE
            | VERSION_STRING
            | VERSION
            | NAME
            | PARAM_LIST
            | PARAM
            | STMT_LIST
            | EXPR_STMT
            | INV_MODIFIER
            | CTRL_MODIFIER
            | NEG_CTRL_MODIFIER
            | MODIFIER
            | EXPRESSION_LIST
            | QUBIT_LIST
            | GATE_OPERAND
            | IDENTIFIER
            | INDEXED_IDENTIFIER
            | INDEX_OPERATOR
            | INDEX_KIND
            | PAREN_EXPR
            | GATE
            | QUANTUM_DECLARATION_STATEMENT
            | QUBIT_TYPE
            | SCALAR_TYPE
            | MEASURE_EXPRESSION
            | RESET
            | BARRIER
            | IF_STMT
            | FILE_PATH => {}
            INCLUDE => {
                let text = node.text().to_string();
                if !text.contains("\"stdgates.inc\"") {
                    return Err(pos().error(Kind::Include3 {
                        statement: text.trim_end_matches(';').trim().to_string(),
                    }));
                }
            }
            // A delay is `delay[<number><unit>] qubits;`: the semantic pass unwraps its
            // designator and the designator's expression, and a timing literal's number.
            DELAY_STMT => {
                let timed = node
                    .children()
                    .find(|n| n.kind() == DESIGNATOR)
                    .and_then(|d| d.children().next())
                    .is_some_and(|n| {
                        n.kind() == TIMING_LITERAL && n.children().any(|c| c.kind() == LITERAL)
                    });
                if !timed {
                    return Err(pos().error(Kind::DelayDuration {
                        found: "no duration literal in brackets (`delay[120ns] q[0];`)".into(),
                    }));
                }
            }
            DESIGNATOR if node.parent().is_some_and(|p| p.kind() == DELAY_STMT) => {}
            TIMING_LITERAL
                if node
                    .parent()
                    .filter(|p| p.kind() == DESIGNATOR)
                    .and_then(|p| p.parent())
                    .is_some_and(|g| g.kind() == DELAY_STMT) => {}
            // The semantic pass panics on a register size that is not an integer literal.
            DESIGNATOR => {
                let literal_int = node.children().next().is_some_and(|n| {
                    n.kind() == LITERAL && n.first_token().is_some_and(|t| t.kind() == INT_NUMBER)
                });
                if !literal_int {
                    return Err(pos().error(Kind::RegisterSizeNotLiteral));
                }
            }
            CLASSICAL_DECLARATION_STATEMENT => check_bit_declaration(&node, pos())?,
            LITERAL => check_literal(&node, pos())?,
            BIN_EXPR => {
                let op = operator(&node);
                if !matches!(op, Some(PLUS | MINUS | STAR | SLASH | EQ2 | NEQ)) {
                    return Err(pos().error(Kind::Operator {
                        operator: op_text(&node),
                    }));
                }
            }
            PREFIX_EXPR => {
                if operator(&node) != Some(MINUS) {
                    return Err(pos().error(Kind::PrefixOperator {
                        operator: op_text(&node),
                    }));
                }
                // The semantic pass folds `-literal` and panics unless the literal is a number.
                let operand = node.children().next();
                if let Some(lit) = operand.filter(|n| n.kind() == LITERAL) {
                    let numeric = lit
                        .first_token()
                        .is_some_and(|t| matches!(t.kind(), INT_NUMBER | FLOAT_NUMBER));
                    if !numeric {
                        return Err(pos().error(Kind::MinusOnNonNumber));
                    }
                }
            }
            other => {
                return Err(pos().error(Kind::UnsupportedConstruct {
                    construct: construct(other),
                }))
            }
        }
    }
    Ok(())
}

/// The operator token of a binary or prefix expression (its first non-trivia direct token).
fn operator(node: &SyntaxNode) -> Option<SyntaxKind> {
    node.children_with_tokens()
        .filter_map(|e| e.into_token())
        .map(|t| t.kind())
        .find(|k| !matches!(k, SyntaxKind::WHITESPACE | SyntaxKind::COMMENT))
}

fn op_text(node: &SyntaxNode) -> String {
    node.children_with_tokens()
        .filter_map(|e| e.into_token())
        .find(|t| !matches!(t.kind(), SyntaxKind::WHITESPACE | SyntaxKind::COMMENT))
        .map_or_else(String::new, |t| t.text().to_string())
}

/// Only `bit` and `bit[n]` declarations without initializer or `const`.
fn check_bit_declaration(node: &SyntaxNode, pos: Pos) -> Result<(), ImportError> {
    let tokens: Vec<SyntaxKind> = node
        .descendants_with_tokens()
        .filter_map(|e| e.into_token())
        .map(|t| t.kind())
        .collect();
    if !tokens.contains(&SyntaxKind::BIT_TY) {
        return Err(pos.error(Kind::ClassicalDeclaration));
    }
    if tokens.contains(&SyntaxKind::EQ) || tokens.contains(&SyntaxKind::CONST_KW) {
        return Err(pos.error(Kind::BitInitializer));
    }
    Ok(())
}

/// Integers must fit in `u32` (they are sizes, indices and control counts, and the semantic
/// pass unwraps their `u128` value and truncates register sizes to `u32`); floats, `true` and
/// `false` are fine; strings and bit strings are not supported.
fn check_literal(node: &SyntaxNode, pos: Pos) -> Result<(), ImportError> {
    let Some(token) = node.first_token() else {
        return Err(pos.error(Kind::EmptyLiteral));
    };
    match token.kind() {
        SyntaxKind::INT_NUMBER => {
            let digits = token.text().replace('_', "");
            let value = match digits.get(..2) {
                Some("0x" | "0X") => u64::from_str_radix(&digits[2..], 16).ok(),
                Some("0b" | "0B") => u64::from_str_radix(&digits[2..], 2).ok(),
                Some("0o" | "0O") => u64::from_str_radix(&digits[2..], 8).ok(),
                _ => digits.parse::<u64>().ok(),
            };
            if value.is_none_or(|v| v > u64::from(u32::MAX)) {
                return Err(pos.error(Kind::IntegerTooLarge {
                    text: token.text().to_string(),
                    max: u32::MAX.into(),
                }));
            }
            Ok(())
        }
        // The semantic pass unwraps the float's value: it must be a plain decimal number.
        SyntaxKind::FLOAT_NUMBER => {
            let text = token.text();
            let plain = text
                .chars()
                .all(|c| c.is_ascii_digit() || matches!(c, '.' | '_' | 'e' | 'E' | '+' | '-'));
            if plain && text.replace('_', "").parse::<f64>().is_ok() {
                Ok(())
            } else {
                Err(pos.error(Kind::BadNumber { text: text.into() }))
            }
        }
        SyntaxKind::TRUE_KW | SyntaxKind::FALSE_KW => Ok(()),
        _ => Err(pos.error(Kind::UnsupportedLiteral {
            text: token.text().to_string(),
        })),
    }
}

/// The parser's message in the user's words: without the name of the parser function that
/// wrote it (`expr_bp: expected expression`), token kinds written as the token
/// (`expected SEMICOLON` is "expected `;`"), and the text found where it stopped.
fn readable(message: &str, src: &str, offset: usize) -> String {
    let message = match message.split_once(": ") {
        Some((function, rest))
            if function
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b == b'_') =>
        {
            rest
        }
        _ => message,
    };
    let message = match message.strip_prefix("expected ") {
        Some(kind) if kind.bytes().all(|b| b.is_ascii_uppercase() || b == b'_') => {
            format!("expected {}", token_words(kind))
        }
        Some("expression") => "expected an expression".to_string(),
        _ => message.to_string(),
    };
    match found(src, offset) {
        Some(text) => format!("{message} (found `{text}`)"),
        None => format!("{message} (found the end of the program)"),
    }
}

/// A token kind of the parser (`R_PAREN`) as the user writes it.
fn token_words(kind: &str) -> String {
    let text = match kind {
        "SEMICOLON" => ";",
        "COMMA" => ",",
        "COLON" => ":",
        "L_PAREN" => "(",
        "R_PAREN" => ")",
        "L_BRACK" => "[",
        "R_BRACK" => "]",
        "L_CURLY" => "{",
        "R_CURLY" => "}",
        "EQ" => "=",
        "EQ2" => "==",
        "AT" => "@",
        "ARROW" | "THIN_ARROW" => "->",
        "IDENT" => return "a name".into(),
        "INT_NUMBER" => return "an integer".into(),
        "FLOAT_NUMBER" => return "a number".into(),
        other => return other.to_lowercase().replace('_', " "),
    };
    format!("`{text}`")
}

/// The token at `offset` of `src` (after any whitespace), at most 24 characters.
fn found(src: &str, offset: usize) -> Option<String> {
    let rest = src.get(offset..)?.trim_start();
    let first = rest.chars().next()?;
    let word = |c: char| c.is_alphanumeric() || c == '_' || c == '.';
    let token: String = if word(first) {
        rest.chars().take_while(|&c| word(c)).take(24).collect()
    } else {
        rest.chars()
            .take_while(|c| !c.is_whitespace() && !word(*c))
            .take(3)
            .collect()
    };
    Some(token)
}

/// Steps 1 to 3; returns the syntax tree's root for positions.
pub fn check(src: &str) -> Result<SyntaxNode, ImportError> {
    scan(src)?;
    // `parse_text` is the parser without `oq3_syntax`'s validation pass, which itself panics on
    // some trees (an empty literal, a timing literal without unit); `check_syntax` refuses
    // those before `oq3_semantics` parses (and validates) again.
    let (green, errors) = oq3_syntax::parse_text(src);
    if let Some(e) = errors.first() {
        let offset = e.range().start().into();
        return Err(Pos::of_offset(offset).error(Kind::Syntax {
            parser_message: readable(&e.to_string(), src, offset),
        }));
    }
    let root = SyntaxNode::new_root(green);
    check_syntax(&root)?;
    Ok(root)
}
