//! Every library definition equals its gate's exact matrix, global phase included, and every
//! lowering of a controlled gate (portable and extended dialects) is exact on clean scratch qubits.

use qc_export::library::{needed, text as definition_text};
use qc_export::{export_qasm3, import_qasm3, Dialect, ExportOptions, Width};
use qc_ir::gate_data::LIBRARY;
use qc_ir::{Circuit, Control, Gate, Instruction, Matrix, Qubit};

/// The IR meaning of each library gate on qubits 0.. in call order.
fn meaning(name: &str) -> (u32, Instruction) {
    let q = Qubit;
    let two = |g: Gate| (2, Instruction::gate(g, &[q(0), q(1)], &[]));
    let ctl = |g: Gate, c: Control| (3, Instruction::gate(g, &[q(1), q(2)], &[c]));
    match name {
        "sxdg" => (1, Instruction::gate(Gate::SXdg, &[q(0)], &[])),
        "iswap" => two(Gate::ISwap),
        "iswapdg" => two(Gate::ISwapDg),
        "siswap" => two(Gate::SqrtISwap),
        "siswapdg" => two(Gate::SqrtISwapDg),
        "ecr" => two(Gate::Ecr),
        "ciswap" => ctl(Gate::ISwap, Control::one(q(0))),
        "nciswap" => ctl(Gate::ISwap, Control::zero(q(0))),
        "ciswapdg" => ctl(Gate::ISwapDg, Control::one(q(0))),
        "nciswapdg" => ctl(Gate::ISwapDg, Control::zero(q(0))),
        "csiswap" => ctl(Gate::SqrtISwap, Control::one(q(0))),
        "ncsiswap" => ctl(Gate::SqrtISwap, Control::zero(q(0))),
        "csiswapdg" => ctl(Gate::SqrtISwapDg, Control::one(q(0))),
        "ncsiswapdg" => ctl(Gate::SqrtISwapDg, Control::zero(q(0))),
        "c3x" => (
            4,
            Instruction::gate(
                Gate::X,
                &[q(3)],
                &[Control::one(q(0)), Control::one(q(1)), Control::one(q(2))],
            ),
        ),
        other => panic!("no meaning for `{other}`"),
    }
}

fn unitary_of(n: u32, instr: Instruction) -> Matrix {
    let mut c = Circuit::with_plain_qubits(n, 0);
    c.push(instr);
    c.unitary().expect("unitary")
}

#[test]
fn every_definition_is_exact_including_global_phase() {
    for def in LIBRARY {
        let (n, instr) = meaning(def.name);
        let mut text = String::from("OPENQASM 3.0;\ninclude \"stdgates.inc\";\n");
        for d in needed([def.name]) {
            text.push_str(&definition_text(d));
            text.push('\n');
        }
        let args: Vec<String> = (0..n).map(|i| format!("q[{i}]")).collect();
        text.push_str(&format!(
            "qubit[{n}] q;\n{} {};\n",
            def.name,
            args.join(", ")
        ));
        let got = import_qasm3(&text)
            .expect("import")
            .unitary()
            .expect("unitary");
        let want = unitary_of(n, instr);
        assert!(
            got.approx_eq(&want, 1e-12),
            "{}: max distance {}",
            def.name,
            got.max_distance(&want)
        );
    }
}

#[test]
fn the_library_contains_qchess_gates_inc_verbatim() {
    // The modifier-free gate library as it was measured on Qiskit, Aer and Braket (an independent copy).
    let spec = include_str!("data/qchess_gates.inc");
    let mut count = 0;
    for line in spec.lines().filter(|l| l.starts_with("gate ")) {
        let name = line.split_whitespace().nth(1).unwrap_or_default();
        let ours = LIBRARY
            .iter()
            .find(|d| d.name == name)
            .unwrap_or_else(|| panic!("{name} missing"));
        assert_eq!(definition_text(ours), line.trim_end(), "{name}");
        count += 1;
    }
    assert_eq!(count, 10);
}

#[test]
fn controlled_gates_of_any_polarity_are_exact() {
    let patterns: [&[bool]; 7] = [
        &[],
        &[true],
        &[false],
        &[true, false],
        &[false, false, true],
        &[true, true, false, true],
        &[false, true, true, false, true],
    ];
    for g in Gate::examples() {
        for pattern in patterns {
            if g.num_targets() == 2 && pattern.len() > 4 {
                continue;
            }
            let k = g.num_targets() as u32;
            let targets: Vec<Qubit> = (0..k).map(Qubit).collect();
            let controls: Vec<Control> = pattern
                .iter()
                .enumerate()
                .map(|(i, on)| {
                    let q = Qubit(k + i as u32);
                    if *on {
                        Control::one(q)
                    } else {
                        Control::zero(q)
                    }
                })
                .collect();
            let n = k + pattern.len() as u32;
            let instr = Instruction::gate(g, &targets, &controls);
            for dialect in [Dialect::Portable, Dialect::Extended] {
                let mut c = Circuit::with_plain_qubits(n, 0);
                c.push(instr.clone());
                let e = export_qasm3(
                    &c,
                    &[],
                    &ExportOptions {
                        width: Width::Full,
                        dialect,
                        ..Default::default()
                    },
                )
                .expect("export");
                let back = import_qasm3(&e.text).unwrap_or_else(|err| panic!("{err}\n{}", e.text));
                let got = back.unitary().expect("unitary");
                let want = unitary_of(back.num_qubits() as u32, instr.clone());
                for col in 0..(1usize << n) {
                    for row in 0..got.dim() {
                        assert!(
                            (got.get(row, col) - want.get(row, col)).norm() < 1e-9,
                            "{g} {pattern:?} {dialect:?}\n{}",
                            e.text
                        );
                    }
                }
            }
        }
    }
}
