//! `qchess`: the Quantum Chess compiler and simulator command line.
//!
//! Errors go to standard error with their full context chain (file, line, column or move number,
//! and the rule broken) and exit code 2; a closed standard output (e.g. `qchess ... | head -1`)
//! ends the program quietly with code 0.
#![allow(
    rustdoc::broken_intra_doc_links,
    reason = "the argument types' doc comments are clap's --help text for a terminal (`draw [N]`, \
              `c[0]`), not rustdoc links; escaping the brackets would print the backslashes"
)]

mod choice_arg;
mod circuit_input;
mod commands;
mod game_input;
mod input;
mod interrupt;
mod output;
mod repl;
mod status;
mod uqci;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

/// Quantum Chess games as real quantum circuits: compile, simulate, play, inspect.
///
/// A GAME is a game file (PGN-like, see docs/notation.md), `-` for standard input, or moves
/// given with --moves "e2e4 b8^a6c6 ..." and an optional --fen. With --rules niels the
/// commands play Niel's Chess instead (docs/niels.md): Niel's game files and notation, FEN-like
/// positions on 4x4 to 8x8 boards, rule options with --variant (full, hadamard, hadamard-plus,
/// deterministic, tunnelling, no-box).
#[derive(Parser, Debug)]
#[command(name = "qchess", version, about, long_about)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Play a game on a simulator and show every move, the final board with probabilities, the
    /// state size and the game status.
    ///
    /// Moves written without .m0/.m1 get an outcome sampled with --seed; the output gives the
    /// game again with every outcome written in, so it replays exactly.
    ///
    /// Examples:
    ///   qchess simulate circuits/interference.qcg
    ///   qchess simulate --moves "b1^a3c3 g8^f6h6" --json
    ///   qchess simulate circuits/tour.qcg --seed 7 --shots 1000
    ///   qchess simulate circuits/full_game.qcg --backend dense --precision single
    #[command(verbatim_doc_comment)]
    Simulate(commands::simulate::SimulateArgs),
    /// Compile a whole game into one circuit: OpenQASM 3 (default), OpenQASM 2, IR text or JSON.
    /// The game's recorded outcomes go into the program for post-selection; a summary (qubits,
    /// clbits, gate counts, two-qubit depth, measurements, recorded outcomes, keep probability)
    /// goes to standard error.
    ///
    /// Examples:
    ///   qchess compile circuits/tour.qcg -o tour.qasm
    ///   qchess compile circuits/tour.qcg --target ibm --form dynamic
    ///   qchess compile circuits/interference.qcg --target google   (deferred: no feed-forward)
    ///   qchess compile --moves "b1^a3c3" --format qasm2
    ///   qchess compile circuits/tour.qcg --format ir
    ///   qchess compile circuits/tour.qcg --measure squares --map tour.map.json
    ///   qchess compile circuits/tour.qcg --target ibm_fez --form deferred --json
    ///   qchess compile circuits/full_game.qcg --target sycamore -o full_game.sycamore.qasm
    ///
    /// On a device target (ibm_fez, sycamore, quantinuum_h2) the program is placed and routed: written on
    /// physical qubits $k, every two-qubit gate on a coupler, the layout in its header; the
    /// summary adds the two-qubit gate count and depth, the physical qubits used and the
    /// estimated success probability (--properties gives the calibration; docs/backends.md).
    ///
    /// The program measures the board at the end (--measure board: every square, every
    /// captured-piece ancilla, and every ancilla returned to |0> as an error check); its JSON
    /// header says what every bit is (docs/hardware.md).
    #[command(verbatim_doc_comment)]
    Compile(commands::compile::CompileArgs),
    /// Read a device's counts of a compiled program back into a board: post-selection on the
    /// recorded outcomes, symmetry checks (piece counts per colour, ancillas that must read 0),
    /// readout correction; per square the probability with its standard error.
    ///
    /// COUNTS is Qiskit get_counts() JSON (c[0] rightmost), Braket measurement_counts JSON
    /// (c[0] leftmost) or CSV bits,count (c[0] rightmost); --counts-format when the file does not
    /// tell. See docs/hardware.md.
    ///
    /// Examples:
    ///   qchess counts circuits/interference.qasm circuits/interference.counts.json --counts-format qiskit
    ///   qchess counts circuits/interference.qasm circuits/interference.counts.json --counts-format qiskit --exact --json
    ///   qchess counts circuits/interference.qasm circuits/interference.counts.json --counts-format qiskit --mitigate postselect,symmetry,readout --calibration circuits/interference.calibration.json
    #[command(verbatim_doc_comment)]
    Counts(commands::counts::CountsArgs),
    /// Simulate a circuit file (IR text, IR JSON as `compile --format json` writes it, OpenQASM 2
    /// or OpenQASM 3, told apart by content) and print the exact probabilities of its bits.
    ///
    /// Bit strings are in Qiskit's order: the rightmost character is clbit 0.
    ///
    /// `--precision single` runs the dense simulator in complex64, as qsim does: faster, half
    /// the memory, and about 7 significant digits (probabilities agree with double precision
    /// to about 1e-6; outcomes below 1e-10 are dropped).
    ///
    /// Examples:
    ///   qchess run circuits/bell_feedforward.qc --json
    ///   qchess run circuits/tour.qasm --json
    ///   qchess run circuits/full_game.qasm --backend dense --precision single
    #[command(verbatim_doc_comment)]
    Run(commands::run::RunArgs),
    /// Place and route a circuit file (OpenQASM 2 or 3, IR text or JSON) onto a device target:
    /// the device compiler of `compile --target`, for any circuit. Writes the device program
    /// (OpenQASM 3 on physical qubits $k by default) and prints the same summary as compile.
    ///
    /// Examples:
    ///   qchess route circuits/bell_feedforward.qc --target ibm_fez
    ///   qchess route circuits/tour.qasm --target sycamore --format qasm2 --json
    #[command(verbatim_doc_comment)]
    Route(commands::route::RouteArgs),
    /// List the legal moves of the side to move in the position reached, grouped by kind.
    ///
    /// Examples:
    ///   qchess moves
    ///   qchess moves --moves "e2e4 e7e5" --json
    #[command(verbatim_doc_comment)]
    Moves(commands::moves::MovesArgs),
    /// Play interactively: shows the board after every move (one status line with --compact);
    /// accepts moves in the ruleset's notation and the commands board, history, moves, undo,
    /// reroll, go [MS], probs, bell SQ1 SQ2, draw [N], svg FILE, load FILE, save [FILE], save!
    /// [FILE], fen, record, random, claim, compact, help, quit. With --engine white|black the
    /// engine plays that side (--movetime MS a move; Ctrl-C makes it move now). The outcomes
    /// come from a fresh seed each session, printed at the start (--seed N replays them); a
    /// move taken back and played again keeps its outcome (reroll draws anew). On a terminal: a
    /// prompt, line editing and history (arrows); a script piped into standard input works too.
    ///
    /// Examples:
    ///   printf 'b1^a3c3\nprobs\nquit\n' | qchess play --seed 1
    ///   printf 'e2e4\nhistory\nquit\n' | qchess play --engine black --movetime 100 --compact
    ///   printf 'g1^f3h3\ne8d8\nf3xe5\nundo\nf3xe5\nquit\n' | qchess play --fen "4k3/8/8/4p3/8/8/8/4K1N1 w - - 0 1"
    #[command(verbatim_doc_comment)]
    Play(commands::play::PlayArgs),
    /// Show the final board: text, or an SVG picture with a probability ring on each square
    /// (--svg FILE), optionally with lines between strongly correlated squares (--links).
    ///
    /// Example:
    ///   qchess board --moves "b1^a3c3 g8^f6h6" --svg board.svg --links
    #[command(verbatim_doc_comment)]
    Board(commands::board::BoardArgs),
    /// Draw the circuit of a game, of one move (--move N), or of a circuit file (--circuit FILE:
    /// IR text, IR JSON or OpenQASM 2/3):
    /// text on the terminal or SVG (--svg FILE). Each move is drawn apart and labelled with its
    /// number as the game's record numbers it and its notation, e.g. "2. a3c3^b1" (White's
    /// second move: --move 2) or "1... g8f6" (Black's first: --move 1...). Wires are named by square,
    /// ancilla, or (Niel's Chess) the pair they stand for ("R d4/e6": piece, red and blue square);
    /// a whole game leaves out the set-up wires of squares no move touches (--all-wires draws
    /// them). Filled dots are 1-controls, open dots 0-controls; "if c0=1" marks a conditioned
    /// instruction; angles read as multiples of pi where they are (ry(pi/2)). On a terminal a
    /// drawing wider than the window is cut into bands that fit it, one under the other, each
    /// starting with the wire names (--width N sets the width, --width 0 draws one band).
    ///
    /// Examples:
    ///   qchess draw --moves "b1^a3c3 g8f6 a3c3^b1"
    ///   qchess draw circuits/tour.qcg --width 100
    ///   qchess draw --moves "b1^a3c3 g8f6 a3c3^b1" --move 2
    ///   qchess draw --rules niels circuits/niels/entangled_group.qng --svg pairs.svg
    ///   qchess draw --circuit circuits/split_and_measure.qc --svg split.svg
    #[command(verbatim_doc_comment)]
    Draw(commands::draw::DrawArgs),
    /// Speak UQCI, the Quantum Chess engine protocol (a UCI clone), on standard input and output,
    /// for Quantum Chess or (--rules niels) Niel's Chess: uci, isready, ucinewgame, position,
    /// setoption, go, stop, calcbell, probs, moves, status, fen, claim, quit (docs/uqci.md).
    ///
    /// Examples:
    ///   printf 'uci\nposition startpos moves b1^a3c3\nprobs\nquit\n' | qchess uqci
    ///   printf 'position startpos moves e2^e4e3\nprobs\ngo\nquit\n' | qchess uqci --rules niels
    #[command(verbatim_doc_comment)]
    Uqci(uqci::UqciArgs),
    /// Play two players against each other and report the score and the Elo difference: the
    /// engine (engine, engine:depth=N), a greedy one-ply mover (greedy: best expected material
    /// after its move), a random mover (random) and a sampler of classical boards (sampler,
    /// sampler:samples=N). Each opening (--opening-plies random moves from --seed) is played
    /// twice, the players swapping colours, with the same measurement outcomes; a game still
    /// going after --max-plies is adjudicated on material. The Elo interval is 95 %
    /// (docs/engine.md).
    ///
    /// Examples:
    ///   qchess match engine random --openings 1 --movetime 50 --max-plies 30
    ///   qchess match engine sampler --openings 1 --depth 1 --max-plies 16 --json
    ///   qchess match greedy random --rules niels --openings 1 --movetime 50 --max-plies 20
    #[command(name = "match", verbatim_doc_comment)]
    Match(commands::arena::MatchArgs),
    /// Play in a browser: an HTTP server on 127.0.0.1 with the game page (board with
    /// probabilities, moves by clicking or typing, undo, load and save, the engine as opponent,
    /// the circuit as it grows, OpenQASM for any target, a device's counts back into a board) and
    /// its JSON API (docs/web.md). Everything is in the binary; nothing is fetched from
    /// elsewhere. The page starts with GAME when one is given. The address is printed; Ctrl-C
    /// stops the server. With --ai it serves instead qchess's engine as a custom AI of the
    /// official Quantum Chess app: POST /move with {view, clock}, or a WebSocket (docs/ai.md).
    ///
    /// Examples:
    ///   qchess serve
    ///   qchess serve --port 0
    ///   qchess serve --ai --port 8080
    ///   qchess serve --rules niels --variant hadamard
    ///   qchess serve circuits/interference.qcg
    #[command(verbatim_doc_comment)]
    Serve(commands::serve::ServeArgs),
}

/// Installs the binary's panic hook: silent for a panic the libraries catch and report as an
/// error (a dependency's internal assertion on a malformed program, `qc_export`'s contained
/// calls), the previous hook's report for any other. The libraries leave the hook alone, so
/// that a program embedding them keeps its own.
fn quiet_contained_panics() {
    let previous = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        if !qc_export::inside_contained_call() {
            previous(info);
        }
    }));
}

fn main() -> ExitCode {
    quiet_contained_panics();
    // Before any thread allocates: under `ulimit -v` each thread's arena would map 64 MiB.
    qc_sim::memory::fit_allocator_to_address_space_limit();
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Simulate(args) => commands::simulate::run(&args),
        Command::Compile(args) => commands::compile::run(&args),
        Command::Counts(args) => commands::counts::run(&args),
        Command::Run(args) => commands::run::run(&args),
        Command::Route(args) => commands::route::run(&args),
        Command::Moves(args) => commands::moves::run(&args),
        Command::Play(args) => commands::play::run(&args),
        Command::Board(args) => commands::board::run(&args),
        Command::Draw(args) => commands::draw::run(&args),
        Command::Uqci(args) => uqci::run(&args),
        Command::Match(args) => commands::arena::run(&args),
        Command::Serve(args) => commands::serve::run(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(err) if output::is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            output::print_error(&err);
            ExitCode::from(2)
        }
    }
}
