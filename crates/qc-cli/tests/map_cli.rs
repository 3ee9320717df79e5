//! `qchess compile --map FILE` writes the same board map whatever the format (`qasm3`, `qasm2`,
//! `ir`, `json`) and target: the map of the OpenQASM program, which is also the `map` in that
//! program's header (issue 11: "`--format json` and `--map FILE` give the same map").

mod common;

use common::{ok_stdout, qchess, temp_dir};
use serde_json::Value;

const GAME: &str = "circuits/notation_example.qcg";

fn header_map(program: &str) -> Value {
    let line = program
        .lines()
        .find_map(|l| l.strip_prefix("// qchess-export "))
        .expect("a qchess-export header");
    serde_json::from_str::<Value>(line).expect("header JSON")["map"].clone()
}

#[test]
fn every_format_and_target_writes_the_map_of_its_program_header() {
    let dir = temp_dir("maps");
    let map_of = |name: &str, options: &[&str]| -> (Value, String) {
        let path = dir.join(format!("{name}.map.json"));
        let path = path.to_str().expect("utf-8 path");
        let mut args = vec!["compile", GAME, "--map", path];
        args.extend_from_slice(options);
        let out = ok_stdout(&qchess(&args));
        let map = serde_json::from_str(&std::fs::read_to_string(path).expect("map written"))
            .expect("map JSON");
        (map, out)
    };
    let (qasm3, program) = map_of("qasm3", &[]);
    assert_eq!(qasm3, header_map(&program), "--map vs the header");
    assert!(qasm3["measured"].as_array().is_some_and(|m| !m.is_empty()));
    for (name, options) in [
        ("json", &["--format", "json"][..]),
        ("ir", &["--format", "ir"]),
        ("qasm2", &["--format", "qasm2"]),
        ("ibm", &["--target", "ibm"]),
    ] {
        let (map, out) = map_of(name, options);
        assert_eq!(map, qasm3, "--map with {options:?}");
        if name == "qasm2" || name == "ibm" {
            assert_eq!(header_map(&out), map, "{name}: header");
        }
    }
    // The deferred form (google has no feed-forward) reads the same squares; its header agrees.
    let (google, out) = map_of("google", &["--target", "google", "--format", "qasm2"]);
    assert_eq!(header_map(&out), google);
}
