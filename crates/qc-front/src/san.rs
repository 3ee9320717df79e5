//! A chess player's algebraic notation (SAN: `Nf3`, `e4`, `exd5`, `O-O`) read only to say what
//! it means in the game's own notation, which names squares (`g1f3`): the move a SAN text stands
//! for among the legal moves, worked out from the pieces on the board, for every ruleset (a
//! ruleset's moves name their squares, [`crate::LegalView::squares`]). A front end shows the
//! hint when the ruleset's move reader refuses the text; it never plays the move itself, since a
//! quantum move (a split, a measured capture) is more than its squares.

use crate::{Game, LegalView};
use qc_rules::{Castling, Piece, PieceKind, Square};

/// What a SAN text is read as.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum San {
    /// `O-O` (kingside) or `O-O-O`, also written with zeros.
    Castle {
        /// Kingside.
        kingside: bool,
    },
    /// A piece or pawn move to `target`, with what the text says of its start square.
    Move {
        /// The piece kind (a pawn when no letter is given).
        kind: PieceKind,
        /// The start square's file, when given (`Nbd2`, `exd5`).
        file: Option<i32>,
        /// The start square's rank, when given (`R1a3`).
        rank: Option<i32>,
        /// The square it goes to.
        target: Square,
        /// The piece a pawn promotes to (`e8=Q`).
        promotion: Option<PieceKind>,
    },
}

/// Reads `text` as SAN (trailing `+`, `#`, `!` and `?` allowed), `None` when it is not SAN.
pub fn read_san(text: &str) -> Option<San> {
    let text = text.trim_end_matches(['+', '#', '!', '?']);
    match text {
        "O-O" | "0-0" | "o-o" => return Some(San::Castle { kingside: true }),
        "O-O-O" | "0-0-0" | "o-o-o" => return Some(San::Castle { kingside: false }),
        _ => {}
    }
    let mut chars: Vec<char> = text.chars().collect();
    if chars.len() > 8 {
        return None;
    }
    let (kind, pawn) = match chars.first() {
        Some(&c @ ('N' | 'B' | 'R' | 'Q' | 'K')) => {
            chars.remove(0);
            (PieceKind::from_letter(c)?, false)
        }
        _ => (PieceKind::Pawn, true),
    };
    // A promotion: `=Q` or a trailing `Q` after the target square (pawns only).
    let mut promotion = None;
    if pawn {
        if let Some(&last) = chars.last().filter(|c| "NBRQ".contains(**c)) {
            promotion = PieceKind::from_letter(last);
            chars.pop();
            if chars.last() == Some(&'=') {
                chars.pop();
            }
        }
    }
    let n = chars.len();
    if n < 2 {
        return None;
    }
    let target = Square::parse(&chars[n - 2..].iter().collect::<String>())?;
    let mut rest = &chars[..n - 2];
    if rest.last() == Some(&'x') {
        rest = &rest[..rest.len() - 1];
    }
    let (mut file, mut rank) = (None, None);
    for &c in rest {
        match c {
            'a'..='h' if file.is_none() && rank.is_none() => file = Some(i32::from(c as u8 - b'a')),
            '1'..='8' if rank.is_none() => rank = Some(i32::from(c as u8 - b'1')),
            _ => return None,
        }
    }
    // A pawn's SAN names its file only when it captures (`exd5`), never a rank.
    if pawn && rank.is_some() {
        return None;
    }
    Some(San::Move {
        kind,
        file,
        rank,
        target,
        promotion,
    })
}

/// What a SAN text means in the game's notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SanHint {
    /// The legal moves it may stand for, in the game's notation (one: it is unambiguous).
    Legal {
        /// The text typed.
        san: String,
        /// The candidates.
        moves: Vec<String>,
    },
    /// A castling that is not legal here: the king's move that would make it.
    IllegalCastling {
        /// The text typed.
        san: String,
        /// The king's move (`e1g1`).
        king_move: String,
    },
    /// No legal move matches.
    NoMove {
        /// The text typed.
        san: String,
        /// What was looked for, in words (`a white knight to f3`).
        wanted: String,
    },
}

/// How the game's notation writes a move, for the hints.
const COORDINATES: &str = "qchess writes a move as its squares, from then to (e2e4, g1f3; castling is the king's move, e1g1)";

impl std::fmt::Display for SanHint {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SanHint::Legal { san, moves } if moves.len() == 1 => {
                write!(f, "{san} is {} here: {COORDINATES}", moves[0])
            }
            SanHint::Legal { san, moves } => write!(
                f,
                "{san} could be {} here: {COORDINATES}; type the one you mean",
                moves.join(" or ")
            ),
            SanHint::IllegalCastling { san, king_move } => {
                write!(f, "{san} is {king_move} here (castling is the king's move)")
            }
            SanHint::NoMove { san, wanted } => write!(
                f,
                "{san} reads as algebraic notation, but no legal move takes {wanted}: {COORDINATES} (`moves` lists the legal moves)"
            ),
        }
    }
}

/// The hint for `text` in `game`'s position when it is SAN, `None` when it is not SAN.
pub fn san_hint(game: &dyn Game, text: &str) -> Option<SanHint> {
    let san = read_san(text)?;
    let side = game.side_to_move();
    let view = game.board_view(false);
    let piece_on = |sq: Square| view.get(sq).and_then(|v| Piece::from_fen_char(v.piece));
    let legal = game.legal_moves();
    let standard = |m: &&LegalView| m.squares.sources.len() == 1 && m.squares.targets.len() == 1;
    let named = text.to_string();
    match san {
        San::Castle { kingside } => {
            let (from, to) = Castling {
                color: side,
                kingside,
            }
            .king_step();
            let moves = candidates(legal.iter().filter(standard).filter(|m| {
                m.squares.sources[0] == from
                    && m.squares.targets[0] == to
                    && piece_on(from) == Some(Piece::new(side, PieceKind::King))
            }));
            Some(if moves.is_empty() {
                SanHint::IllegalCastling {
                    san: named,
                    king_move: format!("{from}{to}"),
                }
            } else {
                SanHint::Legal { san: named, moves }
            })
        }
        San::Move {
            kind,
            file,
            rank,
            target,
            promotion,
        } => {
            let piece = Piece::new(side, kind);
            let moves = candidates(legal.iter().filter(standard).filter(|m| {
                let from = m.squares.sources[0];
                piece_on(from) == Some(piece)
                    && m.squares.targets[0] == target
                    && file.is_none_or(|f| from.file() == f)
                    && rank.is_none_or(|r| from.rank() == r)
                    && promotion.is_none_or(|p| promotes_to(&m.text, p))
            }));
            if moves.is_empty() {
                Some(SanHint::NoMove {
                    san: named,
                    wanted: format!("a {} to {target}", piece.name()),
                })
            } else {
                Some(SanHint::Legal { san: named, moves })
            }
        }
    }
}

/// The distinct texts of `moves`, in order.
fn candidates<'a>(moves: impl Iterator<Item = &'a LegalView>) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for m in moves {
        if !out.contains(&m.text) {
            out.push(m.text.clone());
        }
    }
    out
}

/// Whether a move's text ends with the promotion letter `kind` (`e7e8Q`, Niel's `e7e8q`).
fn promotes_to(text: &str, kind: PieceKind) -> bool {
    text.chars()
        .last()
        .is_some_and(|c| c.eq_ignore_ascii_case(&kind.letter()))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{GameInput, RulesKind, Session, SessionSpec};

    fn session(rules: RulesKind, fen: Option<&str>, moves: Option<&str>) -> Session {
        let spec = SessionSpec {
            rules,
            ..SessionSpec::default()
        };
        let input = GameInput::Position {
            name: "test",
            fen,
            moves,
        };
        Session::open(&spec, input, 0).expect("opens")
    }

    #[test]
    fn san_reads_pieces_pawns_captures_promotions_and_castling() {
        let sq = |s: &str| Square::parse(s).expect("square");
        assert_eq!(
            read_san("Nf3"),
            Some(San::Move {
                kind: PieceKind::Knight,
                file: None,
                rank: None,
                target: sq("f3"),
                promotion: None
            })
        );
        assert_eq!(
            read_san("exd5+"),
            Some(San::Move {
                kind: PieceKind::Pawn,
                file: Some(4),
                rank: None,
                target: sq("d5"),
                promotion: None
            })
        );
        assert!(matches!(
            read_san("e8=Q"),
            Some(San::Move {
                promotion: Some(PieceKind::Queen),
                ..
            })
        ));
        assert!(matches!(
            read_san("R1a3"),
            Some(San::Move { rank: Some(0), .. })
        ));
        assert_eq!(read_san("0-0-0"), Some(San::Castle { kingside: false }));
        for not_san in ["e2e4x", "board", "Nf9", "e", "Zf3", "e24"] {
            assert_eq!(read_san(not_san), None, "{not_san}");
        }
    }

    #[test]
    fn a_chess_players_first_moves_get_their_coordinates_in_both_rulesets() {
        for rules in [RulesKind::Cantwell, RulesKind::Niels] {
            let start = session(rules, None, None);
            let hint = |t: &str| san_hint(&*start, t).map(|h| h.to_string());
            assert!(
                hint("Nf3").is_some_and(|h| h.starts_with("Nf3 is g1f3 here")),
                "{rules:?}: {:?}",
                hint("Nf3")
            );
            assert!(hint("e4").is_some_and(|h| h.starts_with("e4 is e2e4 here")));
            // Castling through the knight and bishop is not legal at the start.
            assert_eq!(
                hint("O-O").as_deref(),
                Some("O-O is e1g1 here (castling is the king's move)")
            );
            assert!(
                hint("Nf4").is_some_and(|h| h.contains("no legal move takes a white knight to f4"))
            );
            assert_eq!(hint("e2e4"), None);
        }
        // Two knights reach d2 once the pawn and bishop have moved: both are named.
        let open = session(
            RulesKind::Cantwell,
            None,
            Some("d2d4 e7e5 c1f4 e5e4 g1f3 e4e3"),
        );
        let hint = san_hint(&*open, "Nd2").map(|h| h.to_string());
        assert!(
            hint.as_deref()
                .is_some_and(|h| h.starts_with("Nd2 could be b1d2 or f3d2 here")),
            "{hint:?}"
        );
        let hint = san_hint(&*open, "Nbd2").map(|h| h.to_string());
        assert!(hint.is_some_and(|h| h.starts_with("Nbd2 is b1d2 here")));
    }
}
