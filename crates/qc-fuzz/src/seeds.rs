//! Seeds for each surface: the repository's example files (games, circuits, Niel's games), the
//! corpus folder (`corpus/<surface>/*`, regressions included) and a few built-in lines.

use crate::surfaces::Surface;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The repository root (two levels above this crate).
pub fn repository_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// This crate's corpus folder.
pub fn corpus_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("corpus")
}

const BUILT_IN: &[(Surface, &str)] = &[
    (Surface::Qcan, "b1^a3c3"),
    (Surface::Qcan, "a3c3^b1.m1"),
    (Surface::Qcan, "e7e8q"),
    (Surface::MoveList, "e2e4 b8^a6c6 g1f3 a6c6^b8 O-O e7e5.m0"),
    (
        Surface::Fen,
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    ),
    (Surface::Fen, "7k/8/8/8/8/8/8/K7 b - e3 99 4000"),
    (Surface::NielsMove, "b2^b3c3"),
    (Surface::NielsMove, "e1*e5[e1]"),
    (Surface::NielsFen, "rnbk/pppp/PPPP/RNBK w - - 0 1"),
    // The bundled interference counts in each format `qchess counts` reads.
    (Surface::Counts, "{\"0001\": 737, \"0010\": 248, \"1000\": 15}"),
    (Surface::Counts, "{\"counts\": {\"0001\": 737, \"0010\": 248, \"1000\": 15}}"),
    (
        Surface::Counts,
        "{\"measurement_counts\": {\"1000\": 737, \"0100\": 248, \"0001\": 15}, \"measured_qubits\": [0, 1, 2, 3]}",
    ),
    (Surface::Counts, "bits,count\n# a comment\n0001,737\n0010, 248\n1000,15\n"),
    (Surface::Counts, "{\"00 01\": 737, \"00 10\": 248, \"10 00\": 15}"),
    (Surface::Calibration, "{\"qubits\": [{\"qubit\": 0, \"p1_given_0\": 0.5, \"p0_given_1\": 0.5}]}"),
    (
        Surface::Uqci,
        "uci\nisready\nposition startpos moves e2e4 g8^f6h6\ngo infinite\nisready\nprobs\nmoves\nstop\n\
         go depth 2 movetime 100\nposition startpos moves e2e4 g8^f6h6 e4e5 h6g4 d2d3 g4xf2\nfen\n\
         go wtime 1000 btime 1000 winc 10 binc 10 movestogo 5\ncalcbell f6 g4\nstatus\nclaim\n\
         go searchmoves e1f2 d1h5\nundo\nsetoption name seed value 3\ngo\nquit\n",
    ),
    (Surface::Qasm3Semantics, "0"),
    (Surface::Qasm3Semantics, "ry(1/2*pi)"),
    (Surface::Route, "0"),
    (Surface::Route, "ccx q[1], q[2], q[0]; cx q[2], q[3]; ccx q[2], q[1], q[0];"),
];

/// Files under `dir` (not recursive), sorted, as bytes.
fn files_in(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.is_file())
        .collect();
    paths.sort();
    paths
        .into_iter()
        .filter_map(|p| std::fs::read(&p).ok().map(|bytes| (p, bytes)))
        .collect()
}

fn with_extension(dirs: &[PathBuf], ext: &str) -> Vec<Vec<u8>> {
    dirs.iter()
        .flat_map(|d| files_in(d))
        .filter(|(p, _)| p.extension().is_some_and(|e| e == ext))
        .map(|(_, bytes)| bytes)
        .collect()
}

/// The example sessions of a document (docs/uqci.md): the commands (`> ` lines) of each
/// ```` ```text ```` block, one seed per block.
fn documented_sessions(path: &Path) -> Vec<Vec<u8>> {
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.split("```")
        .filter_map(|block| {
            let commands: String = block
                .lines()
                .filter_map(|l| l.strip_prefix("> "))
                .map(|c| format!("{c}\n"))
                .collect();
            (!commands.is_empty()).then(|| commands.into_bytes())
        })
        .collect()
}

/// The seeds of every surface (each surface has at least one).
pub fn seeds() -> BTreeMap<Surface, Vec<Vec<u8>>> {
    let root = repository_root();
    let circuits = vec![root.join("circuits"), root.join("circuits/tour")];
    let niels = vec![root.join("circuits/niels")];
    let games = with_extension(&circuits, "qcg");
    let ir = with_extension(&circuits, "qc");
    let qasm = with_extension(&circuits, "qasm");
    let niels_games = with_extension(&niels, "qng");
    let mut out: BTreeMap<Surface, Vec<Vec<u8>>> = BTreeMap::new();
    for surface in Surface::ALL {
        let from_files: Vec<Vec<u8>> = match surface {
            Surface::GameFile | Surface::Replay | Surface::MoveList => games.clone(),
            Surface::IrText | Surface::ExportImport => ir.clone(),
            Surface::Qasm => qasm.clone(),
            Surface::RunCircuit => ir.iter().chain(&qasm).cloned().collect(),
            Surface::NielsGameFile | Surface::NielsReplay => niels_games.clone(),
            Surface::Uqci => documented_sessions(&root.join("docs/uqci.md")),
            Surface::Counts => with_extension(&circuits[..1], "json")
                .into_iter()
                .filter(|b| !b.starts_with(b"{\"qubits\""))
                .collect(),
            Surface::Calibration => with_extension(&circuits[..1], "json")
                .into_iter()
                .filter(|b| b.starts_with(b"{\"qubits\""))
                .collect(),
            _ => Vec::new(),
        };
        let entry = out.entry(surface).or_default();
        entry.extend(from_files);
        let corpus = corpus_dir();
        for dir in [
            corpus.join(surface.name()),
            corpus.join("regressions").join(surface.name()),
        ] {
            entry.extend(files_in(&dir).into_iter().map(|(_, b)| b));
        }
        entry.extend(
            BUILT_IN
                .iter()
                .filter(|(s, _)| *s == surface)
                .map(|(_, text)| text.as_bytes().to_vec()),
        );
        if entry.is_empty() {
            entry.push(Vec::new());
        }
    }
    out
}
