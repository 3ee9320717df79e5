//! A device's two-qubit gate, as data shared by every layer: a target file names it
//! (`two_qubit = "siswap"`), the exporter lowers CNOTs to it, and the device compiler routes and
//! synthesises in it. One enum, so that a target is described once: the exporter and the device
//! compiler no longer keep an entangler of their own, translated by name between them.
//!
//! What each entangler *is* as a gate lives here (its name, whether its two qubits play
//! different parts, its IR gate); how to write any two-qubit unitary in it is the device
//! compiler's (`qc_route::native`).

use crate::gate::Gate;
use serde::{Deserialize, Serialize};

/// A device's two-qubit gate. A target file spells it by its OpenQASM name ([`Entangler::name`]).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(try_from = "String", into = "String")]
pub enum Entangler {
    /// CNOT, directed: the pair's high qubit controls on a device (a coupler the other way round
    /// synthesises the gate with its qubits exchanged).
    #[default]
    Cx,
    /// CZ (symmetric).
    Cz,
    /// IBM's echoed cross-resonance gate ([`Gate::Ecr`]), directed like CX: a device drives
    /// each coupler one way round; locally a CNOT.
    Ecr,
    /// iSWAP (symmetric); locally SWAP times CZ.
    ISwap,
    /// The square root of iSWAP (symmetric): Google's Sycamore.
    SqrtISwap,
    /// `exp(-i theta/2 Z Z)` for any angle (Quantinuum's ZZ phase): one for a controlled phase.
    Rzz,
    /// `exp(-i theta/2 X X)` for any angle (IonQ's Mølmer-Sørensen gate). The IR has no RXX gate
    /// yet, so no program can be written in it.
    Rxx,
}

impl Entangler {
    /// Every entangler.
    pub const ALL: [Entangler; 7] = [
        Entangler::Cx,
        Entangler::Cz,
        Entangler::Ecr,
        Entangler::ISwap,
        Entangler::SqrtISwap,
        Entangler::Rzz,
        Entangler::Rxx,
    ];

    /// The entangler's OpenQASM name: a target's `two_qubit`, and the name its gates are
    /// written with.
    pub fn name(self) -> &'static str {
        match self {
            Entangler::Cx => "cx",
            Entangler::Cz => "cz",
            Entangler::Ecr => "ecr",
            Entangler::ISwap => "iswap",
            Entangler::SqrtISwap => "siswap",
            Entangler::Rzz => "rzz",
            Entangler::Rxx => "rxx",
        }
    }

    /// The entangler an OpenQASM name means (`None` for another name).
    pub fn from_name(name: &str) -> Option<Entangler> {
        Entangler::ALL.into_iter().find(|e| e.name() == name)
    }

    /// True when the gate's two qubits play different parts (CX, ECR): a device couples them
    /// one way round.
    pub fn directed(self) -> bool {
        matches!(self, Entangler::Cx | Entangler::Ecr)
    }

    /// True when the gate has a continuous angle (RZZ, RXX): each use carries its own, so there
    /// is no one matrix of the entangler.
    pub fn continuous(self) -> bool {
        matches!(self, Entangler::Rzz | Entangler::Rxx)
    }

    /// The IR gate and number of 1-controls of a fixed entangler's gate, with its controls
    /// first (CZ is `z` with one control): `None` for a continuous entangler.
    pub fn fixed_ir_gate(self) -> Option<(Gate, usize)> {
        match self {
            Entangler::Cx => Some((Gate::X, 1)),
            Entangler::Cz => Some((Gate::Z, 1)),
            Entangler::Ecr => Some((Gate::Ecr, 0)),
            Entangler::ISwap => Some((Gate::ISwap, 0)),
            Entangler::SqrtISwap => Some((Gate::SqrtISwap, 0)),
            Entangler::Rzz | Entangler::Rxx => None,
        }
    }

    /// True when the IR can write this entangler's gates (every one but RXX today).
    pub fn in_ir(self) -> bool {
        self.fixed_ir_gate().is_some() || self == Entangler::Rzz
    }

    /// True when `gate` with `controls` 1-controls is this entangler's gate (any angle of a
    /// continuous one).
    pub fn is_gate(self, gate: Gate, controls: usize) -> bool {
        match self {
            Entangler::Rzz => matches!(gate, Gate::Rzz(_)) && controls == 0,
            _ => self.fixed_ir_gate() == Some((gate, controls)),
        }
    }
}

impl std::fmt::Display for Entangler {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl TryFrom<String> for Entangler {
    type Error = String;
    fn try_from(name: String) -> Result<Entangler, String> {
        Entangler::from_name(&name).ok_or_else(|| {
            let names: Vec<&str> = Entangler::ALL.iter().map(|e| e.name()).collect();
            format!(
                "unknown two-qubit gate `{name}` (one of {})",
                names.join(", ")
            )
        })
    }
}

impl From<Entangler> for String {
    fn from(e: Entangler) -> String {
        e.name().to_string()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_read_back_and_unknown_ones_are_refused_with_the_list() {
        for e in Entangler::ALL {
            assert_eq!(Entangler::from_name(e.name()), Some(e));
            assert_eq!(Entangler::try_from(e.name().to_string()), Ok(e));
        }
        let err = Entangler::try_from("cnot".to_string()).expect_err("unknown");
        assert_eq!(
            err,
            "unknown two-qubit gate `cnot` (one of cx, cz, ecr, iswap, siswap, rzz, rxx)"
        );
    }

    #[test]
    fn ir_gates_are_the_gates_of_their_names_and_rzz_takes_every_angle() {
        for e in Entangler::ALL {
            if let Some((gate, controls)) = e.fixed_ir_gate() {
                assert!(e.is_gate(gate, controls), "{e}");
                assert!(!e.is_gate(gate, controls + 1), "{e}");
                // The gate table writes it under the entangler's own name.
                let name = crate::gate_data::qasm_gate(e.name()).map(|f| f.name);
                assert_eq!(name, Some(e.name()), "{e}");
            }
            assert_eq!(e.in_ir(), e != Entangler::Rxx, "{e}");
            assert_eq!(e.continuous(), e.fixed_ir_gate().is_none());
        }
        assert!(Entangler::Rzz.is_gate(Gate::Rzz(0.3), 0));
        assert!(Entangler::Rzz.is_gate(Gate::Rzz(-2.0), 0));
        assert!(!Entangler::Rzz.is_gate(Gate::Rzz(0.3), 1));
        assert!(!Entangler::Cz.is_gate(Gate::Rzz(0.3), 0));
        assert!(!Entangler::Cz.is_gate(Gate::X, 1));
        assert!(!Entangler::SqrtISwap.is_gate(Gate::Z, 1));
        assert!(Entangler::Ecr.is_gate(Gate::Ecr, 0) && !Entangler::Rxx.in_ir());
        assert!(Entangler::Cx.directed() && Entangler::Ecr.directed() && !Entangler::Cz.directed());
    }
}
