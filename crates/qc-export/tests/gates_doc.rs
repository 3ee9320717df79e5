//! `docs/gates.md` is generated from the gate table and `backends/*.toml`; this fails when the
//! committed page is stale (`QCHESS_BLESS=1` rewrites it).

use qc_export::gate_docs::gates_markdown;
use qc_export::Target;
use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

#[test]
fn docs_gates_md_is_up_to_date() {
    let dir = root().join("backends");
    let mut names: Vec<String> = std::fs::read_dir(&dir)
        .expect("backends/ is readable")
        .filter_map(|e| {
            let path = e.ok()?.path();
            (path.extension()? == "toml").then(|| path.file_stem()?.to_str().map(str::to_owned))?
        })
        .collect();
    names.sort();
    let targets: Vec<Target> = names
        .iter()
        .map(|n| Target::load(&dir, n).unwrap_or_else(|e| panic!("{n}: {e}")))
        .collect();
    let fresh = gates_markdown(&targets);
    let path = root().join("docs/gates.md");
    if std::env::var_os("QCHESS_BLESS").is_some_and(|v| v == "1") {
        std::fs::write(&path, &fresh).expect("docs/gates.md is writable");
        return;
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == fresh,
        "docs/gates.md is stale: regenerate it with \
         `QCHESS_BLESS=1 cargo test -p qc-export --test gates_doc` and commit the result"
    );
}

/// Every gate kind has a row (the page enumerates the enum, not a hand-kept list).
#[test]
fn every_gate_has_a_row() {
    let page = gates_markdown(&[]);
    for kind in qc_ir::GateKind::ALL {
        assert!(
            page.contains(&format!("| `{}` |", kind.info().name)),
            "{kind:?}"
        );
    }
}
