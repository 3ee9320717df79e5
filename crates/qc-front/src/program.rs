//! A circuit file, read, drawn and simulated the same way by every front end
//! ([`read_program`], [`drawing`], [`distribution`], [`sample`]) (`qchess run`,
//! `qchess draw --circuit`, Python's `qchess.Program`): every format qchess writes is read (IR
//! text and IR JSON, what `compile --format ir|json` writes, and OpenQASM 2 and 3, told apart by
//! content: `qc_export::detect_format`) and verified before it is used; a program `qchess
//! compile` wrote is drawn with its wires named by square ([`drawing`]); the exact outcome
//! distribution comes from the simulator a name picks ([`distribution`]).

use crate::BackendKind;
use qc_export::{parse_header, CircuitError, Holds};
use qc_ir::exec::{exact_distribution, Distribution, ExecError};
use qc_ir::{Circuit, Qubit, VerifyErrors};
use qc_render::layout::Annotations;
use qc_sim::{MemoryLimit, Precision};
use rand::Rng;
use std::collections::BTreeMap;

/// Why a circuit file cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ProgramError {
    /// It does not parse in the format its content declares.
    #[error("cannot parse {name}")]
    Parse {
        /// The file's name in messages.
        name: String,
        /// The reader's error (with its line and column).
        #[source]
        source: CircuitError,
    },
    /// It does not parse, and is another kind of file (a game, counts): what reads it.
    #[error("{name}")]
    WrongFileType {
        /// The file's name in messages.
        name: String,
        /// What it is and what reads it, with the circuit reader's error.
        #[source]
        source: crate::WrongFileType,
    },
    /// It parses but is not a well-formed circuit.
    #[error("{name} is not a well-formed circuit")]
    Malformed {
        /// The file's name in messages.
        name: String,
        /// What the verifier found.
        #[source]
        source: VerifyErrors,
    },
}

/// Parses and verifies the circuit file text `text`, named `name` in messages. A file that does
/// not parse but is a game or counts file is refused as such, naming what reads it.
///
/// A text whose reader would take more memory than this process may use
/// ([`qc_export::CircuitFormat::reader_memory_estimate`] against [`MemoryLimit::default`]) is
/// refused before it is read.
///
/// # Errors
/// It does not parse (or is another kind of file), is too large to read within the memory
/// limit, or is not a well-formed circuit.
pub fn read_program(name: &str, text: &str) -> Result<Circuit, ProgramError> {
    let limit = MemoryLimit::default().limit_bytes();
    let circuit = qc_export::parse_circuit_within(text, limit).map_err(|source| {
        // Only a refused file is looked at: is it a game or counts file? (Not one too large to
        // read: looking would read it.)
        if matches!(source, CircuitError::TooLargeToRead { .. }) {
            return ProgramError::Parse {
                name: name.to_string(),
                source,
            };
        }
        match crate::file_kind::not_a_circuit(text) {
            Some(found) => ProgramError::WrongFileType {
                name: name.to_string(),
                source: crate::WrongFileType {
                    found,
                    expected: crate::FileKind::AnyCircuit,
                    refused: Box::new(source),
                },
            },
            None => ProgramError::Parse {
                name: name.to_string(),
                source,
            },
        }
    })?;
    qc_ir::verify(&circuit).map_err(|source| ProgramError::Malformed {
        name: name.to_string(),
        source,
    })?;
    Ok(circuit)
}

/// The exact probability of every outcome of `circuit` (classical bits, `c[0]` first) on the
/// simulator `backend` in `precision` (checked first: [`crate::check_precision`]), as `qchess
/// run` gives it. `optimize` first runs the exact passes (`qc_ir::passes::simulation_form`):
/// inlined gate bodies recognised as their table gate, X-wrapped 0-controls read back, inverse
/// pairs cancelled, identities dropped, small user gates applied as one matrix each; without
/// it the circuit is simulated as written, user gates gate by gate from their bodies.
///
/// # Errors
/// The simulator failed (its memory limit, too many branches or outcomes).
pub fn distribution(
    circuit: &Circuit,
    backend: BackendKind,
    precision: Precision,
    optimize: bool,
) -> Result<Distribution, ExecError> {
    let circuit = qc_ir::passes::simulation_form(circuit, optimize);
    crate::with_simulator!(backend, precision, |new_sim| {
        let mut sim = new_sim(MemoryLimit::default());
        exact_distribution(&mut sim, &circuit)
    })
}

/// `shots` samples of `dist` drawn with the seed `seed`, as `qchess run --shots N --seed S`
/// draws them: outcome -> count. The caller bounds `shots` (`qc_ir::exec::MAX_SHOTS`).
pub fn sample(dist: &Distribution, shots: u64, seed: u64) -> BTreeMap<Vec<bool>, u64> {
    let mut rng = crate::rng(seed);
    qc_ir::exec::sample_counts(dist, shots, || rng.gen::<f64>())
}

/// The circuit to draw for the program `text` (read as `circuit`) and its annotations, as
/// `qchess draw --circuit` draws it: the program's JSON header (`// qchess-export {...}`, which
/// `qchess compile` writes) says what each qubit is, so the wires are named by square (`e4`),
/// captured-piece ancilla (`cap3`) or ancilla (`meas0`) instead of `q[4]`; and a program for no
/// hardware target (`"target": "generic"`) calls the qchess gate library, whose calls the
/// importer writes out as their bodies: runs that amount to one gate of the table on two or
/// three qubits are drawn as that gate's box again (`iswap`, `csiswap`), every other gate as
/// written. A program without the header, or `as_written`, is drawn exactly as read.
pub fn drawing(text: &str, circuit: Circuit, as_written: bool) -> (Circuit, Annotations) {
    let Ok(header) = parse_header(text) else {
        return (circuit, Annotations::default());
    };
    let mut notes = Annotations::default();
    let on_board = |q: usize| q < circuit.num_qubits();
    for m in header.map.measured.iter().filter(|m| on_board(m.qubit)) {
        let name = match m.holds {
            Holds::Site(site) => site.to_string(),
            Holds::Kept(k) => format!("cap{k}"),
        };
        notes.names.insert(Qubit(m.qubit as u32), name);
    }
    for z in header.map.zero.iter().filter(|z| on_board(z.qubit)) {
        notes
            .names
            .entry(Qubit(z.qubit as u32))
            .or_insert_with(|| z.ancilla.clone());
    }
    if as_written || header.target != "generic" {
        return (circuit, notes);
    }
    let mut instructions = circuit.instructions().to_vec();
    qc_ir::passes::recognise_gate_bodies(&mut instructions);
    let drawn = Circuit::from_parts(
        circuit.qubit_roles().to_vec(),
        circuit.num_clbits() as u32,
        instructions,
    );
    (drawn, notes)
}
