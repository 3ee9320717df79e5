//! What `draw --circuit` draws of a program `qchess compile` wrote: its JSON header (`//
//! qchess-export {...}`) says what each qubit is, so the wires are named by square (`e4`),
//! captured-piece ancilla (`cap3`) or ancilla (`meas0`) instead of `q[4]`; and a program for
//! no hardware target (`"target": "generic"`) calls the qchess gate library, whose calls the
//! importer writes out as their bodies: runs that amount to one gate of the table on two or
//! three qubits are drawn as that gate's box again (`iswap`, `csiswap`), every other gate as
//! written. A program without the header, or `--as-written`, is drawn exactly as read.

use qc_export::{parse_header, Holds};
use qc_ir::{Circuit, Qubit};
use qc_render::layout::Annotations;

/// The circuit to draw for the program `text` (read as `circuit`) and its annotations.
pub fn program_drawing(text: &str, circuit: Circuit, as_written: bool) -> (Circuit, Annotations) {
    let Ok(header) = parse_header(text) else {
        return (circuit, Annotations::default());
    };
    let mut notes = Annotations::default();
    let on_board = |q: usize| q < circuit.num_qubits();
    for m in header.map.measured.iter().filter(|m| on_board(m.qubit)) {
        let name = match m.holds {
            Holds::Square(square) => square.to_string(),
            Holds::Captured(k) => format!("cap{k}"),
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
