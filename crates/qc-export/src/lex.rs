//! The OpenQASM 2 tokenizer: identifiers, numbers, strings, one- and two-character operators,
//! each with its byte offset; `//` and `/* */` comments are skipped. An unterminated comment or
//! string is an error with its position.

use crate::env::Pos;
use crate::error::{ImportError, ImportErrorKind as Kind};

/// One token.
#[derive(Clone, Debug, PartialEq)]
pub struct Tok {
    /// The token text.
    pub text: String,
    /// Byte offset of its first character.
    pub offset: usize,
}

/// Splits OpenQASM 2 text into tokens, dropping comments.
pub fn lex(src: &str) -> Result<Vec<Tok>, ImportError> {
    let mut out = Vec::new();
    let bytes = src.as_bytes();
    let mut chars = src.char_indices().peekable();
    let take_while = |from: usize, ok: &dyn Fn(char) -> bool| {
        src[from..]
            .char_indices()
            .find(|&(_, c)| !ok(c))
            .map_or(src.len(), |(i, _)| from + i)
    };
    while let Some(&(i, c)) = chars.peek() {
        let end = if c.is_whitespace() {
            i + c.len_utf8()
        } else if src[i..].starts_with("//") {
            src[i..].find('\n').map_or(src.len(), |n| i + n)
        } else if src[i..].starts_with("/*") {
            let close = src[i + 2..]
                .find("*/")
                .ok_or_else(|| Pos::of_offset(i).error(Kind::UnterminatedComment))?;
            i + 2 + close + 2
        } else {
            let end = if c == '"' {
                let close = src[i + 1..]
                    .find(['"', '\n'])
                    .filter(|&n| bytes[i + 1 + n] == b'"')
                    .ok_or_else(|| Pos::of_offset(i).error(Kind::UnterminatedString))?;
                i + 1 + close + 1
            } else if c.is_alphabetic() || c == '_' {
                take_while(i, &|c| c.is_alphanumeric() || c == '_')
            } else if c.is_ascii_digit() || c == '.' {
                number_end(src, i)
            } else if ["==", "->"].iter().any(|op| src[i..].starts_with(op)) {
                i + 2
            } else {
                i + c.len_utf8()
            };
            out.push(Tok {
                text: src[i..end].to_string(),
                offset: i,
            });
            end
        };
        while chars.peek().is_some_and(|&(j, _)| j < end) {
            chars.next();
        }
    }
    Ok(out)
}

/// The end of a number starting at `i`: digits, a point, an exponent with its sign.
fn number_end(src: &str, i: usize) -> usize {
    let b = src.as_bytes();
    let mut j = i;
    while j < b.len() && (b[j].is_ascii_digit() || b[j] == b'.') {
        j += 1;
    }
    if j < b.len() && (b[j] == b'e' || b[j] == b'E') {
        let mut k = j + 1;
        if k < b.len() && (b[k] == b'+' || b[k] == b'-') {
            k += 1;
        }
        if k < b.len() && b[k].is_ascii_digit() {
            j = k;
            while j < b.len() && b[j].is_ascii_digit() {
                j += 1;
            }
        }
    }
    j
}
