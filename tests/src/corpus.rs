//! The game corpus of the Qiskit interop check (issue 5): every move case of [`crate::cases`]
//! and seeded random legal games of 30+ plies, each finished by a measurement of every square
//! that ever held a piece, so that comparing bit distributions also compares the final board.

use crate::cases::{play, CASES};
use qc_ir::{Circuit, Clbit, Instruction, Op, QubitRole};
use qc_rules::Square;
use qc_rules::{Board, Game, QuantumGame};
use qc_sim::ReferenceSparse;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};

/// A played game of the corpus.
pub struct CorpusGame {
    /// File-name-safe name (`case_jump_basic`, `random03`).
    pub name: String,
    /// The position the game starts from (FEN).
    pub fen: &'static str,
    /// The game as played on the reference simulator.
    pub game: Game<ReferenceSparse>,
}

impl CorpusGame {
    /// The game circuit with its final board measured (see [`with_board_measurement`]).
    pub fn measured_circuit(&self) -> BoardMeasured {
        with_board_measurement(self.game.circuit(), self.game.classical_record().bits())
    }
}

/// A game circuit followed by a measurement of its final board.
pub struct BoardMeasured {
    /// The circuit: the game's instructions, then one measurement per square in `squares`.
    pub circuit: Circuit,
    /// Post-selection outcomes per bit: the game's recorded outcomes, `None` for the board bits.
    pub outcomes: Vec<Option<bool>>,
    /// The measured squares; `squares[j]` is written to bit `first_board_bit + j`.
    pub squares: Vec<Square>,
    /// The first board bit (the game's own bit count).
    pub first_board_bit: usize,
}

/// `circuit` plus a measurement of every square that ever held a piece (whose qubit some
/// instruction touches; the set-up writes every starting piece with an X), in qubit order, into
/// fresh bits after the game's own; `recorded` are the game's recorded outcomes.
pub fn with_board_measurement(circuit: &Circuit, recorded: &[Option<bool>]) -> BoardMeasured {
    let mut instructions = circuit.instructions().to_vec();
    let mut touched = vec![false; circuit.num_qubits()];
    for instr in circuit.instructions() {
        for q in instr.op.qubits() {
            touched[q.index()] = true;
        }
    }
    let first_board_bit = circuit.num_clbits();
    let mut squares = Vec::new();
    for (index, role) in circuit.qubit_roles().iter().enumerate() {
        if let (QubitRole::Site(square), true) = (role, touched[index]) {
            instructions.push(Instruction::new(Op::Measure {
                qubit: qc_ir::Qubit(index as u32),
                clbit: Clbit((first_board_bit + squares.len()) as u32),
            }));
            squares.push(Square::from(*square));
        }
    }
    let clbits = first_board_bit + squares.len();
    let mut outcomes: Vec<Option<bool>> = (0..first_board_bit)
        .map(|k| recorded.get(k).copied().flatten())
        .collect();
    outcomes.resize(clbits, None);
    BoardMeasured {
        circuit: Circuit::from_parts(circuit.qubit_roles().to_vec(), clbits as u32, instructions),
        outcomes,
        squares,
        first_board_bit,
    }
}

impl BoardMeasured {
    /// The board distribution a bit distribution of this circuit (or of a program exported from
    /// it) implies, post-selected on the recorded outcomes and renormalised: bitboard (bit k =
    /// square k occupied) to probability, in increasing bitboard order. `None` when no shot
    /// would be kept.
    pub fn board_distribution(&self, dist: &qc_ir::Distribution) -> Option<Vec<(u64, f64)>> {
        let mut boards: std::collections::BTreeMap<u64, f64> = Default::default();
        let mut kept = 0.0;
        for (bits, p) in dist {
            let agrees = self
                .outcomes
                .iter()
                .enumerate()
                .all(|(k, o)| o.is_none_or(|v| bits.get(k).copied().unwrap_or(false) == v));
            if !agrees {
                continue;
            }
            kept += p;
            let mut board = 0u64;
            for (j, sq) in self.squares.iter().enumerate() {
                if bits.get(self.first_board_bit + j).copied().unwrap_or(false) {
                    board |= 1 << sq.index();
                }
            }
            *boards.entry(board).or_default() += p;
        }
        (kept > 0.0).then(|| boards.into_iter().map(|(b, p)| (b, p / kept)).collect())
    }
}

/// Every move case, played (cases that fail to play are an error naming the case).
pub fn case_games() -> Result<Vec<CorpusGame>, String> {
    CASES
        .iter()
        .map(|case| {
            play(case)
                .map(|p| CorpusGame {
                    name: format!("case_{}", case.name),
                    fen: case.fen,
                    game: p.game,
                })
                .map_err(|e| format!("case {}: {e}", case.name))
        })
        .collect()
}

/// The start position of the random games: few pieces, so that 30+ plies still split, merge,
/// capture and measure while the programs stay small.
pub const RANDOM_FEN: &str = "4k3/3p4/1n4b1/8/8/1N4B1/3P4/4K3 w - - 0 1";

/// A seeded random legal game of `plies` plies from `fen`: each ply picks a move of
/// `Game::legal_moves` at random (moves `play` rejects are skipped), outcomes are sampled with the
/// same RNG; the game stops early when it is over or no move is playable. Moves after which the
/// game's compact OpenQASM 3 export would need more than `max_qubits` qubits are skipped too, so
/// the program stays small enough for a state-vector simulator running thousands of shots.
pub fn random_game(
    seed: u64,
    fen: &str,
    plies: usize,
    max_qubits: usize,
) -> Result<Game<ReferenceSparse>, String> {
    let board = Board::from_fen(fen).map_err(|e| format!("{fen}: {e}"))?;
    let mut game = Game::new(board, ReferenceSparse::new()).map_err(|e| e.to_string())?;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(seed);
    for _ in 0..plies {
        let mut moves = game.legal_moves();
        moves.shuffle(&mut rng);
        let mut played = false;
        for mv in moves {
            let mut uniform = || rng.gen::<f64>();
            if game.play_with(&mv.mv, &mut uniform).is_err() {
                continue;
            }
            if export_width(&game)? > max_qubits {
                game.undo().map_err(|e| e.to_string())?;
                continue;
            }
            played = true;
            break;
        }
        if !played {
            break;
        }
    }
    Ok(game)
}

/// Qubits of the compact, deferred OpenQASM 3 export of the game with its final board measured
/// (the widest program the interop check runs).
fn export_width(game: &Game<ReferenceSparse>) -> Result<usize, String> {
    let m = with_board_measurement(game.circuit(), game.classical_record().bits());
    let options = qc_export::ExportOptions {
        form: qc_export::Form::Deferred,
        ..Default::default()
    };
    qc_export::export_qasm3(&m.circuit, &m.outcomes, &options)
        .map(|e| e.summary.qubits)
        .map_err(|e| e.to_string())
}

/// Random games in the corpus: at least 30 plies and at least one measurement each.
pub const RANDOM_GAMES: usize = 6;

/// Width budget of the random games (see [`random_game`]).
pub const RANDOM_MAX_QUBITS: usize = 16;

/// `count` random games of 36 plies from [`RANDOM_FEN`]: seeds 1, 2, ... in order, keeping the
/// games that reach 30 plies with at least one measurement.
pub fn random_games(count: usize) -> Result<Vec<CorpusGame>, String> {
    let mut games = Vec::new();
    for seed in 1..=500u64 {
        if games.len() == count {
            return Ok(games);
        }
        let game = random_game(seed, RANDOM_FEN, 36, RANDOM_MAX_QUBITS)?;
        if game.moves().len() >= 30 && game.circuit().num_measurements() > 0 {
            games.push(CorpusGame {
                name: format!("random{seed:03}"),
                fen: RANDOM_FEN,
                game,
            });
        }
    }
    Err(format!(
        "only {} of {count} random games reached 30 plies with a measurement",
        games.len()
    ))
}

/// The corpus: every move case, then [`RANDOM_GAMES`] random games.
pub fn corpus() -> Result<Vec<CorpusGame>, String> {
    let mut games = case_games()?;
    games.extend(random_games(RANDOM_GAMES)?);
    Ok(games)
}
