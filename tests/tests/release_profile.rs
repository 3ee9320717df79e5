//! The shipped binary is lean: the release profile builds without debug info and strips what the
//! standard library brings (a 36 MB `qchess` became 6.9 MB), and debug info lives only in the
//! `profiling` profile (`cargo build --profile profiling`, for perf and callgrind).

fn profiles() -> toml::Table {
    let manifest = include_str!("../../Cargo.toml");
    let root: toml::Table = manifest.parse().expect("the workspace manifest parses");
    root["profile"]
        .as_table()
        .expect("a [profile] section")
        .clone()
}

/// Cargo's `debug` setting as a level: `false`/`0`/`"none"` is 0, `true`/`2`/`"full"` is 2.
fn debug_level(profile: &toml::Table) -> i64 {
    match profile.get("debug") {
        None => 0,
        Some(toml::Value::Boolean(on)) => i64::from(*on) * 2,
        Some(toml::Value::Integer(level)) => *level,
        Some(toml::Value::String(name)) => match name.as_str() {
            "none" => 0,
            "line-directives-only" | "line-tables-only" | "limited" => 1,
            _ => 2,
        },
        Some(other) => panic!("unexpected debug setting {other}"),
    }
}

#[test]
fn release_has_no_debug_info_and_profiling_has_line_tables() {
    let profiles = profiles();
    let release = profiles["release"].as_table().expect("[profile.release]");
    assert_eq!(
        debug_level(release),
        0,
        "[profile.release] must not keep debug info"
    );
    let strip = release.get("strip").and_then(toml::Value::as_str);
    assert!(
        matches!(strip, Some("debuginfo" | "symbols")),
        "[profile.release] must strip the standard library's debug info, found {strip:?}"
    );
    let profiling = profiles["profiling"]
        .as_table()
        .expect("[profile.profiling]");
    assert_eq!(
        profiling.get("inherits").and_then(toml::Value::as_str),
        Some("release")
    );
    assert!(
        debug_level(profiling) >= 1,
        "[profile.profiling] keeps line tables"
    );
}
