//! The qchess gate library as OpenQASM text: modifier-free, phase-exact definitions of every gate
//! that `stdgates.inc` lacks (`sxdg`, the iSWAP family and its controlled forms, `c3x`).
//!
//! The definitions are data in qc-ir's gate table ([`qc_ir::gate_data::LIBRARY`], in dependency
//! order); this module only writes them, naming each body step the way the exporter names a
//! call ([`crate::lower::named_call`]). A program includes only the definitions it uses (and what
//! they call). The table's tests check every body against the exact matrices.

use crate::lower::named_call;
use qc_ir::angle::format_angle;
use qc_ir::gate_data::{LibraryGate, LIBRARY};

/// The `gate name a, b { ... }` text of a library gate.
pub fn text(def: &LibraryGate) -> String {
    let mut body = String::new();
    for step in def.body {
        let positions: Vec<usize> = step.controls.iter().chain(step.targets).copied().collect();
        let (name, params) = named_call(step.gate, step.controls.len())
            .expect("library bodies only call gates the exporter can name");
        body.push(' ');
        body.push_str(name);
        if !params.is_empty() {
            let p: Vec<String> = params.iter().map(|a| format_angle(*a)).collect();
            body.push_str(&format!("({})", p.join(", ")));
        }
        let args: Vec<&str> = positions.iter().map(|&k| def.operands[k]).collect();
        body.push_str(&format!(" {};", args.join(", ")));
    }
    format!("gate {} {} {{{body} }}", def.name, def.operands.join(", "))
}

/// `rzz` is in `qelib1.inc` but not in `stdgates.inc`, and its angle is a parameter (library
/// bodies have constant angles), so OpenQASM 3 output defines it with this text: exact
/// including global phase (`cx a, b; rz(t) b; cx a, b` = `exp(-i t/2 Z(x)Z)`).
pub const RZZ_DEFINITION: &str = "gate rzz(theta) a, b { cx a, b; rz(theta) b; cx a, b; }";

/// The library gate called `name`, if there is one.
pub fn definition(name: &str) -> Option<&'static LibraryGate> {
    LIBRARY.iter().copied().find(|d| d.name == name)
}

/// The library gates a body calls.
fn deps(def: &LibraryGate) -> impl Iterator<Item = &'static LibraryGate> + '_ {
    def.body.iter().filter_map(|step| {
        named_call(step.gate, step.controls.len()).and_then(|(name, _)| definition(name))
    })
}

/// The definitions needed for the gate names in `used` (with dependencies), in library order.
pub fn needed<'a>(used: impl IntoIterator<Item = &'a str>) -> Vec<&'static LibraryGate> {
    let mut want: Vec<&str> = Vec::new();
    let mut stack: Vec<&'static LibraryGate> = used.into_iter().filter_map(definition).collect();
    while let Some(def) = stack.pop() {
        if !want.contains(&def.name) {
            want.push(def.name);
            stack.extend(deps(def));
        }
    }
    LIBRARY
        .iter()
        .copied()
        .filter(|d| want.contains(&d.name))
        .collect()
}
