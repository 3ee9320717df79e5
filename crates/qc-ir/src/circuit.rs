//! Circuits: a qubit table with roles, a number of classical bits, and instructions in time order.

use crate::error::IrError;
use crate::gate::Gate;
use crate::ids::{Qubit, Site};
use crate::instruction::{Instruction, Op};
use serde::{Deserialize, Serialize};
use std::fmt;

/// What an ancilla is for; used for naming and by exporters' comments.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AncillaKind {
    /// Holds the OR of a path's qubits (0 = clear), e.g. the squares a piece slides over.
    Path,
    /// Receives a state and keeps it: never reset (the chess rulesets put a captured piece
    /// there). Named `cap` and `captured` in files, as it always was.
    #[serde(rename = "captured")]
    Kept,
    /// Holds a measured predicate.
    Measure,
    /// Anything else.
    Other,
}

impl AncillaKind {
    /// Prefix used in qubit names (`path0`, `cap1`, `meas0`, `anc2`).
    pub const fn prefix(self) -> &'static str {
        match self {
            AncillaKind::Path => "path",
            AncillaKind::Kept => "cap",
            AncillaKind::Measure => "meas",
            AncillaKind::Other => "anc",
        }
    }

    /// All kinds.
    pub const ALL: [AncillaKind; 4] = [
        AncillaKind::Path,
        AncillaKind::Kept,
        AncillaKind::Measure,
        AncillaKind::Other,
    ];
}

/// The role of a qubit in a circuit.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(tag = "role", content = "of", rename_all = "snake_case")]
pub enum QubitRole {
    /// A long-lived qubit named by its grid site (`e4`); live for the whole circuit. Written
    /// `square` in JSON, as it always was.
    #[serde(rename = "square")]
    Site(Site),
    /// An ancilla; live only between `alloc` and `free`.
    Ancilla(AncillaKind),
    /// A plain qubit with no name beyond its index (e.g. from an imported OpenQASM file);
    /// always live.
    Plain,
}

/// A quantum circuit.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Circuit {
    qubits: Vec<QubitRole>,
    num_clbits: u32,
    instructions: Vec<Instruction>,
}

impl Circuit {
    /// An empty circuit.
    pub fn new() -> Circuit {
        Circuit::default()
    }

    /// A circuit of `n` plain qubits and `clbits` classical bits.
    pub fn with_plain_qubits(n: u32, clbits: u32) -> Circuit {
        Circuit {
            qubits: vec![QubitRole::Plain; n as usize],
            num_clbits: clbits,
            instructions: Vec::new(),
        }
    }

    /// Builds a circuit from parts (no verification; call [`crate::verify()`]).
    pub fn from_parts(
        qubits: Vec<QubitRole>,
        num_clbits: u32,
        instructions: Vec<Instruction>,
    ) -> Circuit {
        Circuit {
            qubits,
            num_clbits,
            instructions,
        }
    }

    /// Adds a qubit with the given role and returns it.
    pub fn add_qubit(&mut self, role: QubitRole) -> Qubit {
        self.qubits.push(role);
        Qubit((self.qubits.len() - 1) as u32)
    }

    /// Adds a classical bit and returns it.
    pub fn add_clbit(&mut self) -> crate::Clbit {
        self.num_clbits += 1;
        crate::Clbit(self.num_clbits - 1)
    }

    /// Appends an instruction (not verified).
    pub fn push(&mut self, instruction: Instruction) {
        self.instructions.push(instruction);
    }

    /// Shrinks the circuit back to its first `qubits` qubits, `clbits` classical bits and
    /// `instructions` instructions (larger values leave that part as it is). Undo uses it: a game's
    /// circuit only grows, so a move is taken back by cutting off what it appended.
    pub fn truncate(&mut self, qubits: usize, clbits: u32, instructions: usize) {
        self.qubits.truncate(qubits);
        self.num_clbits = self.num_clbits.min(clbits);
        self.instructions.truncate(instructions);
    }

    /// Appends every instruction of `other`'s list (same qubit and clbit tables assumed).
    pub fn extend(&mut self, instructions: impl IntoIterator<Item = Instruction>) {
        self.instructions.extend(instructions);
    }

    /// Number of qubits.
    pub fn num_qubits(&self) -> usize {
        self.qubits.len()
    }

    /// Number of classical bits.
    pub fn num_clbits(&self) -> usize {
        self.num_clbits as usize
    }

    /// The qubit roles, indexed by qubit.
    pub fn qubit_roles(&self) -> &[QubitRole] {
        &self.qubits
    }

    /// The role of `qubit`, or `None` if out of range.
    pub fn role(&self, qubit: Qubit) -> Option<QubitRole> {
        self.qubits.get(qubit.index()).copied()
    }

    /// The qubit of a grid site, if the circuit has one.
    pub fn site_qubit(&self, site: Site) -> Option<Qubit> {
        self.qubits
            .iter()
            .position(|r| *r == QubitRole::Site(site))
            .map(|i| Qubit(i as u32))
    }

    /// The instructions in time order.
    pub fn instructions(&self) -> &[Instruction] {
        &self.instructions
    }

    /// Mutable access to the instructions.
    pub fn instructions_mut(&mut self) -> &mut Vec<Instruction> {
        &mut self.instructions
    }

    /// The display name of a qubit: the site (`e4`), the ancilla kind and its ordinal among
    /// ancillas of that kind (`path0`, `cap1`), or `q<index>` for plain qubits. Names are unique.
    pub fn qubit_name(&self, qubit: Qubit) -> String {
        match self.role(qubit) {
            Some(QubitRole::Site(site)) => site.to_string(),
            Some(QubitRole::Ancilla(kind)) => {
                let ordinal = self.qubits[..qubit.index()]
                    .iter()
                    .filter(|r| **r == QubitRole::Ancilla(kind))
                    .count();
                format!("{}{}", kind.prefix(), ordinal)
            }
            Some(QubitRole::Plain) | None => format!("q{}", qubit.0),
        }
    }

    /// All qubit names, indexed by qubit (cheaper than calling [`Circuit::qubit_name`] per qubit).
    pub fn qubit_names(&self) -> Vec<String> {
        let mut counters = [0usize; 4];
        self.qubits
            .iter()
            .enumerate()
            .map(|(i, role)| match role {
                QubitRole::Site(site) => site.to_string(),
                QubitRole::Ancilla(kind) => {
                    let slot = AncillaKind::ALL.iter().position(|k| k == kind).unwrap_or(3);
                    let name = format!("{}{}", kind.prefix(), counters[slot]);
                    counters[slot] += 1;
                    name
                }
                QubitRole::Plain => format!("q{i}"),
            })
            .collect()
    }

    /// True when the circuit has no measurement, reset or condition (so it is one unitary).
    pub fn is_unitary(&self) -> bool {
        self.instructions.iter().all(|i| {
            i.condition.is_none()
                && matches!(
                    i.op,
                    Op::Gate { .. }
                        | Op::UserGate { .. }
                        | Op::Alloc { .. }
                        | Op::Free { .. }
                        | Op::Delay { .. }
                )
        })
    }

    /// The inverse of a measurement-free circuit: instructions reversed, each gate inverted,
    /// `alloc` and `free` exchanged. Errors on measurement, reset or conditions.
    pub fn inverse(&self) -> Result<Circuit, IrError> {
        let mut out = Vec::with_capacity(self.instructions.len());
        for (index, instr) in self.instructions.iter().enumerate().rev() {
            if instr.condition.is_some() {
                return Err(IrError::NotUnitary {
                    index,
                    what: "a classically conditioned instruction",
                });
            }
            let op = match &instr.op {
                Op::Gate {
                    gate,
                    targets,
                    controls,
                } => Op::Gate {
                    gate: gate.inverse(),
                    targets: targets.clone(),
                    controls: controls.clone(),
                },
                Op::UserGate {
                    gate,
                    targets,
                    controls,
                } => Op::UserGate {
                    gate: std::sync::Arc::new(gate.inverse()),
                    targets: targets.clone(),
                    controls: controls.clone(),
                },
                Op::Alloc { qubit } => Op::Free { qubit: *qubit },
                Op::Free { qubit } => Op::Alloc { qubit: *qubit },
                // A wait is its own inverse (the identity).
                Op::Delay { qubit, duration } => Op::Delay {
                    qubit: *qubit,
                    duration: *duration,
                },
                Op::Measure { .. } => {
                    return Err(IrError::NotUnitary {
                        index,
                        what: "a measurement",
                    })
                }
                Op::Reset { .. } => {
                    return Err(IrError::NotUnitary {
                        index,
                        what: "a reset",
                    })
                }
            };
            out.push(Instruction {
                op,
                condition: None,
                origin: instr.origin.clone(),
            });
        }
        Ok(Circuit {
            qubits: self.qubits.clone(),
            num_clbits: self.num_clbits,
            instructions: out,
        })
    }

    /// Counts gate instructions by name, with controls spelled as a `c`/`n` prefix per control
    /// (e.g. `cx`, `ncx`, `ccx`), sorted by name.
    pub fn gate_counts(&self) -> Vec<(String, usize)> {
        let mut counts = std::collections::BTreeMap::<String, usize>::new();
        for instr in &self.instructions {
            let (gate_name, controls) = match &instr.op {
                Op::Gate { gate, controls, .. } => (gate.name(), controls),
                Op::UserGate { gate, controls, .. } => (gate.name(), controls),
                _ => continue,
            };
            let mut name = String::new();
            for c in controls {
                name.push(if c.on.value() { 'c' } else { 'n' });
            }
            name.push_str(gate_name);
            *counts.entry(name).or_default() += 1;
        }
        counts.into_iter().collect()
    }

    /// Total number of gate instructions.
    pub fn num_gates(&self) -> usize {
        self.instructions
            .iter()
            .filter(|i| matches!(i.op, Op::Gate { .. } | Op::UserGate { .. }))
            .count()
    }

    /// Number of measurements.
    pub fn num_measurements(&self) -> usize {
        self.instructions
            .iter()
            .filter(|i| matches!(i.op, Op::Measure { .. }))
            .count()
    }
}

/// Helper so tests can write `Gate::X.on(&[q])`.
impl Gate {
    /// An uncontrolled instruction applying this gate to `targets`.
    pub fn on(self, targets: &[Qubit]) -> Instruction {
        Instruction::gate(self, targets, &[])
    }
}

impl fmt::Display for Circuit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&crate::text::print(self))
    }
}
