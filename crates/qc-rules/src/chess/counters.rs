//! The FEN move counters (halfmove clock and fullmove number), read the same way by every
//! ruleset's FEN.

/// The largest half-move clock or full-move number a FEN may give (Quantum Chess and Niel's
/// positions alike): far beyond any real game, and far enough below `u32::MAX` that counting on
/// from it can never wrap.
pub const MAX_FEN_COUNTER: u32 = 1_000_000_000;

/// Why a FEN move counter was refused.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum CounterError {
    /// Not a non-empty string of decimal digits.
    NotANumber,
    /// Larger than [`MAX_FEN_COUNTER`].
    TooLarge,
}

/// The ply of a game's first move from a position with `side_to_move` and FEN fullmove number
/// `fullmove`: 0 is White's first move of a game, 1 Black's first, ...; a game starting from a
/// FEN continues that count (fullmove 5, Black to move gives 9). The move pair a ply belongs to
/// is `ply / 2 + 1` (the number a game record writes, `5... e7e5`); Black moves iff it is odd.
pub fn first_ply(side_to_move: super::Color, fullmove: u32) -> u32 {
    let black = u32::from(side_to_move == super::Color::Black);
    fullmove.saturating_sub(1).saturating_mul(2) + black
}

/// Reads a FEN move counter: decimal digits, at most [`MAX_FEN_COUNTER`].
///
/// # Errors
/// [`CounterError::NotANumber`] for anything but decimal digits (a sign, a space, nothing);
/// [`CounterError::TooLarge`] above [`MAX_FEN_COUNTER`], however many digits.
pub fn parse_move_counter(text: &str) -> Result<u32, CounterError> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(CounterError::NotANumber);
    }
    // Saturating, so that a digit string longer than any integer is too large, not malformed.
    let value = text.bytes().fold(0u64, |v, digit| {
        v.saturating_mul(10).saturating_add(u64::from(digit - b'0'))
    });
    u32::try_from(value)
        .ok()
        .filter(|v| *v <= MAX_FEN_COUNTER)
        .ok_or(CounterError::TooLarge)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counters_are_digits_up_to_the_limit() {
        assert_eq!(parse_move_counter("0"), Ok(0));
        assert_eq!(parse_move_counter("1000000000"), Ok(MAX_FEN_COUNTER));
        assert_eq!(
            parse_move_counter("1000000001"),
            Err(CounterError::TooLarge)
        );
        assert_eq!(
            parse_move_counter(&"9".repeat(40)),
            Err(CounterError::TooLarge)
        );
        for bad in ["", "-1", "+1", " 1", "1e3"] {
            assert_eq!(
                parse_move_counter(bad),
                Err(CounterError::NotANumber),
                "{bad}"
            );
        }
    }
}
