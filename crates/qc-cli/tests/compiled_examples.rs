//! The compiled OpenQASM 3 beside every example game (`circuits/**/NAME.qcg` -> `NAME.qasm`) is
//! exactly what `qchess compile NAME.qcg` writes now; a stale or missing file fails. Regenerate
//! with `QCHESS_BLESS=1 cargo test -p qc-cli --test compiled_examples`.

use std::path::{Path, PathBuf};
use std::process::Command;

fn root() -> PathBuf {
    PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../.."))
}

/// Files under `dir` (recursively) with extension `ext`.
fn files(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).expect("circuits/ is readable") {
        let path = entry.expect("directory entry").path();
        if path.is_dir() {
            files(&path, ext, out);
        } else if path.extension().is_some_and(|e| e == ext) {
            out.push(path);
        }
    }
}

#[test]
fn every_example_game_has_its_compiled_qasm_beside_it() {
    let bless = std::env::var_os("QCHESS_BLESS").is_some_and(|v| v == "1");
    let mut games = Vec::new();
    files(&root().join("circuits"), "qcg", &mut games);
    games.sort();
    assert!(games.len() >= 5, "examples found: {games:?}");
    let mut stale = Vec::new();
    for game in &games {
        let rel = game.strip_prefix(root()).expect("under the repository");
        let out = Command::new(env!("CARGO_BIN_EXE_qchess"))
            .arg("compile")
            .arg(rel)
            .current_dir(root())
            .output()
            .expect("the qchess binary runs");
        assert!(
            out.status.success(),
            "{}: {}",
            rel.display(),
            String::from_utf8_lossy(&out.stderr)
        );
        let fresh = String::from_utf8(out.stdout).expect("UTF-8 output");
        assert!(fresh.starts_with("OPENQASM 3.0;"), "{}", rel.display());
        let qasm = game.with_extension("qasm");
        if bless {
            std::fs::write(&qasm, &fresh).expect("write the compiled example");
        } else if std::fs::read_to_string(&qasm).ok().as_deref() != Some(fresh.as_str()) {
            stale.push(
                qasm.strip_prefix(root())
                    .unwrap_or(&qasm)
                    .display()
                    .to_string(),
            );
        }
    }
    // A compiled file whose game is gone is stale too.
    let mut compiled = Vec::new();
    files(&root().join("circuits"), "qasm", &mut compiled);
    for qasm in compiled {
        // Only programs qchess compiled (their header says so) belong to a game; a user's
        // circuit such as teleport.qasm stands alone.
        let compiled_by_qchess = std::fs::read_to_string(&qasm)
            .map(|text| text.contains("qchess-export"))
            .unwrap_or(true);
        if compiled_by_qchess && !qasm.with_extension("qcg").exists() {
            if bless {
                std::fs::remove_file(&qasm).expect("remove an orphaned compiled example");
            } else {
                stale.push(
                    qasm.strip_prefix(root())
                        .unwrap_or(&qasm)
                        .display()
                        .to_string(),
                );
            }
        }
    }
    assert!(
        stale.is_empty(),
        "stale or missing compiled examples: {}\nregenerate with \
         `QCHESS_BLESS=1 cargo test -p qc-cli --test compiled_examples` and commit the result",
        stale.join(", ")
    );
}

/// `--no-optimize` writes the moves' gates as lowered; by default the passes merge the 0- and the
/// 1-controlled iSWAP of a split slide's two path cases (same control, same targets) into the
/// iSWAP they add up to: `|0><0| (x) iSWAP + |1><1| (x) iSWAP = I (x) iSWAP`.
#[test]
fn no_optimize_keeps_the_redundant_pair_the_passes_remove() {
    let compile = |extra: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_qchess"))
            .args(["compile", "circuits/tour/13_split_slide_path.qcg"])
            .args(extra)
            .current_dir(root())
            .output()
            .expect("the qchess binary runs");
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).expect("UTF-8 output")
    };
    let plain = compile(&["--no-optimize"]);
    assert!(plain.contains("\nnciswap q[3], q[0], q[1];\nciswap q[3], q[0], q[1];\n"));
    let optimised = compile(&[]);
    assert!(optimised.contains("\niswap q[0], q[1];\n"), "{optimised}");
    assert!(!optimised.contains("ciswap q[3]"), "{optimised}");
}
