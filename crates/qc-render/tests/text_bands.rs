//! Text drawings cut into bands (`TextOptions::width`): every line fits the page unless one
//! column is wider, and joining the bands back row by row gives exactly the drawing in one band:
//! nothing is lost, repeated or reordered, and no cut runs through a column.

use qc_ir::Circuit;
use qc_render::layout::{Annotations, Section};
use qc_render::text_circuit::{draw_annotated, draw_bands, draw_with, TextOptions};

fn chars(s: &str) -> usize {
    s.chars().count()
}

/// A pseudo-random circuit of `len` instructions on `n` wires: gates with controls of both
/// polarities, measurements and conditioned gates, so that columns differ in width and the
/// spacer rows carry vertical lines and `if` labels; a section every few instructions.
fn random_circuit(seed: u64, n: usize, len: usize) -> (Circuit, Annotations) {
    let mut state = seed
        .wrapping_mul(6364136223846793005)
        .wrapping_add(1442695040888963407);
    let mut next = |m: usize| {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((state >> 33) as usize) % m
    };
    let names: Vec<String> = (0..n).map(|k| format!("q{k}")).collect();
    let mut text = format!("qubits {}\n", names.join(" "));
    let mut clbits = 0;
    let mut sections = Vec::new();
    for i in 0..len {
        if i % 5 == 0 {
            sections.push(Section {
                start: i,
                label: format!("{}. move{}", i / 5 + 1, "x".repeat(next(12))),
            });
        }
        let a = next(n);
        let b = (a + 1 + next(n - 1)) % n;
        match next(6) {
            0 => text += &format!("h {}\n", names[a]),
            1 => text += &format!("ry(0.{}) {}\n", next(1000), names[a]),
            2 => text += &format!("iswap {}, {}\n", names[a], names[b]),
            3 => {
                let c = (b + 1 + next(n - 2)) % n;
                let c = if c == a { (c + 1) % n } else { c };
                if c != a && c != b {
                    text += &format!("x {} ctrl({}=1, {}=0)\n", names[a], names[b], names[c]);
                } else {
                    text += &format!("x {} ctrl({}=1)\n", names[a], names[b]);
                }
            }
            4 => {
                text += &format!("measure {} -> c{clbits}\n", names[a]);
                clbits += 1;
            }
            _ if clbits > 0 => {
                text += &format!(
                    "if c{}==1: siswap {}, {}\n",
                    next(clbits),
                    names[a],
                    names[b]
                )
            }
            _ => text += &format!("s {}\n", names[a]),
        }
    }
    let text = text.replacen("qubits", &format!("clbits {clbits}\nqubits"), 1);
    let circuit = qc_ir::text::parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let notes = Annotations {
        sections,
        ..Annotations::default()
    };
    (circuit, notes)
}

/// Joins the bands back: row k of the result is the wire-name prefix, then row k of each band
/// without its prefix, padded to the band's width (its wire rows are never trimmed short).
/// A band may leave out the last spacer row (it has no text there): it counts as blank.
fn join(bands: &[String], prefix: usize, skip_header: bool) -> Vec<String> {
    let rows: Vec<Vec<&str>> = bands.iter().map(|b| b.lines().collect()).collect();
    let height = rows.iter().map(Vec::len).max().unwrap_or(0);
    let first = usize::from(skip_header);
    let mut out = Vec::new();
    for k in first..height {
        let mut line: String = rows[0]
            .get(k)
            .copied()
            .unwrap_or("")
            .chars()
            .take(prefix)
            .collect();
        line = format!("{line:prefix$}");
        for band in &rows {
            // The band's width: its first wire row runs to the last column.
            let band_width = chars(band[first]) - prefix;
            let part: String = band
                .get(k)
                .copied()
                .unwrap_or("")
                .chars()
                .skip(prefix)
                .collect();
            line.push_str(&format!("{part:band_width$}"));
        }
        out.push(line.trim_end().to_string());
    }
    out
}

fn check(circuit: &Circuit, notes: &Annotations, page: usize) {
    let whole = draw_bands(circuit, notes, None).expect("a drawing");
    assert_eq!(whole.len(), 1);
    let bands = draw_bands(circuit, notes, Some(page)).expect("a drawing");
    let has_header = !notes.sections.is_empty();
    let first_wire = whole[0]
        .lines()
        .nth(usize::from(has_header))
        .expect("a wire");
    let prefix = chars(&first_wire[..first_wire.find(": ─").expect("a wire name")]) + 3;
    for band in &bands {
        let lines: Vec<&str> = band.lines().collect();
        let widest = lines.iter().map(|l| chars(l)).max().unwrap_or(0);
        if widest > page {
            // Only a band of one column may be wider than the page.
            let wire = lines[usize::from(has_header)];
            let boxes = wire.matches('[').count() + wire.matches('●').count();
            assert!(
                widest - prefix <= chars(wire) - prefix && boxes <= 1,
                "{band}"
            );
        }
    }
    let want: Vec<String> = whole[0]
        .lines()
        .skip(usize::from(has_header))
        .map(str::to_string)
        .collect();
    let joined = join(&bands, prefix, has_header);
    for (k, (a, b)) in joined.iter().zip(&want).enumerate() {
        assert_eq!(a, b, "row {k}, page {page}");
    }
    assert_eq!(joined, want, "page {page}:\n{}", bands.join("\n"));
    if has_header {
        // Every move's label is in some band's header.
        for s in &notes.sections {
            assert!(
                bands
                    .iter()
                    .any(|b| b.lines().next().unwrap_or("").contains(&s.label)),
                "{} missing",
                s.label
            );
        }
    }
    // One band, the note under it: what draw_annotated gives.
    assert_eq!(
        draw_with(circuit, notes, TextOptions { width: None }).expect("a drawing"),
        draw_annotated(circuit, notes).expect("a drawing")
    );
}

#[test]
fn bands_fit_the_page_and_join_back_into_the_whole_drawing() {
    for seed in 0..20 {
        let (circuit, notes) = random_circuit(seed, 3 + (seed as usize % 5), 40 + seed as usize);
        for page in [30, 60, 80, 120] {
            check(&circuit, &notes, page);
            check(&circuit, &Annotations::default(), page);
        }
    }
}

#[test]
fn cuts_fall_between_moves_when_a_band_can_end_there() {
    let (circuit, notes) = random_circuit(7, 4, 60);
    for band in draw_bands(&circuit, &notes, Some(100)).expect("a drawing") {
        // Each band starts with a move's label at its first column (a whole move), unless the
        // move before it did not fit on a page of its own.
        let header = band.lines().next().unwrap_or("");
        let label = header.trim_start_matches([' ', '┊']);
        assert!(label.starts_with(|c: char| c.is_ascii_digit()), "{band}");
    }
    let whole = draw_bands(&circuit, &notes, None).expect("a drawing");
    let bands = draw_bands(&circuit, &notes, Some(100)).expect("a drawing");
    assert!(
        bands.len() > 1,
        "the drawing is {} wide",
        chars(whole[0].lines().nth(1).unwrap_or(""))
    );
    let labels: usize = bands
        .iter()
        .map(|b| b.lines().next().unwrap_or("").matches(". move").count())
        .sum();
    assert_eq!(
        labels,
        notes.sections.len(),
        "each move labelled once: no move was cut"
    );
}
