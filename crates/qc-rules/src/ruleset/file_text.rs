//! What every ruleset's game-file reader shares besides the tag line: the text without the
//! byte-order mark Windows Notepad writes at its start ([`without_bom`]), invisible characters
//! shown as escapes in error messages ([`visible`]), and the order a file's parts may come in
//! ([`FileOrder`]): tags before the first move and the result, one `FEN` tag, nothing after the
//! result. Both rulesets refuse the same files.

use thiserror::Error;

/// `text` without a leading byte-order mark (U+FEFF), which Windows Notepad writes at the start
/// of a UTF-8 file and which reads as nothing.
pub fn without_bom(text: &str) -> &str {
    text.strip_prefix('\u{feff}').unwrap_or(text)
}

/// `text` with every character that shows as nothing or moves the text (control characters,
/// format characters such as U+FEFF or U+200B) written as its escape `\u{feff}`, so that an
/// error message names what is really there. Quotes and backslashes stay as they are.
pub fn visible(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        // `escape_debug` leaves a printable character alone (quotes and backslash aside).
        if c == ' ' || matches!(c, '"' | '\'' | '\\') || c.escape_debug().nth(1).is_none() {
            out.push(c);
        } else {
            out.extend(c.escape_unicode());
        }
    }
    out
}

/// Where a game file's parts came in an order no reader accepts.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum OrderProblem {
    /// A tag after the first move or after the result.
    #[error("tag after the first move; tags must come before the moves")]
    TagAfterMoves,
    /// A second `[FEN ...]` tag.
    #[error("second [FEN] tag")]
    DuplicateFen,
    /// Something after the result token (another result, a move, a move number).
    #[error("`{}` after the result, expected the end of the game", visible(.token))]
    AfterResult {
        /// The token.
        token: String,
    },
}

/// The parts of a game file read so far, to check each next one comes in its place.
#[derive(Clone, Debug, Default)]
pub struct FileOrder {
    fen_seen: bool,
    moves_seen: bool,
    result_seen: bool,
}

impl FileOrder {
    /// A tag comes next (`is_fen`: the start position's tag, as the ruleset names it).
    ///
    /// # Errors
    /// [`OrderProblem::TagAfterMoves`] after a move or the result, [`OrderProblem::DuplicateFen`]
    /// for a second start position.
    pub fn tag(&mut self, is_fen: bool) -> Result<(), OrderProblem> {
        if self.moves_seen || self.result_seen {
            return Err(OrderProblem::TagAfterMoves);
        }
        if is_fen && std::mem::replace(&mut self.fen_seen, true) {
            return Err(OrderProblem::DuplicateFen);
        }
        Ok(())
    }

    /// A word of the move text comes next: a move, a move number or the result (`is_result`).
    ///
    /// # Errors
    /// [`OrderProblem::AfterResult`] for any word after the result.
    pub fn word(&mut self, token: &str, is_result: bool) -> Result<(), OrderProblem> {
        if self.result_seen {
            return Err(OrderProblem::AfterResult {
                token: token.to_string(),
            });
        }
        if is_result {
            self.result_seen = true;
        } else {
            self.moves_seen = true;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn invisible_characters_are_escaped_and_the_rest_kept() {
        assert_eq!(visible("\u{feff}e2e4"), "\\u{feff}e2e4");
        assert_eq!(visible("a\u{200b}b\tc"), "a\\u{200b}b\\u{9}c");
        assert_eq!(visible("é \"x\" \\ ♞"), "é \"x\" \\ ♞");
        assert_eq!(without_bom("\u{feff}[Event \"x\"]"), "[Event \"x\"]");
        assert_eq!(without_bom("e2e4\u{feff}"), "e2e4\u{feff}");
    }

    #[test]
    fn the_order_of_a_file_s_parts() {
        let mut order = FileOrder::default();
        assert_eq!(order.tag(true), Ok(()));
        assert_eq!(order.tag(true), Err(OrderProblem::DuplicateFen));
        assert_eq!(order.word("e2e4", false), Ok(()));
        assert_eq!(order.tag(false), Err(OrderProblem::TagAfterMoves));
        assert_eq!(order.word("1-0", true), Ok(()));
        assert!(order.word("*", true).is_err());
    }
}
