//! The OpenQASM tokenizer: identifiers, numbers, strings, one- and two-character operators, with
//! line numbers; `//` and `/* */` comments are skipped.

use crate::error::ImportError;

/// One token.
#[derive(Clone, Debug, PartialEq)]
pub struct Tok {
    /// The token text.
    pub text: String,
    /// Its 1-based line.
    pub line: usize,
}

/// Splits OpenQASM text into tokens, dropping comments.
pub fn lex(src: &str) -> Result<Vec<Tok>, ImportError> {
    let mut out = Vec::new();
    let chars: Vec<char> = src.chars().collect();
    let (mut i, mut line) = (0usize, 1usize);
    while i < chars.len() {
        let c = chars[i];
        if c == '\n' {
            line += 1;
            i += 1;
        } else if c.is_whitespace() {
            i += 1;
        } else if c == '/' && chars.get(i + 1) == Some(&'/') {
            while i < chars.len() && chars[i] != '\n' {
                i += 1;
            }
        } else if c == '/' && chars.get(i + 1) == Some(&'*') {
            i += 2;
            while i < chars.len() && !(chars[i] == '*' && chars.get(i + 1) == Some(&'/')) {
                if chars[i] == '\n' {
                    line += 1;
                }
                i += 1;
            }
            i += 2;
        } else if c == '"' {
            let start = i;
            i += 1;
            while i < chars.len() && chars[i] != '"' {
                i += 1;
            }
            i += 1;
            out.push(Tok {
                text: chars[start..i.min(chars.len())].iter().collect(),
                line,
            });
        } else if c.is_alphabetic() || c == '_' || c == '$' {
            let start = i;
            while i < chars.len()
                && (chars[i].is_alphanumeric() || chars[i] == '_' || chars[i] == '$')
            {
                i += 1;
            }
            out.push(Tok {
                text: chars[start..i].iter().collect(),
                line,
            });
        } else if c.is_ascii_digit()
            || (c == '.' && chars.get(i + 1).is_some_and(|d| d.is_ascii_digit()))
        {
            let start = i;
            while i < chars.len() {
                let d = chars[i];
                let exp_sign = (d == '+' || d == '-') && matches!(chars[i - 1], 'e' | 'E');
                if d.is_ascii_digit() || d == '.' || d == 'e' || d == 'E' || exp_sign || d == '_' {
                    i += 1;
                } else {
                    break;
                }
            }
            out.push(Tok {
                text: chars[start..i].iter().filter(|c| **c != '_').collect(),
                line,
            });
        } else {
            let two: String = chars[i..(i + 2).min(chars.len())].iter().collect();
            if ["==", "!=", "->", "&&", "||", "<=", ">="].contains(&two.as_str()) {
                out.push(Tok { text: two, line });
                i += 2;
            } else {
                out.push(Tok {
                    text: c.to_string(),
                    line,
                });
                i += 1;
            }
        }
    }
    Ok(out)
}
