//! A nesting check run before any recursive parser sees an OpenQASM text.
//!
//! Our expression reader and the `qasm` crate's parser recurse once per parenthesis, bracket,
//! brace and unary sign; a few tens of kilobytes of `(` or `-` would overflow the stack, which is
//! an abort no `catch_unwind` can turn into an error. This linear scan refuses such a text first,
//! naming the line and column where the nesting gets too deep.

use crate::error::ImportError;

/// The deepest nesting an OpenQASM text may have: open parentheses, brackets and braces plus the
/// unary signs in a row in front of an operand.
pub const MAX_NESTING: usize = 64;

/// Checks that `src` nests no deeper than [`MAX_NESTING`] (comments are skipped).
///
/// # Errors
/// An [`ImportError`] naming the line and column where the limit is passed.
pub fn check_nesting(src: &str) -> Result<(), ImportError> {
    let mut open = 0usize;
    let mut signs = 0usize;
    let mut in_block_comment = false;
    for (line_index, line) in src.lines().enumerate() {
        let mut chars = line.char_indices().peekable();
        while let Some((byte, c)) = chars.next() {
            let next = chars.peek().map(|&(_, n)| n);
            if in_block_comment {
                if c == '*' && next == Some('/') {
                    chars.next();
                    in_block_comment = false;
                }
                continue;
            }
            match c {
                '/' if next == Some('/') => break,
                '/' if next == Some('*') => {
                    chars.next();
                    in_block_comment = true;
                    continue;
                }
                '(' | '[' | '{' => open += 1,
                ')' | ']' | '}' => {
                    open = open.saturating_sub(1);
                    signs = 0;
                }
                '-' | '+' => signs += 1,
                c if c.is_whitespace() => {}
                _ => signs = 0,
            }
            if open + signs > MAX_NESTING {
                let column = line[..byte].chars().count() + 1;
                return Err(ImportError::new(
                    line_index + 1,
                    format!(
                        "column {column}: parentheses, brackets, braces and signs nest more than {MAX_NESTING} deep"
                    ),
                ));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordinary_programs_pass() {
        let program = "OPENQASM 3.0;\nqubit[2] q; // ((((((\n/* ((((((((( */\nrz(-(pi/2)) q[0];\nif (c[0] == 1) { x q[1]; }\n";
        assert!(check_nesting(program).is_ok());
        let at_limit = format!("rz({}1{}) q[0];", "(".repeat(63), ")".repeat(63));
        assert!(check_nesting(&at_limit).is_ok());
    }

    #[test]
    fn deep_parentheses_and_sign_chains_are_refused_with_line_and_column() {
        let deep = format!("OPENQASM 2.0;\nrz({}1) q[0];\n", "(".repeat(100_000));
        let err = check_nesting(&deep).unwrap_err();
        assert_eq!(err.line, 2);
        assert!(err.message.starts_with("column 67:"), "{}", err.message);
        let signs = format!("OPENQASM 2.0;\n\nrz({}1) q[0];\n", "- ".repeat(100_000));
        let err = check_nesting(&signs).unwrap_err();
        assert_eq!(err.line, 3);
        assert!(err.message.starts_with("column 130:"), "{}", err.message);
    }
}
