//! The tag line `[Name "value"]`: one reader and one writer for every ruleset's game files, so
//! that the same escapes read back in both and a malformed line gets the same problem in both.

use qc_rules::niels::error::{GameFileProblem, NielsError};
use qc_rules::niels::record::NielsRecord;
use qc_rules::ruleset::{leading_tags, TagProblem};
use qc_rules::{GameErrorKind, GameRecord, NotationError, Tag};

/// A value with every character the writer escapes, and a `]` that must not end the tag.
const AWKWARD: &str = r#"say "hi" ] to C:\dir\ and \"this\""#;

#[test]
fn an_escaped_value_round_trips_in_both_rulesets() {
    let tags = vec![Tag::new("Event", AWKWARD), Tag::new("Site", "")];

    let cantwell = GameRecord {
        tags: tags.clone(),
        ..GameRecord::default()
    };
    let written = cantwell.to_string();
    assert!(written.contains(r#"[Event "say \"hi\" ] to C:\\dir\\ and \\\"this\\\""]"#));
    let read = GameRecord::parse(&written).expect("Cantwell's file reads back");
    assert_eq!(read.tags, tags, "{written}");

    let written = NielsRecord::write(&tags, "1. e2e4");
    let read = NielsRecord::parse(&written).expect("Niel's file reads back");
    assert_eq!(read.tags, tags, "{written}");

    // What one ruleset writes, the other reads.
    let read = NielsRecord::parse(&cantwell.to_string()).expect("Niel's reads Cantwell's tags");
    assert_eq!(read.tags, tags);
}

/// The line, column and shared problem of Cantwell's error for `text`.
fn cantwell_problem(text: &str) -> (usize, usize, TagProblem) {
    match GameRecord::parse(text) {
        Err(NotationError::GameFile {
            line,
            column,
            kind: GameErrorKind::BadTag(problem),
        }) => (line, column, problem),
        other => panic!("expected a bad tag from Cantwell's reader, got {other:?} for {text:?}"),
    }
}

/// The line, column and shared problem of Niel's error for `text`.
fn niels_problem(text: &str) -> (usize, usize, TagProblem) {
    match NielsRecord::parse(text) {
        Err(NielsError::GameFile {
            line,
            column,
            problem: GameFileProblem::Tag(problem),
        }) => (line, column, problem),
        other => panic!("expected a bad tag from Niel's reader, got {other:?} for {text:?}"),
    }
}

#[test]
fn a_malformed_tag_line_gets_the_same_problem_in_both_rulesets() {
    let cases = [
        ("[ \"x\"]", TagProblem::NoName { column: 3 }),
        ("[Event x]", TagProblem::NoValue { column: 8 }),
        ("[Event \"x]", TagProblem::UnclosedValue { column: 11 }),
        ("  [Event \"a\\q\"]", TagProblem::BadEscape { column: 13 }),
        (
            "[Event \"x\" junk]",
            TagProblem::NoClosingBracket { column: 12 },
        ),
        (
            "[Event\t\"x\" ",
            TagProblem::NoClosingBracket { column: 12 },
        ),
    ];
    for (line, problem) in cases {
        // On the second line, after a good tag: the line and column are the file's.
        let text = format!("[Site \"here\"]\n{line}\n1. e2e4\n");
        let expected = (2, problem.column(), problem);
        assert_eq!(cantwell_problem(&text), expected, "Cantwell's, {line:?}");
        assert_eq!(niels_problem(&text), expected, "Niel's, {line:?}");
    }
    // The message says what was expected, where.
    let (_, _, problem) = niels_problem("[Event x]");
    let message = NielsRecord::parse("[Event x]")
        .expect_err("bad")
        .to_string();
    assert_eq!(
        message,
        format!("Niel's game file line 1, column 8: bad tag: {problem}")
    );
    assert_eq!(
        problem.to_string(),
        "expected a value in double quotes `\"...\"` after the tag name"
    );
}

#[test]
fn a_tag_line_reads_alone_or_before_more_text() {
    let (tag, taken) = Tag::parse_prefix("[Event \"x\"] 1. e2e4").expect("a tag");
    assert_eq!((tag, taken), (Tag::new("Event", "x"), 11));
    assert_eq!(
        Tag::parse_line("\t[ Round  \"3\" ]  "),
        Ok(Tag::new("Round", "3"))
    );
    assert_eq!(
        Tag::parse_line("[Event \"x\"] 1. e2e4"),
        Err(TagProblem::TrailingText { column: 13 })
    );
    assert_eq!(
        Tag::parse_line("Event \"x\""),
        Err(TagProblem::NoOpeningBracket { column: 1 })
    );
}

#[test]
fn leading_tags_stop_at_the_first_other_line() {
    let text = "; a comment\n[Event \"a \\\"b\\\"\"]\n\n[Variant x]\n[Site\"s\"]\n1. e2e4\n[FEN \"late\"]\n";
    let tags: Vec<_> = leading_tags(text).collect();
    assert_eq!(
        tags,
        [
            Ok(Tag::new("Event", "a \"b\"")),
            Err(TagProblem::NoValue { column: 10 }),
            Ok(Tag::new("Site", "s")),
        ]
    );
}
