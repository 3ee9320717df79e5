//! The FEN-like text of a Niel's position (see `docs/niels.md`):
//! `<placement> <side> <castling> <ep> [<halfmove> <fullmove>] [<pairs>]`.
//!
//! The placement is FEN's, with 4..=8 ranks of 4..=8 files (all ranks the same width); it
//! holds the conventional pieces only. `<pairs>` is `-` or comma-separated pair tokens
//! `<letter><red><blue>[<red facing><blue facing>][:<diagonal>]`: e.g.
//! `re6d4` is a black rook pair with red on e6 and blue on d4, both marks facing the opponent
//! (`o`; `p` = facing the owner). Tokens with the same `:1` or `:2` form one entangled group.

use super::error::{FenProblem, NielsError};
use super::position::{Cell, NielsPosition, NielsRules, Pair};
use crate::chess::Square;
use crate::chess::{
    parse_move_counter, CastlingError, CastlingRights, CounterError, MAX_FEN_COUNTER,
};
use crate::chess::{Color, Piece};
use std::collections::BTreeMap;

/// The standard 8x8 start.
pub const NIELS_START_8X8: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
/// A 4x5 start (4 files, 5 ranks; our choice, the papers' figures are not in the text).
pub const NIELS_START_4X5: &str = "rnbk/pppp/4/PPPP/RNBK w - - 0 1";
/// A 5x6 start (5 files, 6 ranks; our choice, the schools pilot used a 5x6 board).
pub const NIELS_START_5X6: &str = "rnbqk/ppppp/5/5/PPPPP/RNBQK w - - 0 1";
/// A 4x4 start.
pub const NIELS_START_4X4: &str = "rnbk/pppp/PPPP/RNBK w - - 0 1";

fn bad(text: &str, problem: FenProblem) -> NielsError {
    NielsError::Fen {
        text: text.to_string(),
        problem,
    }
}

/// A move counter: decimal digits, at most [`MAX_FEN_COUNTER`].
fn parse_counter(text: &str, counter: &'static str) -> Result<u32, NielsError> {
    parse_move_counter(text).map_err(|e| match e {
        CounterError::NotANumber => bad(text, FenProblem::CounterNotANumber { counter }),
        CounterError::TooLarge => bad(
            text,
            FenProblem::CounterTooLarge {
                counter,
                max: MAX_FEN_COUNTER,
            },
        ),
    })
}

impl NielsPosition {
    /// The standard start with the given rules.
    pub fn start(rules: NielsRules) -> NielsPosition {
        // The constant is valid; fall back to an empty board rather than panic.
        NielsPosition::from_fen(NIELS_START_8X8, rules)
            .unwrap_or_else(|_| NielsPosition::empty(8, 8, rules))
    }

    /// Parses the FEN-like text (module docs).
    pub fn from_fen(text: &str, rules: NielsRules) -> Result<NielsPosition, NielsError> {
        let fields: Vec<&str> = text.split_whitespace().collect();
        let pairs_field = match fields.len() {
            4 | 6 => None,
            5 => Some(fields[4]),
            7 => Some(fields[6]),
            found => return Err(bad(text, FenProblem::FieldCount { found })),
        };
        let ranks: Vec<&str> = fields[0].split('/').collect();
        if !(4..=8).contains(&ranks.len()) {
            return Err(bad(fields[0], FenProblem::RankCount { found: ranks.len() }));
        }
        let height = ranks.len() as u8;
        let mut width = None;
        let mut cells = [Cell::Empty; 64];
        for (i, rank_text) in ranks.iter().enumerate() {
            let rank = height as i32 - 1 - i as i32;
            let mut file = 0i32;
            for c in rank_text.chars() {
                if let Some(d) = c.to_digit(10) {
                    file += d as i32;
                } else if let Some(piece) = Piece::from_fen_char(c) {
                    let sq = Square::from_coords(file, rank)
                        .ok_or_else(|| bad(rank_text, FenProblem::RankTooWide))?;
                    cells[sq.index()] = Cell::Conventional(piece);
                    file += 1;
                } else {
                    return Err(bad(
                        rank_text,
                        FenProblem::BadPlacementCharacter { found: c },
                    ));
                }
            }
            match width {
                None if (4..=8).contains(&file) => width = Some(file),
                None => return Err(bad(rank_text, FenProblem::Width { files: file })),
                Some(first) if first != file => {
                    return Err(bad(
                        rank_text,
                        FenProblem::UnevenRank { files: file, first },
                    ))
                }
                Some(_) => {}
            }
        }
        let mut pos = NielsPosition::empty(width.unwrap_or(8) as u8, height, rules);
        pos.cells = cells;
        pos.side_to_move = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => return Err(bad(other, FenProblem::BadSide)),
        };
        pos.castling = parse_castling(fields[2])?;
        pos.en_passant = match fields[3] {
            "-" => None,
            s => Some(
                Square::parse(s)
                    .filter(|sq| pos.contains(*sq))
                    .ok_or_else(|| bad(s, FenProblem::EnPassantOffBoard))?,
            ),
        };
        if fields.len() >= 6 {
            pos.halfmove_clock = parse_counter(fields[4], "halfmove clock")?;
            pos.fullmove_number = parse_counter(fields[5], "fullmove number")?;
        }
        if let Some(pf) = pairs_field.filter(|f| *f != "-") {
            parse_pairs(&mut pos, pf)?;
        }
        pos.check_invariants()
            .map_err(|e| bad(text, FenProblem::Invariant(e)))?;
        Ok(pos)
    }

    /// Prints the FEN-like text; `from_fen(to_fen())` gives the same position up to ids.
    pub fn to_fen(&self) -> String {
        let mut rows = Vec::new();
        for rank in (0..self.height as i32).rev() {
            let mut row = String::new();
            let mut gap = 0;
            for file in 0..self.width as i32 {
                let cell = self
                    .square(file, rank)
                    .map_or(Cell::Empty, |s| self.cell(s));
                if let Cell::Conventional(p) = cell {
                    if gap > 0 {
                        row.push_str(&gap.to_string());
                        gap = 0;
                    }
                    row.push(p.fen_char());
                } else {
                    gap += 1;
                }
            }
            if gap > 0 {
                row.push_str(&gap.to_string());
            }
            rows.push(row);
        }
        let castling = self.castling;
        let ep = self.en_passant.map_or("-".to_string(), |s| s.to_string());
        let mut pairs: Vec<String> = Vec::new();
        for p in self.pairs.values() {
            let facing = |o: bool| if o { 'o' } else { 'p' };
            let mut t = format!(
                "{}{}{}{}{}",
                p.piece.fen_char(),
                p.red,
                p.blue,
                facing(p.red_faces_opponent),
                facing(p.blue_faces_opponent)
            );
            if let Some(d) = self.groups.get(&p.group).and_then(|g| g.diagonal) {
                t.push_str(&format!(":{d}"));
            }
            pairs.push(t);
        }
        let pairs = if pairs.is_empty() {
            "-".to_string()
        } else {
            pairs.join(",")
        };
        format!(
            "{} {} {} {} {} {} {}",
            rows.join("/"),
            self.side_to_move.fen_char(),
            castling,
            ep,
            self.halfmove_clock,
            self.fullmove_number,
            pairs
        )
    }
}

fn parse_castling(text: &str) -> Result<CastlingRights, NielsError> {
    text.parse().map_err(|e| match e {
        CastlingError::BadLetter(letter) => bad(text, FenProblem::BadCastlingLetter { letter }),
        CastlingError::Duplicate(letter) => {
            bad(text, FenProblem::DuplicateCastlingLetter { letter })
        }
    })
}

fn parse_pairs(pos: &mut NielsPosition, field: &str) -> Result<(), NielsError> {
    let mut by_diagonal: BTreeMap<u8, u32> = BTreeMap::new();
    for token in field.split(',') {
        let (body, diagonal) = match token.split_once(':') {
            Some((b, d)) => (
                b,
                Some(match d {
                    "1" => 1u8,
                    "2" => 2u8,
                    _ => return Err(bad(token, FenProblem::BadDiagonal)),
                }),
            ),
            None => (token, None),
        };
        let chars: Vec<char> = body.chars().collect();
        if chars.len() != 5 && chars.len() != 7 {
            return Err(bad(token, FenProblem::BadPairToken));
        }
        let piece =
            Piece::from_fen_char(chars[0]).ok_or_else(|| bad(token, FenProblem::BadPieceLetter))?;
        let square = |s: &[char]| {
            Square::parse(&s.iter().collect::<String>())
                .filter(|sq| pos.contains(*sq))
                .ok_or_else(|| bad(token, FenProblem::SquareOffBoard))
        };
        let red = square(&chars[1..3])?;
        let blue = square(&chars[3..5])?;
        let facing = |c: char| match c {
            'o' => Ok(true),
            'p' => Ok(false),
            _ => Err(bad(token, FenProblem::BadFacing)),
        };
        let (rf, bf) = if chars.len() == 7 {
            (facing(chars[5])?, facing(chars[6])?)
        } else {
            (true, true)
        };
        if red == blue || pos.cell(red) != Cell::Empty || pos.cell(blue) != Cell::Empty {
            return Err(bad(token, FenProblem::PairSquaresTaken));
        }
        let label = pos.free_label(piece);
        let id = pos.add_pair(Pair {
            piece,
            red,
            blue,
            red_faces_opponent: rf,
            blue_faces_opponent: bf,
            label,
            group: 0,
        });
        if let Some(d) = diagonal {
            match by_diagonal.get(&d) {
                Some(first) => {
                    pos.join_group(id, *first);
                    let g = pos.pairs.get(&id).map(|p| p.group);
                    if let Some(g) = g.and_then(|g| pos.groups.get_mut(&g)) {
                        g.diagonal = Some(d);
                    }
                }
                None => {
                    by_diagonal.insert(d, id);
                }
            }
        }
    }
    Ok(())
}
