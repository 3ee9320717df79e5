//! The hardware targets are part of the binary: `--target ibm` works from a folder without
//! `backends/`, and `--backends-dir` adds targets or overrides bundled ones (issue 11).

mod common;

use common::{ok_stdout, root, temp_dir};
use std::path::Path;
use std::process::{Command, Output};

/// Runs `qchess args` in `dir`.
fn qchess_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_qchess"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the qchess binary runs")
}

fn game() -> String {
    root()
        .join("circuits/interference.qcg")
        .to_string_lossy()
        .into_owned()
}

#[test]
fn every_bundled_target_compiles_from_a_folder_without_backends_and_equals_its_file() {
    let empty = temp_dir("no-backends");
    assert!(!empty.join("backends").exists());
    let repo_backends = root().join("backends");
    let dir = repo_backends.to_string_lossy();
    for name in ["generic", "ibm", "google", "braket"] {
        let bundled = ok_stdout(&qchess_in(&empty, &["compile", &game(), "--target", name]));
        let from_file = ok_stdout(&qchess_in(
            &empty,
            &["compile", &game(), "--target", name, "--backends-dir", &dir],
        ));
        assert_eq!(bundled, from_file, "--target {name}");
    }
}

#[test]
fn backends_dir_overrides_a_bundled_target_and_adds_new_ones() {
    let dir = temp_dir("override-backends");
    let ibm = std::fs::read_to_string(root().join("backends/ibm.toml")).expect("ibm.toml");
    let small = ibm.replace("qubits = 156", "qubits = 2");
    assert_ne!(
        small, ibm,
        "backends/ibm.toml no longer says `qubits = 156`"
    );
    std::fs::write(dir.join("ibm.toml"), &small).expect("write");
    std::fs::write(
        dir.join("mine.toml"),
        ibm.replace("name = \"ibm\"", "name = \"mine\""),
    )
    .expect("write");
    let d = dir.to_string_lossy();
    let refused = qchess_in(
        &dir,
        &["compile", &game(), "--target", "ibm", "--backends-dir", &d],
    );
    assert_eq!(refused.status.code(), Some(2));
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(err.contains("target `ibm` has 2 qubits"), "{err}");
    let mine = ok_stdout(&qchess_in(
        &dir,
        &["compile", &game(), "--target", "mine", "--backends-dir", &d],
    ));
    assert!(mine.contains("\"target\":\"mine\""), "{mine}");
    // A bundled target the folder does not override is still there.
    ok_stdout(&qchess_in(
        &dir,
        &[
            "compile",
            &game(),
            "--target",
            "google",
            "--backends-dir",
            &d,
        ],
    ));
}

#[test]
fn an_unknown_target_names_the_folder_and_the_bundled_targets() {
    let dir = temp_dir("unknown-target");
    let d = dir.to_string_lossy();
    let out = qchess_in(
        &dir,
        &[
            "compile",
            &game(),
            "--target",
            "nosuch",
            "--backends-dir",
            &d,
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    for needle in [
        "unknown target `nosuch`",
        "no nosuch.toml in",
        "braket, generic, google, ibm, ibm_brisbane, ibm_fez, quantinuum_h2, rainbow, sycamore, weber, willow_pink",
    ] {
        assert!(err.contains(needle), "`{needle}` not in: {err}");
    }
}
