//! OpenQASM export and import for qc-ir circuits (see README.md).
