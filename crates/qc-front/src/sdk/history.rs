//! The request read, and the view's history read into QCAN moves with their outcomes written in.

use super::{EngineView, MoveRequest, SdkError};
use qc_rules::{PieceKind, Square};

/// Reads a request body.
///
/// # Errors
/// [`SdkError::Json`] with serde's message (which names a missing field and where).
pub fn parse_request(body: &str) -> Result<MoveRequest, SdkError> {
    serde_json::from_str(body).map_err(|e| SdkError::Json(e.to_string()))
}

/// Reads one of the SDK's move strings into QCAN without outcome and without variant marks
/// (qchess classifies the move itself), and the outcome written in it, if any.
///
/// # Errors
/// [`SdkError::BadMoveString`] when the string has no move's shape.
pub fn read_move_string(index: usize, text: &str) -> Result<(String, Option<bool>), SdkError> {
    let bad = |reason| SdkError::BadMoveString {
        index,
        text: text.chars().take(40).collect(),
        reason,
    };
    let mut rest = text.trim();
    let mut outcome = None;
    for (suffix, value) in [(".m0", false), (".m1", true)] {
        if let Some(stripped) = rest.strip_suffix(suffix) {
            rest = stripped;
            outcome = Some(value);
        }
    }
    let square_at = |s: &str| s.get(..2).and_then(Square::parse);
    // An optional piece letter before the first square.
    if let Some(first) = rest.chars().next() {
        if "pnbrqkPNBRQK".contains(first) && square_at(&rest[1..]).is_some() {
            rest = &rest[1..];
        }
    }
    let mut squares = Vec::new();
    let mut caret = None;
    let mut promotion = None;
    while !rest.is_empty() {
        if let Some(square) = square_at(rest) {
            if promotion.is_some() {
                return Err(bad("a square after the promotion piece"));
            }
            squares.push(square);
            rest = &rest[2..];
        } else if let Some(stripped) = rest.strip_prefix("ep") {
            rest = stripped;
        } else {
            let c = rest.chars().next().unwrap_or(' ');
            match c {
                '^' if caret.is_none() => caret = Some(squares.len()),
                '-' | 'x' | 'w' => {}
                'n' | 'b' | 'r' | 'q' | 'N' | 'B' | 'R' | 'Q' if promotion.is_none() => {
                    promotion = PieceKind::from_letter(c);
                }
                _ => return Err(bad("unexpected character")),
            }
            rest = &rest[c.len_utf8()..];
        }
    }
    let promo = promotion.map_or(String::new(), |k| {
        k.letter().to_ascii_lowercase().to_string()
    });
    let qcan = match (caret, squares.as_slice()) {
        (None, [s, t]) => format!("{s}{t}{promo}"),
        (Some(1), [s, a, b]) if promotion.is_none() => format!("{s}^{a}{b}"),
        (Some(2), [a, b, t]) if promotion.is_none() => format!("{a}{b}^{t}"),
        _ => return Err(bad("expected two squares, a split s^ab or a merge ab^t")),
    };
    Ok((qcan, outcome))
}

/// The moves of the view's history in QCAN, each with its outcome written in (see the module
/// docs), and the start FEN (`None`: the standard start).
///
/// # Errors
/// A move string that does not read, a measured move without its outcome, or an outcome that
/// contradicts the move string.
pub fn history(view: &EngineView) -> Result<(Option<String>, Vec<String>), SdkError> {
    let position = view.game_data.position.as_ref();
    let start = position.and_then(|p| p.starting_fen.clone());
    let mut moves = Vec::with_capacity(view.move_history.len());
    for (index, record) in view.move_history.iter().enumerate() {
        let (qcan, written) = read_move_string(index, &record.move_string)?;
        let applied = if record.was_measurement {
            record.measurement_passed.ok_or(SdkError::BadOutcome {
                index,
                reason: "wasMeasurement is true but measurementPassed is missing",
            })?
        } else {
            record.was_blocked != Some(true)
        };
        if record.was_blocked == Some(true) && applied {
            return Err(SdkError::BadOutcome {
                index,
                reason: "wasBlocked is true but measurementPassed is true",
            });
        }
        if written.is_some_and(|w| w != applied) {
            return Err(SdkError::BadOutcome {
                index,
                reason: "the move string's .m0/.m1 contradicts measurementPassed",
            });
        }
        moves.push(with_outcome(&qcan, applied));
    }
    Ok((start, moves))
}

/// A QCAN move with its outcome written in: `.m1` applied, `.m0` not.
pub(super) fn with_outcome(qcan: &str, applied: bool) -> String {
    format!("{qcan}{}", if applied { ".m1" } else { ".m0" })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_strings_read_into_qcan() {
        let read = |t: &str| read_move_string(0, t);
        assert_eq!(read("e2-e4"), Ok(("e2e4".into(), None)));
        assert_eq!(read("e5-d6ep"), Ok(("e5d6".into(), None)));
        assert_eq!(read("e7-e8Q.m1"), Ok(("e7e8q".into(), Some(true))));
        assert_eq!(read("b1^a3c3"), Ok(("b1^a3c3".into(), None)));
        assert_eq!(read("a3c3^b5.m0"), Ok(("a3c3^b5".into(), Some(false))));
        assert_eq!(read("Nb1xc3"), Ok(("b1c3".into(), None)));
        assert_eq!(read("b1^wa3c3"), Ok(("b1^a3c3".into(), None)));
        for bad in [
            "", "e2", "e2-e4-e5", "z9z9", "b1^a3", "e2é4", "a7a8qq", "b1^^a3c3",
        ] {
            assert!(read(bad).is_err(), "{bad}");
        }
    }
}
