//! What the API answers about a game: its state after every request (board, side to move,
//! status in words, moves with what happened, clocks), as JSON. Every answer names its game and
//! the ply it is at, so that a page can tell an answer to an earlier request from the newest.

use crate::clock::ClockView;
use crate::ending::EndingView;
use crate::game::WebGame;
use qc_front::MoveView;
use qc_render::board_svg::{self, BoardOptions};
use qc_rules::{BoardView, Color, Square, Status};
use serde::Serialize;
use std::collections::BTreeMap;

/// A square's content.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SquareState {
    /// FEN letter (uppercase white, lowercase black).
    pub piece: String,
    /// The piece's name (`white knight`).
    pub name: String,
    /// The probability that it is there (0..=1).
    pub probability: f64,
}

/// A move played, as the move list shows it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayedMove {
    /// The game's ply after it (1 = the first move of this game): the `ply` of the state it led
    /// to, and what `position?ply=` shows.
    pub ply: usize,
    /// The number of its move pair, as a game record writes it (`1. e2e4 e7e5`: both are move
    /// 1; a game from a FEN continues its fullmove number).
    pub number: u32,
    /// The side that played it (`white`, `black`).
    pub mover: &'static str,
    /// The move with its outcomes written in (it replays exactly).
    pub text: String,
    /// Its kind.
    pub kind: &'static str,
    /// Whether it is a quantum move (a split or a merge; Niel's moves other than a classical
    /// step, capture or castling).
    pub quantum: bool,
    /// The outcomes written in `text` (`.m1`, Niel's `[e6]`), `None` when nothing was drawn:
    /// `text` is the move as chosen, then this.
    pub outcome_notation: Option<String>,
    /// What happened, in words, with the probability of each outcome drawn.
    pub detail: String,
    /// The outcome in a few words, when something was drawn.
    pub outcome: Option<String>,
    /// The squares it names (where pieces left from and went to), which the board highlights
    /// after it.
    pub squares: Vec<String>,
}

impl PlayedMove {
    fn new(ply: usize, m: MoveView) -> PlayedMove {
        PlayedMove {
            ply,
            number: m.number,
            mover: side_word(m.mover),
            squares: named_squares(&m).iter().map(ToString::to_string).collect(),
            text: m.text,
            kind: m.kind,
            quantum: m.quantum,
            outcome_notation: m.outcome_notation,
            detail: m.detail,
            outcome: m.outcome,
        }
    }
}

/// The squares `m` names, each once: its sources, then its targets.
fn named_squares(m: &MoveView) -> Vec<Square> {
    let mut squares: Vec<Square> = Vec::new();
    for square in m.squares.sources.iter().chain(&m.squares.targets) {
        if !squares.contains(square) {
            squares.push(*square);
        }
    }
    squares
}

/// The board of `view` drawn with the squares of `last` (the move that led to it) highlighted,
/// seen from Black's side when `flipped`.
pub fn board_picture(view: &BoardView, last: Option<&MoveView>, flipped: bool) -> String {
    let options = BoardOptions {
        highlight: last.map_or_else(Vec::new, named_squares),
        flipped,
        ..BoardOptions::default()
    };
    board_svg::draw_with(view, &options)
}

/// `white` or `black`.
pub fn side_word(side: Color) -> &'static str {
    match side {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// The most likely full-board measurement, where the FEN lists every square a piece may be on.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LikelyBoard {
    /// Its FEN.
    pub fen: String,
    /// Its probability.
    pub probability: f64,
}

/// A game's state, sent after every request that changes or shows it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameState {
    /// The game's id (the `{id}` of `/api/games/{id}/...`).
    pub id: String,
    /// The ply the game is at: the number of moves played. A move, an undo or an engine move
    /// that sends `ply` is refused (409) unless the game is at it.
    pub ply: usize,
    /// The ruleset.
    pub rules: &'static str,
    /// The rule options in force (`None` for Quantum Chess).
    pub variant: Option<String>,
    /// The seed of the dice.
    pub seed: u64,
    /// Files and ranks of the board.
    pub width: u8,
    /// Ranks.
    pub height: u8,
    /// The side to move (`white`, `black`).
    pub side_to_move: &'static str,
    /// The status as the command line's JSON spells it (`ongoing`, `white_wins`, ...), or
    /// the players' ending (`black_wins` after White resigned, `draw_agreed`).
    pub status: &'static str,
    /// How the players ended the game (a resignation, an agreed draw); `None` when they did
    /// not (the rules' result is in `status`).
    pub ending: Option<EndingView>,
    /// What the page says above the board: `White to move`, `Game over: White wins (king
    /// captured)`.
    pub headline: String,
    /// The draw rules' counters in words, when there is something to say.
    pub endings_note: Option<String>,
    /// The position in the ruleset's FEN.
    pub fen: String,
    /// The most likely board, where the FEN is not one board.
    pub most_likely_board: Option<LikelyBoard>,
    /// Every square that may hold a piece.
    pub squares: BTreeMap<String, SquareState>,
    /// The moves played.
    pub moves: Vec<PlayedMove>,
    /// The number of basis states of the quantum state.
    pub state_size: usize,
    /// Moves the game may still reach.
    pub moves_left: usize,
    /// Each side's time ([`crate::clock`]).
    pub clocks: ClockView,
    /// The board as qc-render draws it (SVG): rings and percentages, links between correlated
    /// squares, the last move's squares highlighted, a `data-square` hook on every square.
    pub board_svg: String,
}

/// `White to move`, or `Game over: ...` once the game has ended.
pub fn headline(status: Status, side: Color) -> String {
    if status.is_over() {
        format!("Game over: {status}")
    } else {
        format!("{} to move", side.name())
    }
}

impl GameState {
    /// The state of `game`, kept under `id`.
    pub fn of(id: &str, web: &WebGame) -> GameState {
        let game = web.session();
        let view = game.board_view(true);
        let squares = view
            .board_squares()
            .filter_map(|sq| {
                let s = view.get(sq)?;
                let name = qc_rules::Piece::from_fen_char(s.piece)
                    .map_or_else(|| s.piece.to_string(), |p| p.name());
                Some((
                    sq.to_string(),
                    SquareState {
                        piece: s.piece.to_string(),
                        name,
                        probability: s.probability,
                    },
                ))
            })
            .collect();
        let moves = game.moves();
        let played = moves.len();
        let running = (!web.is_over()).then(|| game.side_to_move());
        GameState {
            id: id.to_string(),
            ply: played,
            rules: qc_ir::Choice::name(game.rules()),
            variant: game.options_name(),
            seed: game.seed(),
            width: view.width,
            height: view.height,
            side_to_move: side_word(game.side_to_move()),
            status: web.status_name(),
            ending: web.ending().map(|e| e.view()),
            headline: web.headline(),
            endings_note: game.endings_note(),
            fen: game.fen(),
            most_likely_board: game
                .most_likely_board()
                .map(|(fen, probability)| LikelyBoard { fen, probability }),
            squares,
            board_svg: board_picture(&view, moves.last(), false),
            clocks: web.clock().view(moves.iter().map(|m| m.mover), running),
            moves: moves
                .into_iter()
                .enumerate()
                .map(|(k, m)| PlayedMove::new(k + 1, m))
                .collect(),
            state_size: game.state_size(),
            moves_left: web.max_moves().saturating_sub(played),
        }
    }
}
