//! Every exported program of the game corpus (every move case and the seeded random games, each
//! with its final board measured) parses with the Rust `oq3_semantics` parser without errors, in
//! the dynamic and deferred forms and for the `ibm` target.

use qc_export::{export_for_target, export_qasm3, ExportOptions, Form, Target};
use qchess_tests::corpus::corpus;

fn assert_parses(name: &str, text: &str) {
    let result = oq3_semantics::syntax_to_semantics::parse_source_string(
        text,
        Some("game.qasm"),
        None::<&[&str]>,
    );
    assert!(
        !result.any_errors(),
        "{name}: oq3_semantics reports errors\n{text}"
    );
}

#[test]
fn every_exported_game_parses_with_oq3_semantics() {
    let backends = concat!(env!("CARGO_MANIFEST_DIR"), "/../backends");
    let ibm = Target::load(std::path::Path::new(backends), "ibm").expect("the ibm target");
    let games = corpus().expect("the corpus plays");
    assert!(games.len() >= 20, "the corpus has {} games", games.len());
    for game in &games {
        let measured = game.measured_circuit();
        for form in [Form::Dynamic, Form::Deferred] {
            let options = ExportOptions {
                form,
                ..ExportOptions::default()
            };
            let e = export_qasm3(&measured.circuit, &measured.outcomes, &options).expect("export");
            assert_parses(&format!("{} {form:?}", game.name), &e.text);
        }
        let e = export_for_target(
            &measured.circuit,
            &measured.outcomes,
            &ExportOptions::default(),
            &ibm,
        )
        .expect("ibm export");
        assert_parses(&format!("{} ibm", game.name), &e.text);
    }
}
