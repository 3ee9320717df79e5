//! Castling rights: which of the four castlings a side may still make, as FEN's `KQkq`, and
//! how a move touching a king's or rook's home square takes them away.

use super::{Color, Square};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

/// Castling rights, as FEN's `KQkq`.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct CastlingRights {
    /// White kingside (`K`).
    pub white_kingside: bool,
    /// White queenside (`Q`).
    pub white_queenside: bool,
    /// Black kingside (`k`).
    pub black_kingside: bool,
    /// Black queenside (`q`).
    pub black_queenside: bool,
}

/// Why a FEN castling field was refused.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum CastlingError {
    /// A letter other than `K Q k q` (or `-` alone).
    BadLetter(char),
    /// A letter given twice.
    Duplicate(char),
}

impl CastlingRights {
    /// Every right (the standard start).
    pub const ALL: CastlingRights = CastlingRights {
        white_kingside: true,
        white_queenside: true,
        black_kingside: true,
        black_queenside: true,
    };

    /// The rights left once a move has touched `square` (standard 8x8 home squares): a king
    /// leaving e1/e8 loses both of its side's rights, a rook leaving (or a piece capturing on)
    /// a1, h1, a8 or h8 the right on that side.
    #[must_use]
    pub fn without(self, square: Square) -> CastlingRights {
        let mut rights = self;
        match (square.file(), square.rank()) {
            (4, 0) => (rights.white_kingside, rights.white_queenside) = (false, false),
            (7, 0) => rights.white_kingside = false,
            (0, 0) => rights.white_queenside = false,
            (4, 7) => (rights.black_kingside, rights.black_queenside) = (false, false),
            (7, 7) => rights.black_kingside = false,
            (0, 7) => rights.black_queenside = false,
            _ => {}
        }
        rights
    }
}

/// One of the four castlings: whose, and on which side.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Castling {
    /// The side that castles.
    pub color: Color,
    /// Kingside (`O-O`, the king to the g-file) or queenside (`O-O-O`, to the c-file).
    pub kingside: bool,
}

impl Castling {
    /// The castling a king's step from `from` to `to` is on the standard 8x8 board (e1g1,
    /// e1c1, e8g8, e8c8), if it is one.
    pub fn of_king_step(from: Square, to: Square) -> Option<Castling> {
        let color = match from.rank() {
            0 => Color::White,
            7 => Color::Black,
            _ => return None,
        };
        if from.file() != 4 || to.rank() != from.rank() {
            return None;
        }
        match to.file() {
            6 => Some(Castling {
                color,
                kingside: true,
            }),
            2 => Some(Castling {
                color,
                kingside: false,
            }),
            _ => None,
        }
    }

    /// The king's move of this castling (`e1g1`): its from and to squares.
    pub fn king_step(self) -> (Square, Square) {
        let rank = if self.color == Color::White { 0 } else { 7 };
        let to_file = if self.kingside { 6 } else { 2 };
        let at = |file| Square::from_coords(file, rank).unwrap_or(Square::ALL[0]);
        (at(4), at(to_file))
    }

    /// Whether `rights` allow it.
    pub fn allowed_by(self, rights: CastlingRights) -> bool {
        match (self.color, self.kingside) {
            (Color::White, true) => rights.white_kingside,
            (Color::White, false) => rights.white_queenside,
            (Color::Black, true) => rights.black_kingside,
            (Color::Black, false) => rights.black_queenside,
        }
    }

    /// `kingside` or `queenside`.
    pub fn side_name(self) -> &'static str {
        if self.kingside {
            "kingside"
        } else {
            "queenside"
        }
    }
}

/// `KQkq` order, `-` for none.
impl fmt::Display for CastlingRights {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let letters = [
            (self.white_kingside, 'K'),
            (self.white_queenside, 'Q'),
            (self.black_kingside, 'k'),
            (self.black_queenside, 'q'),
        ];
        if !letters.iter().any(|(has, _)| *has) {
            return f.write_str("-");
        }
        for (_, letter) in letters.iter().filter(|(has, _)| *has) {
            write!(f, "{letter}")?;
        }
        Ok(())
    }
}

/// Reads FEN's castling field: `-`, or letters from `KQkq` in any order, each at most once.
impl FromStr for CastlingRights {
    type Err = CastlingError;

    fn from_str(text: &str) -> Result<CastlingRights, CastlingError> {
        let mut rights = CastlingRights::default();
        if text == "-" {
            return Ok(rights);
        }
        for letter in text.chars() {
            let right = match letter {
                'K' => &mut rights.white_kingside,
                'Q' => &mut rights.white_queenside,
                'k' => &mut rights.black_kingside,
                'q' => &mut rights.black_queenside,
                _ => return Err(CastlingError::BadLetter(letter)),
            };
            if *right {
                return Err(CastlingError::Duplicate(letter));
            }
            *right = true;
        }
        Ok(rights)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        Square::parse(s).expect("test square")
    }

    #[test]
    fn fen_text_round_trips_and_refuses_bad_letters() {
        for text in ["-", "KQkq", "Kq", "k"] {
            let rights: CastlingRights = text.parse().expect(text);
            assert_eq!(rights.to_string(), text);
        }
        assert_eq!("qkQK".parse::<CastlingRights>(), Ok(CastlingRights::ALL));
        assert_eq!(
            "KX".parse::<CastlingRights>(),
            Err(CastlingError::BadLetter('X'))
        );
        assert_eq!(
            "KK".parse::<CastlingRights>(),
            Err(CastlingError::Duplicate('K'))
        );
        assert!(""
            .parse::<CastlingRights>()
            .is_ok_and(|r| r.to_string() == "-"));
    }

    #[test]
    fn home_squares_take_rights_away() {
        let all = CastlingRights::ALL;
        assert_eq!(all.without(sq("e1")).to_string(), "kq");
        assert_eq!(all.without(sq("h1")).to_string(), "Qkq");
        assert_eq!(all.without(sq("a8")).to_string(), "KQk");
        assert_eq!(all.without(sq("e8")).to_string(), "KQ");
        assert_eq!(all.without(sq("e4")), all);
    }

    #[test]
    fn a_kings_two_file_step_from_home_is_a_castling() {
        let black_long = Castling::of_king_step(sq("e8"), sq("c8")).expect("castling");
        assert_eq!(
            (black_long.color, black_long.kingside),
            (Color::Black, false)
        );
        assert_eq!(black_long.king_step(), (sq("e8"), sq("c8")));
        assert!(!black_long.allowed_by("KQk".parse().expect("rights")));
        assert!(black_long.allowed_by(CastlingRights::ALL));
        for (from, to) in [("e1", "f1"), ("e2", "g2"), ("d1", "b1"), ("e1", "g2")] {
            assert_eq!(Castling::of_king_step(sq(from), sq(to)), None, "{from}{to}");
        }
    }
}
