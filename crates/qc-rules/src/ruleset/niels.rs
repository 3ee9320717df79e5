//! Niel's Chess behind the ruleset interface: [`NielsGame`] plays Niel's moves,
//! [`NielsRecord`] reads and writes its game files, [`NielsRules`] are its options.

use super::{
    BoardView, DrawReason, GameText, LegalMove, MarkView, MoveOutcome, MoveView, PairView,
    QuantumGame, Ruleset, SquareView, Status, WinReason, WireLabel, WrittenMove,
};
use crate::niels::moves::{format_played, parse_played};
use crate::niels::{
    Cell, GameStatus, NielsError, NielsGame, NielsPosition, NielsRecord, NielsRules, PlayedMove,
};
use crate::piece::Color;
use qc_ir::{Backend, Circuit, Square};
use serde_json::{json, Map, Value};

/// Niel's Chess, "piece in a box" (`docs/niels.md`).
pub struct Niels;

/// A Niel's start: the position, with the rule options in force.
pub type NielsStart = NielsPosition;

fn move_view(m: &PlayedMove) -> MoveView {
    let detail = if m.rolls.is_empty() {
        "no roll".to_string()
    } else {
        let shown: Vec<String> = m
            .rolls
            .iter()
            .zip(&m.roll_outcomes)
            .map(|(s, o)| format!("{s} (P {:.4}): {}", o.probability, o.meaning))
            .collect();
        format!("rolled {}", shown.join("; "))
    };
    let rolls: Vec<String> = m.rolls.iter().map(ToString::to_string).collect();
    let mut extras = Map::new();
    extras.insert("rolls".into(), json!(rolls));
    extras.insert("blue_probabilities".into(), json!(m.blue_probabilities));
    let outcomes: Vec<Value> = m
        .roll_outcomes
        .iter()
        .map(|o| json!({"probability": o.probability, "meaning": o.meaning}))
        .collect();
    extras.insert("roll_outcomes".into(), Value::Array(outcomes));
    MoveView {
        text: m.text(),
        kind: m.kind,
        detail,
        outcome: (!rolls.is_empty()).then(|| rolls.join(",")),
        instructions: m.instructions.clone(),
        extras,
    }
}

/// The probability that `pair`'s piece is on its red square.
fn p_red(pos: &NielsPosition, pair: &crate::niels::Pair) -> f64 {
    let p_event = pos.group_event_probability(pair.group);
    if pair.event_square() == pair.red {
        p_event
    } else {
        1.0 - p_event
    }
}

/// The status in the interface's terms.
pub(crate) fn status_of(status: GameStatus) -> Status {
    match status {
        GameStatus::Ongoing => Status::Ongoing,
        GameStatus::Checkmate { winner } => Status::Win(winner, WinReason::Checkmate),
        GameStatus::Stalemate => Status::Draw(DrawReason::Stalemate),
        GameStatus::FiftyMoves => Status::Draw(DrawReason::FiftyMoves),
        GameStatus::Repetition => Status::Draw(DrawReason::Repetition),
        GameStatus::InsufficientMaterial => Status::Draw(DrawReason::InsufficientMaterial),
    }
}

/// The position as JSON: conventional pieces by square, pairs with their probabilities, groups,
/// the status (`status`, as only the game knows repetitions), the side to move and check.
fn position_json(pos: &NielsPosition, status: Status) -> Value {
    let mut pieces = Map::new();
    for s in pos.squares() {
        if pos.pair_at(s).is_none() {
            if let Some(p) = pos.piece_at(s) {
                pieces.insert(s.to_string(), json!(p.fen_char().to_string()));
            }
        }
    }
    let pairs: Vec<Value> = pos
        .pairs
        .iter()
        .map(|(id, p)| {
            json!({
                "id": id,
                "piece": p.piece.fen_char().to_string(),
                "label": p.label,
                "red": p.red.to_string(),
                "blue": p.blue.to_string(),
                "red_faces_opponent": p.red_faces_opponent,
                "blue_faces_opponent": p.blue_faces_opponent,
                "p_red": p_red(pos, p),
                "group": p.group,
            })
        })
        .collect();
    let groups: Vec<Value> = pos
        .groups
        .iter()
        .map(|(id, g)| json!({"id": id, "diagonal": g.diagonal, "pairs": g.pairs}))
        .collect();
    json!({
        "fen": pos.to_fen(),
        "width": pos.width,
        "height": pos.height,
        "pieces": pieces,
        "pairs": pairs,
        "groups": groups,
        "status": status.name(),
        "side_to_move": side_name(pos.side_to_move),
        "in_check": pos.in_check(pos.side_to_move),
    })
}

fn side_name(color: Color) -> &'static str {
    match color {
        Color::White => "w",
        Color::Black => "b",
    }
}

impl<B: Backend> QuantumGame for NielsGame<B> {
    type Error = NielsError;

    fn play_text(
        &mut self,
        text: &str,
        rng: &mut dyn rand::RngCore,
    ) -> Result<MoveView, NielsError> {
        NielsGame::play_text(self, text, rng).map(move_view)
    }

    fn undo(&mut self) -> Result<MoveView, NielsError> {
        NielsGame::undo(self).map(|m| move_view(&m))
    }

    fn move_outcomes(&mut self, text: &str) -> Result<Vec<MoveOutcome>, NielsError> {
        let status = QuantumGame::status(self);
        if status.is_over() {
            return Err(NielsError::GameOver(status));
        }
        let (mv, _) = parse_played(text)?;
        Ok(NielsGame::outcome_probabilities(self, &mv)?
            .into_iter()
            .map(|(rolls, probability)| MoveOutcome {
                text: format_played(&self.position().canonical(&mv), &rolls),
                probability,
            })
            .collect())
    }

    fn legal_moves(&self) -> Vec<LegalMove> {
        if QuantumGame::status(self).is_over() {
            return Vec::new();
        }
        let pos = self.position();
        pos.legal_moves()
            .into_iter()
            .map(|mv| LegalMove {
                text: mv.to_string(),
                kind: pos.move_kind(&mv),
            })
            .collect()
    }

    fn status(&self) -> Status {
        status_of(NielsGame::status(self))
    }

    fn side_to_move(&self) -> Color {
        self.position().side_to_move
    }

    fn circuit(&self) -> &Circuit {
        NielsGame::circuit(self)
    }

    fn outcomes(&self) -> Vec<Option<bool>> {
        self.clbit_outcomes()
    }

    fn moves(&self) -> Vec<MoveView> {
        self.history().iter().map(move_view).collect()
    }

    fn wire_labels(&self) -> Vec<WireLabel> {
        NielsGame::wire_labels(self).to_vec()
    }

    fn record(&self) -> String {
        NielsGame::record(self)
    }

    fn fen(&self) -> String {
        self.position().to_fen()
    }

    fn board_view(&self, _links: bool) -> BoardView {
        // Pairs are always drawn joined; `links` adds nothing (correlations are the pairs).
        let pos = self.position();
        let mut view = BoardView::new(pos.width, pos.height, pos.side_to_move);
        view.status = QuantumGame::status(self);
        for square in pos.squares() {
            view.squares[square.index()] = match pos.cell(square) {
                Cell::Empty => None,
                Cell::Conventional(p) => Some(SquareView {
                    piece: p.fen_char(),
                    probability: 1.0,
                    mark: None,
                }),
                Cell::Indefinite(id) => pos.pairs.get(&id).map(|pair| {
                    let red = pair.red == square;
                    let p = p_red(pos, pair);
                    SquareView {
                        piece: pair.piece.fen_char(),
                        probability: if red { p } else { 1.0 - p },
                        mark: Some(MarkView {
                            red,
                            faces_opponent: if red {
                                pair.red_faces_opponent
                            } else {
                                pair.blue_faces_opponent
                            },
                            diagonal: pos.groups.get(&pair.group).and_then(|g| g.diagonal),
                            label: pair.label,
                        }),
                    }
                }),
            };
        }
        view.pairs = pos
            .pairs
            .iter()
            .map(|(id, pair)| PairView {
                id: *id,
                piece: pair.piece.fen_char(),
                label: pair.label,
                red: pair.red,
                blue: pair.blue,
                p_red: p_red(pos, pair),
                group: pair.group,
                diagonal: pos.groups.get(&pair.group).and_then(|g| g.diagonal),
            })
            .collect();
        view
    }

    fn state_size(&self) -> usize {
        self.backend().state_size()
    }

    fn bell(&self, _: Square, _: Square) -> Option<([f64; 8], (f64, f64))> {
        // Squares have no qubits here (a pair's qubit says which of its two squares).
        None
    }

    fn extras(&self) -> Map<String, Value> {
        let pos = self.position();
        let mut extras = Map::new();
        extras.insert("variant".into(), json!(pos.rules.to_string()));
        extras.insert("in_check".into(), json!(pos.in_check(pos.side_to_move)));
        extras.insert(
            "final".into(),
            position_json(pos, QuantumGame::status(self)),
        );
        extras
    }
}

impl Ruleset for Niels {
    const NAME: &'static str = "niels";
    const GAME_FILE_EXTENSION: &'static str = "qng";
    type Start = NielsPosition;
    type Game<B: Backend> = NielsGame<B>;
    type Error = NielsError;

    fn start(fen: Option<&str>, options: Option<&str>) -> Result<NielsPosition, NielsError> {
        let rules: NielsRules = options.unwrap_or("simplified").parse()?;
        match fen {
            Some(f) => NielsPosition::from_fen(f, rules),
            None => Ok(NielsPosition::start(rules)),
        }
    }

    fn read_game(text: &str, options: Option<&str>) -> Result<GameText<NielsPosition>, NielsError> {
        let record = NielsRecord::parse(text)?;
        let rules = match options {
            Some(o) => o.parse()?,
            None => record.rules()?,
        };
        let start = record.start(rules)?;
        Ok(GameText {
            tags: record
                .tags
                .into_iter()
                .filter(|(n, _)| {
                    !n.eq_ignore_ascii_case("Variant") && !n.eq_ignore_ascii_case("FEN")
                })
                .collect(),
            start,
            moves: record.moves.into_iter().map(written).collect(),
        })
    }

    fn read_moves(text: &str) -> Result<Vec<WrittenMove>, NielsError> {
        Ok(NielsRecord::parse(text)?
            .moves
            .into_iter()
            .map(|m| WrittenMove {
                line: 0,
                column: 0,
                ..written(m)
            })
            .collect())
    }

    fn new_game<B: Backend>(start: &NielsPosition, backend: B) -> Result<NielsGame<B>, NielsError> {
        NielsGame::new(start.clone(), backend)
    }

    fn write_game<B: Backend>(
        tags: &[(String, String)],
        start: &NielsPosition,
        game: &NielsGame<B>,
    ) -> String {
        let mut all = tags.to_vec();
        all.push(("Variant".into(), start.rules.to_string()));
        all.push(("FEN".into(), start.to_fen()));
        NielsRecord::write(&all, &game.record())
    }

    fn start_fen(start: &NielsPosition) -> String {
        start.to_fen()
    }

    fn options_name(start: &NielsPosition) -> Option<String> {
        Some(start.rules.to_string())
    }
}

fn written(m: crate::niels::RecordedMove) -> WrittenMove {
    WrittenMove {
        text: m.text,
        line: m.line,
        column: m.column,
    }
}
