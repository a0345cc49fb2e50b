//! `festina test` end to end: the corpus in `tests/test_command/`.
//!
//! Each `tests/test_command/<name>.f` is run as `festina test <name>.f`
//! from that directory and compared with `<name>.out` (stdout, required),
//! `<name>.err` (stderr, empty when absent) and `<name>.exit` (the status,
//! 0 when absent). The directory `suite/` is run as `festina test suite`
//! (expectations `suite.*`) and `festina test --filter mul suite`
//! (`suite_filter.*`). A program's ordinary run (`festina <name>.f`) and
//! its bundle are covered by the golden corpus (`tests/programs/testing/`).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn festina() -> &'static str {
    env!("CARGO_BIN_EXE_festina")
}

fn corpus() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("..")
        .join("tests")
        .join("test_command")
}

/// Run `festina args` in the corpus directory; (stdout, stderr, status).
fn run(args: &[&str]) -> (String, String, i32) {
    let out = Command::new(festina())
        .args(args)
        .current_dir(corpus())
        .stdin(Stdio::null())
        .output()
        .expect("festina runs");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

/// The expectations `<stem>.out`, `.err`, `.exit`.
fn expected(stem: &str) -> (String, String, i32) {
    let dir = corpus();
    let read = |ext: &str| std::fs::read_to_string(dir.join(format!("{stem}.{ext}")));
    let out = read("out").unwrap_or_else(|e| panic!("{stem}.out: {e}"));
    let err = read("err").unwrap_or_default();
    let exit = read("exit")
        .ok()
        .map_or(0, |s| s.trim().parse().expect("a status in .exit"));
    (out, err, exit)
}

fn check(stem: &str, args: &[&str]) {
    let got = run(args);
    let want = expected(stem);
    assert_eq!(got.0, want.0, "stdout of festina {args:?}");
    assert_eq!(got.1, want.1, "stderr of festina {args:?}");
    assert_eq!(got.2, want.2, "status of festina {args:?}");
}

#[test]
fn every_program_reports_as_expected() {
    let mut names: Vec<String> = std::fs::read_dir(corpus())
        .expect("the corpus directory")
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".f"))
        .collect();
    names.sort();
    assert!(names.len() >= 5, "the corpus is there: {names:?}");
    for name in &names {
        let stem = name.trim_end_matches(".f");
        check(stem, &["test", name]);
    }
}

#[test]
fn a_directory_runs_every_test_file_with_one_summary() {
    check("suite", &["test", "suite"]);
}

#[test]
fn a_filter_keeps_only_matching_groups() {
    check("suite_filter", &["test", "--filter", "mul", "suite"]);
}

#[test]
fn an_ordinary_run_has_no_report_and_no_assertions() {
    let (out, err, status) = run(&["report_shape.f"]);
    assert_eq!(out, "hello\nduring\n");
    assert_eq!(err, "");
    assert_eq!(status, 0);
    // The bytecode of an ordinary build names no test native.
    let (listing, _, status) = run(&["report_shape.f", "--emit-bytecode"]);
    assert_eq!(status, 0);
    assert!(!listing.contains("test_"), "{listing}");
    let (listing, _, _) = run(&["operands.f", "--emit-bytecode"]);
    assert!(!listing.contains("test_"), "{listing}");
}

#[test]
fn usage_errors_and_missing_files() {
    let (_, err, status) = run(&["test"]);
    assert_eq!(status, 2);
    assert!(err.contains("no program given to test"), "{err}");
    let (_, err, status) = run(&["test", "no_such_file.f"]);
    assert_eq!(status, 2);
    assert!(err.contains("cannot read 'no_such_file.f'"), "{err}");
    let empty = std::env::temp_dir().join(format!("festina-test-empty-{}", std::process::id()));
    std::fs::create_dir_all(&empty).unwrap();
    let (_, err, status) = run(&["test", empty.to_str().unwrap()]);
    assert_eq!(status, 2);
    assert!(err.contains("no *_test.f files"), "{err}");
    let _ = std::fs::remove_dir_all(&empty);
}
