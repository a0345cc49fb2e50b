//! Expectation tests: every `parser_data/*.f` is parsed and its tree dump
//! compared with the `.tree` file beside it. Run with `UPDATE_EXPECT=1` to
//! (re)write the expectations.

use std::fs;
use std::path::{Path, PathBuf};

use festina_compiler::parsing::parse;

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/parser_data")
}

fn cases() -> Vec<PathBuf> {
    let mut files: Vec<PathBuf> = fs::read_dir(data_dir())
        .expect("parser_data directory")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "f"))
        .collect();
    files.sort();
    files
}

#[test]
fn tree_expectations() {
    let update = std::env::var_os("UPDATE_EXPECT").is_some_and(|v| v == "1");
    let mut failures = Vec::new();
    let files = cases();
    assert!(
        files.len() >= 25,
        "expected at least 25 cases, found {}",
        files.len()
    );
    for path in files {
        let text = fs::read_to_string(&path).expect("readable case");
        let parse = parse(&text);
        assert_eq!(
            parse.syntax_node().text().to_string(),
            text,
            "round trip of {path:?}"
        );
        let actual = parse.debug_dump();
        let expect_path = path.with_extension("tree");
        if update {
            fs::write(&expect_path, &actual).expect("write expectation");
            continue;
        }
        match fs::read_to_string(&expect_path) {
            Ok(expected) if expected == actual => {}
            Ok(_) => failures.push(format!("{}: tree differs", path.display())),
            Err(_) => failures.push(format!(
                "{}: missing .tree (run with UPDATE_EXPECT=1)",
                path.display()
            )),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Cases whose name starts with `err_` must report errors; all others
/// must parse cleanly.
#[test]
fn error_cases_report_errors() {
    for path in cases() {
        let text = fs::read_to_string(&path).expect("readable case");
        let errors = parse(&text).errors;
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        if name.starts_with("err_") {
            assert!(!errors.is_empty(), "{name}: expected errors");
        } else {
            assert!(errors.is_empty(), "{name}: unexpected errors {errors:?}");
        }
    }
}
