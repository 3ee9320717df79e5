//! Why a circuit could not be placed and routed, or a routed program failed the verifier.

use crate::native::Entangler;
use thiserror::Error;

/// Why routing failed.
#[derive(Debug, Error, Clone, PartialEq)]
#[non_exhaustive]
pub enum RouteError {
    /// A gate on more than two qubits (targets and controls): the caller lowers the program to
    /// the device's gates first.
    #[error("instruction {index} acts on {qubits} qubits; routing takes gates on one or two (lower to the device's gates first)")]
    GateTooWide {
        /// The instruction.
        index: usize,
        /// Its qubit count.
        qubits: usize,
    },
    /// A conditioned measurement or reset.
    #[error("instruction {index} is a conditioned measurement or reset, which a device program cannot hold")]
    ConditionedMeasurement {
        /// The instruction.
        index: usize,
    },
    /// A condition on several bits (an imported register comparison): the caller writes the
    /// program in the deferred form first, where it is quantum controls.
    #[error("instruction {index} is conditioned on several bits, which routing does not take (write the deferred form first)")]
    ConditionOnSeveralBits {
        /// The instruction.
        index: usize,
    },
    /// More qubits are live at once than the device has usable ones.
    #[error("the program needs {needed} qubits at once (after reusing measured and freed ones) but device `{device}` has {usable} usable{}", if *.broken > 0 { format!(" ({} broken by the calibration)", .broken) } else { String::new() })]
    TooWide {
        /// The device.
        device: String,
        /// Qubits live at once at the program's widest point.
        needed: usize,
        /// Usable qubits.
        usable: usize,
        /// Qubits the calibration leaves out (broken, or cut off by broken couplers).
        broken: usize,
    },
    /// Routing the program would take more memory than it may.
    #[error("routing {instructions} instructions would take about {} MB, more than the {} MB it may use (split the program, or run where more memory is free)", .needed_bytes >> 20, .limit_bytes >> 20)]
    TooLarge {
        /// Instructions of the circuit routed.
        instructions: usize,
        /// The estimate ([`crate::memory_estimate`]).
        needed_bytes: u64,
        /// The limit ([`crate::Options::memory_bytes`]).
        limit_bytes: u64,
    },
    /// A two-qubit block could not be re-synthesised (numerical failure of the KAK
    /// decomposition, which the checks caught).
    #[error("a two-qubit gate could not be decomposed into `{entangler}` gates")]
    Synthesis {
        /// The device's entangler.
        entangler: Entangler,
    },
    /// The device's entangler has no gate in the circuit IR (ECR, RZZ, RXX), so the routed
    /// program cannot be written as a circuit.
    #[error("the device's two-qubit gate `{entangler}` has no gate in the circuit IR")]
    NotInIr {
        /// The device's entangler.
        entangler: Entangler,
    },
    /// A single-qubit unitary matched no gate of the table (not unitary: a bug upstream).
    #[error("the single-qubit unitary on physical qubit {qubit} is no gate")]
    SingleQubit {
        /// The physical qubit.
        qubit: usize,
    },
    /// Routing found no way on (qubits walled in by measured ones on a device that measures
    /// only at the end, or a bug).
    #[error("routing is stuck: no exchange brings the waiting gates together")]
    Stuck,
    /// The routed program failed the verifier (a bug in the router).
    #[error("the routed program fails the verifier: {0}")]
    Verify(#[from] VerifyError),
}

/// What the verifier found wrong with a routed program.
#[derive(Debug, Error, Clone, PartialEq)]
#[non_exhaustive]
pub enum VerifyError {
    /// A two-qubit gate on qubits the device does not couple (or on a broken coupler).
    #[error("instruction {index}: `{gate}` on {a}-{b}, which is not a usable coupler")]
    NotACoupler {
        /// The instruction.
        index: usize,
        /// The gate.
        gate: String,
        /// First qubit.
        a: usize,
        /// Second qubit.
        b: usize,
    },
    /// A directed gate (ECR, CX) the other way round from its coupler's drive.
    #[error("instruction {index}: `{gate}` runs {first} to {second}, but the coupler drives {second} to {first} only")]
    AgainstCoupler {
        /// The instruction.
        index: usize,
        /// The gate.
        gate: String,
        /// Its first qubit (control, or ECR's first target).
        first: usize,
        /// Its second qubit.
        second: usize,
    },
    /// A gate the device does not have.
    #[error("instruction {index}: `{gate}` is not a native gate of the device")]
    NotNative {
        /// The instruction.
        index: usize,
        /// The gate.
        gate: String,
    },
    /// An operation on a qubit that is broken or outside the device.
    #[error("instruction {index}: qubit {qubit} is not a usable qubit of the device")]
    BadQubit {
        /// The instruction.
        index: usize,
        /// The qubit.
        qubit: usize,
    },
    /// A gate on more than two qubits.
    #[error("instruction {index} acts on {qubits} qubits")]
    TooWide {
        /// The instruction.
        index: usize,
        /// Its qubit count.
        qubits: usize,
    },
    /// An operation after a measurement on a device without mid-circuit measurement.
    #[error("instruction {index}: qubit {qubit} is used after its measurement, but the device measures only at the end")]
    AfterMeasurement {
        /// The instruction.
        index: usize,
        /// The qubit.
        qubit: usize,
    },
    /// A bit measured on another qubit than the layout records.
    #[error("bit {clbit} is measured on qubit {found}, but the layout says {recorded}")]
    Layout {
        /// The bit.
        clbit: usize,
        /// Where the program measures it.
        found: usize,
        /// Where the layout says.
        recorded: usize,
    },
    /// A bit of the original program the routed one never writes (or writes twice).
    #[error("bit {clbit} is measured {times} times in the routed program (once in the original)")]
    Measurements {
        /// The bit.
        clbit: usize,
        /// How often.
        times: usize,
    },
}
