//! The export pipeline: circuit + recorded outcomes + options -> [`Program`] -> OpenQASM 3 text.
//!
//! Steps: verify; deferred form if asked ([`qc_ir::passes::deferred`]); the exact passes of
//! [`qc_ir::passes::optimize()`] unless turned off; classical folding for the compact width
//! ([`qc_ir::passes::fold`]), then the passes again (folding drops known controls and gates,
//! which can leave new pairs and runs); register assignment (qubits in IR order, then scratch
//! qubits); lowering ([`crate::lower`]) and, with the passes, inverse pairs of the calls it wrote
//! (`crate::peephole`); labels and the machine-readable header.

use crate::error::ExportError;
use crate::header::{
    BoardMap, FixedBit, HeaderGame, MeasuredBit, ProgramHeader, RecordedBit, ZeroBit,
};
use crate::lower::Lowerer;
use crate::measure::{measure_board, AddedBit};
use crate::program::{Program, Summary};
use crate::{Dialect, ExportOptions, Form, Width};
use qc_ir::passes::{defer_measurements, fold_classical_known};
use qc_ir::{AncillaKind, Circuit, Op, QubitRole};

/// The result of an export.
#[derive(Clone, Debug, PartialEq)]
pub struct Export {
    /// The program text.
    pub text: String,
    /// Sizes and counts.
    pub summary: Summary,
    /// The program model (used by target lowering and OpenQASM 2).
    pub program: Program,
    /// The post-selection pattern: one entry per bit of `c`, `Some(v)` for a recorded outcome.
    pub postselect: Vec<Option<bool>>,
}

impl Export {
    /// The board map (also in the program's header).
    pub fn map(&self) -> &BoardMap {
        &self.program.map
    }

    /// Replaces the map with `map` (the exporter's map with what the caller knows about the
    /// game added: pieces, captured colours, conserved quantities) and rewrites the header line
    /// of the text.
    pub fn set_map(&mut self, map: BoardMap) {
        self.program.map = map;
        let map = self.program.map.clone();
        self.edit_header(|header| header.map = map);
    }

    /// Names the game the program was compiled from in its header (`game`), so that its exact
    /// board can be had by replaying the game instead of simulating the gates.
    pub fn set_game(&mut self, game: HeaderGame) {
        self.edit_header(|header| header.game = Some(game));
    }

    /// Rewrites the header line of the text with `edit` applied to it.
    fn edit_header(&mut self, edit: impl FnOnce(&mut ProgramHeader)) {
        let marker = format!("// {}", crate::header::HEADER_PREFIX);
        let mut edit = Some(edit);
        let mut text = String::with_capacity(self.text.len());
        for line in self.text.split_inclusive('\n') {
            match line.strip_prefix(&marker) {
                Some(json) => match serde_json::from_str::<ProgramHeader>(json.trim_end()) {
                    Ok(mut header) => {
                        if let Some(edit) = edit.take() {
                            edit(&mut header);
                        }
                        text.push_str(&marker);
                        text.push_str(&serde_json::to_string(&header).unwrap_or_default());
                        text.push('\n');
                    }
                    // Only a header this crate wrote is rewritten; it always parses.
                    Err(_) => text.push_str(line),
                },
                None => text.push_str(line),
            }
        }
        self.text = text;
    }
}

/// The IR circuit after the form and width passes (what the program is built from).
pub fn transform(circuit: &Circuit, options: &ExportOptions) -> Result<Circuit, ExportError> {
    transform_known(circuit, options).map(|(c, _)| c)
}

/// [`transform`], also returning each qubit's value at the end when the compact width knows it
/// at compile time (`None`: quantum; always `None` in the full width).
fn transform_known(
    circuit: &Circuit,
    options: &ExportOptions,
) -> Result<(Circuit, Vec<Option<bool>>), ExportError> {
    qc_ir::verify(circuit)?;
    let c = match options.form {
        Form::Dynamic => circuit.clone(),
        Form::Deferred => defer_measurements(circuit),
    };
    // The passes keep the distribution (and every measurement), so what folding learns about
    // the optimised circuit holds for the original.
    let optimized = |c: Circuit| {
        if options.optimize {
            qc_ir::passes::optimize(&c).0
        } else {
            c
        }
    };
    let c = optimized(c);
    Ok(match options.width {
        Width::Compact => {
            let (folded, known) = fold_classical_known(&c);
            (optimized(folded), known)
        }
        Width::Full => {
            let n = c.num_qubits();
            (c, vec![None; n])
        }
    })
}

/// Builds the program model of `circuit` (see [`export_qasm3`]).
pub fn build_program(
    circuit: &Circuit,
    outcomes: &[Option<bool>],
    options: &ExportOptions,
) -> Result<Program, ExportError> {
    let (lowered, known) = transform_known(circuit, options)?;
    let measured = measure_board(&lowered, circuit, &known, options.measure, options.form);
    let lowered = measured.circuit;
    let n = lowered.num_qubits();
    let mut used = vec![options.width == Width::Full; n];
    if options.width == Width::Full {
        used.truncate(circuit.num_qubits());
        used.resize(n, false);
    }
    for instr in lowered.instructions() {
        if !matches!(instr.op, Op::Alloc { .. } | Op::Free { .. }) {
            for q in instr.op.qubits() {
                used[q.index()] = true;
            }
        }
    }
    let mut map = vec![None; n];
    let names = lowered.qubit_names();
    let mut labels = Vec::new();
    for (i, u) in used.iter().enumerate() {
        if *u {
            map[i] = Some(labels.len());
            labels.push(qubit_label(&lowered, i, &names[i], circuit.num_qubits()));
        }
    }
    if options.width == Width::Full
        && circuit
            .qubit_roles()
            .iter()
            .any(|r| matches!(r, QubitRole::Site(_)))
    {
        // Full width means the whole board: squares the circuit never mentions get idle slots.
        for sq in qc_ir::Site::ALL {
            if circuit.site_qubit(sq).is_none() {
                labels.push(format!("{sq} (square; never touched by this circuit)"));
            }
        }
    }
    let base = labels.len();
    let board_map = board_map(&measured.added, &measured.fixed, &map, &lowered, outcomes);
    let mut lowerer = Lowerer::new(map, base, lowered.num_clbits(), options.dialect);
    let mut body = Vec::new();
    for (index, instr) in lowered.instructions().iter().enumerate() {
        lowerer.instruction(index, instr, &mut body)?;
    }
    if options.optimize {
        // The X gates of 0-controls and the chains of multi-controlled gates of neighbouring
        // instructions meet only now.
        crate::peephole::cancel_inverse_calls(&mut body, base + lowerer.scratch_max);
    }
    for k in 0..lowerer.scratch_max {
        labels.push(format!(
            "scratch{k} (clean ancilla for multi-controlled gates; always returned to |0>)"
        ));
    }
    let mut clbit_labels = clbit_labels(circuit, outcomes);
    clbit_labels.extend(measured.added.iter().map(|a| added_label(a, &names)));
    for k in lowered.num_clbits()..lowerer.next_clbit {
        clbit_labels.push(format!(
            "scratch bit {k} (reset of a qubit; not post-selected)"
        ));
    }
    Ok(Program {
        num_qubits: labels.len(),
        num_clbits: lowerer.next_clbit,
        qubit_labels: labels,
        clbit_labels,
        header: Vec::new(),
        body,
        map: BoardMap {
            clbits: lowerer.next_clbit,
            ..board_map
        },
        physical: false,
        layout: None,
    })
}

/// The label comment of a bit the board measurement added.
fn added_label(added: &AddedBit, names: &[String]) -> String {
    match added {
        AddedBit::Board { qubit, .. } => {
            format!("measure {} at the end (board)", names[qubit.index()])
        }
        AddedBit::Zero { qubit, .. } => format!(
            "measure {} where it is freed (returned to |0>: 1 marks a faulty shot)",
            names[qubit.index()]
        ),
    }
}

/// The map of a program: the added bits with their register qubits (`slot` maps IR qubits to
/// register indices), the compile-time values and the recorded outcomes.
fn board_map(
    added: &[AddedBit],
    fixed: &[(crate::Holds, bool)],
    slot: &[Option<usize>],
    lowered: &Circuit,
    outcomes: &[Option<bool>],
) -> BoardMap {
    let names = lowered.qubit_names();
    let register = |q: qc_ir::Qubit| slot.get(q.index()).copied().flatten().unwrap_or(0);
    let mut map = BoardMap::default();
    for a in added {
        match *a {
            AddedBit::Board {
                clbit,
                qubit,
                holds,
            } => map.measured.push(MeasuredBit {
                bit: clbit,
                qubit: register(qubit),
                holds,
                piece: None,
            }),
            AddedBit::Zero { clbit, qubit } => map.zero.push(ZeroBit {
                bit: clbit,
                qubit: register(qubit),
                ancilla: names[qubit.index()].clone(),
            }),
        }
    }
    // Squares and ancillas that read 0 in every shot need no entry: unlisted means empty.
    map.fixed = fixed
        .iter()
        .filter(|(_, value)| *value)
        .map(|&(holds, value)| FixedBit {
            holds,
            value: u8::from(value),
            piece: None,
        })
        .collect();
    map.recorded = outcomes
        .iter()
        .enumerate()
        .filter_map(|(bit, o)| {
            o.map(|v| RecordedBit {
                bit,
                value: u8::from(v),
            })
        })
        .collect();
    map
}

/// Exports `circuit` as OpenQASM 3. `outcomes[k]` is the recorded outcome of clbit `k` (shots that
/// differ should be discarded); it is written as comments and as the header's `postselect`.
pub fn export_qasm3(
    circuit: &Circuit,
    outcomes: &[Option<bool>],
    options: &ExportOptions,
) -> Result<Export, ExportError> {
    let mut program = build_program(circuit, outcomes, options)?;
    let postselect = postselect_pattern(outcomes, program.num_clbits);
    program.header = header_lines(&program, &postselect, options, "generic", "qasm3");
    let text = program.to_qasm3(true, true);
    Ok(Export {
        summary: program.summary(),
        text,
        program,
        postselect,
    })
}

/// The post-selection pattern padded to `num_clbits`.
pub fn postselect_pattern(outcomes: &[Option<bool>], num_clbits: usize) -> Vec<Option<bool>> {
    (0..num_clbits)
        .map(|k| outcomes.get(k).copied().flatten())
        .collect()
}

/// The header comment lines for a program.
pub fn header_lines(
    program: &Program,
    postselect: &[Option<bool>],
    options: &ExportOptions,
    target: &str,
    format: &str,
) -> Vec<String> {
    let pattern: String = postselect
        .iter()
        .rev()
        .map(|b| match b {
            Some(true) => '1',
            Some(false) => '0',
            None => 'x',
        })
        .collect();
    let header = ProgramHeader {
        format: format.to_string(),
        form: match options.form {
            Form::Dynamic => "dynamic",
            Form::Deferred => "deferred",
        }
        .to_string(),
        dialect: match options.dialect {
            Dialect::Portable => "portable",
            Dialect::Extended => "extended",
        }
        .to_string(),
        width: match options.width {
            Width::Compact => "compact",
            Width::Full => "full",
        }
        .to_string(),
        target: target.to_string(),
        qubits: program.num_qubits,
        clbits: program.num_clbits,
        postselect: pattern,
        map: program.map.clone(),
        layout: program.layout.clone(),
        game: None,
    };
    let json = serde_json::to_string(&header).unwrap_or_default();
    let mut lines = vec![
        "generated by qchess".to_string(),
        format!("qchess-export {json}"),
    ];
    if postselect.iter().any(Option::is_some) {
        lines.push(
            "post-selection: keep only shots whose bits equal the recorded outcomes (`postselect`, Qiskit order, x = any)"
                .to_string(),
        );
    }
    lines
}

fn qubit_label(c: &Circuit, index: usize, name: &str, original: usize) -> String {
    let role = c.qubit_roles()[index];
    match role {
        QubitRole::Site(_) => format!("{name} (square)"),
        QubitRole::Ancilla(kind) if index >= original => match kind {
            AncillaKind::Measure => {
                format!("pred{} (deferred measurement predicate)", index - original)
            }
            _ => format!(
                "garbage{} (deferred reset: holds the discarded value)",
                index - original
            ),
        },
        QubitRole::Ancilla(kind) => format!(
            "{name} (ancilla: {})",
            match kind {
                AncillaKind::Path => "path predicate",
                AncillaKind::Kept => "captured piece",
                AncillaKind::Measure => "measured predicate",
                AncillaKind::Other => "other",
            }
        ),
        QubitRole::Plain if index >= original => {
            "const (constant |0> or |1>: writes bits whose value is known at compile time)"
                .to_string()
        }
        QubitRole::Plain => format!("{name} (plain)"),
    }
}

fn clbit_labels(c: &Circuit, outcomes: &[Option<bool>]) -> Vec<String> {
    let names = c.qubit_names();
    let mut labels: Vec<String> = (0..c.num_clbits()).map(|k| format!("bit {k}")).collect();
    for instr in c.instructions() {
        if let Op::Measure { qubit, clbit } = instr.op {
            let mut s = match &instr.origin {
                Some(o) => format!(
                    "move {} ({}): measure {}",
                    o.move_index,
                    o.rule,
                    names[qubit.index()]
                ),
                None => format!("measure {}", names[qubit.index()]),
            };
            if let Some(v) = outcomes.get(clbit.index()).copied().flatten() {
                s.push_str(&format!("; recorded {}", u8::from(v)));
            }
            labels[clbit.index()] = s;
        }
    }
    labels
}

/// The probability that a shot is kept: the total probability of the bit strings (indexed by clbit)
/// that agree with every recorded outcome.
pub fn keep_probability(dist: &qc_ir::Distribution, outcomes: &[Option<bool>]) -> f64 {
    dist.iter()
        .filter(|(bits, _)| {
            outcomes
                .iter()
                .enumerate()
                .all(|(k, o)| o.is_none_or(|v| bits.get(k).copied().unwrap_or(false) == v))
        })
        .map(|(_, p)| p)
        .sum()
}
