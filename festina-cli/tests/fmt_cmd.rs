//! `festina fmt` as a user runs it: rewriting files and directories,
//! `--check`, standard input, and files with syntax errors; and the
//! repository's own examples, which must already be in the canonical
//! style.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn festina() -> Command {
    Command::new(env!("CARGO_BIN_EXE_festina"))
}

fn run(args: &[&str], dir: &Path) -> Output {
    festina()
        .args(args)
        .current_dir(dir)
        .output()
        .expect("festina runs")
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

/// A fresh directory under the target directory's temporary folder.
fn scratch(name: &str) -> PathBuf {
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("fmt_cmd_{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

#[test]
fn rewrites_files_and_directories_in_place() {
    let dir = scratch("rewrite");
    std::fs::create_dir_all(dir.join("sub/.hidden")).unwrap();
    std::fs::write(dir.join("a.f"), "int  x=1\nlog( x )\n").unwrap();
    std::fs::write(dir.join("sub/b.f"), "log(1);log(2)").unwrap();
    std::fs::write(dir.join("sub/.hidden/c.f"), "log( 3 )").unwrap();
    std::fs::write(dir.join("sub/notes.txt"), "log( 3 )").unwrap();
    let out = run(&["fmt", "a.f", "sub"], &dir);
    assert_eq!(out.status.code(), Some(0), "{}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "");
    assert_eq!(
        std::fs::read_to_string(dir.join("a.f")).unwrap(),
        "int x = 1\nlog(x)\n"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("sub/b.f")).unwrap(),
        "log(1)\nlog(2)\n"
    );
    // Hidden directories and other files are left alone.
    assert_eq!(
        std::fs::read_to_string(dir.join("sub/.hidden/c.f")).unwrap(),
        "log( 3 )"
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("sub/notes.txt")).unwrap(),
        "log( 3 )"
    );
    // A second run changes nothing.
    let again = run(&["fmt", "--check", "."], &dir);
    assert_eq!(again.status.code(), Some(0), "{}", text(&again.stdout));
}

#[test]
fn check_lists_the_files_that_would_change_and_changes_nothing() {
    let dir = scratch("check");
    std::fs::write(dir.join("good.f"), "int x = 1\n").unwrap();
    std::fs::write(dir.join("bad.f"), "int x=1\n").unwrap();
    std::fs::write(dir.join("worse.f"), "log(1);log(2)\n").unwrap();
    let out = run(&["fmt", "--check", "."], &dir);
    assert_eq!(out.status.code(), Some(1));
    assert_eq!(text(&out.stdout), "./bad.f\n./worse.f\n");
    assert!(
        text(&out.stderr).contains("run `festina fmt FILE...`"),
        "{}",
        text(&out.stderr)
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("bad.f")).unwrap(),
        "int x=1\n"
    );
    let one = run(&["fmt", "--check", "good.f"], &dir);
    assert_eq!(one.status.code(), Some(0));
    assert_eq!(text(&one.stdout), "");
}

#[test]
fn syntax_errors_are_reported_as_the_compiler_reports_them() {
    let dir = scratch("syntax");
    let source = "int x = (1 +\nlog(x)\n";
    std::fs::write(dir.join("broken.f"), source).unwrap();
    std::fs::write(dir.join("fine.f"), "log( 1 )\n").unwrap();
    let fmt = run(&["fmt", "broken.f", "fine.f"], &dir);
    let check = run(&["check", "broken.f"], &dir);
    assert_eq!(fmt.status.code(), Some(2));
    assert!(
        text(&fmt.stderr).starts_with("broken.f:2:7: error: expected ')'"),
        "{}",
        text(&fmt.stderr)
    );
    assert_eq!(text(&fmt.stderr), text(&check.stderr));
    // The broken file is untouched; the other one is still formatted.
    assert_eq!(
        std::fs::read_to_string(dir.join("broken.f")).unwrap(),
        source
    );
    assert_eq!(
        std::fs::read_to_string(dir.join("fine.f")).unwrap(),
        "log(1)\n"
    );
    let missing = run(&["fmt", "nope.f"], &dir);
    assert_eq!(missing.status.code(), Some(2));
    assert!(text(&missing.stderr).contains("cannot read 'nope.f'"));
}

#[test]
fn standard_input_to_standard_output() {
    let mut child = festina()
        .args(["fmt", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("festina runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"if true{log( 1 )}")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    assert_eq!(text(&out.stdout), "if true { log(1) }\n");
}

/// The examples are in the canonical style. When this fails after you add
/// or edit an example, format it: `festina fmt examples/` (or, without
/// `festina` on the PATH, `cargo run -p festina-cli -- fmt examples/`).
#[test]
fn the_examples_are_formatted() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let out = run(&["fmt", "--check", "examples/"], &root);
    assert!(
        out.status.code() == Some(0),
        "these examples are not in the canonical style (docs/style.md):\n{}\
         format them with `festina fmt examples/` \
         (or `cargo run -p festina-cli -- fmt examples/`)\n{}",
        text(&out.stdout),
        text(&out.stderr)
    );
}
