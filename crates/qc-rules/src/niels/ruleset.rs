//! Niel's Chess behind the ruleset interface: [`NielsGame`] plays Niel's moves ([`RolledMove`],
//! the [`GameMove`] of this ruleset), [`NielsRecord`] reads and writes its game files,
//! [`NielsRules`] are its options.

use crate::chess::{Color, Square};
use crate::niels::game::PlayedNiels;
use crate::niels::moves::{NielsMove, NielsMoveKind, RolledMove};
use crate::niels::{Cell, NielsError, NielsGame, NielsPosition, NielsRecord, NielsRules};
use crate::ruleset::{
    BoardView, Comment, Endings, GameMove, GivenOutcome, LegalMove, MarkView, MoveOutcome,
    MoveSquares, OutcomeShapeError, PairView, PlayedMove, QuantumGame, Ruleset, SquarePair,
    SquareView, Status, Switch, Tag, WireLabel, WrittenMove,
};
use qc_ir::{Backend, Circuit};
use serde_json::{json, Map, Value};

/// How many times a Quantum Chess position's work a Niel's position of the same state size
/// costs a search ([`QuantumGame::search_work`]).
const NIELS_WORK_FACTOR: u64 = 2;

/// Niel's Chess, "piece in a box" (`docs/niels.md`).
pub struct Niels;

/// A Niel's start: the position, with the rule options in force.
pub type NielsStart = NielsPosition;

impl GameMove for RolledMove {
    type Kind = NielsMoveKind;

    fn kind_name(kind: NielsMoveKind) -> &'static str {
        kind.as_str()
    }

    fn is_quantum(kind: NielsMoveKind) -> bool {
        !matches!(
            kind,
            NielsMoveKind::Move | NielsMoveKind::Capture | NielsMoveKind::Castling
        )
    }

    fn outcome_notation(&self) -> Option<String> {
        self.rolls_written()
    }

    fn with_outcome(&self, outcome: &GivenOutcome) -> Result<RolledMove, OutcomeShapeError> {
        match outcome {
            GivenOutcome::Squares(squares) => Ok(RolledMove {
                mv: self.mv,
                rolls: squares.clone(),
            }),
            GivenOutcome::Bit(_) => Err(OutcomeShapeError {
                rules: "Niel's Chess",
                expected: "a square or a list of squares",
                given: outcome.shape(),
            }),
        }
    }

    fn without_outcomes(&self) -> RolledMove {
        RolledMove::from(self.mv)
    }

    fn squares(&self) -> MoveSquares {
        let (sources, targets) = match self.mv {
            NielsMove::Step { from, to, .. } | NielsMove::Tunnel { from, to } => {
                (vec![from], vec![to])
            }
            NielsMove::Superpose {
                from, red, blue, ..
            }
            | NielsMove::Entangle {
                from, red, blue, ..
            } => (vec![from], vec![red, blue]),
            NielsMove::Invert { square }
            | NielsMove::ZMove { square }
            | NielsMove::Hadamard { square } => (vec![square], Vec::new()),
        };
        MoveSquares { sources, targets }
    }

    /// As [`GameMove::clicks`], then an entanglement's target (a square of the opponent's
    /// indefinite piece being joined, which the move names last).
    fn clicks(&self) -> Vec<Square> {
        let mut clicks = self.squares().in_click_order();
        if let NielsMove::Entangle { target, .. } = self.mv {
            clicks.push(target);
        }
        clicks
    }

    fn detail(played: &PlayedNiels) -> String {
        if played.rolls.is_empty() {
            return "no roll".to_string();
        }
        let shown: Vec<String> = played
            .mv
            .rolls
            .iter()
            .zip(&played.rolls)
            .map(|(s, roll)| format!("{s} (P {:.4}): {}", roll.probability(), roll.meaning))
            .collect();
        format!("rolled {}", shown.join("; "))
    }

    fn outcome_summary(played: &PlayedNiels) -> Option<String> {
        let rolls: Vec<String> = played.mv.rolls.iter().map(ToString::to_string).collect();
        (!rolls.is_empty()).then(|| rolls.join(","))
    }

    fn extras(played: &PlayedNiels) -> Map<String, Value> {
        let rolls: Vec<String> = played.mv.rolls.iter().map(ToString::to_string).collect();
        let blue: Vec<f64> = played.rolls.iter().map(|r| r.p_one).collect();
        let outcomes: Vec<Value> = played
            .rolls
            .iter()
            .map(|r| json!({"probability": r.probability(), "meaning": r.meaning}))
            .collect();
        let mut extras = Map::new();
        extras.insert("rolls".into(), json!(rolls));
        extras.insert("blue_probabilities".into(), json!(blue));
        extras.insert("roll_outcomes".into(), Value::Array(outcomes));
        extras
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
    type Move = RolledMove;
    type Error = NielsError;
    type Backend = B;

    fn backend(&self) -> &B {
        self.ledger.run().backend()
    }

    fn play(
        &mut self,
        mv: &RolledMove,
        rng: &mut dyn rand::RngCore,
    ) -> Result<&PlayedNiels, NielsError> {
        self.play_rolled(mv, rng)
    }

    fn undo(&mut self) -> Result<PlayedNiels, NielsError> {
        Ok(self.ledger.unmake()?)
    }

    fn move_outcomes(
        &mut self,
        mv: &RolledMove,
    ) -> Result<Vec<MoveOutcome<RolledMove>>, NielsError> {
        let status = self.game_status();
        if status.is_over() {
            return Err(NielsError::GameOver(status));
        }
        let canonical = self.position().canonical(&mv.mv);
        Ok(self
            .outcome_probabilities(&canonical)?
            .into_iter()
            .map(|(rolls, probability)| MoveOutcome {
                mv: RolledMove {
                    mv: canonical,
                    rolls,
                },
                probability,
            })
            .collect())
    }

    fn legal_moves(&self) -> Vec<LegalMove<RolledMove>> {
        if self.game_status().is_over() {
            return Vec::new();
        }
        let pos = self.position();
        pos.legal_moves()
            .into_iter()
            .map(|mv| LegalMove {
                kind: pos.move_kind(&mv),
                mv: RolledMove::from(mv),
            })
            .collect()
    }

    fn status(&self) -> Status {
        self.game_status()
    }

    fn side_to_move(&self) -> Color {
        self.position().side_to_move
    }

    fn circuit(&self) -> &Circuit {
        self.ledger.run().circuit()
    }

    fn outcomes(&self) -> Vec<Option<bool>> {
        self.ledger.run().outcomes()
    }

    fn moves(&self) -> &[PlayedNiels] {
        self.ledger.moves()
    }

    fn wire_labels(&self) -> &[WireLabel] {
        self.ledger.run().wire_labels()
    }

    fn first_ply(&self) -> u32 {
        <Niels as Ruleset>::first_ply(self.initial_position())
    }

    fn record(&self) -> String {
        self.move_record()
    }

    fn fen(&self) -> String {
        self.position().to_fen()
    }

    fn board_view(&self, _links: bool) -> BoardView {
        // Pairs are always drawn joined; `links` adds nothing (correlations are the pairs).
        let pos = self.position();
        let mut view = BoardView::new(pos.width, pos.height, pos.side_to_move);
        view.status = self.game_status();
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

    /// Legality looks at every collapse outcome: a position of Niel's Chess costs a search about
    /// twice what a Quantum Chess position of the same state size does (16,400 against 37,300
    /// positions a second, Niel's start to depth 3 against Quantum Chess's to depth 5, one run
    /// on the 2-core development machine).
    fn search_work(&self) -> u64 {
        (self.state_size().max(1) as u64).saturating_mul(NIELS_WORK_FACTOR)
    }

    fn endings(&self) -> Endings {
        Endings {
            fifty: self.position().halfmove_clock,
            claimable: None,
            measured: None,
        }
    }

    fn bell(&self, _: SquarePair) -> Option<([f64; 8], (f64, f64))> {
        // Squares have no qubits here (a pair's qubit says which of its two squares).
        None
    }

    fn extras(&self) -> Map<String, Value> {
        let pos = self.position();
        let mut extras = Map::new();
        extras.insert("variant".into(), json!(pos.rules.to_string()));
        extras.insert("in_check".into(), json!(pos.in_check(pos.side_to_move)));
        extras.insert("final".into(), position_json(pos, self.game_status()));
        extras
    }
}

impl Ruleset for Niels {
    const NAME: &'static str = "niels";
    const GAME_FILE_EXTENSION: &'static str = "qng";
    const TITLE: &'static str = "Niel's Chess";
    const RULE_OPTIONS: &'static [(&'static str, &'static str)] = &[
        ("full", "the full game: marks can be inverted"),
        ("hadamard", "the Hadamard Game: Z and Hadamard moves"),
        (
            "hadamard-plus",
            "the Hadamard Game with more moves (implies hadamard)",
        ),
        (
            "deterministic",
            "the Deterministic Game (implies hadamard-plus)",
        ),
        (
            "tunnelling",
            "the Tunnelling Game: pieces may tunnel through",
        ),
        ("no-box", "no piece in a box"),
    ];
    const NO_CLAIM: &'static str =
        "its draws (threefold repetition, fifty moves) end the game at once";
    const NOTATION_EXAMPLES: &'static [(&'static str, &'static str)] = &[
        ("e2e4  f5xe6", "a move or a capture: the square it leaves, then the square it reaches"),
        ("e7e8q", "promotion: the piece's letter after the move"),
        (
            "c6^d4e5",
            "superposition move (a split): the piece is on both squares at once (red mark first, then blue) until a roll decides",
        ),
        ("c6^c6e5", "the same, one part staying on its square"),
        ("f6&f6d5@e4", "entanglement move: a split joined to the pair of the piece on e4"),
        ("~d4", "mark inversion (full game): turns both marks of the pair on d4"),
        ("Ze2  He4", "Hadamard Game: Z turns one mark; H makes the pair one piece again"),
        ("e1*e5", "tunnelling (Tunnelling Game): try to pass through the piece in front"),
        ("f5xe6[e6]", "a move with its roll's outcome written in"),
        (
            "(no merge)",
            "a piece in two places becomes one again when a roll decides where it is",
        ),
    ];
    type Start = NielsPosition;
    type Move = RolledMove;
    type Error = NielsError;
    type Game<B: Backend> = NielsGame<B>;

    fn start(fen: Option<&str>, options: Option<&str>) -> Result<NielsPosition, NielsError> {
        let rules: NielsRules = options.unwrap_or("simplified").parse()?;
        match fen {
            Some(f) => NielsPosition::from_fen(f, rules),
            None => Ok(NielsPosition::start(rules)),
        }
    }

    fn read_game(text: &str, options: Option<&str>) -> Result<NielsRecord, NielsError> {
        NielsRecord::read(text, options)
    }

    fn read_moves(text: &str) -> Result<Vec<WrittenMove<RolledMove>>, NielsError> {
        NielsRecord::read_move_list(text)
    }

    fn new_game<B: Backend>(start: &NielsPosition, backend: B) -> Result<NielsGame<B>, NielsError> {
        NielsGame::new(start.clone(), backend)
    }

    fn write_game<B: Backend>(
        tags: &[Tag],
        comments: &[Comment],
        start: &NielsPosition,
        game: &NielsGame<B>,
    ) -> String {
        let moves: Vec<String> = game.moves().iter().map(PlayedMove::text).collect();
        // A finished game says how it ended, as a PGN result token.
        NielsRecord::write_game(tags, start, &moves, comments, game.status().result())
    }

    fn start_fen(start: &NielsPosition) -> String {
        start.to_fen()
    }

    fn first_ply(start: &NielsPosition) -> u32 {
        crate::chess::first_ply(start.side_to_move, start.fullmove_number)
    }

    fn switch_unsupported(switch: Switch) -> Option<&'static str> {
        Some(match switch {
            Switch::ForceTurn => {
                "legality (no move may leave one's own king in check) is decided for \
                 the side to move, so a move out of turn has no meaning"
            }
            Switch::ForceWin => {
                "a king is never captured (the game ends by checkmate), so no \
                 king can go missing"
            }
        })
    }

    fn options_name(start: &NielsPosition) -> Option<String> {
        Some(start.rules.to_string())
    }
}
